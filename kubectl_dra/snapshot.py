"""Objects stripped to what the engine reads, with the server's bookkeeping removed, ready to paste.

Kept: names, namespaces and labels; each DRA object's spec; a claim's
``status.allocation`` and ``status.reservedFor`` (they hold devices and tie
claims to pods) with its ``uid`` (``reservedFor`` names pods and claims by
uid, and a uid marks an object read from a cluster, which the engine reads as
stored); the annotations DRA sets on generated claims; a node's name, labels
and ``status.allocatable`` (extended resources). Dropped: managedFields,
resourceVersion, creationTimestamp, generation, ownerReferences, the
``kubectl.kubernetes.io/last-applied-configuration`` annotation, statuses the
engine does not read.
"""

from __future__ import annotations

import yaml

from kubectl_dra.cluster import Inventory

_DRA_ANNOTATION_PREFIXES = ("resource.kubernetes.io/",)


def _metadata(obj: dict, *, uid: bool = False, annotations: bool = False) -> dict:
    source = obj.get("metadata") or {}
    out = {"name": source.get("name")}
    if source.get("namespace"):
        out["namespace"] = source["namespace"]
    if uid and source.get("uid"):
        out["uid"] = source["uid"]
    if source.get("labels"):
        out["labels"] = dict(source["labels"])
    if annotations:
        kept = {k: v for k, v in (source.get("annotations") or {}).items() if k.startswith(_DRA_ANNOTATION_PREFIXES)}
        if kept:
            out["annotations"] = kept
    return out


def _head(obj: dict) -> dict:
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"]}


def strip(obj: dict) -> dict:
    """One object as the engine needs it."""
    kind = obj.get("kind")
    if kind == "Node":
        out = {**_head(obj), "metadata": _metadata(obj)}
        allocatable = (obj.get("status") or {}).get("allocatable")
        if allocatable:
            out["status"] = {"allocatable": dict(allocatable)}
        return out
    if kind == "ResourceClaim":
        out = {**_head(obj), "metadata": _metadata(obj, uid=True, annotations=True), "spec": obj.get("spec") or {}}
        status = obj.get("status") or {}
        kept = {k: status[k] for k in ("allocation", "reservedFor") if status.get(k)}
        if kept:
            out["status"] = kept
        return out
    if kind == "Pod":
        spec = obj.get("spec") or {}
        return {**_head(obj), "metadata": _metadata(obj, uid=True),
                "spec": {k: spec[k] for k in ("nodeName", "containers", "initContainers", "resourceClaims",
                                               "nodeSelector", "tolerations") if spec.get(k)}}
    return {**_head(obj), "metadata": _metadata(obj, annotations=kind == "ResourceClaimTemplate"),
            "spec": obj.get("spec") or {}}


def inventory_objects(inventory: Inventory, *, pending_namespace: str | None = None,
                      all_namespaces: bool = False) -> tuple[list[dict], list[dict]]:
    """(the stored inventory, the pending claims): classes, slices, taint rules, nodes and allocated claims of
    every namespace; pending claims of one namespace, or of all."""
    stored = [strip(o) for o in inventory.device_classes + inventory.slices + inventory.taint_rules
              + inventory.nodes + inventory.allocated_claims()]
    pending = [strip(c) for c in inventory.claims
               if not (c.get("status") or {}).get("allocation")
               and (all_namespaces or (c.get("metadata") or {}).get("namespace") == pending_namespace)]
    return stored, pending


def dump(objects: list[dict], header: str = "") -> str:
    """Multi-document YAML, block style, keys in the order they were read (as kubectl prints them)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    body = yaml.dump_all(objects, Dumper=dumper, sort_keys=False, default_flow_style=False,
                         explicit_start=True, allow_unicode=True, width=1 << 16)
    return (header + body) if objects else header
