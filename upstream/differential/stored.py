"""Objects stored earlier: created with the gates on, then allocated with one of them off.

A claim read from a cluster (``metadata.uid`` or ``resourceVersion``) already passed the apiserver, perhaps
while a feature was on that is off now; it keeps that feature's fields, and the scheduler's allocator refuses
what it cannot honour ("has subrequests, but the DRAPrioritizedList feature is disabled"). Upstream's
upgrade/downgrade tests check this by creating objects, restarting the components with a gate turned off
and scheduling. The differential does the same in two phases: the harness's create mode stores the case's
pending claims with every movable gate on (``created_gates``), then the case is compared with those claims
as the apiserver stored them and one gate turned off (``gates``), the engine reading the same objects as
stored ones.
"""

from __future__ import annotations

import copy

from allocator.releases.gates import FeatureGateError, defaults, make_gates
from allocator.releases.rules import rules_of
from allocator.releases.table import release as release_table
from upstream.differential.generate import (
    MOVABLE_GATES,
    NAMESPACE,
    _meta,
    _Shape,
    case_rng,
    write_in_served_version,
)


def stored_case(seed: int, index: int, release: str) -> dict:
    """Case ``index`` of ``seed``: an allocator case drawn with every movable gate on, and one turned off."""
    rng = case_rng(seed, index, f"{release}/stored")
    table = release_table(release)
    created = {g: True for g in MOVABLE_GATES if table.exists(g) and not table.locked(g)}
    # DRA itself is off by default before 1.34: it stays on in both phases (off, nothing is served).
    dra = {} if defaults(release).get("DynamicResourceAllocation", True) else {"DynamicResourceAllocation": True}
    created = {**dra, **created}
    try:
        on = make_gates(created, release).enabled
    except FeatureGateError:
        created = dict(dra)
        on = make_gates(created, release).enabled
    shape = _Shape(rng, release, on, binding=True)
    objects = shape.inventory() + shape.workload(with_pod=False)
    if shape.admin_access:
        objects.insert(0, {"apiVersion": "v1", "kind": "Namespace", "metadata": _meta(
            NAMESPACE, labels={rules_of(release).admin_access_label: "true"})})
    write_in_served_version(objects, release)
    later = dict(created)
    movable = sorted(set(created) - set(dra))
    for gate in rng.sample(movable, k=len(movable)):  # the first one the components accept off
        trial = {**created, **{g: False for g in _with_dependents(gate, table)}}
        try:
            make_gates(trial, release)
        except FeatureGateError:
            continue
        later = trial
        break
    return {"id": f"stored-{release}-{seed}-{index}", "release": release, "gates": later,
            "created_gates": created, "node": rng.choice(shape.nodes), "objects": objects, "run": ["allocate"]}


def _with_dependents(gate: str, table) -> set[str]:
    """``gate`` and the gates that depend on it, directly or not (off together, the components accept them)."""
    found = {gate}
    dependencies = table.dependencies()
    while True:
        more = {g for g, needs in dependencies.items() if found & set(needs)} - found
        if not more:
            return found
        found |= more


def as_stored(case: dict, harness_run) -> tuple[dict | None, str | None]:
    """The case with its pending claims replaced by the objects the harness's apiserver stored under
    ``created_gates`` (given a uid and a resourceVersion, as a cluster hands them out), or None and why not."""
    created = harness_run({"id": f"{case['id']}/create", "release": case["release"],
                           "gates": case["created_gates"], "node": None, "objects": case["objects"],
                           "run": ["gates", "create"]})
    if created.get("error") or (created.get("gates") or {}).get("refused"):
        return None, "harness error"
    objects = copy.deepcopy(case["objects"])
    for entry in created.get("create") or []:
        obj = objects[entry["index"]]
        if obj.get("kind") != "ResourceClaim" or (obj.get("status") or {}).get("allocation"):
            continue
        if entry.get("error") or entry.get("errors") or not entry.get("object"):
            return None, "refused on create"
        stored = copy.deepcopy(entry["object"])
        # What the apiserver draws or stamps (uid, time) is made fixed, so that the same case is the same input.
        meta = stored.setdefault("metadata", {})
        meta.pop("creationTimestamp", None)
        meta["uid"] = f"00000000-0000-0000-0000-{entry['index']:012d}"
        meta["resourceVersion"] = str(entry["index"] + 1)
        objects[entry["index"]] = stored
    later = {key: value for key, value in case.items() if key != "created_gates"}
    if not later["gates"].get("DRADeviceTaintRules", True):
        # With the gate off the apiserver no longer serves DeviceTaintRules and the scheduler does not read
        # them: they stay in storage, out of the case.
        objects = [obj for obj in objects if obj.get("kind") != "DeviceTaintRule"]
    later["objects"] = objects
    return later, None
