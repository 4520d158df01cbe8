"""The differential runner's own logic, without Go: generated cases, the engine's side, the comparison
(on small hand-written upstream answers) and the shrinking."""

from __future__ import annotations

import copy

import pytest
import yaml

from allocator.releases.gates import make_gates
from upstream.differential import ours, regressions
from upstream.differential.compare import differences
from upstream.differential.generate import ALL_WHATS, generate_case
from upstream.differential.run import gallery_cases
from upstream.differential.shrink import shrink

RELEASES = ("1.31", "1.33", "1.34", "1.35", "1.36", "1.37")


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("what", ALL_WHATS)
def test_a_case_is_the_same_for_the_same_seed_and_number(release, what):
    assert generate_case(7, 3, release, what) == generate_case(7, 3, release, what)
    assert generate_case(7, 3, release, what) != generate_case(8, 3, release, what)


@pytest.mark.parametrize("release", RELEASES)
def test_generated_inventories_and_claims_are_valid_for_the_engine(release):
    """The allocator-only mode of the harness checks nothing, so its cases must be valid inputs: the
    engine refuses none (else the generator makes shapes the release does not accept)."""
    for index in range(25):
        case = generate_case(1, index, release, "allocate")
        make_gates(case["gates"], release)
        assert not ours.answer(case)["allocate"].get("refused"), case["id"]


def test_cases_before_1_34_are_written_in_v1beta2_with_dra_on():
    """1.33 has no resource.k8s.io/v1 and DRA is off by default: its cases use v1beta2 (v1's shape) and
    turn DynamicResourceAllocation on; the later releases' cases keep v1 and need no gate."""
    old, new = generate_case(1, 2, "1.33", "allocate"), generate_case(1, 2, "1.34", "allocate")
    assert old["gates"]["DynamicResourceAllocation"] is True
    assert "DynamicResourceAllocation" not in new["gates"]
    versions = {o["apiVersion"] for o in old["objects"] if o["apiVersion"].startswith("resource.k8s.io/")}
    assert "resource.k8s.io/v1beta2" in versions and "resource.k8s.io/v1" not in versions
    assert "resource.k8s.io/v1" in {o["apiVersion"] for o in new["objects"]}


@pytest.mark.parametrize("what", ALL_WHATS)
def test_1_31_cases_are_written_in_v1alpha3_with_dra_on(what):
    """1.31 serves resource.k8s.io/v1alpha3 only (requests and devices in the v1beta1 shape), DRA off by default."""
    case = generate_case(1, 2, "1.31", what)
    assert case["gates"]["DynamicResourceAllocation"] is True
    versions = {o["apiVersion"] for o in case["objects"] if o["apiVersion"].startswith("resource.k8s.io/")}
    assert versions == {"resource.k8s.io/v1alpha3"}


def test_the_1_33_gallery_runs_on_its_harness():
    cases = gallery_cases("1.33")
    assert cases, "the gallery has 1.33 examples"
    assert all(c["run"] in (["gates", "create", "allocate"], ["gates", "create", "schedule"]) for c in cases)


def test_stored_cases_before_1_34_are_written_in_v1beta2_with_dra_on_in_both_phases():
    from upstream.differential.stored import stored_case

    case = stored_case(1, 4, "1.33")
    assert case["created_gates"]["DynamicResourceAllocation"] is True
    assert case["gates"]["DynamicResourceAllocation"] is True
    assert [g for g, on in case["gates"].items() if not on], "one movable gate is turned off"
    make_gates(case["gates"], "1.33")
    versions = {o["apiVersion"] for o in case["objects"] if o["apiVersion"].startswith("resource.k8s.io/")}
    assert versions == {"resource.k8s.io/v1beta2"}


def _claim(results, name="claim-0", config=None):
    allocation = {"devices": {"results": results, **({"config": config} if config else {})}}
    return {"metadata": {"name": name}, "status": {"allocation": allocation}}


RESULT = {"request": "req-0", "driver": "d", "pool": "p", "device": "dev-0"}
CASE = {"run": ["allocate"]}


def test_share_ids_compare_by_their_pattern_only():
    ours_side = {"allocate": {"fits": True, "claims": [_claim([{**RESULT, "shareID": "a"}, {**RESULT, "shareID": "b"}])]}}
    same = {"allocate": {"fits": True, "claims": [_claim([{**RESULT, "shareID": "x"}, {**RESULT, "shareID": "y"}])]}}
    other = {"allocate": {"fits": True, "claims": [_claim([{**RESULT, "shareID": "x"}, {**RESULT, "shareID": "x"}])]}}
    assert differences(CASE, ours_side, same) == []
    assert [d.category for d in differences(CASE, ours_side, other)] == ["shares"]


