"""The four commands: each reads what it needs, asks the engine, and returns (answer, exit code).

The engine is asked through its stable surfaces: ``engine.analyze`` and its
report's JSON (the REST API's ``analyze`` answer) for ``why`` and ``fit``, and
``python -m allocator capacity`` for ``capacity``, so that the plugin, the page,
the API and the command line give the same answers on the same objects.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass

from allocator.engine import analyze
from allocator.reading import inputfiles
from allocator.reading.limits import DEFAULT as DEFAULT_LIMITS
from kubectl_dra import cluster, snapshot
from kubectl_dra.connection import Access, ClusterError, Connection
from kubectl_dra.release import ClusterRelease

EXIT_OK, EXIT_DOES_NOT_FIT, EXIT_INVALID, EXIT_CLUSTER = 0, 1, 2, 3


class InputError(Exception):
    """A file the user named cannot be read (exit 2)."""


@dataclass
class Session:
    """One command's view of the cluster: the connection, the release and gates, the DRA API versions."""

    connection: Connection
    release: ClusterRelease
    api: cluster.DraApi

    def engine_options(self) -> dict:
        return {"kubernetes_version": self.release.release, "feature_gates": dict(self.release.gates)}

    def about(self) -> dict:
        return {"server": self.connection.server, **self.release.to_dict()}


def _analysis(report: dict) -> dict:
    allocation = report["allocation"]
    return {"status": allocation["status"], "node": allocation.get("node"), "reasons": allocation.get("reasons"),
            "error": allocation.get("error"), "claims": allocation.get("claims", []),
            "scoring": allocation.get("scoring"), "nodes": report.get("nodes", []),
            "explainedNode": report.get("explainedNode"), "requests": report.get("requests", []),
            "containers": report.get("containers", [])}


def _errors(report: dict) -> list[dict]:
    return [d for d in report["diagnostics"] if d.get("severity") == "error"]


def why(session: Session, namespace: str, pod_name: str) -> tuple[dict, int]:
    """Why this pod is pending (or where it runs): the scheduler's words, then the engine's analysis."""
    pod = cluster.read_pod(session.connection, namespace, pod_name)
    condition = cluster.pod_condition(pod)
    answer: dict = {"pod": f"{namespace}/{pod_name}", "cluster": session.about(),
                    "scheduler": {"condition": condition}}
    node_name = (pod.get("spec") or {}).get("nodeName")
    claims = cluster.pod_claims(session.connection, session.api, pod)
    answer["podClaims"] = {"generated": claims.generated, "missing": claims.missing}
    if node_name:
        answer.update(scheduled=True, node=node_name,
                      claims=[snapshot.strip(c) for c in claims.claims])
        return answer, EXIT_OK
    inventory = cluster.read_inventory(session.connection, session.api)
    own = {cluster.key(c) for c in claims.claims}
    documents = [snapshot.strip(cluster.as_scheduled(pod, claims.generated))]
    documents += [snapshot.strip(c) for c in claims.claims + claims.templates]
    stored, _ = snapshot.inventory_objects(_without(inventory, own))
    report = analyze(snapshot.dump(documents), snapshot.dump(stored), **session.engine_options()).to_dict()
    analysis = _analysis(report)
    _name_holders(analysis, inventory.allocated_claims(own))
    answer.update(scheduled=False, node=None, inventory=inventory.counts, valid=report["valid"],
                  errors=_errors(report), analysis=analysis)
    return answer, EXIT_OK


def _name_holders(analysis: dict, allocated: list[dict]) -> None:
    """Devices already allocated get ``heldBy``: the claim holding them and the pods it is reserved for.

    The engine says "already allocated to another claim"; on a live cluster we know which one, and a person
    deciding what to free needs its name."""
    holders: dict[tuple[str, str, str], dict] = {}
    for claim in allocated:
        metadata = claim.get("metadata") or {}
        status = claim.get("status") or {}
        holder = {"claim": f"{metadata.get('namespace')}/{metadata.get('name')}",
                  "reservedFor": [r.get("name") for r in status.get("reservedFor") or []]}
        for result in ((status.get("allocation") or {}).get("devices") or {}).get("results") or []:
            holders[(result["driver"], result["pool"], result["device"])] = holder
    for request in analysis["requests"]:
        for device in request.get("devices") or []:
            if device.get("reasonCode") == "allocated":
                device["heldBy"] = holders.get((device["driver"], device["pool"], device["device"]))


def _without(inventory: cluster.Inventory, claim_keys: set[tuple[str, str]]) -> cluster.Inventory:
    return cluster.Inventory(inventory.device_classes, inventory.slices, inventory.taint_rules, inventory.nodes,
                             [c for c in inventory.claims if cluster.key(c) not in claim_keys])


