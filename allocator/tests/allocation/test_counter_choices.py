"""Counter failures that depend on a choice between devices (``allocation.counter_choices``).

The gallery's ``mig-counters-choice``: a whole GPU, a 4g.40gb and two 3g.40gb
partitions, each request free to take either GPU. No device is forced, so the
explanation walks the choices: whichever GPU the whole-GPU request takes, the
3g.40gb request runs out, and each choice is said with its numbers. Counters
are blamed only where the requests fit without them; over the walk's bound,
or where something the walk does not model decides, the generic line stays.
"""

from __future__ import annotations

import pytest

from allocator.allocation import counter_choices
from allocator.allocation.allocator import Allocator
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
from allocator.tests.helpers.counter_choices import (
    allocator_for,
    claims_of,
    without_counters,
)
from allocator.tests.helpers.partitionable_cases import CASES
from allocator.tests.helpers.samples import inventory_text, sample

NODE = "dgx-h100-01"
CHOICE = sample("examples", "mig-counters-choice")["documents"]
GENERIC = "no combination satisfies all requests"


def report(documents: str) -> dict:
    return analyze(documents, inventory_text("nvidia-mig"), node=NODE).to_dict()


def test_every_choice_of_gpu_is_walked_and_said_with_numbers():
    out = report(CHOICE)
    alloc = out["allocation"]
    assert alloc["status"] == "unsatisfiable"  # the answer is unchanged
    [entry] = alloc["counters"]
    assert entry["kind"] == "choices"
    assert entry["choice"] == {"claim": "default/mixed", "request": "whole", "choices": 2, "refused": 0}
    assert 0 < entry["steps"] <= counter_choices.MAX_STEPS
    # Without counters the claim fits: the proof that the counters are the cause.
    assert entry["withoutCounters"] == [
        {"claim": "default/mixed", "request": "whole", "devices": ["gpu-0"]},
        {"claim": "default/mixed", "request": "big", "devices": ["gpu-0-mig-4g40gb-5-0"]},
        {"claim": "default/mixed", "request": "more", "devices": ["gpu-0-mig-3g40gb-9-0", "gpu-0-mig-3g40gb-9-4"]}]
    first, second = entry["branches"]
    assert first["takes"] == [{"claim": "default/mixed", "request": "whole", "device": "gpu-0"},
                              {"claim": "default/mixed", "request": "big", "device": "gpu-1-mig-4g40gb-5-0"}]
    assert second["takes"] == [{"claim": "default/mixed", "request": "whole", "device": "gpu-1"},
                               {"claim": "default/mixed", "request": "big", "device": "gpu-0-mig-4g40gb-5-0"}]
    for branch in (first, second):
        assert (branch["request"], branch["needed"], branch["matching"], branch["fitting"]) == ("more", 2, 4, 1)
        assert branch["takenBy"] == []
    # Choice gpu-0: the whole GPU used up gpu-0's counters; the 4g.40gb took memory-slice-0 of gpu-1.
    why = {d["device"]: d["why"] for d in first["devices"]}
    assert sorted(why) == ["gpu-0-mig-3g40gb-9-0", "gpu-0-mig-3g40gb-9-4", "gpu-1-mig-3g40gb-9-0"]
    engines = why["gpu-0-mig-3g40gb-9-0"][0]
    assert (engines["counterSet"], engines["counter"], engines["total"], engines["left"], engines["needs"]) == (
        "gpu-0-counter-set", "copy-engines", "8", "0", "3")
    assert engines["takenBy"] == [{"device": "gpu-0", "holder": "request whole", "amount": "8", "allocated": False}]
    assert [w["counter"] for w in why["gpu-1-mig-3g40gb-9-0"]] == [f"memory-slice-{i}" for i in range(4)]
    slice0 = why["gpu-1-mig-3g40gb-9-0"][0]
    assert (slice0["counterSet"], slice0["counter"], slice0["left"], slice0["total"], slice0["needs"]) == (
        "gpu-1-counter-set", "memory-slice-0", "0", "1", "1")
    assert slice0["takenBy"] == [{"device": "gpu-1-mig-4g40gb-5-0", "holder": "request big", "amount": "1",
                                  "allocated": False}]
    assert entry["devices"] == first["devices"] and (entry["claim"], entry["request"]) == ("default/mixed", "more")
    reason = out["nodes"][0]["reason"]
    assert GENERIC not in reason
    assert reason.startswith(
        "claim default/mixed: the requests fit without shared counters (request whole gets gpu-0, request big gets "
        "gpu-0-mig-4g40gb-5-0, request more gets gpu-0-mig-3g40gb-9-0 and gpu-0-mig-3g40gb-9-4), but not with "
        "them: whatever request whole takes (2 choices), request more runs out of shared counters")
    assert ("if it takes gpu-0: request more needs 2 devices, but of the 4 devices that match it only 1 fits the "
            "shared counters left once request whole takes gpu-0 and request big takes gpu-1-mig-4g40gb-5-0: "
            "gpu-0-counter-set/copy-engines: 0 of 8 left (taken by gpu-0 of request whole), 2 devices need 3 each; "
            "gpu-1-counter-set/memory-slice-0: 0 of 1 left (taken by gpu-1-mig-4g40gb-5-0 of request big), "
            "gpu-1-mig-3g40gb-9-0 needs 1") in reason
    assert "if it takes gpu-1: request more needs 2 devices" in reason
    assert alloc["reasons"] == [f"{NODE}: {reason}"]