def test_each_part_of_an_answer_has_its_category():
    base = {"allocate": {"fits": True, "claims": [_claim([RESULT])]}}
    moved = {"allocate": {"fits": True, "claims": [_claim([{**RESULT, "device": "dev-1"}])]}}
    configured = {"allocate": {"fits": True, "claims": [_claim([RESULT], config=[{"source": "FromClass"}])]}}
    refused = {"allocate": {"fits": False, "claims": []}}
    failed = {"allocate": {"fits": False, "claims": [], "error": "boom"}}
    failed_otherwise = {"allocate": {"fits": False, "claims": [], "error": "bang"}}
    assert [d.category for d in differences(CASE, base, moved)] == ["devices"]
    assert [d.category for d in differences(CASE, base, configured)] == ["config"]
    assert [d.category for d in differences(CASE, base, refused)] == ["verdict"]
    assert [d.category for d in differences(CASE, failed, failed_otherwise)] == ["error message"]
    # Fields one side leaves out when empty or false are the same as absent.
    assert differences(CASE, base, {"allocate": {"fits": True, "claims": [_claim([{**RESULT, "adminAccess": False}])]}}) == []


def _as_upstream(mine: dict) -> dict:
    """The harness's answer that agrees with ``mine``: its node reason is the scheduler's words."""
    theirs = copy.deepcopy(mine)
    for node in theirs.get("schedule", {}).get("nodes", []):
        if "schedulerReason" in node:
            node["reason"] = node.pop("schedulerReason")
    return theirs


def test_schedule_and_create_and_gates_differences():
    case = {"run": ["gates", "create", "schedule"]}
    # ours: the detailed explanation as reason, the scheduler's words as schedulerReason (what is compared)
    node = {"name": "node-0", "fits": False, "reason": "needs 2 device(s), 1 in reach",
            "schedulerReason": "cannot allocate all claims"}
    mine = {"gates": {"refused": None}, "create": [{"index": 0, "kind": "ResourceClaim", "name": "c", "stored": True,
                                                   "errors": []}],
            "schedule": {"node": "node-1", "nodes": [node, {"name": "node-1", "fits": True}], "names": {"pc": "p-pc-x"}}}
    theirs = _as_upstream(mine)
    assert differences(case, mine, theirs) == []
    theirs["schedule"]["nodes"][0]["reason"] = "resourceclaim not found"
    theirs["schedule"]["names"] = {"pc": "p-pc-y"}
    assert [d.category for d in differences(case, mine, theirs)] == ["reasons", "names"]
    theirs = _as_upstream(mine)
    theirs["create"][0].update(errors=[{"field": "spec", "type": "Invalid value", "detail": "x"}])
    assert [d.category for d in differences(case, mine, theirs)] == ["create verdict"]
    mine["create"][0].update(errors=[{"field": "spec", "type": "Invalid value", "detail": "y"}])
    assert [d.category for d in differences(case, mine, theirs)] == ["create errors"]
    theirs = _as_upstream(mine)
    theirs["gates"]["refused"] = "DRAAdminAccess is locked"
    assert [d.category for d in differences(case, mine, theirs)] == ["gates"]


def test_the_scheduler_words_and_the_pod_message_are_compared():
    case = {"run": ["schedule"]}
    node = {"name": "node-0", "fits": False, "reason": "Insufficient b: the pod asks for 2 (device plugin)",
            "schedulerReason": "Insufficient a, Insufficient b"}
    message = "0/1 nodes are available: 1 Insufficient a, 1 Insufficient b. preemption: ..."
    mine = {"schedule": {"node": None, "message": message, "nodes": [node], "names": {}}}
    theirs = {"schedule": {"node": None, "message": message, "names": {},
                           "nodes": [{"name": "node-0", "fits": False, "reason": "Insufficient b, Insufficient a"}]}}
    assert differences(case, mine, theirs) == []  # NodeResourcesFit lists them in Go's map order
    theirs["schedule"]["nodes"][0]["reason"] = "Insufficient a"
    [found] = differences(case, mine, theirs)
    assert (found.category, found.ours["schedulerReason"]) == ("reasons", "Insufficient a, Insufficient b")
    theirs["schedule"]["nodes"][0]["reason"] = "Insufficient a, Insufficient b"
    theirs["schedule"]["message"] = message.replace("preemption", "still not schedulable, preemption")
    assert [d.category for d in differences(case, mine, theirs)] == ["pod message"]


def test_shrinking_keeps_only_what_the_disagreement_needs():
    case = generate_case(1, 0, "1.37", "schedule")
    case["objects"].append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "culprit"},
                            "data": {"a": "1", "b": "2"}})

    def still(trial):  # a stand-in for a disagreement: it needs the ConfigMap's key "b"
        return any(o["kind"] == "ConfigMap" and "b" in o.get("data", {}) for o in trial["objects"])

    minimal, trials = shrink(case, still)
    assert minimal["objects"] == [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "culprit"},
                                   "data": {"b": "2"}}]
    assert trials < 400


