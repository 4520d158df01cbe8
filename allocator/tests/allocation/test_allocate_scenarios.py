"""Realistic scenarios in ``scenarios/*.yaml``: an inventory, claims, and the grant expected.

Each file has ``description``, optional ``node`` (without it every node is
tried), optional ``featureGates``, ``objects`` and ``expect`` with one of:

* ``claims: {NAME: {results: [...], config: [...], nodeSelector: {...}}}``
  as the apiserver JSON prints them (results in order; ``shareID: any``
  stands for any share id; config and nodeSelector are compared when given),
  plus for node searches ``node`` (the first node that fits) and ``nodes``
  (``{NAME: fits}``);
* ``unsatisfiable: true`` with ``reason``, a part of the explanation;
* ``error``: a part of the allocator's error message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from allocator.allocation.allocator import AllocatorError, allocate_claims, search_nodes
from allocator.allocation.encode import claim_to_json
from allocator.allocation.inputs import SearchInputs
from allocator.kube.objects import read_or_raise
from allocator.releases.gates import make_gates

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


def _run(scenario: dict):
    read = read_or_raise(yaml.safe_dump_all(scenario["objects"], sort_keys=False))
    claims = read.of_kind("ResourceClaim")
    inputs = SearchInputs(classes=read.of_kind("DeviceClass"), slices=read.of_kind("ResourceSlice"),
                          allocated=[c for c in claims if c.status.allocation is not None])
    gates, nodes = make_gates(scenario.get("featureGates")), read.of_kind("Node")
    pending = [c for c in claims if c.status.allocation is None]
    if scenario.get("node"):
        outcome = allocate_claims(pending, inputs, gates, nodes=nodes, node_name=scenario["node"])
        return pending, outcome, None
    found = search_nodes(pending, inputs, gates, nodes=nodes)
    return pending, found.first_fit or found.outcomes[0], found


def _without_share_ids(results: list[dict], expected: list[dict]) -> list[dict]:
    out = []
    for got, want in zip(results, expected, strict=False):
        got = dict(got)
        if want.get("shareID") == "any":
            assert got.pop("shareID", None), f"expected a share id in {got}"
            got["shareID"] = "any"
        out.append(got)
    return out + results[len(out):]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    scenario = yaml.safe_load(path.read_text())
    assert scenario.get("description"), "every scenario says what it shows"
    expect = scenario["expect"]
    if "error" in expect:
        with pytest.raises(AllocatorError, match=expect["error"]):
            _run(scenario)
        return
    pending, outcome, found = _run(scenario)
    if expect.get("unsatisfiable"):
        assert not outcome.allocated
        assert expect["reason"] in outcome.reason
        return
    assert outcome.allocated, outcome.reason
    if found is not None:
        assert outcome.node_name == expect["node"]
        assert {o.node_name: o.allocated for o in found.outcomes} == expect["nodes"]
    granted = {c.metadata.name: claim_to_json(c, r)["status"]["allocation"]
               for c, r in zip(pending, outcome.results, strict=True)}
    assert set(granted) == set(expect["claims"])
    for name, want in expect["claims"].items():
        got = granted[name]
        assert _without_share_ids(got["devices"]["results"], want["results"]) == want["results"], name
        if "config" in want:
            assert got["devices"].get("config", []) == want["config"], name
        if "nodeSelector" in want:
            assert got.get("nodeSelector") == want["nodeSelector"], name


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 10
