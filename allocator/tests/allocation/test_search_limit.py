"""The bound on the search: a step budget and the scheduler's filter timeout.

Upstream's allocator checks its context on every allocateOne step and the
scheduler gives it ``filterTimeout`` (10 s) per node; its "interrupt"
subtests run a request for one device more than the node has with the
context cancelled or past its deadline. These tests do the same in spirit
with our two limits, and check that below the bound nothing changes.
"""

from __future__ import annotations

import time

import pytest

from allocator.__main__ import main
from allocator.allocation import search as search_module
from allocator.allocation.allocator import Allocator, AllocatorError, SearchLimitError, default_filter_timeout
from allocator.allocation.inputs import UNBOUNDED, Forced, SearchInputs, SearchLimits
from allocator.allocation.search import Search
from allocator.engine import analyze
from allocator.kube import model
from allocator.releases.gates import make_gates
from allocator.tests.allocation import (
    test_allocate_table_basic,
    test_allocate_table_capacity,
    test_allocate_table_partitionable,
    test_allocate_table_pools,
    test_allocate_table_prioritized,
)
from allocator.tests.helpers import write_files
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
from allocator.tests.helpers.inventory import device_class

DRIVER = "gpu.example.com"
SLOW = 5.0  # seconds: a hang guard, not a speed requirement


def gpu_class() -> model.DeviceClass:
    return model.DeviceClass(metadata=model.ObjectMeta(name="gpu"), spec=model.DeviceClassSpec(selectors=[
        model.DeviceSelector(cel=model.CELDeviceSelector(expression=f"device.driver == '{DRIVER}'"))]))