def test_a_recorded_case_reads_back_as_the_case_it_was(tmp_path):
    case = generate_case(1, 2, "1.36", "allocate")
    path = regressions.write(case, {"allocate": {"fits": False}}, [{"category": "verdict", "where": "allocate",
                                                                     "ours": "fits", "upstream": "does not fit"}],
                             directory=tmp_path)
    [record] = regressions.load_all(tmp_path)
    assert record["status"] == "open" and path.stem == record["name"]
    assert regressions.fingerprint(regressions.case_of(record)) == regressions.fingerprint(case)


def test_the_gallery_is_run_on_each_examples_own_release():
    cases = gallery_cases("1.37")
    assert len(cases) >= 30
    assert all(c["release"] == "1.37" and c["objects"] for c in cases)
    older = {c["id"] for c in gallery_cases("1.34")}
    assert older and not older & {c["id"] for c in cases}


def test_a_plugin_error_is_read_out_of_the_pending_pods_message():
    # The scheduler stops on a plugin's error: no node, the framework's wrapping as the PodScheduled message.
    case = {"run": ["schedule"]}
    error = "claim default/pod-0-gpu-abcde: selector #0 on device d/p/dev-0: CEL runtime error: no such key: model"
    mine = {"schedule": {"node": None, "nodes": [], "names": {}, "error": error.replace("abcde", "fghij")}}
    theirs = {"schedule": {"node": None, "nodes": [], "names": {"gpu": "pod-0-gpu-abcde"},
                           "message": f'running "DynamicResources" filter plugin: {error}'}}
    assert differences(case, mine, theirs) == []  # the generated name's random part is hidden
    theirs["schedule"]["message"] = "0/1 nodes are available: 1 cannot allocate all claims."
    assert [d.category for d in differences(case, mine, theirs)] == ["verdict"]


def test_a_claim_the_pod_names_is_paired_by_its_own_name():
    # The pod's status lists only the claims made from templates: a claim it names keeps its name on both sides.
    case = {"run": ["schedule"]}
    claim = _claim([RESULT])
    mine = {"schedule": {"node": "node-0", "nodes": [], "names": {}, "claims": [claim]}}
    assert differences(case, mine, copy.deepcopy(mine)) == []
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
           "spec": {"containers": [{"name": "c"}], "resourceClaims": [{"name": "gpus", "resourceClaimName": "c"}]}}
    answer = ours.schedule({"release": "1.37", "gates": {}, "objects": [pod]})
    assert "gpus" not in (answer.get("names") or {})


def test_upstreams_admin_access_refusal_counts_only_with_the_namespace_in_the_input():
    # Without the Namespace, the harness's namespace has no labels; the engine cannot know them and warns.
    denied = {"field": "spec.devices.requests[0].adminAccess", "type": "Forbidden",
              "detail": "admin access to devices requires the `resource.kubernetes.io/admin-access: true` label "
                        "on the containing namespace"}
    entry = {"index": 0, "kind": "ResourceClaim", "namespace": "default", "name": "c", "errors": []}
    mine = {"create": [entry]}
    theirs = {"create": [{**entry, "errors": [denied]}]}
    claim = {"kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "default"}}
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}}
    assert differences({"run": ["create"], "objects": [claim]}, mine, theirs) == []
    assert [d.category for d in differences({"run": ["create"], "objects": [claim, namespace]}, mine, theirs)] == \
        ["create verdict"]


def test_a_stored_case_is_created_with_the_gates_on_and_read_as_stored_with_one_off():
    from upstream.differential.stored import as_stored, stored_case

    case = stored_case(1, 4, "1.37")
    assert case == stored_case(1, 4, "1.37")
    assert all(case["created_gates"].values())
    off = [g for g, on in case["gates"].items() if not on]
    assert off and all(case["created_gates"][g] for g in off)
    make_gates(case["gates"], "1.37")  # a set the components accept

    def harness(request):  # the create mode: every claim stored as written, with a uid and a time
        assert request["gates"] == case["created_gates"] and request["run"] == ["gates", "create"]
        return {"gates": {"refused": None}, "create": [
            {"index": i, "errors": [], "error": None,
             "object": {**obj, "metadata": {**obj["metadata"], "uid": "random", "creationTimestamp": "now"}}}
            for i, obj in enumerate(request["objects"])]}

    later, why = as_stored(case, harness)
    assert why is None and "created_gates" not in later and later["gates"] == case["gates"]
    claims = [o for o in later["objects"] if o["kind"] == "ResourceClaim" and not o.get("status")]
    assert claims and all(c["metadata"]["uid"].startswith("00000000-") and "creationTimestamp" not in c["metadata"]
                          for c in claims)


