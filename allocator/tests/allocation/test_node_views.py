"""Nodes that look the same share one search (``allocation.node_views``): exactly the answers of searching each.

The property: random clusters of a few kinds of nodes (the same devices
under each node's own pool, with attributes that differ or not, some
nodes with allocated devices, pools shared by name or spread over nodes,
incomplete pools, slices for all nodes or by labels, per-device node
selection, counters, taints, shared devices) and random claims go through
``Allocator.allocate_every`` with ``share_outcomes`` off and on: every
node's answer (fits, reason, error, proof, steps, devices) and any error
that stops the walk must be the same. The examples then show which nodes
were answered by another's search, and the tests below pin when that
must and must not happen.

100 examples by default (no deadline); ``PROPERTY_EXAMPLES=5000`` explores
further, and ``CI`` derandomizes as in ``test_properties``.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from allocator import engine
from allocator.allocation import allocator as allocate_module
from allocator.allocation import node_views
from allocator.allocation.allocator import Allocator
from allocator.allocation.encode import to_json
from allocator.allocation.errors import AllocatorError, SearchLimitError
from allocator.allocation.inputs import Forced, SearchInputs, SearchLimits, SearchOptions
from allocator.allocation.node_views import FrozenSlices
from allocator.allocation.switches import VARIANTS
from allocator.synthetic import cluster_yaml
from allocator.tests.helpers import BENCH_CLAIM
from allocator.tests.helpers.allocate_table import (
    build_claim,
    build_class,
    build_node,
    build_slice,
    build_state,
    case_features,
)
from allocator.tests.helpers.strategies import BOUNDED, FEATURES, SELECTORS, devices, requests

# Selectors that read an attribute every node has its own value of, or the whole device.
NODE_SELECTORS = SELECTORS + [
    'device.attributes["driver-a"].serial != "serial-0-0"',
    'size(device.attributes["driver-a"]) > 1',
]

# True about one time in ten (integers would be drawn at their bounds far more often).
RARELY = st.sampled_from([False] * 9 + [True])


@st.composite
def clusters(draw):
    features = sorted(draw(st.sets(st.sampled_from(FEATURES))))
    kinds = [draw(devices(k, features)) for k in range(draw(st.integers(1, 3)))]
    if not draw(RARELY):  # mostly no device without a model or numa: selectors fail there and stop the walk
        for kind in kinds:
            for d in kind:
                d["attributes"].setdefault("model", draw(st.sampled_from(["m1", "m2"])))
                d["attributes"].setdefault("numa", draw(st.integers(0, 2)))
    nodes, slices = [], []
    for n in range(draw(st.integers(2, 8))):
        name = f"node-{n}"
        nodes.append({"name": name, "labels": {"region": draw(st.sampled_from(["r1", "r2"]))}})
        own = [dict(d, attributes=dict(d.get("attributes") or {})) for d in kinds[draw(st.integers(0, len(kinds) - 1))]]
        for d in own:
            d["attributes"]["serial"] = f"serial-{n}-{d['name']}"  # each node's own, read by one selector only
            if draw(RARELY):
                d["attributes"]["numa"] = draw(st.integers(0, 2))  # this node's device differs
        pool = draw(st.sampled_from([f"pool-{n}", f"pool-{n}", f"pool-{n}", "pool-shared", "pool-0"]))
        spec = {"name": f"slice-{n}", "driver": "driver-a", "pool": {"name": pool}, "node": name, "devices": own}
        if draw(RARELY):
            spec["pool"]["missing"] = 1  # a slice of the pool is not published yet: it is incomplete
        if "partitionable" in features:
            spec["counterSets"] = {"cs": {"mem": draw(st.sampled_from([2, 3, 4, 6]))}}
        slices.append(spec)
    for spec in slices:  # a pool spread over nodes counts their slices
        pool = spec["pool"]
        pool["count"] = sum(s["pool"]["name"] == pool["name"] for s in slices) + pool.pop("missing", 0)
    for extra in range(draw(st.integers(0, 2))):
        selection = draw(st.sampled_from(["all", {"region": ["r1"]}, "per-device"]))
        extra_devices = draw(devices(10 + extra, features))
        if selection == "per-device":
            for d in extra_devices:
                d["node"] = draw(st.sampled_from(["all", "node-0", {"region": ["r2"]}]))
        slices.append({"name": f"slice-extra-{extra}", "driver": draw(st.sampled_from(["driver-a", "driver-b"])),
                       "pool": f"pool-extra-{extra}", "node": selection, "devices": extra_devices})
    claims = []
    for ci in range(draw(st.sampled_from([1, 1, 2]))):
        reqs = [draw(requests(features, ri, False)) for ri in range(draw(st.sampled_from([1, 2, 2, 3])))]
        for r in reqs:
            if draw(st.integers(0, 4)) == 0:
                r["selectors"] = [draw(st.sampled_from(NODE_SELECTORS))]
        constraints = []
        for _ in range(draw(st.integers(0, 2))):
            attribute = draw(st.sampled_from(["driver-a/numa", "driver-a/model", "driver-a/serial"]))
            kind = "distinct" if draw(st.integers(0, 3)) == 0 else "match"
            names = draw(st.sets(st.sampled_from([r["name"] for r in reqs])))
            constraints.append({kind: attribute, "requests": sorted(names)})
        claims.append({"name": f"claim-{ci}", "requests": reqs, "constraints": constraints})
    every = sorted({f"{s['driver']}/{s['pool']['name'] if isinstance(s['pool'], dict) else s['pool']}/{d['name']}"
                    for s in slices for d in s["devices"]})
    allocated = sorted(draw(st.sets(st.sampled_from(every), max_size=3))) if draw(st.booleans()) else []
    return {"features": features, "classes": {"class-a": "driver-a", "class-b": "driver-b"}, "nodes": nodes,
            "slices": slices, "claims": claims, "allocated": allocated}


def answers(case: dict, variant, share: bool) -> tuple[list, str | None, int]:
    """(per node tried: its answer, the error that stopped the walk or None, how many were shared)."""
    allocator = Allocator(SearchInputs([build_class(n, s) for n, s in case["classes"].items()],
                                       [build_slice(s) for s in case["slices"]], state=build_state(case)),
                          limits=SearchLimits(max_steps=200_000, filter_timeout=None),
                          options=SearchOptions(prove=True, share_outcomes=share),
                          forced=Forced(case_features(case), variant))
    claims = [build_claim(c) for c in case["claims"]]
    out, error, shared = [], None, 0
    try:
        for o in allocator.allocate_every([build_node(n) for n in case["nodes"]], claims):
            shared += o.explanation is None and not o.allocated and not o.error
            out.append((o.node_name, o.allocated, o.reason, o.error, o.proof.to_dict() if o.proof else None, o.steps,
                        to_json(o.results) if o.allocated else None))
    except SearchLimitError:
        raise
    except AllocatorError as err:
        error = f"{type(err).__name__}: {err}"
    return out, error, shared


@BOUNDED
@given(clusters())
def test_shared_answers_are_the_answers_of_searching_each_node(case):
    wanted = case_features(case).enabled()
    for variant in VARIANTS:
        if not wanted <= variant.supported.enabled():
            continue
        try:
            each = answers(case, variant, share=False)
        except SearchLimitError:
            continue  # too big to compare
        shared = answers(case, variant, share=True)
        assert shared[:2] == each[:2], variant.name
        assert each[2] == 0


# ----------------------------------------------------------------------------- when answers are shared

GPU = {"name": "gpu-0", "attributes": {"model": "m1", "numa": 0}}


def _case(nodes: int = 3, claim: dict | None = None, **extra) -> dict:
    """``nodes`` nodes with one device each in a pool of their own; the claim asks for a model none has."""
    case = {"features": [], "classes": {"class-a": "driver-a", "class-b": "driver-b"}, "allocated": [],
            "nodes": [{"name": f"node-{n}", "labels": {"region": "r1"}} for n in range(nodes)],
            "slices": [{"name": f"slice-{n}", "pool": f"pool-{n}", "node": f"node-{n}",
                        "devices": [dict(GPU, attributes=dict(GPU["attributes"], serial=f"s{n}"))]}
                       for n in range(nodes)],
            "claims": [claim or {"name": "claim-0", "requests": [
                {"name": "req-0", "class": "class-a", "selectors": ['device.attributes["driver-a"].model == "m2"']}]}]}
    case.update(extra)
    return case


def _shared(case: dict) -> tuple[list, int]:
    variant = VARIANTS[-1]
    each, shared = answers(case, variant, share=False), answers(case, variant, share=True)
    assert shared[:2] == each[:2]
    return shared[0], shared[2]


def test_nodes_with_the_same_devices_share_the_first_answer_with_their_own_names():
    table, shared = _shared(_case())
    assert shared == 2
    assert [row[4]["node"] for row in table] == ["node-0", "node-1", "node-2"]
    assert "on node-2 match" in table[2][4]["message"]


def test_an_attribute_a_selector_reads_or_a_constraint_names_keeps_nodes_apart():
    serial = {"name": "claim-0", "requests": [
        {"name": "req-0", "class": "class-a", "selectors": ['device.attributes["driver-a"].serial == "none"']}]}
    assert _shared(_case(claim=serial))[1] == 0
    whole = {"name": "claim-0", "requests": [
        {"name": "req-0", "class": "class-a", "selectors": ['size(device.attributes["driver-a"]) > 9']}]}
    assert _shared(_case(claim=whole))[1] == 0
    constrained = {"name": "claim-0", "requests": [
        {"name": "req-0", "class": "class-a", "count": 2}], "constraints": [{"match": "driver-a/serial"}]}
    assert _shared(_case(claim=constrained))[1] == 0


def test_nodes_with_allocated_devices_or_pools_shared_by_name_search_on_their_own():
    assert _shared(_case(allocated=["driver-a/pool-1/gpu-0"]))[1] == 1  # node-2 still shares node-0's answer
    case = _case()
    case["slices"][2]["pool"] = "pool-1"  # two nodes' slices in one pool: neither is the node's own
    assert _shared(case)[1] == 0


def test_an_answer_that_names_the_node_is_not_shared():
    """A slice for nodes of another region is in reach but not available: the reason names the node."""
    case = _case(slices=_case()["slices"] + [{"name": "slice-far", "pool": "pool-far", "node": {"region": ["r2"]},
                                              "devices": ["far-0"]}])
    table, shared = _shared(case)
    assert shared == 0
    assert "not available on node node-1" in table[1][2]


def test_the_engine_reports_the_same_with_and_without_shared_answers(monkeypatch):
    """A 60-node synthetic cluster and the benchmark's claim through the whole engine: the report, node
    table and proofs included."""
    inventory = cluster_yaml(60)
    reports = []
    for share in (False, True):
        monkeypatch.setattr(allocate_module, "SHARE_OUTCOMES", share)
        report = engine.analyze(BENCH_CLAIM, inventory).to_dict()
        reports.append(json.dumps(report, sort_keys=True))
        nodes = report["nodes"]
    assert reports[0] == reports[1]
    assert len(nodes) == 60 and any(n["proof"] for n in nodes if not n["fits"])


def test_frozen_slices_leave_out_names_keep_the_rest_and_forget_past_their_bound():
    frozen = FrozenSlices(max_devices=4)
    first, second = (build_slice({"name": f"slice-{n}", "pool": f"pool-{n}", "node": f"node-{n}",
                                  "devices": [dict(GPU, attributes={"serial": f"s{n}"}), "gpu-1"]}) for n in (0, 1))
    assert frozen.of(first) == frozen.of(second)  # other names, other serials: the same
    remembered = frozen._slices[id(first)]
    assert frozen.of(first) == remembered[1] and frozen._slices[id(first)] is remembered
    tainted = build_slice({"name": "slice-2", "pool": "pool-2", "node": "node-2",
                           "devices": [dict(GPU, taints=["noSchedule"]), "gpu-1"]})
    assert frozen.of(tainted) != frozen.of(first)
    # 4 devices, then the tainted slice's 2 more: started again (second is forgotten), then first again
    assert id(second) not in frozen._slices and len(frozen._slices) == 2 and frozen._devices == 4


def test_numbers_stay_distinct_when_the_table_starts_again(monkeypatch):
    """Past its bound the table of numbered values is emptied; a value seen before then gets a new number,
    never one that another value had (that would make two different nodes look the same)."""
    monkeypatch.setattr(node_views, "MAX_NUMBERED_DEVICES", 4)
    monkeypatch.setattr(node_views, "_NUMBERS", {})
    monkeypatch.setattr(node_views, "_numbered_devices", 0)
    first = node_views.number(("a",), 2)
    assert node_views.number(("a",), 2) == first
    second = node_views.number(("b",), 2)
    third = node_views.number(("c",), 2)  # 6 devices: the table started again
    again = node_views.number(("a",), 2)
    assert len({first, second, third, again}) == 4
    assert node_views._numbered_devices == 4
