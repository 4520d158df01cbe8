"""The "How many fit?" panel (playground.capacity, views.capacity_run): htmx and plain posts, limits, state."""

import yaml
from django.core.cache import cache
from django.test import override_settings

from playground import capacity
from playground.models import Share
from playground.state import State, StateError
from playground.tests.base import BaseTestCase
from playground.tests.helpers import freeze_mid_minute

PANEL = {"HX-Request": "true", "HX-Target": "capacity-result"}


class CapacityViewTestCase(BaseTestCase):
    def test_htmx_gets_the_panel_s_answer_alone(self):
        r = self.client.post("/capacity", self.form_data(), headers=PANEL)
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, "<html")
        self.assertNotContains(r, 'id="result-summary"')
        # gpu-node has 8 GPUs on one node; each copy of count-two-gpus takes 2.
        self.assertContains(r, '<span id="capacity-placed">4</span> copies placed', html=False)
        self.assertContains(r, "copy 5 fits on no node")
        self.assertContains(r, '<svg role="img" aria-labelledby="capacity-chart-title capacity-chart-desc"', html=False)
        self.assertContains(r, '<title id="capacity-chart-title">')
        self.assertContains(r, '<table id="capacity-nodes"', html=False)
        self.assertContains(r, '<table id="capacity-pools"', html=False)
        self.assertContains(r, "<td><code>dra-example-driver-cluster-worker</code></td><td>4</td><td>8</td><td>8</td>",
                            html=False)
        self.assertContains(r, 'id="capacity-next"')

    def test_a_count_and_a_strategy(self):
        r = self.client.post("/capacity", self.form_data(capacity_max="2", capacity_strategy="pack"), headers=PANEL)
        self.assertContains(r, '<span id="capacity-placed">2</span> copies placed', html=False)
        self.assertContains(r, "(pack, 2 asked)")
        self.assertContains(r, "all the copies asked for fit")
        self.assertNotContains(r, 'id="capacity-next"')
        self.assertEqual(r.context["capacity"]["placed"], 2)

    def test_a_plain_post_gets_the_page_with_the_panel_s_answer(self):
        r = self.client.post("/capacity", self.form_data(capacity_max="3", capacity_strategy="spread"))
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<html")
        self.assertContains(r, 'id="result-summary"')
        self.assertContains(r, '<span id="capacity-placed">3</span> copies placed', html=False)
        # The panel's fields keep what was posted.
        self.assertContains(r, 'name="capacity_max" id="id_capacity_max" form="playground-form" inputmode="numeric"',
                            html=False)
        self.assertContains(r, 'value="3" placeholder="as many as fit"', html=False)
        self.assertContains(r, '<option value="spread" selected>', html=False)

    def test_the_page_has_the_panel_without_an_answer(self):
        r = self.client.get("/")
        self.assertContains(r, 'id="capacity-panel"')
        self.assertContains(r, "breaks ties at random")
        self.assertNotContains(r, 'id="capacity-summary"')

    def test_an_invalid_count_is_refused(self):
        for count in ("0", "-1", "1001", "many"):
            r = self.client.post("/capacity", self.form_data(capacity_max=count), headers=PANEL)
            self.assertEqual(r.status_code, 200, count)
            self.assertContains(r, 'id="capacity-errors"')
            self.assertContains(r, "Copies: ")
            self.assertNotContains(r, 'id="capacity-summary"')
        r = self.client.post("/capacity", self.form_data(capacity_max="1001"))
        self.assertEqual(r.status_code, 400)
        self.assertContains(r, "Nothing was analyzed", status_code=400)

    def test_an_unknown_strategy_is_refused(self):
        r = self.client.post("/capacity", self.form_data(capacity_strategy="random"), headers=PANEL)
        self.assertContains(r, "Node choice: Select a valid choice.")

    @override_settings(CAPACITY_MAX_COPIES=3)
    def test_as_many_as_fit_stops_at_the_site_s_cap(self):
        r = self.client.post("/capacity", self.form_data(), headers=PANEL)
        self.assertContains(r, '<span id="capacity-placed">3</span> copies placed', html=False)
        self.assertContains(r, "stopped at the site's maximum of 3 copies")

    def test_invalid_documents_say_why(self):
        r = self.client.post("/capacity", self.form_data(documents="kind: ResourceClaim\n"), headers=PANEL)
        self.assertContains(r, 'id="capacity-errors"')
        self.assertContains(r, "the workload or the inventory has a problem")

    def test_it_refuses_get(self):
        self.assertEqual(self.client.get("/capacity").status_code, 405)


