"""The API's engine endpoints under the time budget (ANALYSIS_TIME_BUDGET): 503 with where it stopped."""

from itertools import count
from unittest import mock

from django.test import override_settings

from allocator.reading import deadline
from api.tests.base import APITestCase

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
"""
GPU_0 = {"driver": "gpu.example.com", "pool": "worker-1", "device": "gpu-0"}


def jumping_clock():
    ticks = count()
    return lambda: 100.0 * next(ticks)  # 0 when the budget starts, past it at the first look


@override_settings(ANALYSIS_TIME_BUDGET=7)
class TimeBudgetTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        patcher = mock.patch("allocator.reading.deadline.CLOCK", jumping_clock())
        patcher.start()
        self.addCleanup(patcher.stop)

    def assertOutOfTime(self, response, phase="reading"):
        [err] = self.assertErrors(response, 503, type="Service unavailable")
        self.assertEqual(err["detail"], f"The time budget of 7 s ran out while {phase}.")
        self.assertEqual((err["kind"], err["name"]), ("", ""))

    def test_analyze_validate_and_allocate(self):
        for path in ("/api/v1/analyze", "/api/v1/validate", "/api/v1/allocate"):
            with self.subTest(path):
                self.assertOutOfTime(self.post_json(path, {"documents": CLAIM, "inventory": "two-gpus"}))

    def test_capacity(self):
        self.assertOutOfTime(self.post_json("/api/v1/capacity", {"documents": CLAIM, "inventory": "two-gpus"}))

    def test_compare(self):
        side = {"inventory": "two-gpus"}
        self.assertOutOfTime(self.post_json("/api/v1/compare", {"documents": CLAIM, "left": side, "right": side}))

    def test_evaluate(self):
        r = self.post_json("/api/v1/evaluate", {"expression": "device.driver", "inventory": "two-gpus",
                                                "device": GPU_0})
        self.assertEqual(r.status_code, 503, r.content)
        self.assertIn("time budget of 7 s ran out", r.json()["errors"][0]["detail"])


@override_settings(ANALYSIS_TIME_BUDGET=7)
class TimeBudgetInTheSearchTestCase(APITestCase):
    def test_the_error_is_in_the_claim_the_search_was_on(self):
        def clock():  # runs out once the search is on a claim
            budget = deadline.current()
            return 100.0 if budget is not None and "claim" in budget.where else 0.0

        with mock.patch("allocator.reading.deadline.CLOCK", clock):
            r = self.post_json("/api/v1/analyze", {"documents": CLAIM, "inventory": "two-gpus"})
        [err] = self.assertErrors(r, 503, type="Service unavailable")
        self.assertIn("ran out while scheduling: node worker-1, claim default/gpu, request gpu", err["detail"])
        self.assertEqual((err["kind"], err["name"]), ("ResourceClaim", "gpu"))


class WithinBudgetTestCase(APITestCase):
    def test_the_default_budget_leaves_a_small_analysis_alone(self):
        r = self.post_json("/api/v1/analyze", {"documents": CLAIM, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
