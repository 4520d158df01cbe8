"""Node-0 inventories and claims written as YAML text: GPUs and NICs, claims and requests.

The proof tests build their cases with these, and so do the tests of the other
grants and the API, page and browser tests of the proof (``ISSUE``, ``MESSAGE``).
"""

from __future__ import annotations

from allocator.tests.helpers.inventory import device_class

NODE = "node-0"

CLASSES = """
apiVersion: v1
kind: Node
metadata: {name: node-0}
---
""" + device_class('gpu', "device.driver == 'gpu.example.com'") + """---
""" + device_class('nic', "device.driver == 'nic.example.com'")


def slice_(driver: str, devices: list[str], name: str | None = None, extra: str = "") -> str:
    pool = name or f"node-0-{driver.split('.')[0]}"
    body = "".join(f"  - {d}\n" for d in devices)
    return f"""---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {pool}}}
spec:
  driver: {driver}
  nodeName: node-0
  pool: {{name: {pool}, generation: 1, resourceSliceCount: 1}}
{extra}  devices:
{body}"""


def gpus(n: int, attributes=lambda i: f"fwVersion: {{version: 1.{i % 2}.0}}, numa: {{int: {i % 2}}}") -> str:
    return slice_("gpu.example.com", [f"{{name: gpu-{i}, attributes: {{{attributes(i)}}}}}" for i in range(n)])


def nics(n: int) -> str:
    return slice_("nic.example.com", [f"{{name: nic-{i}, attributes: {{numa: {{int: {i % 2}}}}}}}" for i in range(n)])


def claim(name: str, requests: str, constraints: str = "") -> str:
    return f"""---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: {name}, namespace: default}}
spec:
  devices:
    requests:
{requests}{constraints}"""


def exact(name: str, device_class: str, count: int = 1, extra: str = "") -> str:
    return f"    - {{name: {name}, exactly: {{deviceClassName: {device_class}, count: {count}{extra}}}}}\n"


GPU_NIC = claim("gpu-nic", exact("gpu", "gpu") + exact("nic", "nic"),
                "    constraints:\n    - {requests: [gpu, nic], matchAttribute: gpu.example.com/fwVersion}\n")


ISSUE = CLASSES + gpus(8) + nics(2) + claim("train", exact("gpus", "gpu", 3)) + claim(
    "infer", exact("gpus", "gpu", 3)) + GPU_NIC
MESSAGE = ("claim default/gpu-nic, request nic: 0 devices on node-0 have gpu.example.com/fwVersion, "
           "which its matchAttribute needs")
