"""Objects of DRA features the engine does not simulate, shared by the engine's, the API's and the page's tests."""

from __future__ import annotations

SLICE_1_37 = """
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: cpus}
spec:
  driver: cpu.example.com
  nodeName: node-a
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  skipNodeOperations: ["*"]
  devices:
  - name: cpu-0
    nodeAllocatableResources:
      cpu: {mapping: {capacityKey: cores}}
"""


NODE = "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\n---\n"


CLASS = """---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: cpu}
spec: {}
"""


CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests: [{name: cpu, exactly: {deviceClassName: cpu}}]
"""


POD_GROUP = """
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: training, namespace: default}
spec:
  resourceClaims: [{name: shared, resourceClaimTemplateName: gpus}]
---
apiVersion: v1
kind: Pod
metadata: {name: worker-0, namespace: default}
spec:
  schedulingGroup: {podGroupName: training}
  containers: [{name: c, image: x}]
"""
