"""What differs between our answer and upstream's to one case, each difference with a category.

Both answers have the harness's shape (``upstream/client.py``; ours from ``ours.answer``). Before comparing,
what is random or incidental on either side is normalised: share IDs (random UUIDs upstream) become
``share-1``, ``share-2`` ... in order of appearance, empty fields and ``false`` flags are dropped, and claims
are compared by their allocation only (the rest of a claim is the input given back).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The categories of the summary table, in its column order.
CATEGORIES = ("gates", "create verdict", "create errors", "verdict", "error message", "node", "node verdicts",
              "reasons", "pod message",
              "scores", "names", "devices", "shares", "config", "node selector", "allocation fields")


@dataclass(frozen=True)
class Difference:
    category: str
    where: str
    ours: object
    theirs: object

    def to_dict(self) -> dict:
        return {"category": self.category, "where": self.where, "ours": self.ours, "upstream": self.theirs}


def differences(case: dict, ours: dict, theirs: dict) -> list[Difference]:
    """Every difference between ``ours`` and ``theirs`` for the parts ``case["run"]`` asks for."""
    out: list[Difference] = []
    run = case.get("run", ["allocate"])
    # The harness answers a refused gate set whatever the case asks for: the components would not start.
    if "gates" in run or (theirs.get("gates") or {}).get("refused"):
        mine, upstream = (ours.get("gates") or {}).get("refused"), (theirs.get("gates") or {}).get("refused")
        if "gates" not in run:
            mine = _gates_refusal(case)
        if (mine is None) != (upstream is None) or (mine and not _same_refusal(case, mine, upstream)):
            out.append(Difference("gates", "gates", mine, upstream))
            return out
        if mine is not None:
            return out
    if "create" in run:
        out += _create(ours.get("create") or [], theirs.get("create") or [], _namespaces(case))
    if "schedule" in run:
        out += _schedule(ours.get("schedule") or {}, theirs.get("schedule") or {})
    if "allocate" in run and not ("create" in run and _refused(ours) and _refused(theirs)):
        # When both apiservers refuse an object it is never stored, so no allocator reads it: the harness's
        # allocator, which reads the inputs as given, is then not compared.
        out += _allocate(ours.get("allocate") or {}, theirs.get("allocate") or {})
    return out


def _refused(answer: dict) -> bool:
    """Whether the create path refused a new object of the answer (stored objects are not created)."""
    return any(not entry.get("stored") and not _accepted(entry) for entry in answer.get("create") or [])


# Where one refusal ends and the next begins in component-base's aggregate "[a, b]".
_NEXT_REFUSAL = re.compile(r", (?=cannot set feature gate |unrecognized feature gate: |\w+ is enabled, but )")


def _gate_words(message: str) -> list[str]:
    """The refusals of a gate set, in any order: component-base lists them in Go's random map order."""
    if message.startswith("[") and message.endswith("]"):
        return sorted(_NEXT_REFUSAL.split(message[1:-1]))
    return [message]


_UNKNOWN = re.compile(r"unrecognized feature gate: (\S+?)\]?$")


def _same_refusal(case: dict, mine: str, upstream: str) -> bool:
    """Whether both refuse the gate set alike. component-base walks the set in Go's random map order and stops
    at the first gate it does not know: with an unknown gate in the set, which one it names and which locked
    gates it named before vary from run to run, so two refusals that each end on an unknown gate of the set
    are the same answer."""
    if _gate_words(mine) == _gate_words(upstream):
        return True
    gates = case.get("gates") or {}
    ends = [_UNKNOWN.search(message) for message in (mine, upstream)]
    return all(end and end.group(1) in gates for end in ends)


def _gates_refusal(case: dict) -> str | None:
    from upstream.differential.ours import gates_refusal

    return gates_refusal(case)


# The label is resource.k8s.io/admin-access in 1.33, resource.kubernetes.io/admin-access from 1.34 on.
ADMIN_ACCESS_DENIED = "admin access to devices requires the `resource."


