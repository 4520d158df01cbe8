"""Capacity planning's and the workload controllers' test inputs: random GPU inventories, a shared claim on two
nodes, a one-GPU template, controllers around it, and reading texts into objects by kind."""

from __future__ import annotations

import random

from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates

GATES_1_37 = make_gates({}, "1.37")


def random_gpu_inventory(rng: random.Random) -> str:
    """Nodes with a few GPUs each (two models), a shared NIC pool, and sometimes a claim already allocated."""
    docs = ["""\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
"""]
    for n in range(rng.randint(1, 5)):
        name = f"node-{n}"
        devices = "".join(f"""
  - name: gpu-{g}
    attributes:
      model: {{string: {rng.choice(["a100", "h100"])}}}
      numa: {{int: {g % 2}}}
""" for g in range(rng.randint(0, 6)))
        docs.append(f"""\
apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels: {{kubernetes.io/hostname: {name}}}
""")
        docs.append(f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {name}-gpus}}
spec:
  driver: gpu.example.com
  nodeName: {name}
  pool: {{name: {name}, resourceSliceCount: 1}}
  devices:{devices or " []"}
""")
    return "---\n".join(docs)


def read_kinds(text: str) -> dict:
    result = read_documents(text)
    assert not result.errors, [str(e) for e in result.errors]
    return {kind: result.of_kind(kind) for kind in
            ("ResourceClaim", "ResourceClaimTemplate", "Pod", "DeviceClass", "ResourceSlice", "Node")}


def devices_per_copy(results) -> list[list[str]]:
    return [[f"{r.pool}/{r.device}" for r in res.devices.results] for res in results]


SHARED_GPU_CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
---
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: a}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: b}
spec:
  driver: gpu.example.com
  nodeName: node-b
  pool: {name: node-b, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared-gpu}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
---
apiVersion: v1
kind: Pod
metadata: {name: worker}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimName: shared-gpu}]
"""


# The nodes, slices and class of SHARED_GPU_CLAIM, without its claim and pod.
TWO_NODE_INVENTORY = SHARED_GPU_CLAIM[: SHARED_GPU_CLAIM.index("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n")]


ONE_GPU_TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
"""


def workload_controller(kind: str, name: str, count_fields: str, claims: str = "[{name: gpu, resourceClaimTemplateName: gpu}]",
                extra: str = "") -> str:
    api = "batch/v1" if kind == "Job" else "apps/v1"
    return f"""\
---
apiVersion: {api}
kind: {kind}
metadata: {{name: {name}}}
spec:
{count_fields}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:{extra}
      containers: [{{name: c, image: registry.example/app:1, resources: {{claims: [{{name: gpu}}]}}}}]
      resourceClaims: {claims}
"""
