"""Each release's allocator as it was released, where 1.33 to 1.36 differ from today's (issue 28 item 9).

Read in k8s.io/dynamic-resource-allocation at v0.33.13, v0.34.9, v0.35.6 and v0.36.2, and in
kubernetes/api and the apiserver's validation of those releases. Run on the command line, per release.
"""

from __future__ import annotations

import json

import pytest

from allocator.allocation.switches import EXPERIMENTAL, STABLE, choose_variant, from_gates
from allocator.releases.gates import make_gates
from allocator.releases.rules import rules_of
from allocator.tests.helpers import cli as run
from allocator.tests.helpers.release_allocators import CAPACITY, CAPACITY_STORED, NODE, SHARED


@pytest.fixture
def files(tmp_path):
    def write(text):
        path = tmp_path / "input.yaml"
        path.write_text(text)
        return str(path)
    return write


def _devices(proc) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return [r["device"] for c in json.loads(proc.stdout)["claims"]
            for r in c["status"]["allocation"]["devices"]["results"]]


# --- 1.34: DRAResourceClaimDeviceStatus picks the experimental implementation -------------------------------


def test_1_34_device_status_on_by_default_refuses_stored_capacity_requests_without_consumable_capacity(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--node", "n1", files(CAPACITY_STORED))
    assert proc.returncode == 2
    assert proc.stderr == ("error: claim default/c, request a: has capacity requests, "
                           "but the DRAConsumableCapacity feature is disabled\n"
                           "note: ResourceClaim default/c: read as stored: created earlier in the cluster\n")


def test_1_34_created_capacity_requests_are_dropped_before_the_allocator_meets_them(files):
    # Created under 1.34's default gates, the apiserver drops the capacity requests (with our warning on
    # validate): the scheduler allocates the claim as one without them.
    proc = run("allocate", "--kubernetes-version", "1.34", "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]
    assert "capacity" not in json.loads(proc.stdout)["claims"][0]["spec"]["devices"]["requests"][0]["exactly"]


def test_1_34_with_device_status_off_allocates_the_capacity_request(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--feature-gates", "DRAResourceClaimDeviceStatus=false",
               "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_from_1_35_device_status_alone_keeps_the_capacity_request_allocatable(files, release):
    # 1.35 folded DeviceStatus into DeviceBindingAndStatus: the stable implementation takes the claim;
    # 1.36 and 1.37 have DRAConsumableCapacity on.
    proc = run("allocate", "--kubernetes-version", release, "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]


def test_1_34_with_consumable_capacity_on_allocates_the_capacity_request(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--feature-gates", "DRAConsumableCapacity=true",
               "--node", "n1", files(CAPACITY))
    assert _devices(proc) == ["gpu-0"]


def test_only_1_34_counts_device_status_when_choosing_the_implementation():
    assert choose_variant(from_gates(make_gates(release="1.34"))) is EXPERIMENTAL
    assert choose_variant(from_gates(make_gates({"DRAResourceClaimDeviceStatus": False}, "1.34"))) is STABLE
    for release in ("1.33", "1.35"):
        assert not from_gates(make_gates({"DRAResourceClaimDeviceStatus": True}, release)).device_status
    assert rules_of("1.34").separate_device_status and not rules_of("1.35").separate_device_status


# --- 1.33 and 1.34: counters in the devices' own slice -----------------------------------------------------

def _gpu_slice(name: str, devices: str, count: int = 2, counters: str = "memory: {value: 40Gi}") -> str:
    """A slice in the 1.33 form: a GPU's counter set beside the devices that consume it."""
    return f"""\
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceSlice
metadata: {{name: {name}}}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {{name: n1, resourceSliceCount: {count}}}
  sharedCounters:
  - name: gpu-counters
    counters: {{{counters}}}
  devices:
{devices}"""


def _consumer(name: str, counters: str, half: bool = False) -> str:
    attributes = "    attributes: {half: {bool: true}}\n" if half else ""
    return (f"  - name: {name}\n{attributes}"
            f"    consumesCounters: [{{counterSet: gpu-counters, counters: {{{counters}}}}}]\n")


OWN_NODE = NODE.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n")
TWO_GPUS = OWN_NODE + _gpu_slice("gpu-0", _consumer("gpu-0-half-a", "memory: {value: 20Gi}")
                                  + _consumer("gpu-0-half-b", "memory: {value: 20Gi}")
                                  + _consumer("gpu-0-whole", "memory: {value: 40Gi}")) \
    + _gpu_slice("gpu-1", _consumer("gpu-1-whole", "memory: {value: 40Gi}"))


def _claim(count: int, selector: str = "true") -> str:
    return f"""\
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {{name: c}}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu
        count: {count}
        selectors: [{{cel: {{expression: '{selector}'}}}}]
"""


def _held(*devices: str) -> str:
    results = "".join(f"      - {{request: g, driver: gpu.example.com, pool: n1, device: {d}}}\n" for d in devices)
    return f"""\
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {{name: held}}
spec:
  devices:
    requests:
    - {{name: g, exactly: {{deviceClassName: gpu, allocationMode: All}}}}
status:
  allocation:
    devices:
      results:
{results}    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {{key: metadata.name, operator: In, values: [n1]}}
"""


def _errors(proc) -> list[tuple[str, str, str]]:
    return [(e["name"], e["field"], e["detail"]) for e in json.loads(proc.stdout)["errors"]]


def _allocate(files, release: str, text: str):
    gates = "DynamicResourceAllocation=true,DRAPartitionableDevices=true"
    return run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1", files(text))


@pytest.mark.parametrize("release", ["1.33", "1.34"])
def test_before_1_35_a_slice_holds_counters_and_the_devices_that_consume_them(files, release):
    proc = run("validate", "--kubernetes-version", release, "--feature-gates",
               "DynamicResourceAllocation=true,DRAPartitionableDevices=true", files(TWO_GPUS))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("release", ["1.35", "1.36", "1.37"])
def test_from_1_35_a_slice_with_counters_and_devices_is_refused(files, release):
    proc = _allocate(files, release, TWO_GPUS + _claim(1))
    assert proc.returncode == 2
    assert ("ResourceSlice 'gpu-0': spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is "
            "allowed") in proc.stderr


@pytest.mark.parametrize("release", ["1.33", "1.34"])
def test_before_1_35_each_slice_keeps_its_own_counters_under_the_same_set_name(files, release):
    # Both slices name their set gpu-counters: per slice, two halves of gpu-0 and the whole gpu-1 fit.
    assert sorted(_devices(_allocate(files, release, TWO_GPUS + _claim(3)))) == [
        "gpu-0-half-a", "gpu-0-half-b", "gpu-1-whole"]


@pytest.mark.parametrize("release", ["1.33", "1.34"])
def test_before_1_35_a_slice_counter_used_up_by_an_allocated_device_is_explained_with_numbers(files, release):
    text = TWO_GPUS.replace("  - name: gpu-0-half-a\n", "  - name: gpu-0-half-a\n    attributes: {half: {bool: true}}\n")
    text = text.replace("  - name: gpu-0-half-b\n", "  - name: gpu-0-half-b\n    attributes: {half: {bool: true}}\n")
    selector = 'device.attributes["gpu.example.com"].?half.orValue(false)'
    proc = _allocate(files, release, text + _claim(1, selector) + _held("gpu-0-whole"))
    assert proc.returncode == 1, proc.stdout
    assert ("not enough shared counters left in pool gpu.example.com/n1: gpu-counters/memory: 0 of 40Gi left, "
            "needs 20Gi; taken by gpu-0-whole of allocated claim default/held") in proc.stderr


def test_before_1_35_a_device_consumes_only_counter_sets_of_its_own_slice(files):
    elsewhere = OWN_NODE + _gpu_slice("gpu-0", "  - name: gpu-0-whole\n", count=2) + _gpu_slice(
        "gpu-1", "  - name: gpu-1-whole\n    consumesCounters: [{counterSet: other, counters: {memory: {value: 1}}}]\n")
    proc = run("validate", "--kubernetes-version", "1.34", "--feature-gates", "DRAPartitionableDevices=true", files(elsewhere))
    assert proc.returncode == 1
    assert _errors(proc) == [("gpu-1", "spec.devices[0].consumesCounters[0].counterSet",
                              "must reference a counterSet defined in the ResourceSlice sharedCounters")]


def test_before_1_35_the_counters_of_a_slice_are_limited_to_32_in_all_sets(files):
    many = ", ".join(f"c{i}: {{value: 1}}" for i in range(33))
    text = OWN_NODE + _gpu_slice("gpu-0", "  - name: gpu-0-whole\n", count=1, counters=many)
    proc = run("validate", "--kubernetes-version", "1.34", "--feature-gates", "DRAPartitionableDevices=true", files(text))
    assert proc.returncode == 1
    assert _errors(proc) == [("gpu-0", "spec.sharedCounters", "the total number of shared counters must not exceed 32")]


# A stored state the counters cannot hold: gpu-0-whole and gpu-0-half-a are both allocated (60Gi of 40Gi).
OVERDRAWN = OWN_NODE + _gpu_slice(
    "gpu-0", _consumer("gpu-0-half-a", "memory: {value: 20Gi}") + _consumer("gpu-0-whole", "memory: {value: 40Gi}")
    + _consumer("gpu-0-engine", "engines: {value: 1}"), count=1,
    counters="memory: {value: 40Gi}, engines: {value: 4}") + _claim(1)


def test_1_33_checks_only_the_counters_the_device_consumes(files):
    proc = _allocate(files, "1.33", OVERDRAWN + _held("gpu-0-whole", "gpu-0-half-a"))
    assert _devices(proc) == ["gpu-0-engine"]


def test_1_34_refuses_a_device_of_a_slice_with_any_counter_overdrawn(files):
    proc = _allocate(files, "1.34", OVERDRAWN + _held("gpu-0-whole", "gpu-0-half-a"))
    assert proc.returncode == 1
    assert "gpu-counters/memory: -20Gi of 40Gi left" in proc.stderr


def test_the_counter_rules_per_release():
    assert [rules_of(r).slice_counters for r in ("1.33", "1.34", "1.35", "1.37")] == ["device", "slice", "", ""]


# --- 1.35: one request could take two shares of the same multi-allocatable device --------------------------


def _shares(proc) -> list[tuple[str, str]]:
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["claims"][0]["status"]["allocation"]["devices"]["results"]
    return [(r["device"], r["consumedCapacity"]["memory"]) for r in results]


def _shared(files, release: str, count: int):
    gates = "DRAConsumableCapacity=true" if release == "1.35" else ""
    return run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1",
               files(SHARED.replace("COUNT", str(count))))


def test_1_35_one_request_takes_two_shares_of_one_multi_allocatable_device(files):
    proc = _shared(files, "1.35", 2)
    assert _shares(proc) == [("gpu-0", "3Gi"), ("gpu-0", "3Gi")]
    share_ids = [r["shareID"] for r in json.loads(proc.stdout)["claims"][0]["status"]["allocation"]["devices"]
                 ["results"]]
    assert len(set(share_ids)) == 2


def test_1_35_the_shares_of_one_request_still_stop_at_the_device_capacity(files):
    assert _shared(files, "1.35", 3).returncode == 1  # 9Gi of 8Gi


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_from_1_36_one_request_takes_a_device_once(files, release):
    proc = _shared(files, release, 2)
    assert proc.returncode == 1
    assert "claim default/c, request a: needs 2 device(s), 1 of 1 in reach match" in proc.stderr


@pytest.mark.parametrize("release", ["1.35", "1.36"])
def test_one_share_per_request_is_the_same_in_every_release(files, release):
    assert _shares(_shared(files, release, 1)) == [("gpu-0", "3Gi")]


def test_requests_try_devices_as_combinations_from_1_36():
    assert not rules_of("1.35").combinations and rules_of("1.36").combinations and rules_of("1.37").combinations


# A tainted whole GPU listed before a half of it: the whole one passes the counters, then the taint rules it out.
TAINTED_FIRST = OWN_NODE + _gpu_slice(
    "gpu-0", "  - name: gpu-0-whole\n    taints: [{key: broken, value: 'true', effect: NoSchedule}]\n"
    "    consumesCounters: [{counterSet: gpu-counters, counters: {memory: {value: 40Gi}}}]\n"
    + _consumer("gpu-0-half", "memory: {value: 20Gi}"), count=1) + _claim(1)


def _tainted(files, release: str):
    gates = "DynamicResourceAllocation=true,DRAPartitionableDevices=true,DRADeviceTaints=true"
    return run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1",
               files(TAINTED_FIRST))


def test_1_33_counts_only_the_devices_being_allocated_so_a_device_ruled_out_later_keeps_no_counters(files):
    assert _devices(_tainted(files, "1.33")) == ["gpu-0-half"]


def test_1_34_keeps_the_counters_of_a_device_ruled_out_after_taking_them(files):
    # v0.34: the counters go into the allocator's running total before the taint check and stay there.
    assert _tainted(files, "1.34").returncode == 1


def test_1_33_leaves_out_a_slice_with_counters_while_partitionable_devices_is_off_and_says_so(files):
    proc = run("allocate", "--kubernetes-version", "1.33", "--feature-gates", "DynamicResourceAllocation=true",
               "--node", "n1", files(TWO_GPUS + _claim(1)))
    assert proc.returncode == 1
    assert "4 x a slice with shared counters needs DRAPartitionableDevices" in proc.stderr


def test_1_34_keeps_the_slice_but_not_its_devices_that_consume_counters_while_the_gate_is_off(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--node", "n1", files(TWO_GPUS + _claim(1)))
    assert proc.returncode == 1
    assert "4 x consumes counters, but DRAPartitionableDevices is off" in proc.stderr


# Request a with admin access, then request b; the whole GPU comes first in the slice.
ADMIN = OWN_NODE + _gpu_slice("gpu-0", _consumer("gpu-0-whole", "memory: {value: 40Gi}")
                              + _consumer("gpu-0-half", "memory: {value: 20Gi}"), count=1) + """\
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: a, exactly: {deviceClassName: gpu, adminAccess: true}}
    - {name: b, exactly: {deviceClassName: gpu}}
"""


def _admin(files, release: str, text: str = ADMIN):
    gates = "DynamicResourceAllocation=true,DRAPartitionableDevices=true,DRAAdminAccess=true"
    return run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1", files(text))


def test_1_33_leaves_a_device_given_with_admin_access_free_and_its_counters_untaken(files):
    # Request b takes the very device request a has with admin access, and all of its counters.
    assert _devices(_admin(files, "1.33")) == ["gpu-0-whole", "gpu-0-whole"]


def test_1_34_marks_a_device_given_with_admin_access_as_taken_with_its_counters(files):
    # The whole GPU (a) leaves b no counters, the half (a) leaves b only the taken half: nothing fits.
    assert _admin(files, "1.34").returncode == 1


def test_1_33_lets_one_admin_request_take_a_device_twice(files):
    one_device = ADMIN.replace(_consumer("gpu-0-half", "memory: {value: 20Gi}"), "")
    twice = one_device.replace("- {name: a, exactly: {deviceClassName: gpu, adminAccess: true}}\n"
                               "    - {name: b, exactly: {deviceClassName: gpu}}",
                               "- {name: a, exactly: {deviceClassName: gpu, adminAccess: true, count: 2}}")
    assert _devices(_admin(files, "1.33", twice)) == ["gpu-0-whole", "gpu-0-whole"]
    assert _admin(files, "1.34", twice).returncode == 1


# --- before 1.36: slices as the apiserver lists them (by name), pools in Go map order ------------------------

def _listed_slice(name: str, device: str) -> str:
    return f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {name}}}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {{name: n1, resourceSliceCount: 2}}
  devices: [{{name: {device}}}]
"""


LISTED = NODE + _listed_slice("slice-b", "gpu-b") + _listed_slice("slice-a", "gpu-a") + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests: [{name: g, exactly: {deviceClassName: gpu}}]
"""


@pytest.mark.parametrize(("release", "gates"), [("1.34", ""), ("1.35", "DRAConsumableCapacity=true"),
                                               ("1.36", ""), ("1.37", "")])
def test_the_order_slices_are_written_in_does_not_matter(files, release, gates):
    # Before 1.36 the allocator keeps a pool's slices as listed, and the apiserver lists them by name (the real
    # 1.34 scheduler took gpu-a 36 times of 40, gpu-b when its informer's map came back rotated); from 1.36
    # it sorts them by name itself.
    proc = run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1", files(LISTED))
    assert _devices(proc) == ["gpu-a"]


def _pool(name: str, driver: str) -> str:
    return f"""\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {name}}}
spec:
  driver: {driver}
  nodeName: n1
  pool: {{name: {name}, resourceSliceCount: 1}}
  devices: [{{name: dev}}]
"""


# Three pools whose names and drivers sort differently; the claim takes one device of each, in pool order.
THREE_POOLS = NODE + _pool("pool-a", "d1.example.com") + _pool("pool-b", "d3.example.com") \
    + _pool("pool-c", "d2.example.com") + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: r0, exactly: {deviceClassName: gpu}}
    - {name: r1, exactly: {deviceClassName: gpu}}
    - {name: r2, exactly: {deviceClassName: gpu}}