def _namespaces(case: dict) -> set[str]:
    """The names of the Namespaces a case defines."""
    return {(obj.get("metadata") or {}).get("name") for obj in case.get("objects") or []
            if obj.get("kind") == "Namespace"}


def _create(ours: list[dict], theirs: list[dict], namespaces: set[str]) -> list[Difference]:
    out = []
    upstream = {entry.get("index"): entry for entry in theirs}
    for mine in ours:
        other = upstream.get(mine["index"])
        if other is None or mine["kind"] == "Namespace":  # there only for the admin-access label
            continue
        if mine.get("namespace") not in namespaces and other.get("errors"):
            # Without the Namespace in the input, the harness's namespace has no labels and upstream refuses
            # admin access; the engine cannot know the cluster's labels and only warns (docs/fidelity.md).
            kept = [e for e in other["errors"] if not (e.get("detail") or "").startswith(ADMIN_ACCESS_DENIED)]
            other = {**other, "errors": kept}
        where = f"create {mine['kind']} {mine.get('name')}"
        if _accepted(mine) != _accepted(other):
            out.append(Difference("create verdict", where, mine.get("errors") or mine.get("error"),
                                  other.get("errors") or other.get("error")))
        elif _error_set(mine.get("errors")) != _error_set(other.get("errors")):
            out.append(Difference("create errors", where, mine.get("errors"), other.get("errors")))
    return out


def _accepted(entry: dict) -> bool:
    """Whether the apiserver takes the object: no error reading it, no validation error."""
    return not entry.get("error") and not entry.get("errors")


def _error_set(errors) -> list[tuple]:
    return sorted((e.get("field", ""), e.get("type", ""), e.get("detail", "")) for e in errors or [])


def _allocate(ours: dict, theirs: dict) -> list[Difference]:
    verdict_ours, verdict_theirs = _verdict(ours), _verdict(theirs)
    if verdict_ours != verdict_theirs:
        return [Difference("verdict", "allocate", verdict_ours, verdict_theirs)]
    if verdict_ours == "error":
        if ours.get("error") != theirs.get("error"):
            return [Difference("error message", "allocate", ours.get("error"), theirs.get("error"))]
        return []
    out = []
    if ours.get("nodes") is not None and theirs.get("nodes") is not None:  # no node given: each node tried
        fits_theirs = {n.get("name"): bool(n.get("fits")) for n in theirs["nodes"]}
        for node in ours["nodes"]:
            if node["name"] in fits_theirs and node["fits"] != fits_theirs[node["name"]]:
                out.append(Difference("node verdicts", f"allocate node {node['name']}", node["fits"],
                                      fits_theirs[node["name"]]))
        if ours.get("node") != theirs.get("node"):
            return out  # the first node that fits (upstream) or the best scored (ours): not the same question
    if verdict_ours == "fits":
        out += _claims(ours.get("claims") or [], theirs.get("claims") or [], "allocate")
    return out


def _verdict(part: dict) -> str:
    if part.get("error"):
        return "error"
    return "fits" if part.get("fits") else "does not fit"


# How kube-scheduler's framework wraps a plugin's error (pkg/scheduler/framework/runtime); the pod then
# stays pending with this as its PodScheduled message, and the scheduler tries again later.
_PLUGIN_ERROR = re.compile(r'^running (?:"\w+" filter plugin|(?:PreFilter|Reserve|PreBind) plugin "\w+"): (.*)$',
                           re.DOTALL)


def _scheduler_error(theirs: dict) -> str | None:
    """The error a plugin returned, when the scheduler stopped on one (no node, the wrapped error as message)."""
    if theirs.get("error"):
        return theirs["error"]
    found = _PLUGIN_ERROR.match(theirs.get("message") or "") if theirs.get("node") is None else None
    return found.group(1) if found else None


