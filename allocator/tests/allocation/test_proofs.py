"""Each proof of impossibility (``allocation.proofs``): what it decides, what it says, and where it must not decide.

Every case runs the plain search too and checks that both give the same
answer (or the same error), and that the proof spared the steps.
"""

from __future__ import annotations

import json

import pytest

from allocator.__main__ import main
from allocator.allocation.allocator import Allocator, AllocatorError
from allocator.allocation.inputs import UNBOUNDED, SearchInputs, SearchLimits, SearchOptions
from allocator.allocation.search import PROVE_AFTER
from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.tests.helpers import write_files
from allocator.tests.helpers.inventory import device, inventory, resource_slice
from allocator.tests.helpers.proofs import (
    CLASSES,
    GPU_NIC,
    ISSUE,
    MESSAGE,
    NODE,
    claim,
    exact,
    gpus,
    nics,
    slice_,
)


def both(text: str, **options):
    """(plain, optimised) outcomes, or the error each raised, for all claims of ``text`` on node-0."""
    docs = read_documents(CLASSES + text).documents

    def of(kind):
        return [d.obj for d in docs if d.kind == kind]

    out = []
    for prove in (False, True):
        allocator = Allocator(SearchInputs(of("DeviceClass"), of("ResourceSlice")), make_gates(), limits=UNBOUNDED,
                              options=SearchOptions(prove=prove))
        node = next(n for n in of("Node") if n.metadata.name == NODE)
        try:
            out.append(allocator.allocate(node, of("ResourceClaim"), **options))
        except AllocatorError as err:
            out.append(err)
    return out


def proved(text: str):
    """The optimised outcome, after checking it agrees with the plain search and took no more steps.

    Small searches end before the proofs are tried (``PROVE_AFTER`` steps); the proof then still says why.
    """
    plain, optimised = both(text)
    assert not plain.allocated and not optimised.allocated
    assert optimised.proof is not None
    assert optimised.steps == min(plain.steps, PROVE_AFTER)
    assert plain.proof is None
    return optimised


def test_a_request_with_fewer_usable_devices_than_its_count():
    out = proved(gpus(4) + claim("big", exact("gpus", "gpu", 5)))
    p = out.proof
    assert (p.code, p.claim, p.request, p.needed, p.available, p.node) == (
        "too-few-devices", "default/big", "gpus", 5, 4, NODE)
    assert p.message.startswith("claim default/big, request gpus: needs 5 devices, but only 4 on node-0 match")
    # The explanation keeps its line with the reasons per device and carries the proof as data.
    assert out.explanation.proof == p.to_dict()
    assert out.reason == "claim default/big, request gpus: needs 5 device(s), 4 of 4 in reach match"


def test_devices_already_allocated_tainted_or_unselected_do_not_count():
    inventory = slice_("gpu.example.com", [
        "{name: gpu-0, attributes: {model: {string: a}}}",
        "{name: gpu-1, attributes: {model: {string: b}}}",
        "{name: gpu-2, attributes: {model: {string: a}}, taints: [{key: broken, value: 'yes', effect: NoSchedule}]}",
        "{name: gpu-3, attributes: {model: {string: a}}}",
    ])
    held = claim("held", exact("gpu", "gpu")) + """
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: node-0-gpu, device: gpu-3}]
"""
    wants = claim("wants", exact("gpus", "gpu", 2, ", selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].model == 'a'\"}}]"))
    docs = read_documents(CLASSES + inventory + held + wants).documents
    of = {k: [d.obj for d in docs if d.kind == k] for k in ("DeviceClass", "ResourceSlice", "ResourceClaim", "Node")}
    allocated, pending = of["ResourceClaim"][0], of["ResourceClaim"][1:]
    outcomes = [Allocator(SearchInputs(of["DeviceClass"], of["ResourceSlice"], [allocated]), make_gates(),
                          limits=SearchLimits(max_steps=None), options=SearchOptions(prove=prove)
                          ).allocate(of["Node"][0], pending) for prove in (False, True)]
    assert [o.allocated for o in outcomes] == [False, False]
    p = outcomes[1].proof
    assert (p.code, p.needed, p.available) == ("too-few-devices", 2, 1)  # only gpu-0: gpu-1 b, gpu-2 tainted, gpu-3 held


