"""A device's ``why`` is typed (issue 34, item 2): selector parts (``cel.explain.Part``) and counter parts
(``allocation.counters.Shortage``) whose ``to_dict()`` is the JSON the API has always written, and the page
reads the same objects."""

from django.test import SimpleTestCase

from allocator.allocation.counters import Shortage
from allocator.cel.explain import Part
from allocator.engine import analyze
from allocator.tests.helpers.samples import inventory_text, sample
from playground.results import requests_table


def analysed(slug: str):
    example = sample("examples", slug)
    return analyze(example["documents"], inventory_text(example["inventory"]), node=example["node"],
                   kubernetes_version=example["kubernetesVersion"])


def parts(report) -> list:
    return [part for req in report.requests for d in req.devices for part in d.why or []]


class TypedWhyTestCase(SimpleTestCase):
    def test_counter_parts_are_shortages_and_write_the_same_json(self):
        report = analysed("mig-counters-held-by-claim")
        found = parts(report)
        counters = [p for p in found if isinstance(p, Shortage)]
        self.assertTrue(counters)
        self.assertTrue(all(isinstance(p, (Shortage, Part)) for p in found))
        first = counters[0].to_dict()
        self.assertEqual(list(first), ["kind", "pool", "counterSet", "counter", "total", "left", "needs", "takenBy",
                                       "summary"])
        self.assertEqual(first["kind"], "counter")
        self.assertEqual(Shortage.from_dict(first), counters[0])
        json_parts = [p for r in report.to_dict()["requests"] for d in r["devices"] for p in d["why"] or []]
        self.assertEqual(json_parts, [p.to_dict() for p in found])

    def test_selector_parts_carry_their_hint_and_fixes_placed_in_the_yaml(self):
        report = analysed("selector-missing-attribute")
        found = parts(report)
        self.assertTrue(found)
        self.assertTrue(all(isinstance(p, Part) for p in found))
        fixed = [p for p in found if p.fixes]
        self.assertTrue(fixed, "the example's hint has a quick fix")
        fix = fixed[0].fixes[0]
        self.assertEqual(fix["document"], "documents")  # placed in the claims editor's text, not the expression
        written = fixed[0].to_dict()
        self.assertEqual(list(written), ["start", "end", "text", "verdict", "error", "operator", "left", "right",
                                         "reads", "summary", "hint", "fixes"])
        self.assertEqual(Part.from_dict(written), fixed[0])

    def test_the_page_marks_the_same_parts(self):
        report = analysed("selector-missing-attribute")
        marked = [m for req in requests_table(report, {}) for group in req["rejected"] for m in group["why"]]
        self.assertTrue(marked)
        self.assertTrue(all(isinstance(m.part, Part) for m in marked))
        self.assertEqual({m.mark for m in marked if m.part.verdict == "error"}, {"error"})
