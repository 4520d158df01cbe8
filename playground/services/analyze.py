"""The analysis of a state: ``allocator.engine.analyze`` on its documents and inventory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allocator.engine import Report
from allocator.engine import analyze as engine_analyze
from playground.clusters import state_inventory
from playground.state import State


@dataclass(frozen=True)
class Analysis:
    """What ``analyze`` is asked: a state, and how many other grants to list."""

    state: State
    alternatives: int = 0

    def engine_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for the engine's ``analyze``, the stored inventory's text read."""
        return {**self.state.analyze_kwargs(), "inventory": state_inventory(self.state),
                "alternatives": self.alternatives}


def analyze(state: State, alternatives: int = 0) -> Report:
    """The engine's report on a state; ``alternatives`` > 0 also lists up to that many other grants."""
    return engine_analyze(**Analysis(state, alternatives).engine_kwargs())