def test_a_disagreement_gone_once_shrunk_is_recorded_as_found(monkeypatch):
    # Upstream's choice among equal grants varies from run to run: when the shrunk case agrees on the
    # last ask, the case as found is recorded, never a case without a difference.
    from upstream.differential import run
    from upstream.differential.compare import Difference

    case = generate_case(1, 0, "1.37", "allocate")
    found = [Difference("devices", "allocate claim claim-0", ["a"], ["b"])]
    monkeypatch.setattr(run, "compare_case", lambda c, h: ({}, {"allocate": {"fits": True}}, found))
    monkeypatch.setattr(run, "_shrunk", lambda c, first, h: ({**c, "objects": []}, {}, []))
    monkeypatch.setattr(regressions, "recorded", dict)
    written = []
    monkeypatch.setattr(regressions, "write", lambda c, theirs, diffs, found=None: written.append((c, diffs)) or
                        regressions.DIRECTORY / "x.yaml")

    class NoHarness:
        start_seconds = 0.0

    monkeypatch.setattr(run, "generate_case", lambda seed, index, release, what: case)
    run.run_release("1.37", 1, 1, ["allocate"], NoHarness(), log=lambda line: None)
    assert written == [(case, [found[0].to_dict()])]


def _always_differing(monkeypatch, cases, recorded):
    """The runner on ``cases``, each disagreeing on devices and shrinking to the same minimal case."""
    from upstream.differential import run
    from upstream.differential.compare import Difference

    found = [Difference("devices", "allocate claim claim-0", ["a"], ["b"])]
    monkeypatch.setattr(run, "compare_case", lambda c, h: ({}, {"allocate": {"fits": True}}, found))
    minimal = {**cases[0], "objects": []}
    shrunk = []
    monkeypatch.setattr(run, "_shrunk", lambda c, first, h: shrunk.append(c["id"]) or (minimal, {}, found))
    monkeypatch.setattr(regressions, "recorded", lambda: dict(recorded))
    monkeypatch.setattr(run, "generate_case", lambda seed, index, release, what: cases[index])

    class NoHarness:
        start_seconds = 0.0

    tally = run.run_release("1.37", len(cases), 1, ["allocate"], NoHarness(), record=False, shrink_limit=1,
                            log=lambda line: None)
    return tally, shrunk, regressions.fingerprint(minimal)


def test_a_disagreement_past_the_shrink_limit_fails_the_run_unless_recorded_as_found(monkeypatch):
    cases = [generate_case(1, index, "1.37", "allocate") for index in range(3)]
    minimal = regressions.fingerprint({**cases[0], "objects": []})
    # Only the first is shrunk (to a recorded case); the two others are not, and are new: the run fails.
    tally, shrunk, _ = _always_differing(monkeypatch, cases, {minimal: None})
    assert shrunk == [cases[0]["id"]] and tally.known == 1
    assert [line.split()[0] for line in tally.new] == [cases[1]["id"], cases[2]["id"]]
    assert all("not shrunk" in line for line in tally.new)
    # Listed as found in a record, they are known without shrinking.
    listed = {minimal: None, **{regressions.fingerprint(c): None for c in cases[1:]}}
    tally, shrunk, _ = _always_differing(monkeypatch, cases, listed)
    assert tally.known == 3 and not tally.new and shrunk == [cases[0]["id"]]
    # A case as found that is recorded is not shrunk again.
    listed[regressions.fingerprint(cases[0])] = None
    tally, shrunk, _ = _always_differing(monkeypatch, cases, listed)
    assert tally.known == 3 and not tally.new and shrunk == []


def test_a_shrunk_case_lists_the_case_as_found_in_its_record(tmp_path):
    found_case = generate_case(1, 2, "1.36", "allocate")
    minimal = {**found_case, "objects": found_case["objects"][:1]}
    diffs = [{"category": "verdict", "where": "allocate", "ours": "fits", "upstream": "does not fit"}]
    path = regressions.write(minimal, {"allocate": {"fits": False}}, diffs, directory=tmp_path,
                             found=regressions.fingerprint(found_case))
    known = regressions.recorded(tmp_path)
    assert known == {regressions.fingerprint(minimal): path, regressions.fingerprint(found_case): path}
    # A later case that shrinks to it is added; what was edited by hand in the file stays as it was.
    path.write_text(path.read_text(encoding="utf-8").replace("status: open", "status: open  # cause known"),
                    encoding="utf-8")
    other = generate_case(1, 3, "1.36", "allocate")
    regressions.add_found(path, regressions.fingerprint(other))
    regressions.add_found(path, regressions.fingerprint(other))  # once only
    text = path.read_text(encoding="utf-8")
    assert "status: open  # cause known" in text
    [record] = regressions.load_all(tmp_path)
    assert record["found"] == sorted([regressions.fingerprint(found_case), regressions.fingerprint(other)])
    assert set(regressions.recorded(tmp_path)) == {regressions.fingerprint(c) for c in (minimal, found_case, other)}
    # A record written before cases as found were listed gets the list at its end.
    older = regressions.write(other, {"allocate": {"fits": False}}, diffs, directory=tmp_path)
    regressions.add_found(older, regressions.fingerprint(found_case))
    assert yaml.safe_load(older.read_text(encoding="utf-8"))["found"] == [regressions.fingerprint(found_case)]