def _schedule(ours: dict, theirs: dict) -> list[Difference]:
    out = []
    theirs = {**theirs, "error": _scheduler_error(theirs)}
    if bool(ours.get("error")) != bool(theirs.get("error")):
        return [Difference("verdict", "schedule", ours.get("error"), theirs.get("error"))]
    if ours.get("error"):
        generated = [*(ours.get("names") or {}).values(), *(theirs.get("names") or {}).values()]
        mine, upstream = _names_hidden(ours["error"], generated), _names_hidden(theirs["error"], generated)
        if mine != upstream:
            out.append(Difference("error message", "schedule", mine, upstream))
        return out
    if ours.get("node") != theirs.get("node"):
        category = "verdict" if (ours.get("node") is None) != (theirs.get("node") is None) else "node"
        out.append(Difference(category, "schedule node", ours.get("node"), theirs.get("node")))
    upstream_nodes = {n.get("name"): n for n in theirs.get("nodes") or []}
    for mine in ours.get("nodes") or []:
        other = upstream_nodes.get(mine["name"])
        if other is None:
            continue
        where = f"node {mine['name']}"
        if other.get("fits") is None:  # the scheduler says nothing of the nodes it did not choose
            continue
        if bool(mine.get("fits")) != bool(other.get("fits")):
            out.append(Difference("node verdicts", where, _node_view(mine), _node_view(other)))
        elif not mine.get("fits") and not _same_reasons(mine.get("schedulerReason"), other.get("reason")):
            out.append(Difference("reasons", where, _node_view(mine), _node_view(other)))
        elif mine.get("score") is not None and other.get("score") is not None and mine["score"] != other["score"]:
            out.append(Difference("scores", where, mine["score"], other["score"]))
    if not out and ours.get("node") is None and theirs.get("node") is None:
        generated = [*(ours.get("names") or {}).values(), *(theirs.get("names") or {}).values()]
        mine, upstream = (_names_hidden(side.get("message") or "", generated) for side in (ours, theirs))
        if mine != upstream:
            out.append(Difference("pod message", "schedule message", ours.get("message"), theirs.get("message")))
    names_ours, names_theirs = ours.get("names") or {}, theirs.get("names") or {}
    common = sorted(set(names_ours) & set(names_theirs))
    if any(_generated(names_ours[k]) != _generated(names_theirs[k]) for k in common):
        out.append(Difference("names", "schedule names", names_ours, names_theirs))
    if not out and ours.get("node") is not None:
        # Claims made from templates are paired by the pod's name for them (their names end at random).
        by_pod_claim_ours = {v: k for k, v in names_ours.items()}
        by_pod_claim_theirs = {v: k for k, v in names_theirs.items()}
        out += _claims(_renamed(ours.get("claims") or [], by_pod_claim_ours),
                       _renamed(theirs.get("claims") or [], by_pod_claim_theirs), "schedule")
    return out


def _names_hidden(message: str, generated: list[str]) -> str:
    """``message`` with the random part of claim names generated like those in ``generated`` hidden."""
    for name in generated:
        hidden = _generated(name)
        if hidden.endswith("*****"):
            message = re.sub(re.escape(hidden[:-5]) + r"[a-z0-9]{5}\b", hidden, message)
    return message


def _generated(name: str) -> str:
    """A claim's name with the random part of a generated name (generateName and 5 characters) hidden."""
    if len(name) > 6 and name[-6] == "-" and name[-5:].isalnum():
        return name[:-5] + "*****"
    return name


def _renamed(claims: list[dict], pod_claim_of: dict[str, str]) -> list[dict]:
    out = []
    for claim in claims:
        name = (claim.get("metadata") or {}).get("name")
        if name in pod_claim_of and pod_claim_of[name] != name:
            claim = {**claim, "metadata": {**claim["metadata"], "name": f"pod claim {pod_claim_of[name]}"}}
        out.append(claim)
    return out


def _same_reasons(mine: str | None, upstream: str | None) -> bool:
    """The scheduler's words for a node, ours and upstream's. NodeResourcesFit lists the extended resources
    short on a node in Go's map order ("Insufficient a, Insufficient b"), so those compare as a set."""
    def parts(reason: str | None) -> list[str]:
        text = reason or ""
        return sorted(text.split(", ")) if text.startswith("Insufficient ") else [text]
    return parts(mine) == parts(upstream)


