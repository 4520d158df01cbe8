"""Every gallery example, loaded by load_samples, gives its expected outcome on the page's engine call.

The same State the page builds (inventory snapshot or stored sample cluster,
documents, node, version, gates) goes through the engine as the page sends
it, so the gallery never rots.
"""

from io import StringIO

from django.core.management import call_command
from django.test import TestCase

from allocator.compare import differences
from playground.models import Example
from playground.services.analyze import analyze
from playground.tests.base import sample


def sample_file(slug: str) -> dict:
    return sample("examples", slug)


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

    def assertOutcome(self, expect: dict, report: dict) -> None:
        allocation = report["allocation"]
        if "error" in expect:
            self.assertIn(allocation["status"], ("error", "skipped"), error_text(report))
            self.assertIn(expect["error"], error_text(report))
            return
        if not expect.get("allocated"):
            self.assertEqual(allocation["status"], "unsatisfiable", error_text(report))
            return
        self.assertEqual(allocation["status"], "allocated", error_text(report))
        if expect.get("node"):
            self.assertEqual(allocation["node"], expect["node"])
        if "devices" in expect:
            self.assertEqual(devices_by_claim(report), expect["devices"])

    def test_every_example_gives_its_expected_outcome(self):
        for example in Example.objects.with_inventory():
            with self.subTest(example=example.slug):
                report = analyze(example.state()).to_dict()
                self.assertOutcome(example.expected, report)

    def test_every_comparison_gives_its_expected_outcome_in_the_right_column(self):
        compared = [e for e in Example.objects.with_inventory() if e.compare]
        self.assertGreaterEqual(len(compared), 2)
        for example in compared:
            with self.subTest(example=example.slug):
                right = example.state().compared()
                expect = sample_file(example.slug)["expectCompare"]
                self.assertOutcome(expect, analyze(right).to_dict())
                # The two columns differ: that is what the example shows.
                left = analyze(example.state()).to_dict()
                self.assertTrue(differences(left, analyze(right).to_dict()))

    def test_examples_that_open_with_other_grants_list_them_in_search_order(self):
        listing = [e for e in Example.objects.with_inventory() if e.alternatives]
        self.assertTrue(listing)
        for example in listing:
            with self.subTest(example=example.slug):
                report = analyze(example.state(), example.alternatives).to_dict()
                grants = [[f"{r['pool']}/{r['device']}" for c in g["claims"] for r in c["results"]]
                          for g in report["allocation"]["alternatives"]]
                self.assertEqual(grants, sample_file(example.slug)["expectAlternatives"])
