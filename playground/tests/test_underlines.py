"""Which parts of a selector the claims editor underlines (``results.requests_table``'s ``mark``): only what is
wrong or risky. A correct selector that is false on some devices while others match only filters."""

from django.test import SimpleTestCase

from allocator.cel.explain import Part
from allocator.engine import Report, RequestDevice, RequestView, WhyPart
from allocator.releases.gates import make_gates
from playground.results import requests_table


def device(name: str, matches: bool, why: list[WhyPart] | None = None) -> RequestDevice:
    return RequestDevice(driver="gpu.example.com", pool="node-0", device=name, slice="node-0-gpus", node="node-0",
                         matches=matches, chosen=False, taken_by=None,
                         reason=None if matches else "request selector #0 is false",
                         reason_code=None if matches else "selector", why=why, reason_short=None)


def report(matching: int, verdict: str = "false") -> Report:
    part = Part(text="device.attributes['x'].model == 'A'", verdict=verdict, start=0, end=10)
    devices = [device(f"gpu-{i}", True) for i in range(matching)] + [device("gpu-9", False, [part])]
    r = Report(kubernetes_version="1.37", gates=make_gates({}, "1.37"))
    r.requests = [RequestView(claim="default/c", request="r", device_class="gpu", mode="ExactCount", count=1,
                              selected=None, error=None, devices=devices)]
    return r


def marks(r: Report) -> list[str]:
    (request,) = requests_table(r, {})
    return [part.mark for group in request["rejected"] for part in group["why"]]


class UnderlineTestCase(SimpleTestCase):
    def test_a_selector_that_filters_is_not_marked(self):
        self.assertEqual(marks(report(matching=2)), [""])

    def test_a_false_part_is_a_warning_when_the_request_matches_nothing(self):
        self.assertEqual(marks(report(matching=0)), ["warning"])

    def test_an_error_is_always_marked(self):
        self.assertEqual(marks(report(matching=2, verdict="error")), ["error"])
        self.assertEqual(marks(report(matching=0, verdict="error")), ["error"])