def test_shrinking_keeps_a_pod_the_apiserver_would_take():
    from upstream.differential.shrink import pod_problems

    case = next(c for c in (generate_case(1, i, "1.37", "schedule") for i in range(40))
                if any(o["kind"] == "Pod" and o["spec"].get("resourceClaims") and o["spec"].get("initContainers")
                       for o in c["objects"]))
    assert not pod_problems(next(o for o in case["objects"] if o["kind"] == "Pod"))

    def still(trial):  # a stand-in for a disagreement that needs only the Pod
        return any(o["kind"] == "Pod" for o in trial["objects"])

    minimal, _ = shrink(case, still)
    [pod] = minimal["objects"]
    assert pod_problems(pod) == []
    assert [set(c) for c in pod["spec"]["containers"]] == [{"name", "image"}]
    assert "initContainers" not in pod["spec"] and not pod["spec"].get("resourceClaims")


def test_the_pod_rules_name_what_the_apiserver_refuses():
    from upstream.differential.shrink import pod_problems

    pod = {"kind": "Pod", "spec": {
        "resourceClaims": [{"name": "a", "resourceClaimName": "c", "resourceClaimTemplateName": "t"}, {}],
        "initContainers": [{"name": "i", "resources": {"claims": [{"name": "b"}],
                                                      "requests": {"example.com/gpu": "1"}}}]}}
    assert pod_problems(pod) == [
        "spec.containers: Required value",
        "spec.resourceClaims[0]: must specify exactly one source",
        "spec.resourceClaims[1].name: Required value",
        "spec.resourceClaims[1]: must specify exactly one source",
        "spec.initContainers[0].image: Required value",
        "spec.initContainers[0].resources.claims[0].name: Not found",
        "spec.initContainers[0].resources.requests[example.com/gpu]: must equal the limit",
    ]


def test_two_unknown_gates_are_refused_naming_either():
    # component-base stops at the first unknown gate in Go's random map order: either name is upstream's answer.
    case = {"run": ["gates"], "gates": {"DRAOptionalNodeOperations": True,
                                        "DRAResourceClaimGranularStatusAuthorization": False}}
    mine = {"gates": {"refused": "unrecognized feature gate: DRAOptionalNodeOperations"}}
    theirs = {"gates": {"refused": "unrecognized feature gate: DRAResourceClaimGranularStatusAuthorization"}}
    assert differences(case, mine, theirs) == []
    theirs = {"gates": {"refused": "[cannot set feature gate X to false, feature is locked to true, "
                                   "unrecognized feature gate: DRAResourceClaimGranularStatusAuthorization]"}}
    assert differences(case, mine, theirs) == []
    # A gate named that is not in the set, or a refusal of another kind, still differs.
    theirs = {"gates": {"refused": "unrecognized feature gate: SomethingElse"}}
    assert [d.category for d in differences(case, mine, theirs)] == ["gates"]
    theirs = {"gates": {"refused": "cannot set feature gate X to false, feature is locked to true"}}
    assert [d.category for d in differences(case, mine, theirs)] == ["gates"]


def test_without_a_pod_the_scheduler_side_schedules_nothing():
    # kube-scheduler only schedules pods: a claim no pod uses stays unallocated, even where a node could serve it
    # (the harness answers an empty schedule result then). Found as schedule-1.37-verdict-3e2f1bac.
    objects = [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-a"}},
        {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"}, "spec": {}},
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
         "spec": {"driver": "gpu.example.com", "nodeName": "node-a", "pool": {"name": "p", "resourceSliceCount": 1},
                  "devices": [{"name": "gpu-0"}]}},
        {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "default"},
         "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "gpu"}}]}}},
    ]
    case = {"id": "no-pod", "release": "1.37", "gates": {}, "node": None, "objects": objects, "run": ["schedule"]}
    assert ours.answer(case)["schedule"] == {"node": None, "nodes": [], "claims": [], "names": {}, "error": None}
    # The same text with a pod is scheduled (the documents form is read too).
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
           "spec": {"containers": [{"name": "x", "image": "x", "resources": {"claims": [{"name": "g"}]}}],
                    "resourceClaims": [{"name": "g", "resourceClaimName": "c"}]}}
    with_pod = {key: value for key, value in case.items() if key != "objects"}
    with_pod["documents"] = yaml.safe_dump_all([*objects, pod])
    assert ours.answer(with_pod)["schedule"]["node"] == "node-a"


