"""The engine's answer to a case, in the shape of the harness's answer (``upstream/client.py``).

The engine is asked exactly as a user asks it: through the command line (``python -m allocator``, called
in this process), so what is compared is what the CLI, the API and the page print.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

import yaml

from allocator.__main__ import main as cli
from allocator.cli.allocate import POD_SCHEDULED_SAYS, SCHEDULER_SAYS
from allocator.releases.gates import FeatureGateError, make_gates
from allocator.workload.pods import POD_CLAIM_NAME_ANNOTATION

REFUSED_INPUT = "<stdin>:"  # how the CLI starts an input error's line, after "error: "


def run_cli(args: list[str], text: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``python -m allocator ARGS -`` with ``text`` on stdin."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli([*args, "-"])
            except SystemExit as stop:
                status = int(stop.code or 0)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def documents_of(case: dict) -> str:
    if case.get("documents") is not None:
        return case["documents"]
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": case["objects"]})


def _release_flags(case: dict) -> list[str]:
    gates = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(case.get("gates", {}).items()))
    return ["--kubernetes-version", case["release"], *(["--feature-gates", gates] if gates else [])]


def answer(case: dict) -> dict:
    """Our answer to ``case``: the parts its ``run`` asks for."""
    out: dict = {"id": case.get("id"), "release": case["release"], "error": None}
    run = case.get("run", ["allocate"])
    refused = gates_refusal(case)
    if "gates" in run:
        out["gates"] = {"refused": refused}
    if refused is not None:
        return out
    if "create" in run:
        out["create"] = create(case)
    if "schedule" in run:
        out["schedule"] = schedule(case)
    if "allocate" in run:
        out["allocate"] = allocate(case)
    return out


def gates_refusal(case: dict) -> str | None:
    try:
        make_gates(case.get("gates") or {}, case["release"])
    except FeatureGateError as err:
        return str(err)
    return None


def _errors(stderr: str) -> list[str]:
    return [line.removeprefix("error: ") for line in stderr.splitlines() if line.startswith("error: ")]


def allocate(case: dict) -> dict:
    """``allocate --node``: {"node", "fits", "claims", "error"}, or "refused" with the input errors when
    the engine refuses the input itself (the allocator-only mode of the harness checks nothing)."""
    node = case.get("node") or ""
    if not node:
        return _allocate_anywhere(case)
    status, stdout, stderr = run_cli(["allocate", "--node", node, *_release_flags(case)], documents_of(case))
    if status == 0:
        return {"node": node, "fits": True, "claims": json.loads(stdout)["claims"], "error": None}
    if status == 1:
        return {"node": node, "fits": False, "claims": [], "error": None}
    errors = _errors(stderr)
    if any(e.startswith(REFUSED_INPUT) for e in errors) or not errors:
        return {"node": node, "fits": False, "claims": [], "error": None, "refused": errors or [stderr.strip()]}
    return {"node": node, "fits": False, "claims": [], "error": errors[0].removesuffix(f" (node {node})")}


def _allocate_anywhere(case: dict) -> dict:
    """``allocate`` without a node: every node tried; {"node", "fits", "claims", "error", "nodes"}."""
    status, stdout, stderr = run_cli(["allocate", *_release_flags(case)], documents_of(case))
    errors = _errors(stderr)
    if not stdout.strip():
        if any(e.startswith(REFUSED_INPUT) for e in errors) or not errors:
            return {"node": None, "fits": False, "claims": [], "error": None, "refused": errors or [stderr.strip()]}
        return {"node": None, "fits": False, "claims": [], "error": errors[0]}
    data = json.loads(stdout)
    nodes = [{"name": n["name"], "fits": n["fits"]} for n in data.get("nodes") or []]
    return {"node": data["node"], "fits": data["node"] is not None, "claims": data.get("claims") or [],
            "error": errors[0] if status == 2 and errors else None, "nodes": nodes}


def _has_pod(case: dict) -> bool:
    if case.get("documents") is None:
        return any(obj.get("kind") == "Pod" for obj in case.get("objects") or [])
    try:
        docs = [doc for doc in yaml.safe_load_all(case["documents"]) if isinstance(doc, dict)]
    except yaml.YAMLError:
        return True  # let the engine say what is wrong with the text
    items = [item for doc in docs for item in (doc.get("items") or [] if doc.get("kind") == "List" else [doc])]
    return any(isinstance(item, dict) and item.get("kind") == "Pod" for item in items)


def schedule(case: dict) -> dict:
    """``allocate`` over every node (or the case's node): the chosen node, per-node fits, reasons (ours and
    the scheduler's words) and scores, the PodScheduled message when no node fits, the claims."""
    if not _has_pod(case):
        # kube-scheduler schedules pods: claims no pod uses stay as they are, whatever the nodes could give
        # (the harness's schedule answers an empty result then; the allocator alone is ``allocate``).
        return {"node": None, "nodes": [], "claims": [], "names": {}, "error": None}
    node = case.get("node")
    status, stdout, stderr = run_cli(["allocate", *(["--node", node] if node else []), *_release_flags(case)],
                                     documents_of(case))
    if node and status == 1:
        prefix = f"cannot allocate the claims on node {node}: "
        reason = next((line.removeprefix(prefix) for line in stderr.splitlines() if line.startswith(prefix)), None)
        said = {key: next((line.strip().removeprefix(start) for line in stderr.splitlines()
                           if line.strip().startswith(start)), None)
                for key, start in (("schedulerReason", SCHEDULER_SAYS), ("message", POD_SCHEDULED_SAYS))}
        return {"node": None, "message": said["message"],
                "nodes": [{"name": node, "fits": False, "reason": reason, "schedulerReason": said["schedulerReason"],
                           "score": None}],
                "claims": [], "names": {}, "error": None}
    errors = _errors(stderr)
    if status == 2 and not stdout:
        refused = {"refused": errors} if any(e.startswith(REFUSED_INPUT) for e in errors) or not errors else {}
        return {"node": None, "nodes": [], "claims": [], "names": {},
                "error": errors[0] if errors else stderr.strip(), **refused}
    data = json.loads(stdout)
    nodes = [{"name": n["name"], "fits": n["fits"], "reason": n.get("reason"),
              "schedulerReason": n.get("schedulerReason"), "score": n.get("score")}
             for n in data.get("nodes") or [{"name": node, "fits": True}]]
    claims = data.get("claims", [])
    # The claims made for the pod, as its status.resourceClaimStatuses lists them: the resource-claim
    # controller lists those it makes from templates, never a claim the pod names (resourceClaimName).
    names = {}
    for claim in claims:
        meta = claim.get("metadata", {})
        pod_claim = (meta.get("annotations") or {}).get(POD_CLAIM_NAME_ANNOTATION)
        if pod_claim:
            names[pod_claim] = meta["name"]
    return {"node": data["node"], "message": data.get("schedulerMessage"), "nodes": nodes, "claims": claims,
            "names": names, "error": errors[0] if status == 2 and errors else None}


def create(case: dict) -> list[dict]:
    """``validate``: per object, whether the apiserver stores it on create and the errors it returns."""
    status, stdout, stderr = run_cli(["validate", "-o", "json", *_release_flags(case)], documents_of(case))
    found = json.loads(stdout)["errors"] if stdout.strip() else []
    out = []
    for index, obj in enumerate(case.get("objects", [])):
        meta = obj.get("metadata") or {}
        errors = [{"field": e["field"], "type": e["type"], "detail": e["detail"]} for e in found
                  if e.get("kind") == obj.get("kind") and e.get("name") == meta.get("name")]
        # "stored": read from a cluster (uid or resourceVersion), so checked as a stored object
        out.append({"index": index, "kind": obj.get("kind"), "namespace": meta.get("namespace"),
                    "name": meta.get("name"), "stored": bool(meta.get("uid") or meta.get("resourceVersion")),
                    "errors": errors, "error": None})
    if status == 2:  # unreadable input or a version not served: nothing is created
        refused = _errors(stderr)
        for entry in out:
            entry["error"] = "; ".join(refused) or stderr.strip()
    return out
