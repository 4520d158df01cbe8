"""The "How many fit?" panel: the capacity service (``playground.services.capacity``) on a state, its report shaped.

The engine decides everything; this module labels what it returns and lays
out the chart (an SVG drawn by the template from the numbers here): one bar
per driver/pool (devices used of its total) and one per node (its fill, and
the copies placed on it). The tables beside the chart hold the same numbers
and are the source of truth; the chart draws at most ``CHART_ROWS`` rows of
each kind, those in use first.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings

from allocator.releases.gates import FeatureGateError
from playground.services.capacity import copies, plan
from playground.state import State

CHART_ROWS = 24  # bars drawn per section (those in use first); the tables list every row
NEXT_NODES = 12  # node names shown per grouped reason
NEXT_GROUPS = 8  # reasons shown (the commonest); the rest are counted
TABLE_OPEN = 16  # the tables show open up to this many rows in all; more wait behind their summary
STEPS_SHOWN = 10  # copies listed before "Show all"; the rest wait behind a disclosure

# The chart's geometry (SVG user units): a label column, then the bar, then the figures.
WIDTH, LABEL, BAR, ROW, HEADING = 640, 230, 280, 22, 28
# The narrow chart a phone shows instead (the wide one scaled to 360 px would draw 12 px text at 7 px): each
# row's label on a line of its own, the bar and its figures below it.
NARROW_WIDTH, NARROW_BAR, NARROW_ROW = 340, 220, 38


def run(state: State) -> dict:
    """The panel's template context for a state: ``capacity`` (the view of the report) or ``capacity_errors``."""
    try:
        report, errors = plan(state)
    except FeatureGateError as exc:
        return {"capacity_errors": [f"{exc}."]}
    if errors:
        return {"capacity_errors": [str(d) for d in errors[:20]]}  # located: line, column, object, field
    assert report is not None, "plan gives a report whenever it gives no errors"
    return {"capacity": view(report.to_dict(), copies(state))}


def view(report: dict, count: int) -> dict:
    """The report with what the template shows: the stop, the chart's rows, the next copy's reasons grouped."""
    pools = [{**p, "label": f"{p['driver']} / {p['pool']}"} for p in report["byPool"]]
    nodes = [{**n, "label": n["name"] or "(no node)"} for n in report["byNode"]]
    workloads = report.get("workloads") or []
    counted = any(w["asked"] is not None for w in workloads)
    return {**report, "count": count, "asMany": count == settings.CAPACITY_MAX_COPIES,
            "pools": pools, "nodes": nodes, "chart": chart(pools, nodes),
            "tableOpen": len(pools) + len(nodes) <= TABLE_OPEN,
            "counted": counted, "asked": sum(w["asked"] or 0 for w in workloads) if counted else None,
            "workloadRows": workload_rows(workloads, report.get("next")),
            "sharedOnly": shared_only(report.get("steps") or []),
            **steps_view(report.get("steps") or []),
            **next_groups(report.get("next"))}


def shared_only(steps: list[dict]) -> list[str]:
    """The claims every copy shares when the copies after the first hold no claim of their own (each pod names
    its claims with ``resourceClaimName``): more copies need no more devices, so the count says nothing of the
    inventory. Empty otherwise."""
    if len(steps) < 2:
        return []
    first = [c["name"] for c in steps[0].get("claims") or []]
    later = {c["name"] for s in steps[1:] for c in s.get("claims") or []}
    return first if first and later <= set(first) else []


def workload_rows(workloads: list[dict], next_copy: dict | None) -> list[dict]:
    """Each workload with its ``label`` (Kind/name), how many copies it is ``short`` of its count, and whether
    it is the one whose next copy fits nowhere (``ranOut``)."""
    stopped_at = (next_copy or {}).get("workload")
    return [{**w, "label": f"{w['kind']}/{w['name']}",
             "short": w["asked"] - w["placed"] if w["asked"] is not None else 0,
             "ranOut": stopped_at == f"{w['kind']}/{w['name']}"} for w in workloads]


