"""A pod's allocated claims pin its node; PostFilter frees them when no node fits (issue 28, item 3)."""

from __future__ import annotations

from allocator.engine import analyze
from allocator.tests.helpers import pinning

OTHER_POD = "22222222-2222-2222-2222-222222222222"
THIS_POD = "11111111-1111-1111-1111-111111111111"
PIN_REASON = "claim default/a is allocated on devices this node cannot use (resourceclaim not available on the node)"


def _devices(alloc: dict) -> dict[str, list[str]]:
    return {c["metadata"]["name"]: [f'{r["pool"]}/{r["device"]}' for r in c["status"]["allocation"]["devices"]["results"]]
            for c in alloc["claims"]}


def test_first_attempt_fails_postfilter_frees_a_then_both_land_on_n2():
    alloc = analyze(pinning.documents(), pinning.INVENTORY).to_dict()["allocation"]
    assert alloc["status"] == "allocated"
    assert alloc["node"] == "n2"
    assert alloc["deallocated"] == ["a"]
    # The second attempt allocates the freed claim again, with the pending one, on n2.
    assert _devices(alloc) == {"a": ["n2/gpu-0"], "b": ["n2/gpu-1"]}
    [first] = alloc["attempts"]
    assert first["attempt"] == 1 and first["status"] == "unsatisfiable"
    assert first["deallocated"] == "a" and first["deallocatable"] == ["a"]
    nodes = {n["name"]: n for n in first["nodes"]}
    assert not nodes["n1"]["fits"] and "claim default/b" in nodes["n1"]["reason"]
    assert "pinnedBy" not in nodes["n1"]  # b does not fit there: Filter never got to note a
    assert not nodes["n2"]["fits"] and nodes["n2"]["reason"] == PIN_REASON and nodes["n2"]["pinnedBy"] == ["a"]
    assert f"n2: {PIN_REASON}" in first["reasons"]


def test_the_chosen_node_is_tried_alone_and_retried():
    alloc = analyze(pinning.documents(), pinning.INVENTORY, node="n2").to_dict()["allocation"]
    assert (alloc["status"], alloc["node"], alloc["deallocated"]) == ("allocated", "n2", ["a"])
    assert [n["name"] for n in alloc["attempts"][0]["nodes"]] == ["n2"]


def test_on_the_node_the_claim_names_nothing_is_freed():
    # On n1, b does not fit: the allocator's reason, not the pin, so PostFilter has nothing to free.
    alloc = analyze(pinning.documents(), pinning.INVENTORY, node="n1").to_dict()["allocation"]
    assert alloc["status"] == "unsatisfiable"
    assert "attempts" not in alloc and "deallocated" not in alloc


def test_a_claim_reserved_for_another_pod_is_not_freed():
    report = analyze(pinning.documents(reserved_for=OTHER_POD), pinning.INVENTORY).to_dict()
    alloc = report["allocation"]
    assert alloc["status"] == "unsatisfiable" and alloc["node"] is None
    assert "attempts" not in alloc and "deallocated" not in alloc
    assert f"n2: {PIN_REASON}" in alloc["reasons"]
    assert alloc["reasons"][-1] == ("PostFilter frees no claim (still not schedulable): "
                                    "claim a is reserved for another pod")
    assert alloc["notFreed"] == ["a"]
    assert {n["name"]: n["fits"] for n in report["nodes"]} == {"n1": False, "n2": False}


def test_a_claim_reserved_for_this_pod_only_is_freed():
    alloc = analyze(pinning.documents(reserved_for=THIS_POD), pinning.INVENTORY).to_dict()["allocation"]
    assert (alloc["status"], alloc["node"], alloc["deallocated"]) == ("allocated", "n2", ["a"])


def test_without_a_pod_an_allocated_claim_only_holds_its_devices():
    report = analyze(pinning.documents(pod=False), pinning.INVENTORY).to_dict()
    alloc = report["allocation"]
    assert (alloc["status"], alloc["node"]) == ("allocated", "n2")
    assert "attempts" not in alloc and "deallocated" not in alloc
    assert _devices(alloc) == {"b": ["n2/gpu-0"]}
    assert all("pinnedBy" not in n for n in report["nodes"])


def test_a_node_the_allocation_reaches_fits_without_a_retry():
    # With two GPUs on n1 too, b fits beside a on n1: no retry, n2 is refused for the pin.
    inventory = pinning.INVENTORY.replace("  devices:\n  - name: gpu-0\n---", "  devices:\n  - name: gpu-0\n  - name: gpu-1\n---", 1)
    report = analyze(pinning.documents(), inventory).to_dict()
    alloc = report["allocation"]
    assert (alloc["status"], alloc["node"]) == ("allocated", "n1")
    assert "attempts" not in alloc
    assert _devices(alloc) == {"b": ["n1/gpu-1"]}
    n2 = next(n for n in report["nodes"] if n["name"] == "n2")
    assert not n2["fits"] and n2["reason"] == PIN_REASON


def _only_a() -> str:
    """The pod using claim a alone, and no claim b."""
    docs = pinning.documents().replace("  - {name: b, resourceClaimName: b}\n", "")
    return "---\n".join(part for part in docs.split("---\n") if "name: b," not in part)


def test_with_nothing_pending_the_pin_still_decides_the_node():
    report = analyze(_only_a(), pinning.INVENTORY).to_dict()
    alloc = report["allocation"]
    assert (alloc["status"], alloc["node"], alloc["claims"]) == ("allocated", "n1", [])
    assert [(n["name"], n["fits"], n["reason"]) for n in report["nodes"]] == [("n1", True, None), ("n2", False, PIN_REASON)]
    # On n2 the claim is freed and allocated again there.
    alloc = analyze(_only_a(), pinning.INVENTORY, node="n2").to_dict()["allocation"]
    assert (alloc["status"], alloc["node"], alloc["deallocated"]) == ("allocated", "n2", ["a"])
    assert _devices(alloc) == {"a": ["n2/gpu-0"]}
