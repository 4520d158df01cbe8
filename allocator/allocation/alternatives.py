"""The other grants the scheduler could have made: every allocation of the claims, in search order.

The scheduler takes the first complete allocation its search reaches. To
show what else would have fitted, the same search runs again with
``Search.on_solution`` set: each complete allocation is recorded and the
search backtracks for the next one, in its own order, so the first grant
listed is the scheduler's. Two solutions that give every request the same
devices (the plain walk reaches some in several orders) count once.

Listing stops at ``limit`` grants, when the search has tried everything
(``exhausted``), or when it runs out of steps (the allocator's
``max_steps``) or time (``timeout`` seconds), or meets an error the
scheduler would have given up on had it gone that far: then ``stopped``
says so in a sentence for people, and the grants found until then are kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from allocator.allocation.errors import AllocatorError, SearchLimitError
from allocator.allocation.pools import DeviceID
from allocator.allocation.search import Search
from allocator.kube import model
from allocator.reading.records import field, record

DEFAULT_LIMIT = 10
MAX_LIMIT = 100
# Seconds one listing may take: a request's share of the worker's time, whatever the release's filter timeout.
DEFAULT_TIMEOUT = 5.0


@record(frozen=True)
class GrantedDevice:
    request: str  # "request" or "request/subrequest", as in status.allocation
    device: DeviceID


@record
class Grant:
    """One complete allocation: per claim (in the order given), its devices in the order picked."""

    claims: list[list[GrantedDevice]]

    def key(self) -> tuple:
        """What makes two grants the same: each request gets the same devices, in whatever order."""
        return tuple(tuple(sorted((d.request, d.device) for d in devices)) for devices in self.claims)


@record
class Alternatives:
    grants: list[Grant] = field(default_factory=list)
    limit: int = DEFAULT_LIMIT
    exhausted: bool = False  # the search tried everything: there are no other grants
    stopped: str | None = None  # why the listing ended early (a limit), for people
    steps: int = 0


def list_grants(allocator, node: model.Node, claims: Sequence[model.ResourceClaim], limit: int = DEFAULT_LIMIT,
                timeout: float | None = DEFAULT_TIMEOUT) -> Alternatives:
    """Up to ``limit`` distinct grants of ``claims`` on ``node``, the scheduler's first.

    ``allocator`` is an ``allocate.Allocator``; its step budget bounds the
    listing, and ``timeout`` (seconds, None: none) replaces the filter
    timeout. A limit (even before the first grant: this budget may be
    shorter than the scheduler's), or an error further on in the search,
    ends the listing with ``stopped`` set; an error before the first grant
    (where the scheduler itself gives up) is raised as AllocatorError.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
    out = Alternatives(limit=limit)
    search = Search(allocator, node, list(claims))
    search.timeout = timeout
    seen: set[tuple] = set()

    def record() -> bool:
        grant = Grant([[GrantedDevice(p.request.full_name, p.candidate.id) for p in picked]
                       for picked in search.results])
        key = grant.key()
        if key not in seen:
            seen.add(key)
            out.grants.append(grant)
        return len(out.grants) >= limit

    search.on_solution = record
    try:
        done = search.run()
    except AllocatorError as err:
        if not out.grants and not isinstance(err, SearchLimitError):
            raise
        out.stopped = _stopped_message(err, len(out.grants), limit)
        done = False
    out.steps = search.calls
    out.exhausted = not done and out.stopped is None
    return out


def _stopped_message(err: AllocatorError, found: int, limit: int) -> str:
    grants = "grant" if found == 1 else "grants"
    if not isinstance(err, SearchLimitError):
        why = f"further on, the search meets an error the scheduler would give up on ({err})"
    elif err.limit == "steps":
        why = f"the search limit of {err.steps} steps was reached"
    else:
        why = "the time budget for listing them ran out"
    return (f"stopped early after {found} {grants} (of up to {limit} asked for): {why}; "
            "there may be others the search did not reach")
