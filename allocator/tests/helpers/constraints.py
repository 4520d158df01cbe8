"""One node's GPUs under a claim constraint: the inventory, the claim and what it is granted, for the
per-device constraint tests of each release."""

from allocator.engine import analyze
from allocator.tests.helpers import inventory as build


def inventory(devices: list[str]) -> str:
    return build.inventory(build.node("node-a", hostname=False), build.device_class("gpu"),
                           build.resource_slice("node-a", driver="gpu.example.com", node="node-a", devices=devices))


def claim(count: int, constraint: str) -> str:
    return f"""
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: c, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {{deviceClassName: gpu, count: {count}}}
    constraints: [{{{constraint}: gpu.example.com/{'model' if constraint == 'distinctAttribute' else 'numa'}}}]
"""


def allocate(release: str, claims: str, devices: list[str], gates: dict | None = None) -> dict:
    report = analyze(claims, inventory(devices), kubernetes_version=release, feature_gates=gates).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return report["allocation"]


def granted(allocation: dict) -> list[str]:
    return [r["device"] for c in allocation["claims"] for r in c["status"]["allocation"]["devices"]["results"]]
