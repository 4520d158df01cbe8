"""How many copies of a state's workload fit, placed one after another (``allocator.workload.planning``).

The state's capacity panel says how many copies to try (none: as many as fit, up to the site's
``CAPACITY_MAX_COPIES``) and how each copy's node is chosen.
"""

from __future__ import annotations

from django.conf import settings

from allocator.reading.diagnostics import Diagnostic
from allocator.workload.planning import CapacityReport, plan_texts
from playground.clusters import state_inventory
from playground.state import State


def copies(state: State) -> int:
    """How many copies to try: the panel's count, or the site's cap (as many as fit)."""
    cap: int = settings.CAPACITY_MAX_COPIES
    return min(state.capacity.max or cap, cap)


def plan(state: State) -> tuple[CapacityReport | None, list[Diagnostic]]:
    """(the planning report or None, its located errors) for the state's documents on its inventory; raises
    ``FeatureGateError`` when the state's gates are refused."""
    return plan_texts(state.documents, state_inventory(state), state.gates(), strategy=state.capacity.strategy,
                      max_copies=copies(state), limits=state.limits())