def gpus(count: int, node: str = "node-0") -> model.ResourceSlice:
    """``count`` GPUs on one node; the first half on NUMA node 0, the rest on 1."""
    devices = [model.Device(name=f"gpu-{i}", attributes={"numa": model.DeviceAttribute(int=0 if i < count // 2 else 1)})
               for i in range(count)]
    return model.ResourceSlice(metadata=model.ObjectMeta(name=f"{node}-gpus"), spec=model.ResourceSliceSpec(
        driver=DRIVER, node_name=node, pool=model.ResourcePool(name=node, generation=1, resource_slice_count=1),
        devices=devices))


def request(name: str, count: int) -> model.DeviceRequest:
    return model.DeviceRequest(name=name, exactly=model.ExactDeviceRequest(
        device_class_name="gpu", allocation_mode="ExactCount", count=count))


def claim(*requests: model.DeviceRequest, constraints=()) -> model.ResourceClaim:
    return model.ResourceClaim(metadata=model.ObjectMeta(name="greedy", namespace="default"),
                               spec=model.ResourceClaimSpec(devices=model.DeviceClaim(
                                   requests=list(requests), constraints=list(constraints))))


def one_more_than_exist(devices: int) -> model.ResourceClaim:
    """The benchmark's worst case (kubernetes/kubernetes#131730): every combination is tried."""
    return claim(request("gpus", devices + 1))


def same_numa(devices: int) -> model.ResourceClaim:
    """Two requests that together need one device more than a NUMA node has, on the same NUMA node."""
    half = devices // 2
    return claim(request("a", half // 2 + 1), request("b", half - half // 2),
                 constraints=[model.DeviceConstraint(requests=["a", "b"], match_attribute=f"{DRIVER}/numa")])


NODE = model.Node(metadata=model.ObjectMeta(name="node-0"))


# ----------------------------------------------------------------------------- the step budget


def test_it_finishes_the_worst_case_when_the_budget_suffices():
    """Upstream's "off" subtest: 5 devices, a request for 6: no error, just no fit."""
    outcome = Allocator(SearchInputs([gpu_class()], [gpus(5)]), limits=UNBOUNDED).allocate(
        NODE, [one_more_than_exist(5)], explain_failure=False)
    assert not outcome.allocated
    assert outcome.steps == 32


@pytest.mark.parametrize("make_claim", [one_more_than_exist, same_numa], ids=["one-more", "same-numa"])
def test_it_stops_the_exponential_worst_case_at_the_budget(make_claim):
    # 30 devices: about 2^30 steps without a bound, far more than anyone would wait for.
    allocator = Allocator(SearchInputs([gpu_class()], [gpus(30)]),
                          limits=SearchLimits(max_steps=2000, filter_timeout=None))
    start = time.perf_counter()
    with pytest.raises(SearchLimitError) as info:
        allocator.allocate(NODE, [make_claim(30)])
    assert time.perf_counter() - start < SLOW
    err = info.value
    assert isinstance(err, AllocatorError)
    assert str(err).startswith("search limit reached after 2000 steps: gave up allocating claim(s) default/greedy "
                               "on node node-0: ")
    assert (err.limit, err.steps, err.node) == ("steps", 2000, "node-0")


def test_a_search_needing_exactly_the_budget_is_not_stopped():
    def allocate(max_steps: int | None):
        return Allocator(SearchInputs([gpu_class()], [gpus(8)]), limits=SearchLimits(max_steps=max_steps)).allocate(
            NODE, [one_more_than_exist(8)])

    steps = allocate(None).steps
    assert steps == 256
    assert allocate(steps).steps == steps
    with pytest.raises(SearchLimitError, match="^search limit reached after 255 steps: "):
        allocate(steps - 1)


def test_the_default_budget_is_a_million_steps_and_none_lifts_it():
    assert (Allocator(SearchInputs([gpu_class()], [gpus(2)])).max_steps
            == search_module.DEFAULT_MAX_STEPS == 1_000_000)
    assert Allocator(SearchInputs([gpu_class()], [gpus(2)]), limits=SearchLimits(max_steps=None)).max_steps is None


def test_the_allocator_still_works_after_a_stopped_search():
    allocator = Allocator(SearchInputs([gpu_class()], [gpus(12)]),
                          limits=SearchLimits(max_steps=100, filter_timeout=None))
    with pytest.raises(SearchLimitError):
        allocator.allocate(NODE, [one_more_than_exist(12)])
    outcome = allocator.allocate(NODE, [claim(request("two", 2))])
    assert outcome.allocated
    assert [r.device for r in outcome.results[0].devices.results] == ["gpu-0", "gpu-1"]


def test_explaining_the_stopped_node_reuses_the_stopped_search(monkeypatch):
    allocator = Allocator(SearchInputs([gpu_class()], [gpus(12)]),
                          limits=SearchLimits(max_steps=100, filter_timeout=None))
    greedy = [one_more_than_exist(12)]
    with pytest.raises(SearchLimitError) as info:
        allocator.allocate(NODE, greedy)
    runs = []
    monkeypatch.setattr(Search, "run", lambda self: runs.append(self) or False)
    explanation = allocator.explain(NODE, greedy)
    assert runs == []
    assert explanation.error == str(info.value)
    assert len(explanation.requests[0].devices) == 12
    assert all(d.matches for d in explanation.requests[0].devices)
    allocator.explain(model.Node(metadata=model.ObjectMeta(name="node-0")), greedy)  # another node object: a new search
    assert len(runs) == 1


# ----------------------------------------------------------------------------- the filter timeout


def test_a_deadline_already_passed_stops_on_the_first_step():
    """Upstream's "timeout"/"deadline" subtests: a 1 ns timeout ends the search with the scheduler's words."""
    allocator = Allocator(SearchInputs([gpu_class()], [gpus(5)]),
                          limits=SearchLimits(max_steps=None, filter_timeout=1e-9))
    with pytest.raises(SearchLimitError) as info:
        allocator.allocate(NODE, [one_more_than_exist(5)])
    assert str(info.value) == "node node-0: timed out trying to allocate devices"
    assert (info.value.limit, info.value.steps) == ("timeout", 0)


def test_the_clock_is_read_once_per_thousand_steps():
    reads = []

    def clock():  # one second passes per reading
        reads.append(None)
        return float(len(reads))

    allocator = Allocator(SearchInputs([gpu_class()], [gpus(30)]),
                          limits=SearchLimits(max_steps=None, filter_timeout=5, clock=clock))
    with pytest.raises(SearchLimitError) as info:
        allocator.allocate(NODE, [one_more_than_exist(30)])
    # Read at the start (deadline 6), on step 1 (2), 1001 (3), 2001 (4), 3001 (5) and 4001 (6: stop).
    assert len(reads) == 6
    assert info.value.steps == 4000
    assert str(info.value) == "node node-0: timed out trying to allocate devices"


def test_a_search_within_its_deadline_is_not_stopped():
    outcome = Allocator(SearchInputs([gpu_class()], [gpus(10)]),
                        limits=SearchLimits(max_steps=None, filter_timeout=60)).allocate(
        NODE, [one_more_than_exist(10)], explain_failure=False)
    assert outcome.steps == 1024


@pytest.mark.parametrize(("release", "timeout"), [("1.33", None), ("1.34", 10.0), ("1.37", 10.0)])
def test_the_default_timeout_follows_DRASchedulerFilterTimeout(release, timeout):  # noqa: N802
    # Beta and on by default since 1.34 (pkg/features/kube_features.go); filterTimeout defaults to 10 s.
    assert default_filter_timeout(make_gates(release=release)) == timeout
    assert Allocator(SearchInputs([gpu_class()], [gpus(2)]), make_gates(release=release)).filter_timeout == timeout


def test_a_zero_timeout_means_none_as_in_the_scheduler_config():
    outcome = Allocator(SearchInputs([gpu_class()], [gpus(5)]), limits=SearchLimits(filter_timeout=0)).allocate(
        NODE, [one_more_than_exist(5)])
    assert outcome.steps == 32


# ----------------------------------------------------------------------------- below the bound nothing changes

TABLE = [param for module in (test_allocate_table_basic, test_allocate_table_capacity,
                              test_allocate_table_partitionable, test_allocate_table_pools,
                              test_allocate_table_prioritized)
         for param in table_params(module.CASES)]


@pytest.mark.parametrize(("case", "variant"), TABLE)
def test_the_upstream_table_is_unchanged_at_exactly_its_step_count(case, variant, monkeypatch):
    def search(max_steps) -> Search:
        allocator = Allocator(SearchInputs([build_class(n, s) for n, s in (case.get("classes") or {}).items()],
                                           [build_slice(s) for s in case.get("slices", [])], state=build_state(case)),
                              limits=SearchLimits(max_steps=max_steps), forced=Forced(case_features(case), variant))
        found = Search(allocator, build_node(case.get("node")), [build_claim(c) for c in case.get("claims", [])])
        try:
            found.run()
        except SearchLimitError:
            raise
        except AllocatorError:
            pass  # an error case: run_case checks the error below
        return found

    steps = search(None).calls
    monkeypatch.setattr(search_module, "DEFAULT_MAX_STEPS", steps)
    run_case(case, variant)  # the results, errors and step counts the table expects
    if steps:
        with pytest.raises(SearchLimitError, match=f"^search limit reached after {steps - 1} steps: "):
            search(steps - 1)


# ----------------------------------------------------------------------------- engine and command line

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-0}
---
""" + device_class('gpu', "device.driver == 'gpu.example.com'") + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-0-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-0
  pool: {name: node-0, generation: 1, resourceSliceCount: 1}
  devices:
""" + "".join(f"  - name: gpu-{i}\n" for i in range(16))

GREEDY = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: greedy, namespace: default}
spec:
  devices:
    requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 17}}]
