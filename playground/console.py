"""The expression console on the page: a CEL expression evaluated on one device of the inventory.

The evaluate service (``playground.services.evaluate``) does the work, as for ``POST /api/v1/evaluate``;
this module finds the device the page picked (``DRIVER/POOL/DEVICE``), shows the inventory's devices
grouped by node and pool for the picker (``allocator.authoring.inventory``: with the page's analysis, the
engine's own read of the inventory), chooses the environment and shapes the answer for the template: the
value and its type, the part tree, the cost against the limit, errors with the caret diagram.

Environments: ``claim`` (the default) compiles the expression as the apiserver compiles a new
ResourceClaim selector in the chosen release with the chosen gates; ``class`` as the scheduler evaluates a
DeviceClass's selectors when it allocates: from 1.37 in the "stored expressions" environment, which has the
newest device type (consumable capacity, list-typed attributes) whatever the gates say; before 1.37 with
the gates, as a claim's (``allocator.authoring.console.class_environment``, from the allocator's own choice).
"""

from __future__ import annotations

from typing import Any

from allocator.authoring.console import DeviceNotFound, DeviceRef, class_environment
from allocator.authoring.inventory import Inventory
from allocator.engine import read_inventory
from allocator.releases.gates import FeatureGateError, FeatureGates
from playground import clusters
from playground.results import caret_window
from playground.services.evaluate import ScratchError, evaluate_on, evaluate_scratch
from playground.state import CONSOLE_SCRATCH, State

MAX_INDENT = 12  # levels of the part tree the page indents; deeper parts line up with the twelfth
MAX_LISTED = 256  # devices offered in the picker (each is sent with every analysis); tiles pick any drawn
# The page shows at most this many characters of the value, and of each part's (a value may be megabytes).
VALUE_CHARS, PART_CHARS = 20_000, 2_000


def read(state: State) -> Inventory:
    """The inventory and documents of a state, read as the engine reads them (for the console's own answer,
    which comes without an analysis)."""
    return read_inventory(state.documents, clusters.state_inventory(state), state.limits())


def device_groups(state: State, inventory: Inventory | None = None) -> dict[str, Any]:
    """The picker's options: ``groups`` [{node, pools: [{label, devices: [{key, name}]}]}], nodes in name
    order (those shared last); ``more``: devices left out past MAX_LISTED; ``picked``: the state's device
    when it is not among those listed (kept, so the answer about it still names it)."""
    groups, more = (inventory if inventory is not None else read(state)).picker(MAX_LISTED)
    keys = {d.key for group in groups for _, devices in group.pools for d in devices}
    chosen = state.console.device
    picked = chosen if chosen and chosen not in keys and chosen != CONSOLE_SCRATCH else ""
    return {"picked": picked,
            "groups": [{"node": group.place,
                        "pools": [{"label": f"{driver} / {pool}", "devices": [{"key": d.key, "name": d.name}
                                                                             for d in devices]}
                                  for (driver, pool), devices in group.pools]}
                       for group in groups],
            "more": more}


def environment(state: State) -> FeatureGates:
    """The gates the console compiles with: the state's (``claim``), or the scheduler's for a class (``class``)."""
    gates = state.gates()
    return class_environment(gates) if state.console.env == "class" else gates


def run(state: State, inventory: Inventory | None = None) -> dict[str, Any]:
    """The console's template context: ``console`` (the engine's answer, shaped) or ``console_error``;
    nothing when there is no expression. ``inventory``: the state's, as read (else it is read here)."""
    if not state.console.expression.strip():
        return {}
    if not state.console.device:
        return {"console_error": "Pick a device to evaluate the expression on (the list, or a tile of the picture)."}
    if state.console.device == CONSOLE_SCRATCH:
        return scratch_run(state)
    try:
        ref = DeviceRef.parse(state.console.device)
    except ValueError as err:
        text = str(err)
        return {"console_error": f"{text[:1].upper()}{text[1:]}."}
    try:
        gates = environment(state)
    except FeatureGateError as err:
        return {"console_error": f"{err}."}
    if inventory is None:
        inventory = read(state)
    error = inventory.error
    try:
        answer = evaluate_on(state.console.expression, ref, inventory.slices, gates)
    except DeviceNotFound as err:
        return {"console_error": f"The inventory has no such device: {err}" + (f" ({error})" if error else "") + "."}
    return {"console": view(answer)}


def scratch_run(state: State) -> dict[str, Any]:
    """The console on the scratch device: its YAML read and checked as a slice's device (errors located in
    it, ``console_scratch_errors``), then the expression evaluated on it."""
    try:
        answer = evaluate_scratch(state.console.expression, state.console.scratch, state.gates(), environment(state),
                                  state.limits())
    except FeatureGateError as err:
        return {"console_error": f"{err}."}
    except ScratchError as err:
        return {"console_scratch_errors": [
            {"where": f"line {d.line}, column {d.column}" if d.line else "", "line": d.line, "column": d.column,
             "message": d.message()} for d in err.diagnostics]}
    return {"console": view(answer)}


def _clipped(text: str | None, most: int) -> str | None:
    if text is None or len(text) <= most:
        return text
    return f"{text[:most]}… ({len(text) - most} more characters)"


def evaluates(state: State) -> bool:
    """Whether the console's answer for this state is an evaluation (an expression on a picked device), the
    part worth deferring; the other answers (nothing, "pick a device") cost nothing."""
    return bool(state.console.expression.strip() and state.console.device)


def page(state: State, inventory: Inventory | None = None, defer: bool = False) -> dict[str, Any]:
    """What the page's console shows with the results: the device picker's options and the answer.
    ``inventory``: the state's as the analysis read it (else it is read here, once). ``defer``: leave an
    evaluation out (``console_deferred``); the page's script fetches it from ``POST /console`` when the
    console comes into view, so a keystroke in the claims does not evaluate an expression nobody looks at."""
    if inventory is None:
        inventory = read(state)
    if defer and evaluates(state):
        return {"console_devices": device_groups(state, inventory), "console_deferred": True}
    return {"console_devices": device_groups(state, inventory), **run(state, inventory)}


def view(answer: dict) -> dict:
    """The engine's answer with what the template shows: each diagnostic's headline and caret diagram, the
    cost as a share of the limit, and the part tree as ``rows`` in reading order, each with its depth (the
    page indents at most MAX_INDENT levels)."""
    diagnostics = []
    for d in answer["diagnostics"]:
        headline, _, rest = (d.get("message") or "").partition("\n")
        diagnostics.append({**d, "headline": headline, "diagram": caret_window(rest)})
    rows = []
    stack = [(part, 0) for part in reversed(answer["parts"])]
    while stack:  # depth first, without recursion: a tree may be 200 levels deep
        part, depth = stack.pop()
        rows.append({**part, "children": len(part["children"]), "depth": depth, "indent": min(depth, MAX_INDENT),
                     "value": _clipped(part["value"], PART_CHARS)})
        stack.extend((child, depth + 1) for child in reversed(part["children"]))
    cost = answer["cost"]
    estimated, limit = cost.get("estimated"), cost.get("limit") or 1
    percent = None if estimated is None else min(100.0, 100.0 * estimated / limit)
    return {**answer, "diagnostics": diagnostics, "rows": rows, "value": _clipped(answer["value"], VALUE_CHARS),
            "cost": {**cost, "percent": percent, "over": estimated is not None and estimated > limit}}
