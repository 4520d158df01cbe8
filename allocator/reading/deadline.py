"""A time budget for one analysis, in the spirit of the scheduler's DRA filter timeout.

The scheduler gives the DynamicResources plugin's Filter ``filterTimeout`` per node and then reports
the node as not fitting. The playground's callers (the page, the API, capacity planning, the console,
optionally the command line) give a whole analysis a budget instead: past it the engine stops where it
is and raises ``BudgetExceeded``, which says what ran out (the budget, in seconds) and where (the phase,
and the node, claim, request, device and selector the search was on).

The engine looks at the clock cooperatively, at a cheap granularity: between phases, per node of the
scheduling cycle, every ``CLOCK_EVERY`` steps of the device search and every ``COST_PER_CHECK`` units
of CEL cost (``allocator.cel.compiler.Budget``). Nothing else changes when no budget is set.

Usage::

    with time_budget(10.0):
        report = analyze(...)        # may raise BudgetExceeded

``BudgetExceeded`` is a ``BaseException``, like ``asyncio.CancelledError``: the engine's ``except
Exception`` handlers, which turn a bug into a located "internal error", must not turn a stop into one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from allocator.reading import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["BudgetExceeded", "Deadline", "current", "check", "time_budget", "located", "WHERE_FIELDS"]

# CEL cost units between two looks at the clock (a CEL evaluation may cost up to 1,000,000).
COST_PER_CHECK = 10_000

# The default clock (tests put a fake one here).
CLOCK: Callable[[], float] = time.monotonic

# What a location may say, most general first (the order of the message).
WHERE_FIELDS = ("phase", "node", "claim", "request", "device", "selector", "copy")


class BudgetExceeded(BaseException):
    """The analysis's time budget ran out; ``where`` says what the engine was doing."""

    def __init__(self, seconds: float, where: dict[str, Any]):
        self.seconds = seconds
        self.where = {k: where[k] for k in WHERE_FIELDS if where.get(k) is not None}
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return f"time budget of {_seconds(self.seconds)} ran out {describe(self.where)}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"error", "budgetSeconds", "where": {...}}``."""
        return {"error": self.message, "budgetSeconds": self.seconds, "where": dict(self.where)}


def _seconds(seconds: float) -> str:
    return f"{seconds:g} s"


def describe(where: dict[str, Any]) -> str:
    """``while searching node n1 for claim default/c, request gpus, device d, selector 0`` and the like."""
    phase = where.get("phase", "analyzing")
    parts = [f"while {phase}"]
    for field in ("node", "claim", "request", "device"):
        if field in where:
            parts.append(f"{field} {where[field]}")
    if "selector" in where:
        parts.append(f"evaluating {where['selector']}")
    if "copy" in where:
        parts.append(f"copy {where['copy']}")
    head, *rest = parts
    return head + (": " + ", ".join(rest) if rest else "")


class Deadline:
    """The budget of one analysis: when it ends on ``clock``, and where the engine is (``where``)."""

    __slots__ = ("seconds", "ends", "clock", "where")

    def __init__(self, seconds: float, clock: Callable[[], float] | None = None):
        self.seconds = seconds
        self.clock = clock if clock is not None else CLOCK
        self.ends = self.clock() + seconds
        self.where: dict[str, Any] = {}

    def check(self) -> None:
        """Raise BudgetExceeded when the budget is spent."""
        if self.clock() >= self.ends:
            raise BudgetExceeded(self.seconds, self.where)


_current: ContextVar[Deadline | None] = ContextVar("allocator_deadline", default=None)


def current() -> Deadline | None:
    """The deadline of the analysis running in this context, if it has one."""
    return _current.get()


def check() -> None:
    """Raise BudgetExceeded when the current analysis has a budget and it is spent."""
    deadline = _current.get()
    if deadline is not None:
        deadline.check()


@contextmanager
def time_budget(seconds: float | None, clock: Callable[[], float] | None = None) -> Iterator[Deadline | None]:
    """Run the block with ``seconds`` of budget on ``clock`` (default ``time.monotonic``); None or 0: none
    (an enclosing budget stays)."""
    if not seconds:
        yield _current.get()
        return
    deadline = Deadline(seconds, clock)
    token = _current.set(deadline)
    try:
        yield deadline
    finally:
        _current.reset(token)


@contextmanager
def located(**where: Any) -> Iterator[None]:
    """Say where the engine is for the block (e.g. ``phase="reading"``, ``node=name``); checks the clock
    on the way in. Without a budget this does nothing."""
    deadline = _current.get()
    if deadline is None:
        yield
        return
    saved = {k: deadline.where.get(k) for k in where}
    deadline.where.update(where)
    try:
        deadline.check()
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                deadline.where.pop(k, None)
            else:
                deadline.where[k] = v