def test_a_scheduling_difference_shrinks_only_to_inputs_the_apiserver_takes(monkeypatch):
    # The scheduler runs on whatever objects it is given: a scheduler difference that shrinks to a slice
    # without a driver compares the engine's refusal with a scheduling error, which says nothing.
    from upstream.differential import run
    from upstream.differential.compare import Difference

    case = generate_case(1, 3, "1.37", "schedule")
    assert run._accepted(case)
    first = Difference("error message", "schedule", "a", "b")
    compared = []

    def compare_case(trial, harnesses):  # the difference lasts while a slice is left
        compared.append(trial)
        return {}, {}, [first] if any(o["kind"] == "ResourceSlice" for o in trial["objects"]) else []

    monkeypatch.setattr(run, "compare_case", compare_case)
    minimal, _, _ = run._shrunk(case, first, None)
    assert [o["kind"] for o in minimal["objects"]] == ["Node", "ResourceSlice"]  # a Node stays (below)
    assert all(run._accepted(trial) for trial in compared)


def test_a_pod_left_waiting_is_not_asked_again(monkeypatch):
    # A pod the scheduler neither binds nor refuses costs the harness its whole wait; asked again thirty
    # times, one such case (a trial of shrinking, say) held a run for ten minutes.
    from upstream.differential import run

    case = generate_case(1, 3, "1.37", "schedule")
    waiting = {"schedule": {"pod": "default/pod-0", "node": None, "nodes": [], "claims": [], "names": {},
                            "message": "the pod was neither bound nor refused within 20s"}}

    class Harnesses:
        runs = 0

        def run(self, c):
            self.runs += 1
            return waiting

    harnesses = Harnesses()
    mine, theirs, found = run.compare_case(case, harnesses)
    assert found and harnesses.runs == 1 and theirs is waiting


def test_a_case_with_nodes_shrinks_to_one_with_nodes(monkeypatch):
    # Without Node objects the engine tries the nodes its slices name, where the scheduler knows no node: a
    # verdict difference once shrank to that, far from the difference found.
    from upstream.differential import run
    from upstream.differential.compare import Difference

    case = generate_case(1, 3, "1.37", "schedule")
    assert run._has_nodes(case)
    first = Difference("verdict", "schedule node", "node-1", None)
    monkeypatch.setattr(run, "compare_case", lambda c, h: ({}, {}, [first]))
    monkeypatch.setattr(run, "SCHEDULE_SHRINK_BUDGET", 60)
    minimal, _, _ = run._shrunk(case, first, None)
    assert minimal != case and run._has_nodes(minimal)


def _answers(*answers):
    """A stand-in harness giving ``answers`` in turn, counting the asks."""

    class Harness:
        runs = 0

        def run(self, c):
            self.runs += 1
            return answers[min(self.runs, len(answers)) - 1]

    return Harness()


_FITS = {"allocate": {"node": "n", "fits": True, "claims": [], "error": None}, "error": None}
_DOES_NOT_FIT = {"allocate": {"node": "n", "fits": False, "claims": [], "error": None}, "error": None}
_PANIC = {"error": "harness panic: runtime error: index out of range [2] with length 1\ngoroutine 1 [running]:"}


def test_a_panic_when_asked_again_is_one_more_answer(monkeypatch):
    # Upstream walks slices in map order: in one order it answers, in another it panics (1.34's capacity
    # check past a slice's end). A panic on a later ask is one of its answers; asking goes on.
    from upstream.differential import run

    case = generate_case(1, 0, "1.37", "allocate")
    monkeypatch.setattr(run.ours, "answer", lambda c: _DOES_NOT_FIT)
    harness = _answers(_FITS, _PANIC, _FITS, _DOES_NOT_FIT)
    mine, theirs, found = run.compare_case(case, harness)
    assert not found and theirs["varies"] and harness.runs == 4
    assert run.not_comparable(case, mine, theirs) is None

    harness = _answers(_FITS, _PANIC, _FITS)  # never the engine's: a disagreement, the panic an alternative
    mine, theirs, found = run.compare_case(case, harness)
    assert found and run.not_comparable(case, mine, theirs) is None
    assert [a.get("error") for a in theirs["alternatives"]] == [_PANIC["error"]]


def test_a_first_answer_that_panics_is_asked_again_until_upstream_answers(monkeypatch):
    # 1.34 stored case 10 of seed 1: a panic first, the engine's answer in 5 of 15 asks.
    from upstream.differential import run

    case = generate_case(1, 0, "1.37", "allocate")
    monkeypatch.setattr(run.ours, "answer", lambda c: _DOES_NOT_FIT)
    harness = _answers(_PANIC, _PANIC, _DOES_NOT_FIT)
    mine, theirs, found = run.compare_case(case, harness)
    assert not found and harness.runs == 3 and theirs["varies"] and theirs["panicked"] == _PANIC["error"]
    assert run.not_comparable(case, mine, theirs) is None

    harness = _answers(_PANIC, _FITS)  # the first answer without a panic is compared as usual
    mine, theirs, found = run.compare_case(case, harness)
    assert found and found[0].category == "verdict" and run.not_comparable(case, mine, theirs) is None


