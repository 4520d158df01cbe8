"""The sample inventories and gallery examples as text, and claims the counter tests share."""

from __future__ import annotations

import yaml

from allocator.tests.helpers import SAMPLES


def sample(kind: str, slug: str) -> dict:
    """A sample inventory (``kind`` "inventories") or gallery example ("examples"), as its YAML says."""
    return yaml.safe_load((SAMPLES / kind / f"{slug}.yaml").read_text(encoding="utf-8"))


def inventory_text(slug: str) -> str:
    """A sample inventory's objects as multi-document YAML, as the engine reads an inventory."""
    return yaml.safe_dump_all(sample("inventories", slug)["objects"])


# On the nvidia-mig sample: gpu-0 held by an allocated claim, and a claim for one more partition.
MIG_HELD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: default}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}]
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.nvidia.com, pool: dgx-h100-01, device: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: slice, namespace: default}
spec:
  devices:
    requests:
    - name: mig
      exactly:
        deviceClassName: mig.nvidia.com
        selectors: [{cel: {expression: "device.attributes['gpu.nvidia.com'].parentUUID == ''"}}]
"""