"""


@pytest.fixture
def small_budget(monkeypatch):
    monkeypatch.setattr(search_module, "DEFAULT_MAX_STEPS", 500)
    # The plain walk: with proofs, 17 devices of 16 is a "no" found without searching.
    monkeypatch.setattr(search_module, "PROVE", False)


@pytest.mark.parametrize("node", [None, "node-0"])
def test_analyze_reports_the_limit_as_an_allocation_error(small_budget, node):
    data = analyze(GREEDY, INVENTORY, node=node).to_dict()
    alloc = data["allocation"]
    assert alloc["status"] == "error"
    assert alloc["error"].startswith("search limit reached after 500 steps: gave up allocating claim(s) "
                                     "default/greedy on node node-0: ")
    assert alloc["reasons"] == [alloc["error"]]
    # The devices are still explained, from the node where the search stopped.
    (req,) = data["requests"]
    assert data["explainedNode"] == "node-0" and len(req["devices"]) == 16


def test_analyze_still_allocates_what_fits_within_the_budget(small_budget):
    data = analyze(GREEDY.replace("count: 17", "count: 16"), INVENTORY).to_dict()
    assert data["allocation"]["status"] == "allocated"


@pytest.mark.parametrize("node", [[], ["--node", "node-0"]], ids=["node-search", "one-node"])
def test_the_cli_exits_2_with_the_limit_message(small_budget, tmp_path, capsys, node):
    (path,) = write_files(tmp_path, all=INVENTORY + "---\n" + GREEDY)
    code = main(["allocate", *node, path])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("error: search limit reached after 500 steps: ")
    assert captured.out == ""
