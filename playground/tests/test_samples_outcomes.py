"""Every gallery example, loaded by load_samples, gives its expected outcome on the page's engine call.

The same State the page builds (inventory snapshot or stored sample cluster,
documents, node, version, gates) goes through the engine as the page sends
it, so the gallery never rots.
"""

from io import StringIO

from django.core.management import call_command
from django.test import TestCase

from playground import clusters
from playground.models import Example


def devices_by_claim(report: dict) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for claim in report["allocation"]["claims"]:
        meta = claim["metadata"]
        # Claims from templates are keyed by generateName in the sample files.
        name = meta.get("generateName") or meta["name"]
        results = claim["status"]["allocation"]["devices"]["results"]
        per_request = out.setdefault(name, {})
        for r in results:
            per_request.setdefault(r["request"], []).append(f"{r['pool']}/{r['device']}")
    return out


def error_text(report: dict) -> str:
    messages = [d["message"] for d in report["diagnostics"] if d["severity"] == "error"]
    return " ".join([report["allocation"].get("error") or "", *messages, *report["allocation"]["reasons"]])


class SampleOutcomesTestCase(TestCase):
    @classmethod
    def setUpTestData(cls):
        call_command("load_samples", stdout=StringIO())

    def test_there_are_examples(self):
        self.assertGreaterEqual(Example.objects.count(), 16)

    def test_every_example_gives_its_expected_outcome(self):
        for example in Example.objects.with_inventory():
            with self.subTest(example=example.slug):
                expect = example.expected
                report = clusters.analyze_state(example.state()).to_dict()
                allocation = report["allocation"]
                if "error" in expect:
                    self.assertIn(allocation["status"], ("error", "skipped"), error_text(report))
                    self.assertIn(expect["error"], error_text(report))
                    continue
                if not expect.get("allocated"):
                    self.assertEqual(allocation["status"], "unsatisfiable", error_text(report))
                    continue
                self.assertEqual(allocation["status"], "allocated", error_text(report))
                if expect.get("node"):
                    self.assertEqual(allocation["node"], expect["node"])
                if "devices" in expect:
                    self.assertEqual(devices_by_claim(report), expect["devices"])
