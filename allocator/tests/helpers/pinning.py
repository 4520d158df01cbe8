"""Inputs where a pod's allocated claim pins it to a node (issue 28, item 3).

Node n1 has one GPU, n2 two. Claim ``a`` is allocated on n1's GPU (its
allocation's node selector names n1); claim ``b`` is pending and, with
n1's GPU taken, fits only on n2. The scheduler finds no node for a pod
using both, frees ``a`` (PostFilter) and places both on n2.
"""

from __future__ import annotations

INVENTORY = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpu}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n2-gpu}
spec:
  driver: gpu.example.com
  nodeName: n2
  pool: {name: n2, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
  - name: gpu-1
"""

_CLAIM_A = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: a, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [n1]}
"""

_CLAIM_B = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: b, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
"""

_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, uid: 11111111-1111-1111-1111-111111111111}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
  resourceClaims:
  - {name: a, resourceClaimName: a}
  - {name: b, resourceClaimName: b}
"""


def documents(pod: bool = True, reserved_for: str | None = None) -> str:
    """Claims a (allocated on n1) and b (pending), with the pod using both unless ``pod`` is off.

    ``reserved_for``: the UID of a pod that claim ``a``'s ``status.reservedFor`` names.
    """
    claim_a = _CLAIM_A
    if reserved_for:
        claim_a += ("  reservedFor:\n"
                    f"  - {{resource: pods, name: other, uid: {reserved_for}}}\n")
    parts = [claim_a, _CLAIM_B] + ([_POD] if pod else [])
    return "---\n".join(parts)


def everything(**kwargs) -> str:
    """The inventory and the documents in one text, as the command line reads them."""
    return INVENTORY + "---\n" + documents(**kwargs)
