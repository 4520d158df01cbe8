"""The time budget on the page's analyses (ANALYSIS_TIME_BUDGET): results, How many fit?, the console.

A fake clock that jumps past any budget on its second reading makes every analysis run out at its
first look, whatever the machine's speed.
"""

from itertools import count
from unittest import mock

from django.test import override_settings

from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX

CAPACITY = {"HX-Request": "true", "HX-Target": "capacity-result"}
CONSOLE = {"HX-Request": "true", "HX-Target": "console-result"}
GPU3 = "gpu.example.com/dra-example-driver-cluster-worker/gpu-3"


def jumping_clock():
    ticks = count()
    return lambda: 100.0 * next(ticks)  # 0 when the budget starts, past it at the first look


@override_settings(ANALYSIS_TIME_BUDGET=10)
class PageTimeBudgetTestCase(BaseTestCase):
    def setUp(self):
        patcher = mock.patch("allocator.reading.deadline.CLOCK", jumping_clock())
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_a_live_update_is_a_503_saying_what_ran_out_and_where(self):
        r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertEqual(r.status_code, 503)
        self.assertEqual(r["X-Time-Budget"], "exceeded")
        body = r.json()
        self.assertEqual(body["budgetSeconds"], 10)
        self.assertEqual(body["where"], {"phase": "reading"})
        self.assertEqual(body["error"], "time budget of 10 s ran out while reading")
        self.assertIn("Make the selector cheaper", body["advice"])

    def test_a_post_without_script_gets_the_editor_back_with_the_message(self):
        r = self.client.post("/", self.form_data())
        self.assertEqual(r.status_code, 503)
        self.assertContains(r, 'id="time-budget"', status_code=503)
        self.assertContains(r, "Stopped: the time budget of 10 s ran out while reading.", status_code=503)
        self.assertContains(r, "name: two-gpus", status_code=503)  # the editor keeps the input

    def test_how_many_fit_stops_too(self):
        r = self.client.post("/capacity", self.form_data(), headers=CAPACITY)
        self.assertEqual(r.status_code, 503)
        self.assertEqual(r.json()["where"]["phase"], "reading")

    def test_the_console_stops_too(self):
        r = self.client.post("/console", self.form_data(console_expression="device.driver", console_device=GPU3),
                             headers=CONSOLE)
        self.assertEqual(r.status_code, 503)
        self.assertIn("time budget of 10 s ran out", r.json()["error"])

    @override_settings(ANALYSIS_TIME_BUDGET=0)
    def test_zero_turns_it_off(self):
        r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Allocated")


class PageWithinBudgetTestCase(BaseTestCase):
    def test_the_default_budget_leaves_a_small_analysis_alone(self):
        r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertNotIn("X-Time-Budget", r)