@override_settings(PAGE_ANALYSES_PER_MINUTE=3, NUM_PROXIES=0)
class CapacityRateLimitTestCase(BaseTestCase):
    def setUp(self):
        cache.clear()
        self.addCleanup(cache.clear)
        freeze_mid_minute(self)

    def test_a_run_counts_as_two_analyses(self):
        self.assertEqual(self.client.post("/capacity", self.form_data(), headers=PANEL).status_code, 200)
        self.assertEqual(self.client.post("/", self.form_data()).status_code, 200)
        r = self.client.post("/capacity", self.form_data(), headers=PANEL)
        self.assertEqual(r.status_code, 429)
        self.assertContains(r, 'id="too-many"', status_code=429)


class CapacityStateTestCase(BaseTestCase):
    def test_the_defaults_leave_the_export_and_the_share_id_alone(self):
        state = self.example.state()
        self.assertNotIn("capacity", state.to_dict())
        self.assertEqual(state.content_id(), State.from_dict(state.to_dict()).content_id())
        data = yaml.safe_load(self.client.post("/export", self.form_data()).content)
        self.assertNotIn("capacity", data)

    def test_the_export_keeps_the_panel_and_import_restores_it(self):
        r = self.client.post("/export", self.form_data(capacity_max="7", capacity_strategy="spread"))
        data = yaml.safe_load(r.content)
        self.assertEqual(data["capacity"], {"max": 7, "strategy": "spread"})
        state = State.from_yaml(r.content.decode())
        self.assertEqual((state.capacity.max, state.capacity.strategy), (7, "spread"))
        self.assertNotEqual(state.content_id(), self.example.state().content_id())
        from django.core.files.uploadedfile import SimpleUploadedFile
        page = self.client.post("/import", {"state_file": SimpleUploadedFile("s.yaml", r.content)})
        self.assertContains(page, 'value="7" placeholder="as many as fit"', html=False)
        self.assertContains(page, '<option value="spread" selected>', html=False)

    def test_as_many_as_fit_with_another_strategy_round_trips(self):
        state = State.from_dict({**self.example.state().to_dict(), "capacity": {"max": None, "strategy": "pack"}})
        self.assertEqual(state.to_dict()["capacity"], {"max": None, "strategy": "pack"})
        self.assertEqual(State.from_yaml(state.to_yaml()), state)

    def test_a_share_keeps_the_panel(self):
        r = self.client.post("/share", self.form_data(capacity_max="5", capacity_strategy="pack"))
        share = Share.objects.get()
        self.assertEqual(share.capacity, {"max": 5, "strategy": "pack"})
        self.assertEqual((share.state().capacity.max, share.state().capacity.strategy), (5, "pack"))
        page = self.client.get(r["Location"])
        self.assertContains(page, 'value="5" placeholder="as many as fit"', html=False)
        self.assertContains(page, '<option value="pack" selected>', html=False)
        # The same state shares to the same link; another count to another.
        self.client.post("/share", self.form_data(capacity_max="5", capacity_strategy="pack"))
        self.assertEqual(Share.objects.count(), 1)
        self.client.post("/share", self.form_data(capacity_max="6", capacity_strategy="pack"))
        self.assertEqual(Share.objects.count(), 2)

    def test_bad_capacity_values_are_refused(self):
        base = self.example.state().to_dict()
        for bad in ("3", {"max": -1}, {"max": "3"}, {"max": True}, {"strategy": "random"}):
            with self.assertRaises(StateError, msg=bad):
                State.from_dict({**base, "capacity": bad})
        with self.assertRaises(StateError):
            State.from_dict({**base, "compare": {"capacity": {"max": 2}}})


