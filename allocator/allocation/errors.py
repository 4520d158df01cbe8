"""Errors of the allocator, with upstream's messages."""

from __future__ import annotations


class AllocatorError(Exception):
    """Allocation had to stop: invalid input the scheduler would refuse (bad CEL, unknown class...).

    The message is upstream's, word for word, so it can be compared.
    """


class NodeAllocationError(AllocatorError):
    """Allocation failed on this node only; other nodes may still work (upstream's ErrFailedAllocationOnNode)."""
