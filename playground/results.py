"""Run the engine on a state and shape its report for the templates.

The engine decides everything; this module only groups and labels what it
returns (errors apart from warnings, objects counted per kind, a colour per
granted request) so templates stay free of logic.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import yaml

from allocator.allocation.alternatives import MAX_LIMIT as MAX_ALTERNATIVES
from allocator.cel.explain import Part
from allocator.cel.hints import typo_first
from allocator.compare import differences
from allocator.engine import (
    Allocation,
    ClaimGrant,
    ContainerDevices,
    DeviceResult,
    NodeRow,
    ObjectRow,
    Report,
    RequestDevice,
    RequestView,
    WhyPart,
)
from allocator.reading.diagnostics import Diagnostic
from allocator.releases.gates import KNOWN_GATES, FeatureGateError, exists_in, locked_in
from allocator.workload.analysed import split_ignored
from playground import clusters, conversion, picture
from playground.state import State

SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def objects_summary(objects: list[ObjectRow], source: str) -> list[dict]:
    """[{kind, count, label, apiVersions, converted}] for the objects read from one source, in first-seen order."""
    counts: Counter[str] = Counter()
    versions: dict[str, list[str]] = {}
    for obj in objects:
        if obj.source != source:
            continue
        counts[obj.kind] += 1
        seen = versions.setdefault(obj.kind, [])
        if obj.api_version not in seen:
            seen.append(obj.api_version)
    return [
        {
            "kind": kind,
            "count": n,
            "label": f"{n} {_plural(kind, n)}",
            "apiVersions": versions[kind],
            "converted": any(v.startswith("resource.k8s.io/") and v != "resource.k8s.io/v1" for v in versions[kind]),
        }
        for kind, n in counts.items()
    ]


def _plural(kind: str, n: int) -> str:
    if n == 1:
        return kind
    return kind + ("es" if kind.endswith("s") else "s")


def gates_table(report: Report) -> list[dict]:
    release, enabled = report.kubernetes_version, report.gates.as_dict()
    overrides = report.gates.overrides()
    return [
        {
            "name": gate,
            "enabled": enabled.get(gate, False),
            "overridden": gate in overrides,
            "exists": exists_in(gate, release),
            "locked": locked_in(gate, release),
        }
        for gate in KNOWN_GATES
    ]


def _short(claim: str) -> str:
    """'default/name' -> 'name' (the allocation's claims carry the name alone)."""
    return claim.split("/", 1)[-1]


def claims_table(claims: list[ClaimGrant], colors: dict[tuple[str, str], int]) -> list[dict]:
    """Per granted claim, its devices with the colour of their request."""
    return [{"name": claim.name, "namespace": claim.namespace,
             "results": [{"request": r.request, "driver": r.driver, "pool": r.pool, "device": r.device,
                          "adminAccess": r.admin_access, "bindingConditions": list(r.binding_conditions),
                          "color": colors.get((claim.name, r.request))} for r in claim.results]}
            for claim in claims]


def requests_table(report: Report, colors: dict[tuple[str, str], int]) -> list[dict]:
    """Each request (``view``) with its matching devices, and the others grouped by the engine's reason."""
    out = []
    # Requests that run out of shared counters beside the devices others must take (engine: allocation.counters).
    short = {(c.claim, c.request): c for c in report.allocation.counters or []}
    for req in report.requests:
        groups: dict[str, list[RequestDevice]] = {}
        for d in req.devices:
            if not d.matches:
                groups.setdefault(d.reason or "does not match", []).append(d)
        matching = [d for d in req.devices if d.matches]
        out.append({
            "view": req,
            "color": colors.get((_short(req.claim), req.request)),
            "matching_count": len(matching),
            "matching": matching[:LIST_LIMIT],
            "matching_more": max(0, len(matching) - LIST_LIMIT),
            "counters": short.get((req.claim, req.request)),
            "matching_rest": matching[LIST_LIMIT:],
            "rejected": [_rejected(reason, group, filters=bool(matching)) for reason, group in groups.items()],
        })
    return out


@dataclass(frozen=True)
class MarkedPart:
    """A part of a device's ``why`` and ``mark``: how the editor underlines its text."""

    part: WhyPart
    mark: str


def _marked(parts: list[WhyPart] | None, filters: bool) -> list[MarkedPart]:
    """The explanation's parts, each with its mark. Only what is wrong or risky is underlined: a part that is
    an error always, a false part only when the request matches nothing (then it is why). A selector that is
    false on some devices while others match only filters: no mark."""
    out = []
    for part in parts or []:
        verdict = part.verdict if isinstance(part, Part) else None
        out.append(MarkedPart(part, "error" if verdict == "error" else ("" if filters else "warning")))
    return out


def _rejected(reason: str, group: list[RequestDevice], filters: bool) -> dict:
    """Devices turned down for the same reason: the reason, how many, the first few and the hints."""
    first = group[0]
    return {"reason": first.reason_short or reason, "count": len(group),
            "devices": group[:LIST_LIMIT], "more": max(0, len(group) - LIST_LIMIT), "rest": group[LIST_LIMIT:],
            "why": _marked(first.why, filters=filters), "hints": _hints(first.why), "hint_items": _hint_items(first.why)}


def _selector_parts(parts: list[WhyPart] | None) -> list[Part]:
    return [part for part in parts or [] if isinstance(part, Part)]


def _hints(parts: list[WhyPart] | None) -> list[str]:
    return typo_first([p.hint for p in _selector_parts(parts) if p.hint])


def _hint_items(parts: list[WhyPart] | None) -> list[dict]:
    """The hints (as ``_hints`` orders them), each with the quick fixes of the parts that give it."""
    fixes: dict[str, list[dict]] = {}
    for part in _selector_parts(parts):
        if part.hint:
            known = fixes.setdefault(part.hint, [])
            known.extend(f for f in part.fixes or [] if f not in known)
    return [{"text": hint, "fixes": fixes.get(hint, [])} for hint in _hints(parts)]


DIAGRAM_WIDTH = 56  # characters of a caret diagram line shown around the caret


def diagnostics_view(diagnostics: list[tuple[str, Diagnostic]]) -> list[dict]:
    """Each diagnostic as the JSON carries it (its fixes name the document they edit, ``source`` where it is),
    with its message split into a headline and cel-go's caret diagram (shown monospace)."""
    out = []
    for source, diagnostic in diagnostics:
        d = diagnostic.to_dict()
        headline, _, rest = (d.get("message") or "").partition("\n")
        out.append({**d, "fixes": [{**fix, "document": source} for fix in d["fixes"]], "source": source,
                    "headline": headline, "diagram": caret_window(rest)})
    return out


def caret_window(diagram: str, width: int = DIAGRAM_WIDTH) -> str:
    """cel-go prints the whole expression line above its caret; keep the part around the caret in view.

    The diagram comes in pairs of lines, `` | <source>`` and `` | ....^``; a long pair is cut to the same
    window on both lines, with an ellipsis where text was left out.
    """
    lines = diagram.split("\n")
    out = []
    for i in range(0, len(lines) - 1, 2):
        source, marker = lines[i], lines[i + 1]
        caret = max(marker.find("^"), marker.find("\uff3e"))
        if len(source) <= width + 3 or caret < 0:
            out += [source, marker]
            continue
        start = max(3, min(caret - width * 2 // 3, len(source) - width))
        end = start + width
        cut_left, cut_right = start > 3, end < len(source)
        out.append(" | " + ("…" if cut_left else "") + source[start:end] + ("…" if cut_right else ""))
        out.append(" | " + ("." if cut_left else "") + marker[start:caret + 1])
    if len(lines) % 2:
        out.append(lines[-1])
    return "\n".join(out)


def allocation_hint(requests: list[RequestView]) -> str | None:
    """The advice for the runtime error that made the scheduler give up, if the explanation has one: a
    did-you-mean first, from whichever failing device gives one."""
    hints = [h for req in requests for d in req.devices if d.reason_code == "cel-error" for h in _hints(d.why)]
    return typo_first(hints)[0] if hints else None


@dataclass(frozen=True)
class ColoredDevice:
    """A granted device with the colour of its request in the picture (None: not drawn)."""

    device: DeviceResult
    color: int | None


def containers_table(containers: list[ContainerDevices], colors: dict[tuple[str, str], int]) -> list[dict]:
    """Per container and request (``entry``), its devices with the colour of their request."""
    return [{"entry": entry, "devices": [ColoredDevice(d, colors.get((_short(entry.claim), d.request)))
                                         for d in entry.devices]}
            for entry in containers]


def status_yaml(allocation: Allocation) -> str:
    """The granted claims, with ``status.allocation``, as YAML documents."""
    claims = [c.written for c in allocation.claims]
    return yaml.dump_all(claims, Dumper=SafeDumper, sort_keys=False) if claims else ""


def extended_view(allocation: Allocation) -> list[dict]:
    """Per pod asking for extended resources (``entry``: the generated claim and its container mapping), the
    pod's status as YAML."""
    out = []
    for entry in allocation.extended_resources or []:
        status = entry.claim.status if entry.claim is not None else None
        out.append({"entry": entry, "status_yaml": yaml.dump({"status": status}, Dumper=SafeDumper, sort_keys=False)
                    if status else ""})
    return out


def alternatives_view(allocation: Allocation) -> dict | None:
    """The other grants (``allocation.alternatives``) for the page: per grant, its devices per claim and request."""
    if allocation.alternatives_search is None:
        return None
    grants = [{"number": index + 1, "claims": grant, "devices": " ".join(r.key for c in grant for r in c.results)}
              for index, grant in enumerate(allocation.alternatives or [])]
    return {"grants": grants, "search": allocation.alternatives_search}


def _column(state: State, analyzed: Report, diffs: set[str]) -> dict:
    """One column of a comparison: its settings and outcomes, each marked where it differs from the other."""
    colors: dict = {}
    claims = claims_table(analyzed.allocation.claims, colors)
    for claim in claims:
        ref = f"{claim['namespace'] or 'default'}/{claim['name']}"
        for r in claim["results"]:
            r["differs"] = f"allocation.devices[{ref}][{r['request']}]" in diffs
    containers = [{**c, "differs": f"containers[{c['entry'].pod}][{c['entry'].container}]" in diffs}
                  for c in containers_table(analyzed.containers, colors)]
    nodes = [{"row": n, "differs": f"nodes[{n.name}].fits" in diffs} for n in analyzed.nodes]
    return {
        "state": state,
        "report": analyzed,
        "claims": claims,
        "containers": containers,
        "nodes": nodes,
        "fitting": sum(1 for n in analyzed.nodes if n.fits),
        "nodes_differ": any(n["differs"] for n in nodes),
        "errors": analyzed.errors,
        "summary_differs": bool(diffs & {"valid", "allocation.status", "allocation.node", "allocation.error"}),
        "errors_differ": "errors" in diffs,
        "reasons_differ": "allocation.reasons" in diffs,
    }


def comparison(state: State, left: Report) -> dict | None:
    """Both columns of a comparison (``state.compare``) and what differs between them."""
    right_state = state.compared()
    if right_state is None:
        return None
    right = clusters.analyze_state(right_state, readings=left.readings)  # the texts read once for both
    found = differences(left, right)
    paths = {d["path"] for d in found}
    return {"left": _column(state, left, paths), "right": _column(right_state, right, paths), "differences": found}


# Above this many nodes tried, the node table groups them by reason instead of a row each.
NODE_ROWS = 20
# Names (of nodes, of devices) listed per group; the rest wait behind a disclosure ("and 47 more").
LIST_LIMIT = 40
# Nodes drawn in the inventory picture: the chosen one and others that fit, the rest summarised.
PICTURE_NODES = 12

# What a reason read from one node's devices: `(productName = "NVIDIA H100")`; grouping keeps the name only.
_VALUE_READ = re.compile(r'\(([\w./-]+) = (?:"(?:[^"\\]|\\.)*"|[^()]*)\)')


def reason_shape(reason: str, node: str) -> str:
    """A node's reason with what is particular to it (its name, the values read there) left out."""
    text = reason.replace(node, "the node") if node else reason
    return _VALUE_READ.sub(r"(\1)", text)


def _listed(names: list[str]) -> dict:
    return {"names": names[:LIST_LIMIT], "more": max(0, len(names) - LIST_LIMIT), "rest": names[LIST_LIMIT:]}


def _score_groups(nodes: list[NodeRow]) -> list[dict]:
    """The scores of the nodes that fit, best first, with how many nodes have each (the grouped table's line)."""
    counts: dict[int, int] = {}
    for n in nodes:
        if n.fits and n.score is not None:
            counts[n.score] = counts.get(n.score, 0) + 1
    return [{"score": score, "count": counts[score]} for score in sorted(counts, reverse=True)]


def nodes_view(nodes: list[NodeRow], node_filter: str = "") -> dict:
    """The nodes tried: a row each when few, else how many fit and the others grouped by reason.

    ``node_filter`` keeps the nodes whose name contains it (case-insensitive).
    """
    wanted = node_filter.strip().lower()
    shown = [n for n in nodes if wanted in n.name.lower()] if wanted else nodes
    fit = [n.name for n in shown if n.fits]
    # Grouped by our explanation's shape and the scheduler's own words for the node (workload.scheduler_words).
    groups: dict[tuple[str, str | None], list[str]] = {}
    for n in shown:
        if not n.fits:
            groups.setdefault((reason_shape(n.reason or "does not fit", n.name), n.scheduler_reason), []).append(n.name)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[1][0]))
    return {
        "total": len(nodes),
        "grouped": len(nodes) > NODE_ROWS,
        "rows": nodes,
        "filter": node_filter.strip(),
        "shown": len(shown),
        "fit_count": len(fit),
        "fit": _listed(fit),
        "scored": any(n.score is not None for n in nodes),  # the scheduler's DRA score (allocation.scoring)
        "score_groups": _score_groups(shown),
        "groups": [{"count": len(names), "reason": reason, "scheduler_reason": scheduler_reason, **_listed(names)}
                   for (reason, scheduler_reason), names in ordered],
    }


def drawing(analyzed: Report) -> picture.Picture:
    """The inventory picture of an analysis: the chosen node and others that fit drawn, the rest counted."""
    fitting = {n.name for n in analyzed.nodes if n.fits}
    return picture.build(analyzed.inventory, analyzed, fitting=fitting, limit=PICTURE_NODES)


def context(state: State, node_filter: str = "", alternatives: int = 0, compare: bool = True,
            draw: bool = True) -> dict:
    """The template context for a state; ``alternatives`` > 0 also lists up to that many other grants.

    ``compare`` False: a comparison (``state.compare``) is not run but left to a request of its own
    (``comparison_deferred``), made when the folded tools that show it are opened. ``draw`` False: the
    picture is an outline (``picture.outline``); its drawing is left to a request of its own, made when it
    is in view.
    """
    try:
        analyzed = clusters.analyze_state(state, alternatives=alternatives)
    except FeatureGateError as exc:
        # A stored share or example whose gate override the release now refuses (a locked gate): say so.
        return {"state_error": f"{exc}."}
    pic = drawing(analyzed) if draw else picture.outline(analyzed.inventory, analyzed)
    colors = {(g.claim, g.request): g.color for g in pic.legend}
    diagnostics = analyzed.diagnostics
    return {
        "report": analyzed,
        "picture": pic,
        "errors": conversion.with_rewrites(diagnostics_view([(s, d) for s, d in diagnostics if d.severity == "error"]),
                                           state),
        "warnings": diagnostics_view([(s, d) for s, d in diagnostics if d.severity != "error"]),
        "allocation_hint": allocation_hint(analyzed.requests),
        "inventory_summary": objects_summary(analyzed.objects, "inventory"),
        "documents_summary": objects_summary(analyzed.objects, "documents"),
        "ignored": dict(zip(("unused", "unread"), split_ignored(analyzed.ignored), strict=True)),
        "gates": gates_table(analyzed),
        "nodes": nodes_view(analyzed.nodes, node_filter),
        "claims": claims_table(analyzed.allocation.claims, colors),
        "requests": requests_table(analyzed, colors),
        "containers": containers_table(analyzed.containers, colors),
        "extended": extended_view(analyzed.allocation),
        "status_yaml": status_yaml(analyzed.allocation),
        "alternatives": alternatives_view(analyzed.allocation),
        "max_alternatives": MAX_ALTERNATIVES,
        "comparison": comparison(state, analyzed) if compare else None,
        "comparison_deferred": not compare and state.compare is not None,
        "inventory_read": analyzed.inventory,  # for the console beside the results (``views``), not the template
    }