def _read_files(paths: list[str]) -> str:
    texts = []
    for path in paths:
        try:
            texts.append(inputfiles.read_input(path, DEFAULT_LIMITS))
        except inputfiles.InputError as err:
            raise InputError(str(err)) from None
    return "\n---\n".join(texts)


def fit(session: Session, paths: list[str], node: str | None = None) -> tuple[dict, int]:
    """Would these claims (or this pod) fit in the cluster now: on which node, with which devices."""
    text = _read_files(paths)
    inventory = cluster.read_inventory(session.connection, session.api)
    stored, _ = snapshot.inventory_objects(inventory)
    report = analyze(text, snapshot.dump(stored), node=node, **session.engine_options()).to_dict()
    answer = {"cluster": session.about(), "inventory": inventory.counts, "valid": report["valid"],
              "errors": _errors(report), "analysis": _analysis(report)}
    if not report["valid"]:
        return answer, EXIT_INVALID
    status = report["allocation"]["status"]
    if status == "allocated":
        return answer, EXIT_OK
    if status == "error":
        return answer, EXIT_INVALID
    return answer, EXIT_DOES_NOT_FIT


def capacity(session: Session, paths: list[str], strategy: str, max_copies: int | None) -> tuple[dict, int]:
    """How many copies of the workload fit now: ``python -m allocator capacity`` on the live inventory."""
    text = _read_files(paths)
    inventory = cluster.read_inventory(session.connection, session.api)
    stored, _ = snapshot.inventory_objects(inventory)
    with tempfile.TemporaryDirectory(prefix="kubectl-dra-") as folder:
        inventory_file = os.path.join(folder, "inventory.yaml")
        workload_file = os.path.join(folder, "workload.yaml")
        with open(inventory_file, "w", encoding="utf-8") as out:
            out.write(snapshot.dump(stored))
        with open(workload_file, "w", encoding="utf-8") as out:
            out.write(text)
        command = [sys.executable, "-m", "allocator", "capacity", "--strategy", strategy, "-o", "json",
                   "--kubernetes-version", session.release.release]
        if session.release.gates:
            command += ["--feature-gates", ",".join(f"{k}={str(v).lower()}" for k, v in
                                                    sorted(session.release.gates.items()))]
        if max_copies is not None:
            command += ["--max", str(max_copies)]
        done = subprocess.run(command + [inventory_file, workload_file], capture_output=True, text=True)
    if done.returncode == 2 or not done.stdout.strip():
        message = done.stderr.strip().removeprefix("error: ").replace(workload_file, "FILE").replace(inventory_file, "the cluster's objects")
        raise InputError(message or f"capacity planning failed (exit {done.returncode})")
    return {"cluster": session.about(), "inventory": inventory.counts, "capacity": json.loads(done.stdout)}, \
        done.returncode


def snapshot_objects(session: Session, namespace: str, all_namespaces: bool) -> tuple[list[dict], list[dict]]:
    """(stored inventory, what a user would be writing): the snapshot's two halves."""
    inventory = cluster.read_inventory(session.connection, session.api)
    stored, pending = snapshot.inventory_objects(inventory, pending_namespace=namespace,
                                                 all_namespaces=all_namespaces)
    path = session.api.path("resourceclaimtemplates", None if all_namespaces else namespace)
    if path:
        scope = None if all_namespaces else namespace
        templates = session.connection.list(path, Access("list", cluster.GROUP, "resourceclaimtemplates", scope),
                                            "resourceclaimtemplates")
        pending += [snapshot.strip(t) for t in templates]
    return stored, pending


def share(site: str, stored_text: str, pending_text: str, release: ClusterRelease, timeout: float) -> dict:
    """Store the snapshot on a playground site through its REST API; the share's link opens it."""
    base = site.rstrip("/")
    inventory = _post(f"{base}/api/v1/inventories", stored_text.encode(), "application/yaml", timeout)
    body = {"documents": pending_text, "inventory": inventory["id"], "kubernetesVersion": release.release,
            "featureGates": release.gates}
    shared = _post(f"{base}/api/v1/shares", json.dumps(body).encode(), "application/json", timeout)
    return {"inventory": inventory, "share": shared, "url": shared.get("url")}


def _post(url: str, data: bytes, content_type: str, timeout: float) -> dict:
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": content_type, "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as err:
        try:
            errors = json.loads(err.read()).get("errors") or []
            detail = "; ".join(e.get("detail", "") for e in errors[:3])
        except ValueError:
            detail = err.reason
        raise ClusterError(f"the playground site refused the snapshot ({err.code}): {detail}") from None
    except (urllib.error.URLError, TimeoutError) as err:
        raise ClusterError(f"cannot reach the playground site at {url}: {getattr(err, 'reason', err)}") from None
