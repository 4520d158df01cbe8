"""Which parts of a selector the claims editor underlines (``results.requests_table``'s ``mark``): only what is
wrong or risky. A correct selector that is false on some devices while others match only filters."""

from django.test import SimpleTestCase

from playground.results import requests_table


def report(matching: int, verdict: str = "false") -> dict:
    part = {"text": "device.attributes['x'].model == 'A'", "verdict": verdict, "start": 0, "end": 10}
    devices = [{"device": f"gpu-{i}", "matches": True} for i in range(matching)]
    devices.append({"device": "gpu-9", "matches": False, "reason": "request selector #0 is false", "why": [part]})
    return {"requests": [{"claim": "default/c", "request": "r", "devices": devices}]}


def marks(r: dict) -> list[str]:
    (request,) = requests_table(r, {})
    return [part["mark"] for group in request["rejected"] for part in group["why"]]


class UnderlineTestCase(SimpleTestCase):
    def test_a_selector_that_filters_is_not_marked(self):
        self.assertEqual(marks(report(matching=2)), [""])

    def test_a_false_part_is_a_warning_when_the_request_matches_nothing(self):
        self.assertEqual(marks(report(matching=0)), ["warning"])

    def test_an_error_is_always_marked(self):
        self.assertEqual(marks(report(matching=2, verdict="error")), ["error"])
        self.assertEqual(marks(report(matching=0, verdict="error")), ["error"])
