"""The scheduler's DRA node score: among nodes that fit, prefer those where better-ranked subrequests won.

Kubernetes 1.35 gave the scheduler's DynamicResources plugin a Score (upstream
pull request 134711, KEP-4816 "simple scoring"). For each node that passed
Filter it looks at the allocation Filter found there for the pod's claims and
adds, for every request with ``firstAvailable``, ``8 - i`` when the
subrequest at index ``i`` was the one allocated (8 is the API's
``FirstAvailableDeviceRequestMaxSize``): a request served by its first
choice adds 8, by its second 7, and so on. Requests with ``exactly`` add
nothing. The pod's claims that are already allocated count through their
``status.allocation``, the same on every node (upstream pull request 139017,
in the 1.35 and 1.36 patch releases of June 2026; before it, a pod mixing
allocated and pending claims made Score fail, which we do not model), but
only beside pending ones: with none pending the plugin made no allocation
for any node and scores every node 0.

NormalizeScore is the scheduler's default one: ``100 * raw // highest raw``
over the nodes that fit; when every raw score is 0 they all stay 0.

When the scheduler does not score:

* before 1.35 (no Score in the plugin);
* with ``DRAPrioritizedList`` off (the plugin returns 0 for every node, as
  the fixed plugin checks the gate; nothing could use ``firstAvailable`` then);
* when only one node fits: the scheduler takes it without running Score;
* when the user names the node: only that node is tried.

kube-scheduler adds the weighted scores of its other plugins (resources,
affinity, spreading, image locality...), which need objects we do not have;
among nodes with the same total it picks one at random. We choose the node
with the highest DRA score and, among equals, the first by name, so that the
same input always gives the same answer, and say so (``Scoring.note``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from allocator.allocation.allocator import AllocationOutcome
from allocator.kube import model
from allocator.reading import TYPE_CHECKING
from allocator.reading.records import field, record
from allocator.releases.gates import FeatureGates
from allocator.releases.rules import first_release
from allocator.workload.claims import Workload

if TYPE_CHECKING:
    from typing import Any

# resourceapi.FirstAvailableDeviceRequestMaxSize: the most subrequests a request may list.
FIRST_AVAILABLE_MAX = 8
MAX_NODE_SCORE = 100  # the scheduler's framework.MaxNodeScore
GATE = "DRAPrioritizedList"


def not_scored_reason(gates: FeatureGates) -> str | None:
    """Why this release and these gates give no DRA score, or None when the plugin scores nodes."""
    if not gates.release_rules.scores_nodes:
        return (f"Kubernetes {gates.release} does not score nodes for DRA (the DynamicResources plugin scores "
                f"from {first_release('scores_nodes')} on): the scheduler picks among the nodes that fit by its "
                "other plugins")
    if not gates.values.get(GATE, False):
        return f"{GATE} is off: the DynamicResources plugin scores every node 0"
    return None


def claim_score(claim: model.ResourceClaim, allocated_requests: Iterable[str]) -> int:
    """One claim's part of the raw score: ``8 - i`` per request whose subrequest ``i`` was allocated."""
    names = set(allocated_requests)
    score = 0
    for request in claim.spec.devices.requests:
        for i, sub in enumerate(request.first_available):
            if f"{request.name}/{sub.name}" in names:
                score += FIRST_AVAILABLE_MAX - i
    return score


def _subrequests(results: Iterable[str]) -> list[str]:
    return [name for name in results if "/" in name]


def raw_score(outcome: AllocationOutcome, allocated: Sequence[model.ResourceClaim] = ()) -> int:
    """The plugin's Score for a node that fits: its pending claims as allocated there, plus ``allocated``."""
    score = 0
    search = outcome.search
    for ci, claim in enumerate(outcome.claims):
        picked = search.results[ci] if search is not None else []
        score += claim_score(claim, _subrequests(p.request.full_name for p in picked))
    for claim in allocated:
        results = claim.status.allocation.devices.results if claim.status.allocation else []
        score += claim_score(claim, _subrequests(r.request for r in results))
    return score


