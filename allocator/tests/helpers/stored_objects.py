"""A claim and an inventory written in a given resource.k8s.io version, and the metadata of a claim as\ncreated or as read from a cluster (stored): the stored-object tests of the engine, the CLI, the API and the page."""

from __future__ import annotations

STORED = 'metadata: {name: c, uid: 3f1e0c52-9d7a-4c1b-8e0f-2a6b5d4c3b21, resourceVersion: "1187"}'


CREATED = "metadata: {name: c}"


def inventory(version: str) -> str:
    return f"""\
apiVersion: v1
kind: Node
metadata: {{name: n1, labels: {{kubernetes.io/hostname: n1}}}}
---
apiVersion: resource.k8s.io/{version}
kind: DeviceClass
metadata: {{name: gpu}}
---
apiVersion: resource.k8s.io/{version}
kind: ResourceSlice
metadata: {{name: s}}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {{name: n1, resourceSliceCount: 1}}
  devices:
  - name: gpu-0
{"    basic: {capacity: {memory: {value: 8Gi}}}" if version == "v1beta1" else "    capacity: {memory: {value: 8Gi}}"}
"""


def claim(version: str, metadata: str, request: str) -> str:
    """A claim with one request ``r``: ``request`` is its body below the name, as written in ``version``."""
    return f"""\
apiVersion: resource.k8s.io/{version}
kind: ResourceClaim
{metadata}
spec:
  devices:
    requests:
    - name: r
{request}"""


def first_available(version: str) -> str:
    return "      firstAvailable:\n      - {name: a, deviceClassName: gpu}\n"
