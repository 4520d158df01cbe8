"""Consumable capacity (DRAConsumableCapacity): what a request takes from a shared device.

A device with ``allowMultipleAllocations`` can be handed to several
requests; each takes part of its capacities. What a request takes is its
``capacity.requests`` entry rounded up by the capacity's ``requestPolicy``
(``validRange`` min/step, ``validValues``), or the policy's default, or the
whole capacity when the request says nothing. Exclusive devices go through
the same check, so a request asking more than a device has never gets it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from allocator.kube import model
from allocator.kube.quantity import BINARY_SI, Quantity

Consumed = dict[str, Quantity]


@lru_cache(maxsize=4096)
def quantity(text: str) -> Quantity:
    return Quantity.parse(text)


def _opt(text: str | None) -> Quantity | None:
    return None if text is None else quantity(text)


class UnknownCapacity(Exception):
    """The request names a capacity the device does not have."""


def _has_policy(capacity: Mapping[str, model.DeviceCapacity]) -> bool:
    for cap in capacity.values():
        if cap.request_policy is not None:
            return True
    return False


def fits(device: model.Device, requests: Mapping[str, str] | None, allocated: Consumed | None,
         allocating: Consumed | None) -> bool:
    """Whether the request fits next to what is allocated and being allocated.

    Raises UnknownCapacity when the request names a capacity the device lacks.
    """
    capacity = device.capacity
    if not requests and allocated is None and allocating is None and not _has_policy(capacity):
        return True  # takes each capacity whole, which always fits an unshared device
    if requests and any(name not in capacity for name in requests):
        raise UnknownCapacity()
    for name, cap in capacity.items():
        want = consumed_by(requests.get(name) if requests else None, cap)
        if violates_policy(want, cap.request_policy):
            return False
        total = want
        if allocated and name in allocated:
            total = allocated[name] + total
        if allocating and name in allocating:
            total = total + allocating[name]
        if total.cmp(quantity(cap.value)) > 0:
            return False
    return True


def consumption(device: model.Device, requests: Mapping[str, str] | None) -> Consumed:
    """What one allocation of a shared device takes, per capacity."""
    return {name: consumed_by(requests.get(name) if requests else None, cap)
            for name, cap in device.capacity.items()}


def consumed_by(requested: str | None, cap: model.DeviceCapacity) -> Quantity:
    policy = cap.request_policy
    if requested is None:
        if policy is not None and policy.default is not None:
            return quantity(policy.default)
        return quantity(cap.value)
    want = quantity(requested)
    if policy is None:
        return want
    rng = policy.valid_range
    if rng is not None and rng.min is not None:
        return _round_up_range(want, rng)
    if policy.valid_values:
        for valid in policy.valid_values:
            if want.cmp(quantity(valid)) <= 0:
                return quantity(valid)
    return want


def _go_quo(a: int, b: int) -> int:
    """Go's integer ``/``: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _go_rem(a: int, b: int) -> int:
    """Go's ``%``: the remainder takes the sign of the dividend."""
    return a - b * _go_quo(a, b)


def _round_up_range(want: Quantity, rng: model.CapacityRequestPolicyRange) -> Quantity:
    low = quantity(rng.min)
    if want.cmp(low) < 0:
        return low
    if rng.step is None:
        return want
    step = quantity(rng.step).value
    added = want.value - low.value
    n = _go_quo(added, step)
    if _go_rem(added, step) != 0:
        n += 1
    return Quantity.from_int(low.value + step * n, BINARY_SI)


def violates_policy(want: Quantity, policy: model.CapacityRequestPolicy | None) -> bool:
    if policy is None:
        return False
    if policy.default is not None and want == quantity(policy.default):
        return False
    rng = policy.valid_range
    if rng is not None:
        if rng.max is not None and want.cmp(quantity(rng.max)) > 0:
            return True
        if rng.step is not None:
            low = _opt(rng.min)
            added = want.value - (low.value if low is not None else 0)
            if _go_rem(added, quantity(rng.step).value) != 0:
                return True
        return False
    if policy.valid_values:
        return not any(want.cmp(quantity(v)) == 0 for v in policy.valid_values)
    return False


def add_into(total: dict, key, consumed: Consumed) -> None:
    """Add one allocation's consumption to ``total[key]``."""
    have = total.get(key)
    if have is None:
        total[key] = dict(consumed)
        return
    for name, q in consumed.items():
        have[name] = have[name] + q if name in have else q


def remove_from(total: dict, key, consumed: Consumed) -> None:
    """Undo ``add_into``; the entry goes away once everything in it is zero."""
    have = total.get(key)
    if have is None:
        return
    for name, q in consumed.items():
        if name in have:
            have[name] = have[name] - q
    if all(q.is_zero for q in have.values()):
        del total[key]
