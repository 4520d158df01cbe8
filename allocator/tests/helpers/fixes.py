"""A quick fix (its start and end as line and column) applied to the text it was made for."""

from __future__ import annotations


def offset(text: str, position: dict) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:position["line"] - 1]) + position["column"] - 1


def apply(text: str, fix: dict) -> str:
    return text[:offset(text, fix["start"])] + fix["replacement"] + text[offset(text, fix["end"]):]


# One node with two devices of dra.example.com, one with a productName, for claims with typos to fix.
INVENTORY = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: slice
spec:
  driver: dra.example.com
  nodeName: worker
  pool: {name: pool, resourceSliceCount: 1}
  devices:
  - name: dev-0
    attributes:
      productName: {string: a100}
      driverVersion: {version: 1.2.3}
    capacity:
      memory: {value: 80Gi}
  - name: dev-1
    attributes:
      driverVersion: {version: 1.2.3}
    capacity:
      memory: {value: 40Gi}
"""

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: claim
  namespace: default
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        selectors:
        - cel:
            expression: {expression}
"""


def claim(expression: str, style: str = "plain") -> str:
    if style == "double":
        expression = '"' + expression.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif style == "single":
        expression = "'" + expression.replace("'", "''") + "'"
    elif style == "block":
        expression = "|\n              " + expression
    return CLAIM.replace("{expression}", expression)