"""


def _pools(proc) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return [r["pool"] for c in json.loads(proc.stdout)["claims"] for r in c["status"]["allocation"]["devices"]["results"]]


@pytest.mark.parametrize("release", ["1.33", "1.34", "1.35"])
def test_before_1_36_pools_are_walked_in_the_order_of_their_slices_names(files, release):
    # Go walks a map of a few pools as a rotation of the order they were added in (the slices' order): asked 40
    # times, the real 1.34 scheduler took pool-a, pool-b, pool-c (21 times) or a rotation of it, never the
    # driver order pool-a, pool-c, pool-b.
    text = THREE_POOLS if release != "1.33" else THREE_POOLS.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n")
    gates = "DynamicResourceAllocation=true" if release == "1.33" else ""
    proc = run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1", files(text))
    assert _pools(proc) == ["pool-a", "pool-b", "pool-c"]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_from_1_36_pools_are_walked_by_driver_then_name(files, release):
    proc = run("allocate", "--kubernetes-version", release, "--node", "n1", files(THREE_POOLS))
    assert _pools(proc) == ["pool-a", "pool-c", "pool-b"]


# A device consuming a counter set its slice lacks: the apiserver of 1.33/1.34 refuses it on create, so only a
# stored object can have it; the two allocators part ways on it.
MISSING_SET = OWN_NODE + _gpu_slice(
    "gpu-0", "  - name: gpu-0-elsewhere\n"
    "    consumesCounters: [{counterSet: not-here, counters: {memory: {value: 1Gi}}}]\n", count=1) + _claim(1)


def _engine_devices(release: str) -> list[str] | None:
    outcome = _engine_allocate(MISSING_SET, release, {"DynamicResourceAllocation": True,
                                                      "DRAPartitionableDevices": True})
    if not outcome.allocated:
        return None
    return [r.device for result in outcome.results for r in result.devices.results]


def test_1_33_cannot_allocate_a_device_whose_counter_set_is_not_in_its_slice():
    assert _engine_devices("1.33") is None


def test_1_34_does_not_check_a_counter_set_its_slice_lacks():
    assert _engine_devices("1.34") == ["gpu-0-elsewhere"]


def _engine_allocate(text: str, release: str, overrides: dict | None = None):
    from allocator.allocation.allocator import allocate_claims
    from allocator.allocation.inputs import SearchInputs
    from allocator.kube.objects import read_documents

    kinds: dict[str, list] = {}
    for d in read_documents(text).documents:
        kinds.setdefault(type(d.obj).__name__, []).append(d.obj)
    return allocate_claims(kinds["ResourceClaim"], SearchInputs(kinds["DeviceClass"], kinds["ResourceSlice"]),
                           make_gates(overrides or {}, release), nodes=kinds["Node"], node_name="n1")


def test_the_1_34_allocator_refuses_a_claim_with_capacity_requests_that_reaches_it():
    # Whatever the apiserver does with the field on create: a stored claim with capacity requests, on the
    # allocator of 1.34 with DRAConsumableCapacity off, is refused by the experimental implementation.
    from allocator.cel.selectors import AllocatorError

    with pytest.raises(AllocatorError, match="has capacity requests, but the DRAConsumableCapacity feature"):
        _engine_allocate(CAPACITY, "1.34")
    assert _engine_allocate(CAPACITY, "1.34", {"DRAResourceClaimDeviceStatus": False}).allocated
    assert _engine_allocate(CAPACITY, "1.35").allocated
