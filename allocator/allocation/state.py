"""What already-allocated claims hold: the scheduler's AllocatedState.

Devices given with admin access stay free for others. With
DRAConsumableCapacity, results that carry a ``shareID`` are shares of a
device: they add up their ``consumedCapacity`` instead of taking the device.
"""

from __future__ import annotations

from collections.abc import Iterable

from allocator.allocation import capacity as cap
from allocator.allocation.pools import DeviceID
from allocator.reading import TYPE_CHECKING
from allocator.reading.records import field

if TYPE_CHECKING:
    from typing import Any

    from allocator.allocation.switches import Variant
from allocator.allocation.requests import claim_ref
from allocator.kube import model
from allocator.reading.records import record


@record
class AllocatedState:
    devices: set[DeviceID] = field(default_factory=set)  # taken whole
    shares: set[tuple[DeviceID, str]] = field(default_factory=set)  # (device, share id)
    capacity: dict[DeviceID, dict[str, Any]] = field(default_factory=dict)  # consumed by shares, per capacity
    # Which claims (namespace/name) hold each device, for explanations only.
    holders: dict[DeviceID, list[str]] = field(default_factory=dict, compare=False)

    def allocated_for_counters(self, variant: Variant) -> set[DeviceID]:
        """Devices whose counters count as used: stable knows only whole devices."""
        if variant.is_stable:
            return self.devices
        return self.devices | {device for device, _ in self.shares} | set(self.capacity)


def gather_allocated_state(claims: Iterable[model.ResourceClaim], consumable_capacity: bool) -> AllocatedState:
    state = AllocatedState()
    add_allocated(state, claims, consumable_capacity)
    return state


def add_allocated(state: AllocatedState, claims: Iterable[model.ResourceClaim], consumable_capacity: bool) -> None:
    """Add what ``claims`` hold to ``state`` (gathering A then B is gathering A and B: capacity planning grows
    one state copy after copy instead of gathering every earlier copy again)."""
    for claim in claims:
        allocation = claim.status.allocation
        if allocation is None:
            continue
        ref = claim_ref(claim)
        for r in allocation.devices.results:
            if r.admin_access:
                continue
            device = DeviceID(r.driver, r.pool, r.device)
            held = state.holders.setdefault(device, [])
            if ref not in held:
                held.append(ref)
            if consumable_capacity and r.share_id is not None:
                state.shares.add((device, r.share_id))
                if r.consumed_capacity:
                    consumed = {name: cap.quantity(q) for name, q in r.consumed_capacity.items()}
                    cap.add_into(state.capacity, device, consumed)
                continue
            state.devices.add(device)
