"""A list-typed attribute when the scheduler's CEL has no list types (DRAListTypeAttributes off, 1.36).

1.36's dynamic-resource-allocation converts a device's attributes for CEL by the compile environment's
features: without list types a list value (stored while the gate was on) has no CEL value, and building
the device fails for every selector, even one that never reads the attribute. With the gate on (and from
1.37 always, in the stored-expressions environment) lists are values. Found by the differential run
(allocate-1.36-error-message-fb52a2df and its siblings)."""

from __future__ import annotations

import pytest

from allocator.cel import CELRuntimeError
from allocator.cel.selectors import SelectorEvaluator
from allocator.kube import model

A = model.DeviceAttribute
DEVICE = model.Device(name="gpu-0", attributes={"numa": A(ints=[0, 1]), "model": A(string="a100")})


@pytest.mark.parametrize("expression", [
    "device.driver == 'gpu.example.com'",  # never reads the list
    "device.attributes['gpu.example.com'].model == 'a100'",  # reads another attribute only
    "device.attributes['gpu.example.com'].numa == 0",
])
def test_without_list_types_every_selector_fails_on_the_list(expression):
    evaluator = SelectorEvaluator(frozenset({"DRAConsumableCapacity"}))
    for _round in range(2):  # the second answer comes from memory and must say the same
        outcome = evaluator.outcome(expression, "gpu.example.com", DEVICE, False)
        assert isinstance(outcome, CELRuntimeError)
        assert str(outcome) == "attribute numa: unsupported attribute value"


def test_with_list_types_the_list_is_a_value():
    evaluator = SelectorEvaluator(frozenset({"DRAListTypeAttributes"}))
    assert evaluator.outcome("device.attributes['gpu.example.com'].numa.exists(n, n == 1)",
                             "gpu.example.com", DEVICE, False) is True
    assert evaluator.outcome("device.driver == 'gpu.example.com'", "gpu.example.com", DEVICE, False) is True


def test_a_device_without_lists_is_unaffected():
    evaluator = SelectorEvaluator(frozenset())
    plain = model.Device(name="gpu-1", attributes={"numa": A(int=0)})
    assert evaluator.outcome("device.attributes['gpu.example.com'].numa == 0", "gpu.example.com", plain, False) is True
