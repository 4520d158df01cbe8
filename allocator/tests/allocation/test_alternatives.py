"""The other grants (``allocation.alternatives``): distinct, in search order, the scheduler's first, bounded."""

from __future__ import annotations

import itertools

import pytest

from allocator.allocation import search as search_module
from allocator.allocation.allocator import Allocator, AllocatorError
from allocator.allocation.alternatives import MAX_LIMIT, list_grants
from allocator.allocation.inputs import UNBOUNDED, SearchInputs, SearchLimits, SearchOptions
from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.tests.helpers.proofs import CLASSES, claim, exact, gpus, nics

NODE = "node-0"
DRIVER = "gpu.example.com"
POOL = "node-0-gpu"


def objects(text: str) -> dict:
    docs = read_documents(CLASSES + text).documents
    return {k: [d.obj for d in docs if d.kind == k] for k in ("DeviceClass", "ResourceSlice", "ResourceClaim", "Node")}


def allocator(of: dict, release: str = "1.37", limits: SearchLimits = UNBOUNDED, prove: bool = True) -> Allocator:
    return Allocator(SearchInputs(of["DeviceClass"], of["ResourceSlice"]), make_gates(release=release),
                     limits=limits, options=SearchOptions(prove=prove))


def listed(text: str, limit: int = 10, release: str = "1.37", timeout=None, limits: SearchLimits = UNBOUNDED,
           prove: bool = True):
    of = objects(text)
    return list_grants(allocator(of, release, limits, prove), of["Node"][0], of["ResourceClaim"], limit, timeout)


def devices(grant) -> list[list[tuple[str, str]]]:
    """Per claim: (request, device) in the order picked."""
    return [[(d.request, d.device.device) for d in picked] for picked in grant.claims]


# Releases whose allocators differ: 1.31 stable (permutations within a request), 1.34 and 1.37 newer ones.
RELEASES = ["1.31", "1.34", "1.37"]


@pytest.mark.parametrize("release", RELEASES)
def test_two_of_four_gpus_come_in_search_order_each_once(release):
    out = listed(gpus(4) + claim("pair", exact("gpus", "gpu", 2)), release=release)
    pairs = [tuple(name for _, name in devices(g)[0]) for g in out.grants]
    # Pools, slices and devices in order; a pair reached twice (stable tries both orders) counts once.
    assert pairs == [(f"gpu-{a}", f"gpu-{b}") for a, b in itertools.combinations(range(4), 2)]
    assert out.exhausted and out.stopped is None


@pytest.mark.parametrize("release", RELEASES)
def test_the_first_grant_is_the_schedulers_allocation(release):
    text = gpus(6) + nics(4) + claim("gpu-nic", exact("gpu", "gpu", 2) + exact("nic", "nic"),
                                     "    constraints:\n    - {requests: [gpu, nic], matchAttribute: gpu.example.com/numa}\n")
    of = objects(text.replace("gpu.example.com/numa", "numa"))
    alloc = allocator(of, release)
    outcome = alloc.allocate(of["Node"][0], of["ResourceClaim"])
    assert outcome.allocated
    chosen = [(r.request, r.device) for r in outcome.results[0].devices.results]
    out = list_grants(allocator(of, release), of["Node"][0], of["ResourceClaim"], MAX_LIMIT, None)
    assert devices(out.grants[0]) == [chosen]
    keys = [g.key() for g in out.grants]
    assert len(keys) == len(set(keys))
    # Every grant keeps the constraint: the NIC on the GPUs' NUMA node.
    numa = {f"gpu-{i}": i % 2 for i in range(6)} | {f"nic-{i}": i % 2 for i in range(4)}
    assert all(len({numa[d] for _, d in devices(g)[0]}) == 1 for g in out.grants)
    # 2 of the 3 GPUs of a NUMA node times its 2 NICs, on each of the 2 NUMA nodes.
    assert len(out.grants) == 2 * 3 * 2 and out.exhausted


def test_the_limit_ends_the_listing_without_saying_it_saw_everything():
    out = listed(gpus(8) + claim("one", exact("gpu", "gpu")), limit=3)
    assert [devices(g)[0] for g in out.grants] == [[("gpu", f"gpu-{i}")] for i in range(3)]
    assert not out.exhausted and out.stopped is None


def test_the_limit_is_checked():
    for bad in (0, MAX_LIMIT + 1):
        with pytest.raises(ValueError):
            listed(gpus(2) + claim("one", exact("gpu", "gpu")), limit=bad)


def test_the_step_limit_stops_the_listing_and_says_so():
    out = listed(gpus(16) + claim("six", exact("gpus", "gpu", 6)), limit=100, limits=SearchLimits(max_steps=60, filter_timeout=None))
    assert 0 < len(out.grants) < 100 and not out.exhausted
    assert out.stopped.startswith(f"stopped early after {len(out.grants)} grants (of up to 100 asked for): "
                                  "the search limit of 60 steps was reached")


