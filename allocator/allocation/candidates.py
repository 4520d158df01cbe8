"""A device the search may pick, and whether a taint keeps it from a request.

Search, proofs and explanations all look at devices this way; keeping it out of
``search`` lets ``proofs`` use it without importing the search that imports it.
"""

from __future__ import annotations

from allocator.allocation.pools import DeviceID, Pool
from allocator.allocation.requests import RequestView
from allocator.kube import model


class Candidate:
    __slots__ = ("id", "device", "slice", "pool")

    def __init__(self, device_id: DeviceID, device: model.Device, slice_: model.ResourceSlice, pool: Pool):
        self.id = device_id
        self.device = device
        self.slice = slice_
        self.pool = pool


def taint_prevents(device: model.Device, request: RequestView) -> model.DeviceTaint | None:
    """The first NoSchedule/NoExecute taint no toleration of the request tolerates."""
    for taint in device.taints:
        if taint.effect in ("NoSchedule", "NoExecute") and not any(tolerates(t, taint) for t in request.tolerations):
            return taint
    return None


def tolerates(toleration: model.DeviceToleration, taint: model.DeviceTaint) -> bool:
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator in ("", "Equal"):
        return toleration.value == taint.value
    return toleration.operator == "Exists"