def test_a_case_upstream_panics_on_every_time_is_not_compared_and_names_the_panic(monkeypatch):
    from upstream.differential import run

    case = generate_case(1, 0, "1.37", "allocate")
    monkeypatch.setattr(run.ours, "answer", lambda c: _DOES_NOT_FIT)
    harness = _answers(_PANIC)
    mine, theirs, _found = run.compare_case(case, harness)
    assert harness.runs == 1 + run.PANIC_REASKS
    assert run.not_comparable(case, mine, theirs) == (
        "upstream panics in every order asked (index out of range [2] with length 1)")


    failed = {"error": "the harness failed: the 1.37 harness stopped answering"}
    harness = _answers(failed)  # not a panic: nothing to ask again
    mine, theirs, _found = run.compare_case(case, harness)
    assert harness.runs == 1 and run.not_comparable(case, mine, theirs) == "harness error"


def test_a_crash_the_engine_predicts_agrees_however_late_it_comes(monkeypatch):
    from upstream.differential import run

    case = generate_case(1, 0, "1.34", "allocate")
    crashes = {"allocate": {"node": "n", "fits": False, "claims": [], "error": (
        "claim default/c: kube-scheduler 1.34 crashes here: ... which panics: index out of range [2] with "
        "length 1 (kubernetes/kubernetes#133705, fixed in 1.35)")}}
    monkeypatch.setattr(run.ours, "answer", lambda c: crashes)
    other = {"error": "harness panic: runtime error: index out of range [1] with length 1"}
    harness = _answers(other, _FITS, _PANIC)
    mine, theirs, found = run.compare_case(case, harness)
    assert not found and theirs["varies"] and theirs["error"] == _PANIC["error"] and harness.runs == 3
    assert run.not_comparable(case, mine, theirs) is None


def test_the_scheduler_crash_the_engine_predicts_is_compared_in_the_schedule_mode(monkeypatch):
    # Gap closed: the engine's scheduling answer names the crash; upstream's harness died of the same panic.
    from upstream.differential import run

    case = generate_case(1, 0, "1.34", "schedule")
    mine = {"schedule": {"node": None, "nodes": [], "claims": [], "names": {}, "error": (
        "claim default/claim-0: kube-scheduler 1.34 crashes here: ... which panics: index out of range [1] "
        "with length 1 (kubernetes/kubernetes#133705, fixed in 1.35)")}}
    monkeypatch.setattr(run.ours, "answer", lambda c: mine)
    died = {"error": "harness panic: runtime error: index out of range [1] with length 1\n"
                     "(the process died of it: kube-scheduler crashed)"}
    harness = _answers(died)
    _mine, theirs, found = run.compare_case(case, harness)
    assert not found and harness.runs == 1 and run.not_comparable(case, mine, theirs) is None


def test_the_panic_a_dead_harness_printed_is_its_answer(tmp_path, monkeypatch):
    # kube-scheduler's goroutine repanics, so the harness process dies and prints the panic on stderr.
    from upstream import client
    from upstream.differential import crashes

    said = ("E1206 02:44:38.608394   11452 panic.go:236] \"Observed a panic\" pod=\"default/pod-0\"\n"
            "panic: runtime error: index out of range [1] with length 1 [recovered, repanicked]\n\n"
            "goroutine 812 [running]:\n")
    assert crashes.died_of(said).startswith("harness panic: runtime error: index out of range [1] with length 1\n")
    assert crashes.died_of("E1206 scheduling failed\n") is None
    assert crashes.panic_words(crashes.died_of(said)) == "index out of range [1] with length 1"

    dies = tmp_path / "dies"
    dies.write_text("#!/bin/sh\nread line\nprintf 'klog line\\npanic: runtime error: invalid memory address or "
                    "nil pointer dereference [recovered]\\n' >&2\nexit 2\n")
    dies.chmod(0o755)
    monkeypatch.setattr(crashes, "build", lambda release: dies)
    monkeypatch.setattr(client, "build", lambda release: dies)
    harness = crashes.CrashReadingHarness(release="1.34")
    answer = harness.run({"id": "x", "objects": [], "run": ["schedule"]})
    assert crashes.panic_words(answer["error"]) == "invalid memory address or nil pointer dereference"

    quiet = tmp_path / "quiet"
    quiet.write_text("#!/bin/sh\nread line\nexit 2\n")
    quiet.chmod(0o755)
    monkeypatch.setattr(crashes, "build", lambda release: quiet)
    with pytest.raises(client.HarnessError):
        crashes.CrashReadingHarness(release="1.34").run({"id": "y", "objects": [], "run": ["schedule"]})