def test_the_issue_example_a_constraint_attribute_no_candidate_has():
    out = proved(gpus(4) + nics(2) + GPU_NIC)
    p = out.proof
    assert p.message == ("claim default/gpu-nic, request nic: 0 devices on node-0 have gpu.example.com/fwVersion, "
                         "which its matchAttribute needs")
    assert (p.code, p.claim, p.request, p.needed, p.available, p.attribute, p.constraint) == (
        "missing-attribute", "default/gpu-nic", "nic", 1, 0, "gpu.example.com/fwVersion", 0)
    assert out.reason.startswith(p.message)


def test_the_three_claim_pattern_is_answered_without_trying_the_first_two_claims():
    text = gpus(8) + nics(2) + claim("train", exact("gpus", "gpu", 3)) + claim("infer", exact("gpus", "gpu", 3)) \
        + GPU_NIC
    plain, optimised = both(text)
    assert optimised.proof.code == "missing-attribute" and not plain.allocated
    # The plain walk tries every choice of the first two claims; the proof stops it when it is tried.
    assert (optimised.steps, plain.steps) == (PROVE_AFTER, 4965)


def test_too_few_devices_with_the_attribute():
    inventory = slice_("gpu.example.com", [
        "{name: gpu-0, attributes: {numa: {int: 0}}}", "{name: gpu-1}", "{name: gpu-2}"])
    out = proved(inventory + claim("pair", exact("gpus", "gpu", 2),
                                   "    constraints:\n    - {matchAttribute: gpu.example.com/numa}\n"))
    p = out.proof
    assert (p.code, p.needed, p.available) == ("missing-attribute", 2, 1)
    assert p.message == ("claim default/pair, request gpus: only 1 device on node-0 have gpu.example.com/numa, "
                         "which its matchAttribute needs (it needs 2)")


def test_every_subrequest_too_big():
    request = ("    - name: gpu\n      firstAvailable:\n      - {name: eight, deviceClassName: gpu, count: 8}\n"
               "      - {name: five, deviceClassName: gpu, count: 5}\n")
    out = proved(gpus(4) + claim("alternatives", request))
    p = out.proof
    assert (p.code, p.request, p.requests) == ("no-subrequest-fits", "gpu", ("gpu/eight", "gpu/five"))
    assert "none of its 2 subrequests can be allocated on node-0" in p.message
    assert out.reason.startswith(p.message)


def test_all_devices_with_one_the_request_can_never_get():
    inventory = slice_("gpu.example.com", [
        "{name: gpu-0}", "{name: gpu-1, taints: [{key: broken, value: 'yes', effect: NoSchedule}]}"])
    out = proved(inventory + claim("all", "    - {name: gpus, exactly: {deviceClassName: gpu, allocationMode: All}}\n"))
    p = out.proof
    assert (p.code, p.needed, p.available) == ("all-devices-unusable", 2, 1)
    assert "gpu.example.com/node-0-gpu/gpu-1 can never be given to it" in p.message


def test_claims_that_together_need_more_devices_than_exist():
    out = proved(gpus(3) + claim("a", exact("gpus", "gpu", 2)) + claim("b", exact("gpus", "gpu", 2)))
    p = out.proof
    assert (p.code, p.needed, p.available, p.requests) == (
        "requests-exceed-devices", 4, 3, ("default/a/gpus", "default/b/gpus"))
    assert p.message == "requests default/a/gpus, default/b/gpus need 4 devices together, but only 3 on node-0 " \
                        "can serve any of them"


def test_shared_counters_of_a_pool():
    # Slices with counters hold no devices: one slice for the counters, one for the partitions.
    pool = inventory(
        resource_slice("node-0-gpu", driver="gpu.example.com", node=NODE, pool="node-0-gpu", pool_slices=2,
                       shared_counters={"memory": {"mem": "8Gi"}}),
        resource_slice("node-0-gpu-parts", driver="gpu.example.com", node=NODE, pool="node-0-gpu", pool_slices=2,
                       devices=[device(f"part-{i}", consumes={"memory": {"mem": "4Gi"}}) for i in range(3)]))
    out = proved("---\n" + pool + claim("parts", exact("two", "gpu", 2)) + claim("one", exact("one", "gpu", 1)))
    p = out.proof
    assert (p.code, p.counter, p.amount_needed, p.amount_available, p.pool) == (
        "counters-exceeded", "memory/mem", "12Gi", "8Gi", "gpu.example.com/node-0-gpu")
    assert p.requests == ("default/parts/two", "default/one/one")


