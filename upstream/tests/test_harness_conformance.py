"""The harness against the conformance cases recorded from the upstream allocator.

Those cases live beside a development checkout (../shared/conformance), not in
the project: the test skips without them, as allocator/tests/test_conformance.py does.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from upstream import Harness

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT.parent / "shared" / "conformance"

needs_go = pytest.mark.skipif(shutil.which("go") is None,
                              reason="the upstream harness is built with the Go toolchain, and `go` is not on PATH")


@needs_go
@pytest.mark.skipif(not (CONFORMANCE / "cases").exists(),
                    reason="needs the conformance cases recorded from the upstream allocator, which live "
                           "beside the development checkout (../shared/conformance), not in the project")
def test_the_harness_reproduces_the_recorded_conformance_cases():
    import yaml

    sys.path.insert(0, str(CONFORMANCE))
    try:
        from run import compare_claim
    finally:
        sys.path.pop(0)
    mismatches, compared = [], 0
    cases = sorted((CONFORMANCE / "cases").glob("*.yaml"))
    with Harness("1.37") as harness:
        for path in cases:
            case = yaml.safe_load(path.read_text())
            answer = harness.run({"id": case["name"], "gates": case.get("featureGates") or {},
                                  "node": case["node"], "objects": case["objects"], "run": ["allocate"]})
            if "gates" in answer:
                # Recorded from the allocator alone: 1.37's components refuse some of these
                # gate sets (a GA gate locked on, DRADeviceTaints off under DRADeviceTaintRules).
                refused = answer["gates"]["refused"]
                assert "locked to true" in refused or "depends on features that are disabled" in refused, refused
                continue
            compared += 1
            mismatches += [f"{case['name']}: {line}" for line in conformance_differences(case, answer, compare_claim)]
    assert compared > len(cases) // 2
    assert not mismatches, "\n".join(mismatches)


def conformance_differences(case, answer, compare_claim):
    if answer["error"]:
        return [f"harness error {answer['error']}"]
    got = answer["allocate"]
    expect = case["expect"]
    if "error" in expect:
        return [] if got["error"] else [f"expected the error {expect['error']!r}, got fits={got['fits']}"]
    if got["error"]:
        return [f"unexpected error {got['error']}"]
    if expect.get("unsatisfiable"):
        return [] if not got["fits"] else ["expected no fit"]
    if not got["fits"]:
        return ["expected a fit"]
    by_name = {c["metadata"]["name"]: c for c in got["claims"]}
    return [line for want in expect["claims"]
            for line in compare_claim(same_quantities(want), same_quantities(by_name[want["name"]]))]


QUANTITY_SUFFIXES = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50,
                     "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "m": 10**-3}


def same_quantities(value):
    """Consumed capacities as numbers: the recorded cases and the allocator's
    answer may write one quantity in two forms (10G and 9765625Ki)."""
    if isinstance(value, dict):
        return {key: ({name: quantity_value(q) for name, q in item.items()} if key == "consumedCapacity"
                      else same_quantities(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [same_quantities(item) for item in value]
    return value


def quantity_value(text: str):
    for suffix in sorted(QUANTITY_SUFFIXES, key=len, reverse=True):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * QUANTITY_SUFFIXES[suffix]
    return float(text)
