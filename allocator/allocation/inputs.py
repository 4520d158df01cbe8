"""What an ``Allocator`` is made from, in small values that travel together.

* ``SearchInputs``: what the searches allocate from (classes, slices, the claims already allocated,
  DeviceTaintRules), as the scheduler's informers hand them to upstream's NewAllocator;
* ``SearchLimits``: how far one search (one node) may go before it stops with ``SearchLimitError``;
* ``SearchOptions``: how the search goes about it, without changing its answers (proofs, shared outcomes);
* ``Forced``: the allocator's switches and implementation forced, as upstream's tests force them.

The release's own rules are not here: they come with the feature gates (``FeatureGates.release_rules``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from types import EllipsisType

from allocator.allocation.state import AllocatedState
from allocator.allocation.switches import Switches, Variant
from allocator.kube import model
from allocator.reading.records import record


@record(frozen=True)
class SlicesByNode:
    """Slices grouped as an allocator reads them: each node's own, and those tied to no node.

    Grouping is a pass over every slice; a caller that prepares many allocators over the same
    slices (capacity planning prepares one per copy) groups them once and passes this along."""

    slices: Sequence[model.ResourceSlice]
    on_node: dict[str, list[model.ResourceSlice]]
    shared: list[model.ResourceSlice]

    @classmethod
    def of(cls, slices: Sequence[model.ResourceSlice]) -> SlicesByNode:
        on_node: dict[str, list[model.ResourceSlice]] = {}
        shared: list[model.ResourceSlice] = []
        for s in slices:
            if s.spec.node_name:
                on_node.setdefault(s.spec.node_name, []).append(s)
            else:
                shared.append(s)
        return cls(slices, on_node, shared)


@record(frozen=True, eq=False)
class SearchInputs:
    """What the searches allocate from.

    ``state`` replaces the state gathered from ``allocated`` (a caller that keeps it up to date, like
    capacity planning, or upstream's tests); ``by_node`` is ``SlicesByNode.of(slices)`` made by the
    caller for the same ``slices`` object (ignored for any other)."""

    classes: Iterable[model.DeviceClass] = ()
    slices: Sequence[model.ResourceSlice] = ()
    allocated: Iterable[model.ResourceClaim] = ()
    taint_rules: Iterable[model.DeviceTaintRule] = ()
    state: AllocatedState | None = None
    by_node: SlicesByNode | None = None


# A limit left at this is resolved when the Allocator is made: ``search.DEFAULT_MAX_STEPS`` steps (read
# then, so tests can lower it) and the release's filter timeout (``allocator.default_filter_timeout``).
DEFAULT: EllipsisType = ...


@record(frozen=True)
class SearchLimits:
    """Limits per search (per node): ``max_steps`` (None: unbounded) and ``filter_timeout`` seconds on
    ``clock`` (None or 0: none); ``DEFAULT`` for either is the usual one. Past either, a search raises
    SearchLimitError."""

    max_steps: int | None | EllipsisType = DEFAULT
    filter_timeout: float | None | EllipsisType = DEFAULT
    clock: Callable[[], float] = time.monotonic


DEFAULT_LIMITS = SearchLimits()
# Neither a step limit nor a timeout: upstream's tree walked to its end (tests, benchmarks).
UNBOUNDED = SearchLimits(max_steps=None, filter_timeout=None)


@record(frozen=True)
class SearchOptions:
    """How searches are run; the answers are the same either way.

    ``prove`` turns on exact proofs of impossibility and memoised failure (``allocation.proofs``):
    fewer steps. Without it the search walks upstream's tree step for step (and counts its steps).
    ``share_outcomes`` (None: ``allocator.SHARE_OUTCOMES``) lets a search over many nodes answer for
    a node that looks like one already tried (``allocation.node_views``)."""

    prove: bool = False
    share_outcomes: bool | None = None


DEFAULT_OPTIONS = SearchOptions()


@record(frozen=True)
class Forced:
    """The allocator's switches (default: from the gates) and implementation (default: upstream's choice
    for them), forced as upstream's tests force them."""

    features: Switches | None = None
    variant: Variant | None = None


NOT_FORCED = Forced()
