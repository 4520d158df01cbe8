"""The allocator as each release shipped it (releases.rules.ReleaseRules), on the command line."""

from __future__ import annotations

import json

import pytest

from allocator.releases.rules import rules_of
from allocator.tests.helpers import cli as run
from allocator.tests.helpers.inventory import device_class

INVENTORY = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  config:
  - opaque: {driver: gpu.example.com, parameters: {fromClass: true}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}]
"""

CLAIM = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: a, exactly: {deviceClassName: gpu}}
    - {name: b, exactly: {deviceClassName: gpu}}
    config:
    - requests: [a, b]
      opaque: {driver: gpu.example.com, parameters: {both: true}}
    - requests: [b]
      opaque: {driver: gpu.example.com, parameters: {onlyB: true}}
"""


@pytest.fixture
def files(tmp_path):
    def write(text):
        path = tmp_path / "input.yaml"
        path.write_text(text)
        return str(path)
    return write


def _configs(proc) -> list:
    assert proc.returncode == 0, proc.stderr
    allocation = json.loads(proc.stdout)["claims"][0]["status"]["allocation"]
    return [(c["source"], c.get("requests")) for c in allocation["devices"]["config"]]


@pytest.mark.parametrize("release", ["1.34", "1.35", "1.36"])
def test_before_1_37_config_entries_keep_their_requests(files, release):
    proc = run("allocate", "--kubernetes-version", release, "--node", "n1", files(INVENTORY + CLAIM))
    assert _configs(proc) == [("FromClass", ["a", "b"]), ("FromClaim", ["a", "b"]), ("FromClaim", ["b"])]


def test_from_1_37_a_config_entry_for_every_request_has_none_listed(files):
    proc = run("allocate", "--kubernetes-version", "1.37", "--node", "n1", files(INVENTORY + CLAIM))
    assert _configs(proc) == [("FromClass", None), ("FromClaim", None), ("FromClaim", ["b"])]


FAILING = CLAIM.replace("- {name: b, exactly: {deviceClassName: gpu}}",
                        "- {name: b, exactly: {deviceClassName: gpu, selectors: [{cel: {expression: "
                        "'device.capacity[\"gpu.example.com\"].memory.isGreaterThan(quantity(\"1Gi\"))'}}]}}")


@pytest.mark.parametrize("release", ["1.34", "1.35", "1.36"])
def test_before_1_37_a_cel_runtime_error_names_no_device_and_gives_no_advice(files, release):
    proc = run("allocate", "--kubernetes-version", release, "--node", "n1", files(INVENTORY + FAILING))
    assert proc.returncode == 2
    assert proc.stderr == "error: claim default/c: selector #0: CEL runtime error: no such key: memory\n"


def test_from_1_37_a_cel_runtime_error_names_the_device_and_advises(files):
    proc = run("allocate", "--kubernetes-version", "1.37", "--node", "n1", files(INVENTORY + FAILING))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: claim default/c: selector #0 on device gpu.example.com/n1/gpu-1: CEL "
                                  "runtime error: no such key: memory. consider using CEL optional chaining")


def test_the_rules_change_at_1_37():
    for release in ("1.31", "1.34", "1.35", "1.36"):
        rules = rules_of(release)
        assert not rules.device_in_cel_errors and not rules.clears_config_requests
    assert rules_of("1.37").device_in_cel_errors and rules_of("1.37").clears_config_requests


POOL = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
---
""" + device_class('gpu') + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s1}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 2}
  devices: [{name: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests: [{name: g, exactly: {deviceClassName: gpu}}]
"""
SECOND_SLICE = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s2}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 2}
  devices: [{name: gpu-0}]
"""


@pytest.mark.parametrize("release", ["1.33", "1.34"])
def test_before_1_35_a_device_of_an_incomplete_pool_can_be_allocated(files, release):
    # 1.33 serves no resource.k8s.io/v1 and has DRA off by default: v1beta2 with the gate on.
    text = POOL.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n") if release == "1.33" else POOL
    gates = "DynamicResourceAllocation=true" if release == "1.33" else ""
    proc = run("allocate", "--kubernetes-version", release, "--feature-gates", gates, "--node", "n1", files(text))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["claims"][0]["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-0"


def test_from_1_35_an_incomplete_pool_is_skipped(files):
    proc = run("allocate", "--kubernetes-version", "1.35", "--node", "n1", files(POOL))
    assert proc.returncode == 1
    assert "pool gpu.example.com/n1 is incomplete" in proc.stderr


def test_before_1_35_reaching_an_invalid_pool_is_an_error_naming_it(files):
    proc = run("allocate", "--kubernetes-version", "1.34", "--node", "n1", files(POOL + SECOND_SLICE))
    assert proc.returncode == 2
    assert proc.stderr == "error: pool n1 is invalid: duplicate device name gpu-0\n"


def test_from_1_35_invalid_pools_are_skipped_and_named_when_nothing_fits(files):
    proc = run("allocate", "--kubernetes-version", "1.35", "--node", "n1", files(POOL + SECOND_SLICE))
    assert proc.returncode == 2
    assert proc.stderr == "error: invalid resource pools were encountered (node n1)\n"


def test_the_pool_rules_change_at_1_35():
    assert not rules_of("1.34").skips_unusable_pools and rules_of("1.35").skips_unusable_pools


def test_taint_rule_selectors_lose_class_and_cel_at_1_35():
    # resourceslice/tracker: deviceClassName and CEL selectors matched at v0.33/v0.34, gone at v0.35.
    assert rules_of("1.33").taint_rule_class_and_cel and rules_of("1.34").taint_rule_class_and_cel
    assert not rules_of("1.35").taint_rule_class_and_cel and not rules_of("1.37").taint_rule_class_and_cel
