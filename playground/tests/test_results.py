"""The shaping of the engine's report for templates (playground.results, playground.picture)."""

from unittest.mock import patch

from django.test import SimpleTestCase

from allocator.engine import ObjectRow, RequestDevice, RequestView, analyze, read_inventory
from playground import picture, results
from playground.results import DIAGRAM_WIDTH, caret_window
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX


def with_requests(report_requests: list[RequestView]):
    """analyze as usual, with the contract's per-request explanation filled in."""

    def analyzed(**kwargs):
        report = analyze(**kwargs)
        report.requests = report_requests
        return report

    return analyzed


class ResultsTestCase(BaseTestCase):
    def test_it_counts_objects_and_notices_conversion(self):
        def row(kind: str, api_version: str, source: str) -> ObjectRow:
            return ObjectRow(kind=kind, name="x", namespace="", api_version=api_version, source=source, line=1)

        objects = [
            row("DeviceClass", "resource.k8s.io/v1beta1", "inventory"),
            row("DeviceClass", "resource.k8s.io/v1", "inventory"),
            row("Node", "v1", "inventory"),
            row("Pod", "v1", "documents"),
        ]
        summary = results.objects_summary(objects, "inventory")
        self.assertEqual([s["label"] for s in summary], ["2 DeviceClasses", "1 Node"])
        self.assertTrue(summary[0]["converted"])
        self.assertFalse(summary[1]["converted"])

    def test_it_colours_requests_in_allocation_order(self):
        ctx = results.context(self.example.state())
        self.assertEqual([(g.claim, g.request, g.color) for g in ctx["picture"].legend], [("two-gpus", "gpu", 0)])
        self.assertEqual([r["color"] for r in ctx["claims"][0]["results"]], [0, 0])
        self.assertIn("status:\n  allocation:", ctx["status_yaml"])

    def test_it_marks_tiles_with_grants_and_containers(self):
        example = self.example.__class__.objects.get(slug="per-container-requests")
        ctx = results.context(example.state())
        tiles = {t.name: t for n in ctx["picture"].nodes for p in n.pools for t in p.devices}
        self.assertEqual(tiles["gpu-0"].containers, ["trainer/trainer"])
        self.assertEqual(tiles["gpu-1"].containers, ["trainer/exporter"])
        self.assertEqual(tiles["gpu-1"].color, 1)
        self.assertIsNone(tiles["gpu-2"].color)
        self.assertIn("model: LATEST-GPU-MODEL", tiles["gpu-2"].title)

    def test_it_groups_network_attached_devices(self):
        slice_yaml = (
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n"
            "  driver: d.example.com\n  allNodes: true\n  pool:\n    name: p\n    generation: 0\n"
            "    resourceSliceCount: 1\n  devices:\n  - name: dev-0\n"
        )
        pic = picture.build(read_inventory("", slice_yaml), None)
        self.assertEqual([n.name for n in pic.nodes], [picture.ALL_NODES])
        self.assertTrue(pic.nodes[0].shared)
        self.assertEqual(pic.node_names, [])

    def test_it_survives_unreadable_inventory(self):
        pic = picture.build(read_inventory("kind: [", "a: ["), None)
        self.assertEqual(pic.nodes, [])

    def test_it_renders_matching_devices_per_request(self):
        def device(name: str, matches: bool, reason: str | None) -> RequestDevice:
            return RequestDevice(driver="gpu.example.com", pool="p", device=name, slice="s", node="n",
                                 matches=matches, chosen=False, taken_by=None, reason=reason, reason_code=None,
                                 why=None, reason_short=None)

        requests = [RequestView(claim="default/two-gpus", request="gpu", device_class="gpu.example.com",
                                mode="ExactCount", count=1, selected=None, error=None,
                                devices=[device("gpu-0", True, None),
                                         device("gpu-9", False, "selector #0 is false: <script>")])]
        with patch("playground.clusters.analyze", with_requests(requests)):
            r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertContains(r, 'id="requests"')
        self.assertContains(r, "1 of 2 devices match")
        self.assertContains(r, '<code title="gpu.example.com on n">p/gpu-0</code>', html=True)
        self.assertContains(r, '<span class="swatch grant-0" aria-hidden="true"></span>', html=False)
        self.assertContains(r, '<span class="group-count">1 device</span>: <span class="reason">selector #0 is false: &lt;script&gt;</span>', html=False)


class CaretWindowTestCase(SimpleTestCase):
    def test_it_keeps_the_caret_of_a_long_line_in_view(self):
        source = ' | device.attributes["gpu.example.com"].model == "X" && device.capacity["gpu.example.com"].memory >= q'
        marker = " | " + "." * (source.index(">=") - 3) + "^"
        src, mark = caret_window(f"{source}\n{marker}").split("\n")
        self.assertTrue(src.startswith(" | …"))
        self.assertLessEqual(len(src), DIAGRAM_WIDTH + 5)
        self.assertEqual(src[mark.index("^"):mark.index("^") + 2], ">=")  # still under the operator

    def test_it_leaves_a_short_diagram_alone(self):
        self.assertEqual(caret_window(" | a > 1\n | ..^"), " | a > 1\n | ..^")
