"""What several playground test modules share (no Django imports here: the browser tests use it too)."""

from __future__ import annotations

import socket
from pathlib import Path
from unittest import mock

# The checkout (or clone) and the sample inventories and examples in it.
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "playground" / "samples"

# The headers htmx sends with a live analysis (``self.client.post(..., headers=HTMX)``).
HTMX = {"HX-Request": "true", "HX-Target": "results"}
# ... and with the request for the picture that a live update leaves out until it is in view (``POST /picture``).
PICTURE = {"HX-Request": "true", "HX-Target": "picture"}


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def freeze_mid_minute(test) -> None:
    """Mid-minute, and frozen: a test never straddles two counting windows."""
    clock = mock.patch("playground.ratelimit.time.time", return_value=1_800_000_030.0)
    clock.start()
    test.addCleanup(clock.stop)


# The gpu-node sample's pool, and one of its devices as the console names it (console and one-read tests).
POOL = "dra-example-driver-cluster-worker"
GPU3 = f"gpu.example.com/{POOL}/gpu-3"

# Two H200 GPUs in one request (the many-nodes tests and the page's edges).
H200_PAIR = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: pair
spec:
  devices:
    requests:
    - name: train
      exactly:
        deviceClassName: gpu.nvidia.com
        count: 2
        selectors:
        - cel:
            expression: device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H200'
"""


# gpu-node: one node (dra-example-driver-cluster-worker) with eight GPUs of the class gpu.example.com.
TWO_GPU_TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 2}}]
"""


def workload_controller(kind: str, name: str, count: str, claims: str = "[{name: gpu, resourceClaimTemplateName: two-gpus}]") -> str:
    api = "batch/v1" if kind == "Job" else "apps/v1"
    return f"""\
---
apiVersion: {api}
kind: {kind}
metadata: {{name: {name}}}
spec:
  {count}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers: [{{name: c, image: registry.example/app:1}}]
      resourceClaims: {claims}
"""