def normalize(raws: Sequence[int]) -> list[int]:
    """The scheduler's DefaultNormalizeScore (not reversed): ``100 * raw // max``; all 0 stays all 0."""
    top = max(raws, default=0)
    if top <= 0:
        return [0 for _ in raws]
    return [MAX_NODE_SCORE * raw // top for raw in raws]


def pod_allocated_claims(work: Workload) -> list[model.ResourceClaim]:
    """The already allocated claims of the input's pods, once each: Score counts them too."""
    seen: set[tuple[str, str]] = set()
    out = []
    for pod_claims in work.pod_claims.values():
        for pod_claim in pod_claims:
            claim = pod_claim.claim
            key = (claim.metadata.namespace, claim.metadata.name)
            if claim.status.allocation is not None and key not in seen:
                seen.add(key)
                out.append(claim)
    return out


@record
class Scoring:
    """The DRA scores of the nodes that fit and the node chosen by them.

    ``raw``/``normalized`` map ``id(outcome)`` to the scores (only when
    ``scored``); ``chosen`` is the node the engine takes (the first that fits
    when nothing is scored); ``tied`` the names of the nodes with the best
    score when more than one has it; ``note`` says in a sentence what was
    done and why.
    """

    scored: bool
    note: str
    chosen: AllocationOutcome | None
    raw: dict[int, int] = field(default_factory=dict)
    normalized: dict[int, int] = field(default_factory=dict)
    tied: list[str] = field(default_factory=list)

    def node_fields(self, outcome: AllocationOutcome) -> dict[str, int]:
        """``score`` and ``rawScore`` for a node table row (nothing for a node that was not scored)."""
        if id(outcome) not in self.normalized:
            return {}
        return {"score": self.normalized[id(outcome)], "rawScore": self.raw[id(outcome)]}

    def to_dict(self) -> dict[str, Any]:
        return {"scored": self.scored, "note": self.note, "tied": list(self.tied)}


def score_nodes(fitting: Sequence[AllocationOutcome], gates: FeatureGates,
                allocated: Sequence[model.ResourceClaim] = (), node_given: bool = False) -> Scoring:
    """Score the nodes that fit (in name order) as the scheduler's DRA plugin does and choose one."""
    first = fitting[0] if fitting else None
    if node_given:
        return Scoring(False, "the node was named: nothing to choose, so the scheduler does not score", first)
    if not fitting:
        return Scoring(False, "no node fits: nothing to score", None)
    if len(fitting) == 1:
        return Scoring(False, "only one node fits: the scheduler takes it without scoring", first)
    reason = not_scored_reason(gates)
    if reason is not None:
        return Scoring(False, f"{reason}; among equals it picks at random, we show the first by name", first)
    if not any(o.claims for o in fitting):
        allocated = ()  # nothing to allocate: the plugin made no allocation on any node, so every score is 0
    raws = [raw_score(o, allocated) for o in fitting]
    normalized = normalize(raws)
    best = max(normalized)
    tied = [o.node_name for o, s in zip(fitting, normalized, strict=True) if s == best]
    chosen = next(o for o, s in zip(fitting, normalized, strict=True) if s == best)
    if len(tied) > 1:
        note = (f"{len(tied)} nodes share the best DRA score {best}: the scheduler picks one of them at random "
                f"(its other plugins' scores aside); we show the first by name, {chosen.node_name}")
    else:
        note = (f"{chosen.node_name} has the best DRA score ({best}): its allocation uses the best-ranked "
                f"firstAvailable subrequests (the scheduler's other plugins' scores aside)")
    return Scoring(True, note, chosen, raw={id(o): r for o, r in zip(fitting, raws, strict=True)},
                   normalized={id(o): s for o, s in zip(fitting, normalized, strict=True)},
                   tied=tied if len(tied) > 1 else [])
