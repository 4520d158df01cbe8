"""Inputs that each release's allocator treats differently (engine and API tests)."""

from __future__ import annotations

from allocator.tests.helpers.inventory import device_class

NODE = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
---
""" + device_class('gpu')


CAPACITY = NODE + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    capacity:
      memory: {value: 8Gi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: a
      exactly:
        deviceClassName: gpu
        capacity: {requests: {memory: 1Gi}}
"""


# The same claim as read from a cluster (``kubectl get -o yaml``): created while DRAConsumableCapacity was on,
# it keeps its capacity requests (the registry strategy drops them on create only).
CAPACITY_STORED = CAPACITY.replace("metadata: {name: c}", 'metadata: {name: c, uid: 5d1c2a9e, resourceVersion: "7"}')


SHARED = NODE + """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    allowMultipleAllocations: true
    capacity:
      memory: {value: 8Gi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: a
      exactly:
        deviceClassName: gpu
        count: COUNT
        capacity: {requests: {memory: 3Gi}}
"""