class CapacityViewShapeTestCase(BaseTestCase):
    """playground.capacity.view: the chart's rows and the grouped reasons, on a made-up report."""

    def report(self, nodes: int, reasons: int) -> dict:
        return {"strategy": "first", "placed": 1, "stoppedBy": "no node fits", "error": "", "steps": [],
                "byNode": [{"name": f"n{i:02}", "copies": int(i == 30), "used": 2 * int(i == 30), "total": 4}
                           for i in range(nodes)],
                "byPool": [{"driver": "d", "pool": f"n{i:02}", "node": f"n{i:02}", "used": 2 * int(i == 30),
                            "total": 4} for i in range(nodes)],
                "next": {"reason": "no node fits", "nodes": [{"name": f"n{i:02}", "reason": f"r{i % reasons}"}
                                                             for i in range(nodes)]}}

    def test_the_chart_draws_the_rows_in_use_first_and_at_most_chart_rows(self):
        view = capacity.view(self.report(40, 2), 5)
        chart = view["chart"]
        self.assertEqual(len(chart["nodes"]), capacity.CHART_ROWS)
        self.assertEqual(chart["nodes"][0]["label"], "n30")
        self.assertEqual(chart["nodes"][0]["width"], capacity.BAR / 2)
        self.assertEqual(chart["pools"][0]["label"], "d / n30")
        self.assertEqual(chart["hidden_nodes"], 40 - capacity.CHART_ROWS)
        self.assertFalse(view["tableOpen"])
        self.assertEqual(len(view["nodes"]), 40)  # the table has them all

    def test_the_next_copy_s_reasons_are_grouped_commonest_first(self):
        view = capacity.view(self.report(30, 10), 5)
        groups = view["nextGroups"]
        self.assertEqual(len(groups), capacity.NEXT_GROUPS)
        self.assertEqual([g["count"] for g in groups], [3] * capacity.NEXT_GROUPS)
        self.assertEqual(view["nextOther"], {"reasons": 2, "nodes": 6})
        one = capacity.view(self.report(20, 1), 5)
        self.assertEqual(one["nextGroups"][0]["more"], 20 - capacity.NEXT_NODES)
        self.assertIsNone(one["nextOther"])


class CapacityRefusedCountTestCase(BaseTestCase):
    def test_a_live_edit_with_a_refused_count_keeps_the_panel_to_fix_it(self):
        r = self.client.post("/", self.form_data(capacity_max="9999"), headers={"HX-Request": "true",
                                                                               "HX-Target": "results"})
        self.assertContains(r, "Nothing was analyzed")
        self.assertContains(r, "Copies: Ensure this value is less than or equal to 1000.")
        self.assertContains(r, 'id="capacity-panel"')
        self.assertContains(r, 'value="9999" placeholder="as many as fit"', html=False)


class CapacityShareReadersTestCase(BaseTestCase):
    def test_the_api_s_share_and_the_embed_view(self):
        state = State.from_dict({**self.example.state().to_dict(), "capacity": {"max": 3, "strategy": "spread"}})
        share, _ = Share.objects.get_or_create_for(state)
        body = self.client.get(f"/api/v1/shares/{share.id}").json()
        self.assertEqual(body["capacity"], {"max": 3, "strategy": "spread"})
        # The embed view is read-only results: no panel (it has no form to post).
        embed = self.client.get(f"/s/{share.id}/embed")
        self.assertEqual(embed.status_code, 200)
        self.assertNotContains(embed, 'id="capacity-panel"')