def _node_view(node: dict) -> dict:
    """A node's verdict for a difference: ours carries our explanation beside the scheduler's words."""
    view = {"fits": bool(node.get("fits")), "reason": node.get("reason")}
    if "schedulerReason" in node:
        view["schedulerReason"] = node["schedulerReason"]
    return view


def _claims(ours: list[dict], theirs: list[dict], where: str) -> list[Difference]:
    """Claims paired by name (by position when names are missing), their allocations compared part by part."""
    out = []
    upstream = {_name(c, i): c for i, c in enumerate(theirs)}
    shares_ours, shares_theirs = _ShareNames(), _ShareNames()
    for index, claim in enumerate(ours):
        name = _name(claim, index)
        other = upstream.get(name)
        here = f"{where} claim {name}"
        if other is None:
            out.append(Difference("devices", here, _devices(claim), None))
            continue
        mine, upstream_allocation = _allocation(claim), _allocation(other)
        results_ours = [_result(r, shares_ours) for r in mine.get("devices", {}).get("results") or []]
        results_theirs = [_result(r, shares_theirs) for r in upstream_allocation.get("devices", {}).get("results") or []]
        keys = ("request", "driver", "pool", "device")
        if [tuple(r.get(k) for k in keys) for r in results_ours] != [tuple(r.get(k) for k in keys) for r in results_theirs]:
            out.append(Difference("devices", here, _devices(claim), _devices(other)))
            continue
        share_keys = ("shareID", "consumedCapacity")
        if [{k: r.get(k) for k in share_keys} for r in results_ours] != \
                [{k: r.get(k) for k in share_keys} for r in results_theirs]:
            out.append(Difference("shares", here, results_ours, results_theirs))
        rest = [{k: v for k, v in r.items() if k not in (*keys, *share_keys)} for r in results_ours]
        rest_theirs = [{k: v for k, v in r.items() if k not in (*keys, *share_keys)} for r in results_theirs]
        if rest != rest_theirs:
            out.append(Difference("allocation fields", here, rest, rest_theirs))
        if _clean(mine.get("devices", {}).get("config")) != _clean(upstream_allocation.get("devices", {}).get("config")):
            out.append(Difference("config", here, mine.get("devices", {}).get("config"),
                                  upstream_allocation.get("devices", {}).get("config")))
        if _clean(mine.get("nodeSelector")) != _clean(upstream_allocation.get("nodeSelector")):
            out.append(Difference("node selector", here, mine.get("nodeSelector"), upstream_allocation.get("nodeSelector")))
    return out


def _name(claim: dict, index: int) -> str:
    """A claim's name, its random part hidden (the extended-resource claim's name ends at random)."""
    name = (claim.get("metadata") or {}).get("name")
    return _generated(name) if name else f"#{index}"


def _allocation(claim: dict) -> dict:
    return (claim.get("status") or {}).get("allocation") or {}


def _devices(claim: dict) -> list[str]:
    results = _allocation(claim).get("devices", {}).get("results") or []
    return [f"{r.get('request')} {r.get('driver')}/{r.get('pool')}/{r.get('device')}" for r in results]


class _ShareNames:
    """Share IDs in order of appearance: upstream draws them at random, so only their pattern counts."""

    def __init__(self):
        self.names: dict[str, str] = {}

    def __call__(self, share_id: str) -> str:
        return self.names.setdefault(share_id, f"share-{len(self.names) + 1}")


def _result(result: dict, shares: _ShareNames) -> dict:
    out = _clean(result)
    if "shareID" in out:
        out["shareID"] = shares(out["shareID"])
    return out


def _clean(value):
    """Without empty values and false flags, which one side may print and the other leave out."""
    if isinstance(value, dict):
        cleaned = {k: _clean(v) for k, v in value.items()}
        return {k: v for k, v in cleaned.items() if v not in (None, False, [], {}, "")}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value