def test_a_panic_the_engine_names_is_the_same_answer():
    # 1.34's capacity check past a slice's end: upstream's harness panics, the engine says the scheduler crashes.
    from upstream.differential import run

    case = generate_case(1, 0, "1.34", "allocate")
    mine = {"allocate": {"node": "n", "fits": False, "claims": [], "error": (
        "claim default/c: kube-scheduler 1.34 crashes here: ... which panics: index out of range [2] with "
        "length 1 (kubernetes/kubernetes#133705, fixed in 1.35)")}}
    panic = {"error": "harness panic: runtime error: index out of range [2] with length 1\ngoroutine 1 [running]:"}
    other = {"error": "harness panic: runtime error: index out of range [1] with length 1\ngoroutine 1 [running]:"}
    assert run.same_panic(mine, panic) and run.not_comparable(case, mine, panic) is None
    assert not run.same_panic(mine, other)
    assert run.not_comparable(case, mine, other) == (
        "upstream panics in every order asked (index out of range [1] with length 1)")


def test_shrinking_keeps_an_object_stored():
    # A stored claim read without its uid and resourceVersion would be created anew (fields of disabled
    # features dropped), which is another case.
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
             "metadata": {"name": "c", "namespace": "default", "uid": "u", "resourceVersion": "1", "labels": {"a": "b"}},
             "spec": {}}
    small, _ = shrink({"release": "1.34", "objects": [claim]}, lambda c: bool(c["objects"]))
    assert small["objects"][0]["metadata"] == {"name": "c", "namespace": "default", "uid": "u", "resourceVersion": "1"}


def test_upstream_is_asked_on_while_it_keeps_giving_new_answers(monkeypatch):
    # A scheduler case with three nodes that fit: the node is drawn at random and each node's devices follow
    # the slices' order, so the engine's answer may be one of many (once in twenty asks); thirty asks then
    # missed it one time in five. Upstream is asked on while its answers keep changing.
    from upstream.differential import run

    case = generate_case(1, 0, "1.37", "allocate")
    monkeypatch.setattr(run.ours, "answer", lambda c: {"allocate": {"node": "n", "fits": False, "claims": [],
                                                                     "error": "mine"}})

    class Harness:
        runs = 0

        def run(self, c):
            self.runs += 1
            error = "mine" if self.runs == 50 else f"answer {self.runs}"  # a new answer each time until the 50th
            return {"allocate": {"node": "n", "fits": False, "claims": [], "error": error}, "error": None}

    harnesses = Harness()
    mine, theirs, found = run.compare_case(case, harnesses)
    assert not found and theirs["varies"] and harnesses.runs == 50

    class Same(Harness):  # the same other answer every time: asked the usual thirty times more, no further
        def run(self, c):
            self.runs += 1
            return {"allocate": {"node": "n", "fits": False, "claims": [], "error": "theirs"}, "error": None}

    harnesses = Same()
    mine, theirs, found = run.compare_case(case, harnesses)
    assert found and harnesses.runs == 1 + run.REASKS


def test_a_scheduling_case_is_asked_longer_for_a_rare_answer(monkeypatch):
    # 1.34 scheduler case 574 of seed 1: three equal nodes, pools rotated; the engine's node came back 4 times
    # in 40, and thirty asks without a new answer missed it.
    from upstream.differential import run

    case = generate_case(1, 0, "1.34", "schedule")
    mine = {"schedule": {"node": "node-0", "nodes": [], "claims": [], "names": {}, "error": None}}
    other = {"schedule": {"node": "node-1", "nodes": [], "claims": [], "names": {}, "error": None}, "error": None}
    monkeypatch.setattr(run.ours, "answer", lambda c: mine)
    harness = _answers(*[other] * 100, {**mine, "error": None})
    _mine, theirs, found = run.compare_case(case, harness)
    assert not found and theirs["varies"] and harness.runs == 101

    harness = _answers(other)
    _mine, theirs, found = run.compare_case(case, harness)
    assert found and harness.runs == 1 + run.SCHEDULE_REASKS


def test_shrinking_keeps_a_v1beta1_devices_basic():
    # 1.32's apiserver refuses a v1beta1 device without `basic`, which the engine's create accepts: a case
    # once shrank to such a slice and showed a difference about an input no 1.32 cluster stores.
    from upstream.differential.shrink import shrink

    slice_ = {"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice", "metadata": {"name": "s"},
              "spec": {"driver": "d", "nodeName": "n", "pool": {"name": "p", "resourceSliceCount": 1},
                       "devices": [{"name": "dev-0", "basic": {"attributes": {"numa": {"int": 1}}}}]}}
    def has_a_device(trial):
        return any(o.get("spec", {}).get("devices") for o in trial["objects"])

    minimal, _ = shrink({"gates": {}, "objects": [slice_]}, has_a_device)
    assert minimal["objects"][0]["spec"]["devices"] == [{"basic": {}}]
    as_v1 = {**slice_, "apiVersion": "resource.k8s.io/v1",
             "spec": {**slice_["spec"], "devices": [{"name": "dev-0", "attributes": {"numa": {"int": 1}}}]}}
    minimal, _ = shrink({"gates": {}, "objects": [as_v1]}, has_a_device)
    assert minimal["objects"][0]["spec"]["devices"] == [{}]