def test_the_time_budget_stops_the_listing_and_says_so(monkeypatch):
    monkeypatch.setattr(search_module, "CLOCK_EVERY", 1)  # read the clock on every step
    ticks = itertools.count()
    out = listed(gpus(16) + claim("six", exact("gpus", "gpu", 6)), limit=100, timeout=60,
                 limits=SearchLimits(None, None, clock=lambda: next(ticks) * 1.0))  # one second a step
    assert 0 < len(out.grants) < 100 and not out.exhausted
    assert out.stopped.startswith(f"stopped early after {len(out.grants)} grants (of up to 100 asked for): "
                                  "the time budget for listing them ran out")


def test_a_limit_before_the_first_grant_lists_none_and_says_so():
    out = listed(gpus(4) + claim("pair", exact("gpus", "gpu", 2)), limits=SearchLimits(max_steps=1, filter_timeout=None))
    assert out.grants == [] and not out.exhausted
    assert out.stopped.startswith("stopped early after 0 grants (of up to 10 asked for): "
                                  "the search limit of 1 steps was reached")


def test_an_error_before_the_first_grant_is_raised():
    # The selector fails on the first device: the scheduler itself would give up there.
    inventory = gpus(1).split("devices:\n", 1)[0] + "devices:\n  - {name: odd}\n"
    selector = ", selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].numa >= 0\"}}]"
    with pytest.raises(AllocatorError):
        listed(inventory + claim("one", exact("gpu", "gpu", 1, selector)))


def test_an_error_further_on_ends_the_listing_with_the_grants_found():
    # gpu-2 has no "numa" attribute: the selector fails on it, which the scheduler's first grant never reaches.
    inventory = gpus(2) + gpus(3).split("devices:\n", 1)[0].replace("node-0-gpu", "node-0-more") + \
        "devices:\n  - {name: odd}\n"
    selector = ", selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].numa >= 0\"}}]"
    out = listed(inventory + claim("one", exact("gpu", "gpu", 1, selector)))
    assert [devices(g)[0] for g in out.grants] == [[("gpu", "gpu-0")], [("gpu", "gpu-1")]]
    assert "further on, the search meets an error the scheduler would give up on" in out.stopped


@pytest.mark.parametrize("release", RELEASES)
def test_memoised_failure_never_hides_grants(release, monkeypatch):
    """A state from which grants were found and passed over did not fail: reaching it again must list more.

    Claim a takes two GPUs through two requests, so the search reaches the state "gpu-0 and gpu-1 taken"
    for claim b twice (a.x=0, a.y=1 and, in the stable allocator, a.x=1, a.y=0): both lead to grants.
    """
    monkeypatch.setattr(search_module, "PROVE_AFTER", 1)  # proofs and memo from the first step
    text = gpus(5) + claim("a", exact("x", "gpu") + exact("y", "gpu")) + claim("b", exact("z", "gpu"))
    plain = listed(text, limit=MAX_LIMIT, release=release, prove=False)
    proved = listed(text, limit=MAX_LIMIT, release=release, prove=True)
    assert [g.key() for g in proved.grants] == [g.key() for g in plain.grants]
    assert len(plain.grants) == 5 * 4 * 3 and plain.exhausted and proved.exhausted


def test_analyze_adds_the_alternatives_to_the_report():
    text = CLASSES + gpus(3) + claim("one", exact("gpu", "gpu"))
    report = analyze(text, node=NODE, alternatives=2).to_dict()
    alloc = report["allocation"]
    assert alloc["alternatives"] == [
        {"claims": [{"name": "one", "namespace": "default",
                     "results": [{"request": "gpu", "driver": DRIVER, "pool": POOL, "device": f"gpu-{i}"}]}]}
        for i in range(2)]
    first = alloc["claims"][0]["status"]["allocation"]["devices"]["results"]
    assert [{k: r[k] for k in ("request", "driver", "pool", "device")} for r in first] == \
        alloc["alternatives"][0]["claims"][0]["results"]
    assert alloc["alternativesSearch"] == {"limit": 2, "found": 2, "exhausted": False, "stopped": None,
                                           "steps": alloc["alternativesSearch"]["steps"]}
    assert "alternatives" not in analyze(text, node=NODE).to_dict()["allocation"]


def test_analyze_without_a_grant_lists_none_and_says_why():
    report = analyze(CLASSES + gpus(1) + claim("two", exact("gpu", "gpu", 2)), alternatives=5).to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
    assert report["allocation"]["alternatives"] == []
    assert report["allocation"]["alternativesSearch"]["stopped"] == \
        "nothing was allocated, so there are no grants to list"
