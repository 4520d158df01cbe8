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

RELEASES = ("1.34", "1.35", "1.36", "1.37")


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


def test_schedule_and_create_and_gates_differences():
    case = {"run": ["gates", "create", "schedule"]}
    node = {"name": "node-0", "fits": False, "reason": "cannot allocate all claims"}
    mine = {"gates": {"refused": None}, "create": [{"index": 0, "kind": "ResourceClaim", "name": "c", "stored": True,
                                                   "errors": []}],
            "schedule": {"node": "node-1", "nodes": [node, {"name": "node-1", "fits": True}], "names": {"pc": "p-pc-x"}}}
    theirs = copy.deepcopy(mine)
    assert differences(case, mine, theirs) == []
    theirs["schedule"]["nodes"][0]["reason"] = "resourceclaim not found"
    theirs["schedule"]["names"] = {"pc": "p-pc-y"}
    assert [d.category for d in differences(case, mine, theirs)] == ["reasons", "names"]
    theirs = copy.deepcopy(mine)
    theirs["create"][0].update(errors=[{"field": "spec", "type": "Invalid value", "detail": "x"}])
    assert [d.category for d in differences(case, mine, theirs)] == ["create verdict"]
    mine["create"][0].update(errors=[{"field": "spec", "type": "Invalid value", "detail": "y"}])
    assert [d.category for d in differences(case, mine, theirs)] == ["create errors"]
    theirs = copy.deepcopy(mine)
    theirs["gates"]["refused"] = "DRAAdminAccess is locked"
    assert [d.category for d in differences(case, mine, theirs)] == ["gates"]


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
    monkeypatch.setattr(regressions, "known_fingerprints", set)
    written = []
    monkeypatch.setattr(regressions, "write", lambda c, theirs, diffs: written.append((c, diffs)) or
                        regressions.DIRECTORY / "x.yaml")

    class NoHarness:
        start_seconds = 0.0

    monkeypatch.setattr(run, "generate_case", lambda seed, index, release, what: case)
    run.run_release("1.37", 1, 1, ["allocate"], NoHarness(), log=lambda line: None)
    assert written == [(case, [found[0].to_dict()])]


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
