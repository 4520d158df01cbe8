"""The inventory picture shows a DeviceTaintRule's taint on the devices it taints, naming the rule, on the
release (and with the gates) under which the scheduler applies the rule."""

from __future__ import annotations

from django.test import SimpleTestCase

from allocator.engine import analyze
from allocator.tests.helpers.taint_rules import BY_CEL, GPU_0, INVENTORY, claim, rule
from playground import picture


def tiles(documents: str, inventory: str, release: str, gates: dict | None = None,
          served: bool = True) -> dict[str, picture.Tile]:
    if release == "1.33":
        documents, inventory = (text.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n")
                                for text in (documents, inventory))
        gates = {"DynamicResourceAllocation": True, **(gates or {})}
    analyzed = analyze(documents, inventory, kubernetes_version=release, feature_gates=gates)
    report = analyzed.to_dict()
    errors = [d["type"] for d in report["diagnostics"] if d["severity"] == "error"]
    assert errors == ([] if served else ["Not served"]), report["diagnostics"]
    pic = picture.build(analyzed.inventory, analyzed)
    return {t.name: t for n in pic.nodes for p in n.pools for t in p.devices}


DETAIL = "taint maintenance=true:NoSchedule from DeviceTaintRule gpu-maintenance"


class PictureTaintRulesTestCase(SimpleTestCase):
    def test_the_rule_is_shown_on_the_device_it_taints_on_1_37(self):
        found = tiles(claim(), INVENTORY + rule(GPU_0), "1.37")
        self.assertEqual(found["gpu-0"].taint_rules, ["gpu-maintenance"])
        self.assertTrue(found["gpu-0"].tainted)
        self.assertIn(DETAIL, found["gpu-0"].title)
        self.assertEqual((found["gpu-1"].taint_rules, found["gpu-1"].tainted), ([], False))
        self.assertEqual([g.claim for g in found["gpu-1"].grants], ["c"])

    def test_where_the_scheduler_ignores_the_rule_the_picture_does_too(self):
        # 1.36: DRADeviceTaintRules is beta but off by default: the rule is not served (the page says so)
        # and not applied, so no device is drawn tainted; with the gate on it is.
        found = tiles(claim(), INVENTORY + rule(GPU_0, version="v1beta2"), "1.36", served=False)
        self.assertEqual((found["gpu-0"].taint_rules, found["gpu-0"].tainted), ([], False))
        found = tiles(claim(), INVENTORY + rule(GPU_0, version="v1beta2"), "1.36", {"DRADeviceTaintRules": True})
        self.assertEqual(found["gpu-0"].taint_rules, ["gpu-maintenance"])
        found = tiles(claim(), INVENTORY + rule(GPU_0), "1.37",
                      {"DRADeviceTaints": False, "DRADeviceTaintRules": False}, served=False)
        self.assertEqual((found["gpu-0"].taint_rules, found["gpu-0"].tainted), ([], False))

    def test_before_1_35_cel_selectors_choose_the_tainted_devices(self):
        for release in ("1.33", "1.34"):
            with self.subTest(release=release):
                found = tiles(claim(count=2), INVENTORY + rule(BY_CEL, version="v1alpha3"), release,
                              {"DRADeviceTaints": True})
                self.assertEqual((found["gpu-0"].taint_rules, found["gpu-1"].taint_rules), (["gpu-maintenance"], []))

    def test_the_tile_names_the_rule(self):
        from django.template.loader import render_to_string

        found = tiles(claim(), INVENTORY + rule(GPU_0), "1.37")
        html = render_to_string("playground/partials/picture_tile.html", {"t": found["gpu-0"]})
        self.assertIn('data-taint-rules="gpu-maintenance"', html)
        self.assertIn('<span class="tile-taint-rule">tainted by gpu-maintenance</span>', html)
        self.assertIn(DETAIL, html)
