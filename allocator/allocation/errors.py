"""Errors of the allocator, with upstream's messages.

``AllocatorError`` itself is defined beside the selector evaluator, whose failing selectors are
the first errors an allocation can return; it is the base of the errors here.
"""

from __future__ import annotations

from allocator.cel.selectors import AllocatorError

__all__ = ["AllocatorError", "NodeAllocationError", "SearchLimitError", "NODE_MARK", "ANY_NODE"]

# Where the node's name stands in a proof's or a shared reason's text: nodes whose devices look the same to the
# allocation fail alike, and a search over every node gives each of them the first one's proof with its own name
# (``proofs.Proof.on_node``, ``allocation.node_views``). Validated names never hold a NUL. Here rather than in
# ``proofs``, which a search loads only when it engages them (start-up, docs/performance.md).
NODE_MARK = "\x00node\x00"
ANY_NODE = "(any node)"


class NodeAllocationError(AllocatorError):
    """Allocation failed on this node only; other nodes may still work (upstream's ErrFailedAllocationOnNode)."""


class SearchLimitError(AllocatorError):
    """The search stopped before it could decide: its step budget or its deadline ran out.

    Upstream's allocator has no step budget; the scheduler cancels it when
    the DynamicResources plugin's ``filterTimeout`` (10 s by default, with the
    DRASchedulerFilterTimeout gate) runs out, and then reports ``timed out
    trying to allocate devices`` for the node. The playground bounds the steps
    too, so that a claim that makes the search backtrack exponentially ends
    the same way on every machine instead of holding a worker.

    ``limit`` is ``"steps"`` or ``"timeout"``; ``steps`` how many steps ran.
    Like upstream's timeout it aborts the whole attempt (it is not a
    per-node ``NodeAllocationError``): the answer for this node is unknown.
    """

    def __init__(self, message: str, limit: str, steps: int, node: str):
        super().__init__(message)
        self.limit = limit
        self.steps = steps
        self.node = node
