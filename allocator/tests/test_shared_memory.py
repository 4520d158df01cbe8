"""What the engine remembers between calls: selector answers per device content, and big inventories
kept out of the cyclic GC. Remembering must never change an answer."""

from __future__ import annotations

import gc

from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import SearchInputs
from allocator.cel import selectors
from allocator.cel.selectors import SelectorEvaluator, shared_evaluator
from allocator.kube import objects
from allocator.releases.gates import make_gates
from allocator.tests.helpers.allocate_table import build_claim, build_class, build_node, build_slice

SLICE = {"name": "slice-1", "driver": "driver-a", "pool": "pool-1", "node": "node-1",
         "devices": [{"name": "dev-1", "attributes": {"numa": 1}}, {"name": "dev-2", "attributes": {"numa": 2}}]}


def allocate(class_selector: str, request_selector: str | None = None):
    request = {"name": "req-0", "class": "class-a", "count": 1}
    if request_selector:
        request["selectors"] = [request_selector]
    allocator = Allocator(SearchInputs([build_class("class-a", {"driver": "driver-a", "selectors": [class_selector]})],
                                       [build_slice(SLICE)]), make_gates())
    outcome = allocator.allocate(build_node("node-1"), [build_claim({"name": "claim-0", "requests": [request]})])
    if not outcome.allocated:
        return None
    return [r.device for result in outcome.results for r in result.devices.results]


def test_allocators_of_one_process_share_the_evaluator():
    gates = make_gates()
    first = Allocator(SearchInputs(), gates).selectors
    assert Allocator(SearchInputs(), gates).selectors is first
    assert first is shared_evaluator(first.gates)


def test_a_class_with_other_selectors_is_asked_again_in_the_next_call():
    # Verdicts are remembered by the class's expressions, not by the class object (whose id a later
    # call's class may reuse): the same name with another selector must not get the old answer.
    assert allocate('device.attributes["driver-a"].numa == 1') == ["dev-1"]
    assert allocate('device.attributes["driver-a"].numa == 2') == ["dev-2"]
    assert allocate('device.attributes["driver-a"].numa == 3') is None
    assert allocate('device.attributes["driver-a"].numa >= 1', 'device.attributes["driver-a"].numa == 2') == ["dev-2"]


def test_runtime_errors_are_remembered_and_raised_again_with_the_callers_words():
    evaluator = SelectorEvaluator(frozenset())
    device = build_slice(SLICE).spec.devices[0]
    for _ in range(2):
        outcome = evaluator.outcome('device.attributes["driver-a"].model == "x"', "driver-a", device, False)
        assert "no such key: model" in str(outcome)


def test_the_memory_starts_again_past_its_bound():
    evaluator = SelectorEvaluator(frozenset(), max_devices=1)
    devices = build_slice(SLICE).spec.devices
    for device in devices:
        assert evaluator.outcome('device.attributes["driver-a"].numa > 0', "driver-a", device, False) is True
    assert len(evaluator._memory.device_keys) == 2
    evaluator.forget_if_full()
    assert len(evaluator._memory.device_keys) == 0
    assert evaluator.outcome('device.attributes["driver-a"].numa == 2', "driver-a", devices[1], False) is True


def test_past_its_answers_bound_it_forgets_answers_but_keeps_devices():
    evaluator = SelectorEvaluator(frozenset(), max_devices=10, max_answers=1)
    devices = build_slice(SLICE).spec.devices
    for device in devices:
        assert evaluator.outcome('device.attributes["driver-a"].numa > 1', "driver-a", device, False) is (
            device.name == "dev-2")
    memory = evaluator._memory
    evaluator.forget_if_full()
    assert evaluator._memory is memory and memory.answers() == 0
    # the CEL values stay: of the whole devices, or of what the expressions read of them (``static_reads``)
    assert len(memory.built) + len(memory.shared_built) == 2
    assert evaluator.outcome('device.attributes["driver-a"].numa > 1', "driver-a", devices[0], False) is False


def test_a_big_text_is_frozen_out_of_the_cyclic_gc(monkeypatch):
    monkeypatch.setattr(objects, "FREEZE_MIN_CHARS", 50)
    objects._cache.clear()
    gc.unfreeze()
    text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-with-a-long-enough-name-to-pass-the-bound\n"
    try:
        result = objects.read_documents(text)
        assert result.documents[0].name == "node-with-a-long-enough-name-to-pass-the-bound"
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        objects._cache.clear()


def test_a_small_text_is_not_frozen():
    objects._cache.clear()
    gc.unfreeze()
    objects.read_documents("apiVersion: v1\nkind: Node\nmetadata:\n  name: small\n")
    assert gc.get_freeze_count() == 0


def test_compiled_expressions_are_bounded(monkeypatch):
    monkeypatch.setattr(selectors, "MAX_COMPILED", 2)
    evaluator = SelectorEvaluator(frozenset(), max_devices=10, max_answers=1000)
    device = build_slice(SLICE).spec.devices[0]
    for n in range(3):
        evaluator.outcome(f'device.attributes["driver-a"].numa > {n}', "driver-a", device, False)
    evaluator.forget_if_full()
    assert len(evaluator._compiled) == 0
    assert evaluator.outcome('device.attributes["driver-a"].numa > 0', "driver-a", device, False) is True


def test_one_device_seen_with_and_without_allow_multiple_allocations_gets_both_answers():
    """Callers ask about one device object as each implementation shows it to CEL (stable never says
    allowMultipleAllocations is true): the memory keys the device with that, not by the object alone."""
    evaluator = SelectorEvaluator(frozenset({"DRAConsumableCapacity"}))
    device = build_slice(SLICE).spec.devices[0]
    expression = "device.allowMultipleAllocations"
    assert evaluator.outcome(expression, "driver-a", device, True) is True
    assert evaluator.outcome(expression, "driver-a", device, False) is False
    assert evaluator.outcomes(expression, [("driver-a", device, True), ("driver-a", device, False)]) == [True, False]


def test_outcomes_of_many_devices_are_each_devices_outcome():
    devices = build_slice(SLICE).spec.devices
    for expression in ('device.attributes["driver-a"].numa == 2', 'device.attributes["driver-a"].model == "x"',
                       "device.driver ==", 'device.attributes["driver-a"].numa > 0'):
        single = [SelectorEvaluator(frozenset()).outcome(expression, "driver-a", d, False) for d in devices]
        many = SelectorEvaluator(frozenset()).outcomes(expression, [("driver-a", d, False) for d in devices])
        assert [str(x) if isinstance(x, Exception) else x for x in many] == \
            [str(x) if isinstance(x, Exception) else x for x in single]
