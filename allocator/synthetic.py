"""Synthetic GPU clusters, shaped like ``kubectl get deviceclasses,resourceslices,nodes -o yaml``.

``synthetic_cluster(nodes)`` builds one ``kind: List`` holding DeviceClasses,
one ResourceSlice per node (its own pool, ``gpus_per_node`` GPUs of the node's
model, with the attribute and capacity names of the NVIDIA GPU DRA driver)
and the Node objects, with the server-populated metadata a real dump carries
(uid, resourceVersion, creationTimestamp, ownerReferences). The same
arguments always give the same cluster: everything random comes from a
``random.Random(seed)``. ``cluster_yaml`` and ``cluster_json`` print it as
kubectl does (keys in alphabetical order, two-space indentation).

Benchmarks, tests and the site's sample cluster use it; the identifiers are
made up.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass

import yaml

DRIVER = "gpu.nvidia.com"
DEVICE_CLASS = "gpu.nvidia.com"


@dataclass(frozen=True)
class GpuModel:
    product: str
    architecture: str
    memory: str
    weight: int  # how common the model is in the cluster


# Node kinds of a mixed fleet; the weights make H100 the common case.
MODELS = (
    GpuModel("NVIDIA H100 80GB HBM3", "Hopper", "81559Mi", 5),
    GpuModel("NVIDIA A100-SXM4-80GB", "Ampere", "81920Mi", 3),
    GpuModel("NVIDIA H200", "Hopper", "143771Mi", 1),
    GpuModel("NVIDIA L40S", "Ada Lovelace", "46068Mi", 1),
)
DRIVER_VERSIONS = ("570.172.8", "575.57.8", "580.95.5")
ZONES = ("zone-a", "zone-b", "zone-c")


def node_name(index: int) -> str:
    return f"gpu-node-{index:05d}"


def synthetic_cluster(nodes: int, *, gpus_per_node: int = 8, seed: int = 0) -> dict:
    """The cluster as plain data: ``{"apiVersion": "v1", "kind": "List", "items": [...]}``."""
    if nodes < 0 or gpus_per_node < 0:
        raise ValueError("nodes and gpus_per_node must not be negative")
    rng = random.Random(seed)
    counter = _ResourceVersions()
    weights = [m.weight for m in MODELS]
    layout = []
    for index in range(nodes):
        model = rng.choices(MODELS, weights)[0]
        layout.append((node_name(index), model, rng.choice(DRIVER_VERSIONS), ZONES[index % len(ZONES)]))
    items = [_device_class(rng, counter), *_model_classes(rng, counter)]
    nodes_by_name = {}
    for name, model, driver_version, zone in layout:
        node = _node(rng, counter, name, model, zone)
        nodes_by_name[name] = node
        items.append(_slice(rng, counter, node, model, driver_version, gpus_per_node))
    items.extend(nodes_by_name.values())
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def cluster_yaml(nodes: int, *, gpus_per_node: int = 8, seed: int = 0) -> str:
    data = synthetic_cluster(nodes, gpus_per_node=gpus_per_node, seed=seed)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, default_flow_style=False, sort_keys=True, allow_unicode=True,
                     width=1 << 16)  # kubectl does not fold long strings


def cluster_json(nodes: int, *, gpus_per_node: int = 8, seed: int = 0) -> str:
    data = synthetic_cluster(nodes, gpus_per_node=gpus_per_node, seed=seed)
    return json.dumps(data, indent=4, sort_keys=True) + "\n"


class _ResourceVersions:
    def __init__(self):
        self.value = 4_100_000

    def next(self) -> str:
        self.value += 1
        return str(self.value)


def _uid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _meta(rng: random.Random, counter: _ResourceVersions, name: str, **extra) -> dict:
    return {"creationTimestamp": f"2026-11-02T08:{rng.randrange(60):02d}:{rng.randrange(60):02d}Z",
            "name": name, "resourceVersion": counter.next(), "uid": _uid(rng), **extra}


def _device_class(rng, counter) -> dict:
    return {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
            "metadata": _meta(rng, counter, DEVICE_CLASS, generation=1),
            "spec": {"selectors": [{"cel": {"expression": f"device.driver == '{DRIVER}'"}}]}}


def _model_classes(rng, counter) -> list[dict]:
    """One class per architecture, as clusters with mixed fleets define them."""
    out = []
    for arch in sorted({m.architecture for m in MODELS}):
        name = "gpu-" + arch.lower().replace(" ", "-")
        expression = f"device.driver == '{DRIVER}' && device.attributes['{DRIVER}'].architecture == '{arch}'"
        out.append({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
                    "metadata": _meta(rng, counter, name, generation=1),
                    "spec": {"selectors": [{"cel": {"expression": expression}}]}})
    return out


def _node(rng, counter, name: str, model: GpuModel, zone: str) -> dict:
    labels = {
        "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "gpu-8x-" + model.architecture.split()[0].lower(),
        "nvidia.com/gpu.present": "true", "nvidia.com/gpu.product": model.product.replace(" ", "-"),
        "topology.kubernetes.io/zone": zone,
    }
    address = f"10.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {**_meta(rng, counter, name), "labels": labels},
        "spec": {"providerID": f"synthetic://{zone}/{name}"},
        "status": {
            "addresses": [{"address": address, "type": "InternalIP"}],
            "capacity": {"cpu": "192", "memory": "2113853232Ki", "nvidia.com/gpu": "0", "pods": "110"},
            "nodeInfo": {"kubeletVersion": "v1.37.0", "osImage": "Ubuntu 24.04.3 LTS"},
        },
    }


def _slice(rng, counter, node: dict, model: GpuModel, driver_version: str, gpus: int) -> dict:
    name = node["metadata"]["name"]
    owner = {"apiVersion": "v1", "controller": True, "kind": "Node", "name": name, "uid": node["metadata"]["uid"]}
    devices = []
    for index in range(gpus):
        root = index // 4  # two PCIe roots, four GPUs each
        devices.append({
            "name": f"gpu-{index}",
            "attributes": {
                "architecture": {"string": model.architecture},
                "driverVersion": {"version": driver_version},
                "index": {"int": index},
                "productName": {"string": model.product},
                "resource.kubernetes.io/pcieRoot": {"string": f"pci0000:{0x40 * root:02x}"},
                "uuid": {"string": "GPU-" + _uid(rng)},
            },
            "capacity": {"memory": {"value": model.memory}},
        })
    return {
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
        "metadata": {**_meta(rng, counter, f"{name}-{DRIVER}-{rng.getrandbits(20):05x}", generation=1),
                     "ownerReferences": [owner]},
        "spec": {"devices": devices, "driver": DRIVER, "nodeName": name,
                 "pool": {"generation": 1, "name": name, "resourceSliceCount": 1}},
    }
