"""An inventory and a claim whose CEL type names depend on the feature gates (engine and API tests)."""

from __future__ import annotations

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0, attributes: {model: {string: a}}}]
"""


def claim(expression: str) -> str:
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors:
        - cel: {{expression: '{expression}'}}
"""


MIXED = claim('[device.attributes["gpu.example.com"].model, 3] == [1]')