def test_match_attribute_without_a_value_enough_devices_share():
    # numa 0 on gpu-0, gpu-2, gpu-4; numa 1 on gpu-1, gpu-3: four with one value do not exist.
    out = proved(gpus(5) + claim("same-numa", exact("a", "gpu", 2) + exact("b", "gpu", 2),
                                 "    constraints:\n    - {requests: [a, b], matchAttribute: gpu.example.com/numa}\n"))
    p = out.proof
    assert (p.code, p.needed, p.available, p.constraint, p.requests) == ("no-shared-value", 4, 3, 0, ("a", "b"))
    assert p.message.startswith("claim default/same-numa: constraint #0 (matchAttribute gpu.example.com/numa): ")


def test_memoised_failure_searches_a_failing_claim_once_per_state():
    # Three NICs on distinct NUMA nodes where there are two: no proof sees it, the search must.
    spread = claim("spread", exact("a", "nic") + exact("b", "nic") + exact("c", "nic"),
                   "    constraints:\n    - {distinctAttribute: nic.example.com/numa}\n")
    plain, optimised = both(gpus(12) + nics(4) + claim("train", exact("gpus", "gpu", 3)) + spread)
    assert not plain.allocated and not optimised.allocated
    assert optimised.proof is None  # so the steps saved are the memo's
    assert optimised.steps * 5 < plain.steps


# ----------------------------------------------------------------------------- where a proof must not decide

MODEL_SELECTOR = ", selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].model == 'a'\"}}]"


def test_a_selector_that_can_fail_at_runtime_leaves_the_answer_to_the_search():
    # gpu-1 has no model: the plain search aborts with a CEL runtime error when it reaches it.
    inventory = slice_("gpu.example.com", ["{name: gpu-0, attributes: {model: {string: a}}}", "{name: gpu-1}"])
    plain, optimised = both(inventory + claim("big", exact("gpus", "gpu", 3, MODEL_SELECTOR)))
    assert isinstance(plain, AllocatorError) and isinstance(optimised, AllocatorError)
    assert str(optimised) == str(plain)
    assert "CEL runtime error" in str(plain)


def test_an_allocation_found_before_the_failing_device_stays():
    inventory = slice_("gpu.example.com", ["{name: gpu-0, attributes: {model: {string: a}}}", "{name: gpu-1}"])
    plain, optimised = both(inventory + claim("one", exact("gpu", "gpu", 1, MODEL_SELECTOR)))
    assert plain.allocated and optimised.allocated
    assert [r.device for r in optimised.results[0].devices.results] == ["gpu-0"]


def test_an_unknown_class_is_still_an_error():
    plain, optimised = both(gpus(2) + claim("x", exact("gpu", "missing", 5)))
    assert isinstance(optimised, AllocatorError) and str(optimised) == str(plain)


# ----------------------------------------------------------------------------- engine, command line

@pytest.mark.parametrize("node", [None, NODE])
def test_analyze_reports_the_proof_as_data(node):
    data = analyze(ISSUE, node=node).to_dict()
    assert data["allocation"]["status"] == "unsatisfiable"
    assert data["allocation"]["reasons"][0].startswith(f"node-0: {MESSAGE}")
    (entry,) = data["nodes"]
    assert entry["proof"]["code"] == "missing-attribute"
    assert entry["proof"]["message"] == MESSAGE
    assert (entry["proof"]["needed"], entry["proof"]["available"]) == (1, 0)
    json.dumps(data)


def test_analyze_leaves_proof_out_where_the_claims_fit():
    data = analyze(CLASSES + gpus(2) + claim("one", exact("gpu", "gpu"))).to_dict()
    assert data["nodes"] == [{"name": NODE, "fits": True, "reason": None, "error": False, "schedulerReason": None}]


@pytest.mark.parametrize("node", [[], ["--node", NODE]], ids=["node-search", "one-node"])
def test_the_cli_says_which_proof_decided(tmp_path, capsys, node):
    (path,) = write_files(tmp_path, issue=ISSUE)
    code = main(["allocate", *node, path])
    captured = capsys.readouterr()
    assert code == 1
    assert MESSAGE in captured.err
    if not node:
        assert json.loads(captured.out)["nodes"][0]["reason"].startswith(MESSAGE)