def test_one_3g_partition_fits_and_nothing_is_said():
    out = report(CHOICE.replace("count: 2", "count: 1"))
    assert out["allocation"]["status"] == "allocated"
    assert "counters" not in out["allocation"]


def test_over_the_bound_the_generic_line_stays(monkeypatch):
    monkeypatch.setattr(counter_choices, "MAX_STEPS", 5)
    out = report(CHOICE)
    assert out["allocation"]["status"] == "unsatisfiable"
    assert "counters" not in out["allocation"]
    assert GENERIC in out["nodes"][0]["reason"]


def test_a_constraint_is_not_modelled_so_the_generic_line_stays():
    documents = CHOICE.replace("    # No device", "    constraints:\n    - matchAttribute: "
                               "gpu.nvidia.com/productName\n    # No device")
    assert "matchAttribute" in documents
    out = report(documents)
    assert out["allocation"]["status"] == "unsatisfiable"
    assert "counters" not in out["allocation"]
    assert GENERIC in out["nodes"][0]["reason"]


def test_a_choice_across_claims_names_the_other_claim():
    out = report(_two_claims())
    [entry] = out["allocation"]["counters"]
    assert entry["choice"]["claim"] == "default/host"
    assert (entry["claim"], entry["request"]) == ("default/parts", "more")
    reason = out["nodes"][0]["reason"]
    assert reason.startswith("the claims: the requests fit without shared counters (request whole gets gpu-0, "
                             "claim default/parts, request big gets gpu-0-mig-4g40gb-5-0")
    assert "once claim default/host, request whole takes gpu-0 and request big takes gpu-1-mig-4g40gb-5-0" in reason
    holders = {t["holder"] for d in entry["devices"] for w in d["why"] for t in w["takenBy"]}
    assert holders == {"claim default/host, request whole", "request big"}


def _two_claims() -> str:
    def claim(name, requests):
        return (f"apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: {name}}}\nspec:\n"
                f"  devices:\n    requests:\n{requests}")
    selector = "      exactly:\n        deviceClassName: mig.nvidia.com\n        count: {n}\n        selectors:\n" \
               "        - cel: {{expression: \"device.attributes['gpu.nvidia.com'].profile == '{p}'\"}}\n"
    return (claim("host", "    - name: whole\n      exactly: {deviceClassName: gpu.nvidia.com}\n") + "---\n"
            + claim("parts", "    - name: big\n" + selector.format(n=1, p="4g.40gb")
                    + "    - name: more\n" + selector.format(n=2, p="3g.40gb")))


def test_devices_that_run_out_whatever_the_counters_are_not_blamed_on_them():
    # Five devices wanted of four: with or without counters the claims cannot fit (found by the property test).
    case = {"features": ["partitionable"], "classes": {"class-a": "driver-a"}, "allocated": [],
            "slices": [
                {"name": "slice-0", "pool": {"name": "pool-0", "count": 2}, "devices": [
                    {"name": "dev-0", "attributes": {"numa": 1}, "counters": [{"set": "other", "counters": {"slot": 1}}]},
                    {"name": "dev-1", "attributes": {"numa": 2}, "counters": [{"set": "cs", "counters": {"mem": 2}}]},
                    {"name": "dev-2", "attributes": {"numa": 0}, "counters": [{"set": "other", "counters": {"slot": 1}}]},
                    {"name": "dev-3", "attributes": {"numa": 0}, "counters": [{"set": "cs", "counters": {"mem": 3}}]}]},
                {"name": "counters-0", "pool": {"name": "pool-0", "count": 2},
                 "counterSets": {"cs": {"mem": 4}, "other": {"slot": 1}}}],
            "claims": [{"name": "claim-0", "requests": [{"name": "req-0", "class": "class-a", "count": 1}]},
                       {"name": "claim-1", "requests": [
                           {"name": "req-0", "class": "class-a", "count": 1,
                            "selectors": ['device.attributes["driver-a"].numa == 1']},
                           {"name": "req-1", "class": "class-a", "count": 2,
                            "selectors": ['device.attributes["driver-a"].numa != 2']},
                           {"name": "req-2", "class": "class-a", "count": 1}]}]}
    from allocator.allocation.switches import VARIANTS
    for variant in VARIANTS:
        node = build_node("node-1")
        assert not allocator_for(without_counters(case), variant).allocate(node, claims_of(case),
                                                                           explain_failure=False).allocated
        explanation = allocator_for(case, variant).explain(node, claims_of(case))
        assert not explanation.allocated and explanation.counters == [], variant.name


