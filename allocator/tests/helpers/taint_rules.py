"""An inventory, claims and DeviceTaintRules shared by the engine's taint tests and the page's picture tests."""

from __future__ import annotations

from allocator.tests.helpers.inventory import device_class

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
""" + device_class('gpu', "device.driver == 'gpu.example.com'") + """---
""" + device_class('a100', "device.attributes['gpu.example.com'].model == 'a100'") + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes: {model: {string: a100}, slot: {int: 0}}
  - name: gpu-1
    attributes: {model: {string: h100}}
"""


def rule(selector: str, effect: str = "NoSchedule", version: str = "v1") -> str:
    return f"""
---
apiVersion: resource.k8s.io/{version}
kind: DeviceTaintRule
metadata: {{name: gpu-maintenance}}
spec:
{selector}
  taint: {{key: maintenance, value: "true", effect: {effect}}}
"""


GPU_0 = "  deviceSelector: {driver: gpu.example.com, pool: node-a, device: gpu-0}"


def claim(count: int = 1, tolerate: bool = False) -> str:
    toleration = ", tolerations: [{key: maintenance, operator: Exists}]" if tolerate else ""
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {{deviceClassName: gpu, count: {count}{toleration}}}
"""


BY_CEL = "  deviceSelector: {selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].slot == 0\"}}]}"
