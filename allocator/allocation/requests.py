"""One view over requests and subrequests, with the API defaults applied.

The allocator treats a ``DeviceRequest`` with ``exactly`` and one entry of
``firstAvailable`` alike; ``RequestView`` is that common shape. Defaults
are those the apiserver stores: ``allocationMode: ExactCount``, ``count: 1``
for ExactCount, toleration ``operator: Equal``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from allocator.kube import model
from allocator.reading import records
from allocator.reading.records import record

EXACT_COUNT = "ExactCount"
ALL = "All"


@record(frozen=True)
class RequestView:
    name: str
    class_name: str
    mode: str
    count: int
    selectors: tuple[model.DeviceSelector, ...]
    tolerations: tuple[model.DeviceToleration, ...]
    # The capacity requests (name -> quantity text); None when the request has no capacity field.
    capacity: dict[str, str] | None
    admin_access: bool = False
    # Whether adminAccess is set at all (even to false): that needs the feature.
    has_admin_access: bool = False
    parent: str = ""  # the request of a subrequest

    @functools.cached_property
    def expressions(self) -> tuple[str, ...]:
        """The CEL expressions of the selectors ("" for a selector without CEL)."""
        return tuple(s.cel.expression if s.cel is not None else "" for s in self.selectors)

    @property
    def full_name(self) -> str:
        """``request`` or ``request/subrequest``, as results name it."""
        return f"{self.parent}/{self.name}" if self.parent else self.name


def _mode_and_count(mode: str, count: int) -> tuple[str, int]:
    mode = mode or EXACT_COUNT
    if mode == EXACT_COUNT and count == 0:
        count = 1
    return mode, count


def _tolerations(items: Iterable[model.DeviceToleration]) -> tuple[model.DeviceToleration, ...]:
    return tuple(t if t.operator else records.replace(t, operator="Equal") for t in items)


def exact_view(request: model.DeviceRequest) -> RequestView:
    # A request with neither exactly nor firstAvailable has no class: the allocator reports that.
    e = request.exactly or model.ExactDeviceRequest()
    mode, count = _mode_and_count(e.allocation_mode, e.count)
    return RequestView(
        name=request.name, class_name=e.device_class_name, mode=mode, count=count,
        selectors=tuple(e.selectors), tolerations=_tolerations(e.tolerations),
        capacity=None if e.capacity is None else dict(e.capacity.requests),
        admin_access=bool(e.admin_access), has_admin_access=e.admin_access is not None,
    )


def sub_view(request: model.DeviceRequest, sub: model.DeviceSubRequest) -> RequestView:
    mode, count = _mode_and_count(sub.allocation_mode, sub.count)
    return RequestView(
        name=sub.name, class_name=sub.device_class_name, mode=mode, count=count,
        selectors=tuple(sub.selectors), tolerations=_tolerations(sub.tolerations),
        capacity=None if sub.capacity is None else dict(sub.capacity.requests),
        parent=request.name,
    )


def claim_ref(claim: model.ResourceClaim) -> str:
    """``namespace/name`` as klog.KObj prints a claim (just the name without namespace)."""
    meta = claim.metadata
    return f"{meta.namespace}/{meta.name}" if meta.namespace else meta.name


def claim_views(claim: model.ResourceClaim) -> list[tuple[RequestView, list[RequestView]]]:
    """Per request: its view and the views of its subrequests (empty without firstAvailable)."""
    out = []
    for request in claim.spec.devices.requests:
        out.append((exact_view(request), [sub_view(request, sub) for sub in request.first_available]))
    return out


class ViewCache:
    """Views of claims that stay the same over many searches (one per node in a node search)."""

    def __init__(self) -> None:
        self._views: dict[int, tuple[model.ResourceClaim, list[tuple[RequestView, list[RequestView]]]]] = {}

    def __call__(self, claim: model.ResourceClaim) -> list[tuple[RequestView, list[RequestView]]]:
        found = self._views.get(id(claim))
        if found is None or found[0] is not claim:
            found = (claim, claim_views(claim))
            self._views[id(claim)] = found
        return found[1]