PARTITIONABLE = [p for p in table_params(CASES) if "partitionable" in p.id]


@pytest.mark.parametrize(("case", "variant"), PARTITIONABLE)
def test_upstream_partitionable_cases_keep_their_answers_and_blame_counters_only_with_proof(case, variant):
    # None of the table's partitionable cases fails on a combination of counters (their failures are single
    # devices: an incomplete pool, a gate off, a used-up counter); this guards that none is blamed on one.
    run_case(case, variant)  # the table's answer
    node = build_node(case.get("node"))
    claims = [build_claim(c) for c in case.get("claims", [])]
    allocator = Allocator(SearchInputs([build_class(n, s) for n, s in (case.get("classes") or {}).items()],
                                       [build_slice(s) for s in case.get("slices", [])], state=build_state(case)),
                          forced=Forced(case_features(case), variant))
    explanation = allocator.explain(node, claims)
    if not explanation.counters:
        return
    relaxed = {**case, "slices": [{**s, "counterSets": {}, "devices": _without_counters(s.get("devices", []))}
                                  for s in case.get("slices", [])]}
    assert Allocator(SearchInputs([build_class(n, s) for n, s in (relaxed.get("classes") or {}).items()],
                                  [build_slice(s) for s in relaxed["slices"]], state=build_state(relaxed)),
                     forced=Forced(case_features(relaxed), variant)
                     ).allocate(node, claims, explain_failure=False).allocated


def _without_counters(devices):
    if isinstance(devices, int):
        return devices
    return [d if isinstance(d, str) else {k: v for k, v in d.items() if k != "counters" and v != "fromCounters"}
            for d in devices]


HELD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held}
spec:
  devices:
    requests: [{name: mig, exactly: {deviceClassName: mig.nvidia.com}}]
status:
  allocation:
    devices:
      results: [{request: mig, driver: gpu.nvidia.com, pool: dgx-h100-01, device: gpu-1-mig-1g10gb-19-6}]
"""


def _partitions(*requests) -> str:
    text = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: new}\nspec:\n  devices:\n    requests:\n"
    for name, profile, count in requests:
        text += (f"    - name: {name}\n      exactly:\n        deviceClassName: mig.nvidia.com\n        count: {count}\n"
                 f"        selectors: [{{cel: {{expression: \"device.attributes['gpu.nvidia.com'].profile == "
                 f"'{profile}'\"}}}}]\n")
    return text


def test_a_choice_names_the_allocated_claim_and_the_device_another_request_took():
    out = report(HELD + "---\n" + _partitions(("big", "4g.40gb", 1), ("one", "3g.40gb", 1), ("two", "3g.40gb", 2)))
    assert out["allocation"]["status"] == "unsatisfiable"
    [entry] = out["allocation"]["counters"]
    assert entry["choice"]["request"] == "big" and entry["choice"]["choices"] == 2
    first, second = entry["branches"]
    # A device of request two that request one took itself is named as taken, not as short of counters.
    assert first["takenBy"] == [{"device": "gpu-0-mig-3g40gb-9-4", "claim": "default/new", "request": "one"}]
    assert (first["request"], first["matching"], first["fitting"]) == ("two", 3, 1)
    [short] = second["devices"]
    assert short["device"] == "gpu-1-mig-3g40gb-9-0"
    decoders = next(w for w in short["why"] if w["counter"] == "decoders")
    assert decoders["takenBy"] == [
        {"device": "gpu-1-mig-1g10gb-19-6", "holder": "allocated claim default/held", "amount": "1", "allocated": True},
        {"device": "gpu-1-mig-4g40gb-5-0", "holder": "request big", "amount": "4", "allocated": False}]
    assert (decoders["total"], decoders["left"], decoders["needs"]) == ("7", "2", "3")
    reason = out["nodes"][0]["reason"]
    assert ("if it takes gpu-0-mig-4g40gb-5-0: request two needs 2 devices, but of the 3 devices that match it, "
            "gpu-0-mig-3g40gb-9-4 is taken by request one, and only 1 of the rest fits the shared counters left once "
            "request big takes gpu-0-mig-4g40gb-5-0 and request one takes gpu-0-mig-3g40gb-9-4: ") in reason
    assert "gpu-1-mig-1g10gb-19-6 of allocated claim default/held, gpu-1-mig-4g40gb-5-0 of request big" in reason
