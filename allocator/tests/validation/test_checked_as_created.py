"""``allocate`` checks what the user writes as a create under the release and gates, and the inventory and
allocated claims as stored objects (DESIGN.md, the engine's contract; issue 28 item 6)."""

from __future__ import annotations

import json

import pytest

from allocator.tests.helpers import cli, write_files
from allocator.tests.helpers.inventory import device_class

INVENTORY = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
---
""" + device_class('gpu') + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      modes: {strings: [a, b]}
  - name: gpu-1
    attributes:
      modes: {strings: [b]}
"""

INCLUDES = 'device.attributes["gpu.example.com"].modes.includes("a")'
PENDING = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: pending}}
spec:
  devices:
    requests:
    - name: g
      exactly:
        deviceClassName: gpu
        selectors: [{{cel: {{expression: '{INCLUDES}'}}}}]
"""
ALLOCATED = PENDING.replace("name: pending", "name: held") + """\
status:
  allocation:
    devices:
      results: [{request: g, driver: gpu.example.com, pool: n1, device: gpu-0}]
"""
PLAIN = PENDING.replace("name: pending", "name: plain").replace(
    f"        selectors: [{{cel: {{expression: '{INCLUDES}'}}}}]\n", "")


@pytest.fixture
def files(tmp_path):
    return lambda *texts: write_files(tmp_path, **{f"f{i}": t for i, t in enumerate(texts)})


def test_a_pending_claim_using_a_function_of_a_gate_that_is_off_is_refused_as_the_apiserver_refuses_it(files):
    proc = cli("allocate", "--node", "n1", *files(INVENTORY, PENDING))
    assert proc.returncode == 2
    assert "undeclared reference to 'includes'" in proc.stderr
    assert "ResourceClaim 'pending'" in proc.stderr


def test_with_the_gate_on_it_is_allocated(files):
    proc = cli("allocate", "--node", "n1", "--feature-gates", "DRAListTypeAttributes=true", *files(INVENTORY, PENDING))
    assert proc.returncode == 0, proc.stderr
    [claim] = json.loads(proc.stdout)["claims"]
    assert claim["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-0"


def test_an_allocated_claim_and_the_inventory_are_stored_objects_kept_as_they_are(files):
    # The slice's list attribute and the allocated claim's includes() were accepted when the gate was on.
    proc = cli("allocate", "--node", "n1", *files(INVENTORY, ALLOCATED, PLAIN))
    assert proc.returncode == 0, proc.stderr
    [claim] = json.loads(proc.stdout)["claims"]
    assert claim["metadata"]["name"] == "plain"
    assert claim["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-1"


def test_capacity_checks_its_input_the_same_way(files):
    assert cli("capacity", *files(INVENTORY, PENDING)).returncode == 2
    assert cli("capacity", "--feature-gates", "DRAListTypeAttributes=true", *files(INVENTORY, PENDING)).returncode == 0