def steps_view(steps: list[dict]) -> dict:
    """The copies in placing order, one row each (copy, workload, pods, node, devices by claim): the first
    ``STEPS_SHOWN`` in ``stepsShown``, the others in ``stepsRest`` (behind "Show all")."""
    rows = [{"copy": s["copy"], "workload": s.get("workload") or "", "pods": s.get("pods") or [],
             "node": s.get("node") or "(no node)",
             "claims": [{"name": c["name"], "devices": c["devices"]} for c in s.get("claims") or []]}
            for s in steps]
    return {"stepsShown": rows[:STEPS_SHOWN], "stepsRest": rows[STEPS_SHOWN:]}


def next_groups(next_copy: dict | None) -> dict:
    """The nodes' reasons for the next copy, grouped: ``nextGroups`` [{reason, count, names, more}], the
    commonest first, at most NEXT_GROUPS; ``nextOther`` {reasons, nodes}: those left out."""
    if not next_copy:
        return {"nextGroups": [], "nextOther": None}
    groups: dict[str, list[str]] = {}
    for node in next_copy.get("nodes") or []:
        groups.setdefault(node.get("reason") or "", []).append(node.get("name") or "(no node)")
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    shown, rest = ordered[:NEXT_GROUPS], ordered[NEXT_GROUPS:]
    return {"nextGroups": [{"reason": reason, "count": len(names), "names": names[:NEXT_NODES],
                            "more": max(0, len(names) - NEXT_NODES)} for reason, names in shown],
            "nextOther": {"reasons": len(rest), "nodes": sum(len(names) for _, names in rest)} if rest else None}


def _drawn(rows: list[dict]) -> list[dict]:
    """The rows the chart draws: those in use first (in their order), then the others, at most CHART_ROWS."""
    return ([r for r in rows if r["used"]] + [r for r in rows if not r["used"]])[:CHART_ROWS]


def _bars(rows: list[dict], top: int, figures: Callable[[dict], str]) -> tuple[list[dict], int]:
    bars = []
    for i, row in enumerate(_drawn(rows)):
        total = row["total"] or 0
        used = min(row["used"], total) if total else 0
        y = top + i * ROW
        bars.append({"label": row["label"], "y": y, "text_y": y + 15, "used": row["used"], "total": total,
                     "width": round(BAR * used / total, 1) if total else 0, "figures": figures(row)})
    return bars, top + len(bars) * ROW


def narrow_chart(pools: list[dict], nodes: list[dict]) -> dict:
    """The same rows laid out for a narrow pane: label above, then the bar and its figures."""
    rows: list[dict] = []
    y = HEADING
    for heading, drawn, figures, node in (("Devices used per driver / pool", _drawn(pools), _pool_figures, False),
                                          ("Each node's fill and copies", _drawn(nodes), _node_figures, True)):
        rows.append({"heading": heading, "text_y": y - 10})
        for row in drawn:
            total = row["total"] or 0
            used = min(row["used"], total) if total else 0
            rows.append({"label": row["label"], "label_y": y + 12, "bar_y": y + 17, "text_y": y + 30,
                         "width": round(NARROW_BAR * used / total, 1) if total else 0, "figures": figures(row), "node": node})
            y += NARROW_ROW
        y += HEADING
    return {"width": NARROW_WIDTH, "height": y - HEADING + 6, "bar_width": NARROW_BAR,
            "figures_x": NARROW_BAR + 8, "rows": rows}


def _pool_figures(p: dict) -> str:
    return f"{p['used']}/{p['total']}"


def _node_figures(n: dict) -> str:
    return f"{n['used']}/{n['total']} · {n['copies']} cop{'y' if n['copies'] == 1 else 'ies'}"


def chart(pools: list[dict], nodes: list[dict]) -> dict:
    """Rows with their SVG coordinates: pools first (devices used of total), then nodes (fill and copies)."""
    pool_bars, end = _bars(pools, HEADING, _pool_figures)
    node_heading = end + 8
    node_bars, end = _bars(nodes, node_heading + HEADING, _node_figures)
    return {"width": WIDTH, "height": end + 6, "label_x": LABEL - 8, "bar_x": LABEL, "bar_width": BAR,
            "figures_x": LABEL + BAR + 8, "pools": pool_bars, "nodes": node_bars,
            "pool_heading_y": HEADING - 10, "node_heading_y": node_heading + HEADING - 10,
            "hidden_pools": max(0, len(pools) - CHART_ROWS), "hidden_nodes": max(0, len(nodes) - CHART_ROWS),
            "narrow": narrow_chart(pools, nodes)}
