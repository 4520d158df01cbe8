"""Explanations with numbers where shared counters decide (allocation.counters, explain.py).

A device ruled out by a used-up counter names the counter set and counter,
what is left of what total, what the device needs and which devices took it;
a combination that runs out of counters beside the devices other requests
must take says the same per request. Answers never change: the upstream
table's partitionable cases are run for their answers and explained.
"""

from __future__ import annotations

import pytest

from allocator.allocation.allocator import Allocator
from allocator.allocation.capacity import quantity
from allocator.allocation.inputs import Forced, SearchInputs
from allocator.engine import analyze
from allocator.tests.helpers.allocate_table import (
    build_claim,
    build_class,
    build_node,
    build_slice,
    build_state,
    case_features,
    run_case,
    table_params,
)
from allocator.tests.helpers.partitionable_cases import CASES
from allocator.tests.helpers.samples import MIG_HELD, inventory_text, sample


def _explain_case(case, variant):
    allocator = Allocator(SearchInputs([build_class(n, s) for n, s in (case.get("classes") or {}).items()],
                                       [build_slice(s) for s in case.get("slices", [])], state=build_state(case)),
                          forced=Forced(case_features(case), variant))
    return allocator.explain(build_node(case.get("node")), [build_claim(c) for c in case.get("claims", [])])


PARTITIONABLE = [p for p in table_params(CASES) if "partitionable" in p.id]


@pytest.mark.parametrize(("case", "variant"), PARTITIONABLE)
def test_counter_reasons_of_the_upstream_table_add_up(case, variant):
    """Every counters reason of the table's partitionable cases: left = total - what its takers hold,
    and the device needs more than is left; the answer is the table's."""
    run_case(case, variant)
    ex = _explain_case(case, variant)
    for req in ex.requests:
        for d in req.devices:
            if d.reason is None or d.reason.code != "counters":
                continue
            assert d.reason.parts, d
            for part in d.reason.parts:
                assert part["kind"] == "counter"
                held = sum((quantity(t["amount"]) for t in part["takenBy"]), quantity("0"))
                assert (quantity(part["total"]) - held).cmp(quantity(part["left"])) == 0, part
                assert quantity(part["left"]).cmp(quantity(part["needs"])) < 0, part
                assert part["summary"] in d.reason.message or d.reason.parts.index(part) > 0


def _case(name, variant="incubating"):
    """A table case whose pool the table leaves incomplete (pool count 1, two slices), made complete so that
    the counters decide; the answer stays the table's: nothing is allocated."""
    case, variant = next(p.values for p in PARTITIONABLE if p.id == f"{name}-{variant}")
    case = {**case, "slices": [{**s, "pool": {"name": "pool-1", "count": 2}} for s in case["slices"]]}
    assert not case.get("expect")
    return case, variant


@pytest.mark.parametrize("variant", ["stable", "incubating", "experimental"])
def test_a_counter_used_up_by_an_allocated_device_says_left_total_needs_and_who(variant):
    case, variant = _case("partitionable-devices-no-capacity-available", variant)
    run_case(case, variant)
    ex = _explain_case(case, variant)
    device = next(d for d in ex.requests[0].devices if d.device == "device-1")
    assert device.reason.code == "counters"
    assert device.reason.message == ("not enough shared counters left in pool driver-a/pool-1: counter-set-1/memory: "
                                     "2Gi of 18Gi left, needs 4Gi; taken by device-2 of an allocated claim")
    [part] = device.reason.parts
    assert part == {"kind": "counter", "pool": "driver-a/pool-1", "counterSet": "counter-set-1", "counter": "memory",
                    "total": "18Gi", "left": "2Gi", "needs": "4Gi",
                    "takenBy": [{"device": "device-2", "holder": "an allocated claim", "amount": "16Gi",
                                 "allocated": True}],
                    "summary": part["summary"]}


def test_an_overdrawn_counter_shows_a_negative_left():
    case, variant = _case("partitionable-devices-overallocated-capacity-pool")
    run_case(case, variant)
    ex = _explain_case(case, variant)
    device = next(d for d in ex.requests[0].devices if d.device == "device-1")
    assert "counter-set-1/memory: -2Gi of 18Gi left, needs 4Gi" in device.reason.message


def test_mig_counters_exhausted_names_the_counters_with_numbers():
    example = sample("examples", "mig-counters-exhausted")
    report = analyze(example["documents"], inventory_text("nvidia-mig"), node="dgx-h100-01").to_dict()
    alloc = report["allocation"]
    assert alloc["status"] == "unsatisfiable"  # the answer is unchanged
    [entry] = alloc["counters"]
    assert (entry["request"], entry["needed"], entry["matching"], entry["fitting"]) == ("slice", 1, 14, 0)
    assert {(f["device"], f["request"]) for f in entry["forced"]} == {("gpu-0", "full"), ("gpu-1", "full")}
    assert len(entry["devices"]) == 14
    first = entry["devices"][0]
    why = {w["counter"]: w for w in first["why"]}
    assert why["memory-slice-0"]["left"] == "0" and why["memory-slice-0"]["total"] == "1"
    assert why["memory-slice-0"]["needs"] == "1"
    assert why["memory-slice-0"]["takenBy"] == [{"device": "gpu-0", "holder": "request full", "amount": "1",
                                                 "allocated": False}]
    reason = report["nodes"][0]["reason"]
    assert "no combination satisfies" not in reason
    assert reason.startswith("claim default/gpus-and-a-slice, request slice: needs 1 device, but of the 14 devices "
                             "that match it none fits the shared counters left once request full takes gpu-0 and gpu-1")
    assert "gpu-0-counter-set/copy-engines: 0 of 8 left (taken by gpu-0 of request full), 7 devices need 1 each" \
        in reason
    assert alloc["reasons"] == [f"dgx-h100-01: {reason}"]





def test_a_partition_under_a_gpu_of_an_allocated_claim_names_that_claim():
    documents = MIG_HELD.replace(
        """selectors: [{cel: {expression: "device.attributes['gpu.nvidia.com'].parentUUID == ''"}}]""",
        """count: 8""")
    report = analyze(documents, inventory_text("nvidia-mig"), node="dgx-h100-01").to_dict()
    devices = {d["device"]: d for d in report["requests"][0]["devices"]}
    partition = devices["gpu-0-mig-1g10gb-19-0"]
    assert partition["reasonCode"] == "counters"
    assert partition["reason"].endswith("taken by gpu-0 of allocated claim default/held (and 5 more counters)")
    assert [w["counter"] for w in partition["why"]][:2] == ["copy-engines", "decoders"]
    assert all(w["takenBy"][0]["holder"] == "allocated claim default/held" for w in partition["why"])


def test_no_counter_line_when_counters_do_not_decide():
    # Two requests each wanting both whole GPUs: the devices, not the counters, run out.
    documents = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: four}
spec:
  devices:
    requests:
    - {name: a, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}
    - {name: b, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}
"""
    report = analyze(documents, inventory_text("nvidia-mig"), node="dgx-h100-01").to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
    assert "counters" not in report["allocation"]


def test_devices_another_claim_must_take_are_named_with_that_claim():
    documents = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: whole}
spec:
  devices:
    requests: [{name: full, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: part}
spec:
  devices:
    requests: [{name: slice, exactly: {deviceClassName: mig.nvidia.com, count: 2}}]
"""
    report = analyze(documents, inventory_text("nvidia-mig"), node="dgx-h100-01").to_dict()
    [entry] = report["allocation"]["counters"]
    assert (entry["claim"], entry["request"], entry["needed"], entry["matching"]) == ("default/part", "slice", 2, 26)
    assert entry["message"].startswith(
        "claim default/part, request slice: needs 2 devices, but of the 26 devices that match it none fits the shared "
        "counters left once claim default/whole, request full takes gpu-0 and gpu-1 (its only matching devices): ")
    why = next(w for w in entry["devices"][0]["why"] if w["counter"] == "memory-slice-0")
    assert why["takenBy"] == [{"device": "gpu-0", "holder": "claim default/whole, request full", "amount": "1",
                               "allocated": False}]


def test_a_request_short_on_its_own_keeps_its_own_line():
    documents = sample("examples", "mig-counters-exhausted")["documents"]
    assert documents.count("count: 2") == 1
    documents = documents.replace("count: 2", "count: 3")  # three whole GPUs: there are two
    report = analyze(documents, inventory_text("nvidia-mig"), node="dgx-h100-01").to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
    assert "counters" not in report["allocation"]
    assert "request full" in report["nodes"][0]["reason"]
