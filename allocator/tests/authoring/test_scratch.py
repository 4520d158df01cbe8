"""A scratch device (allocator.authoring.scratch): a device typed as YAML, read and checked as a slice's device,
errors located in its own text."""

import pytest

from allocator.authoring.console import evaluate
from allocator.authoring.scratch import DEFAULT_DRIVER, ScratchError, read_scratch
from allocator.releases.gates import make_gates

GATES = make_gates({})


def errors(text: str) -> list[tuple[int | None, int | None, str, str]]:
    with pytest.raises(ScratchError) as raised:
        read_scratch(text, GATES)
    return [(d.line, d.column, d.field, d.message()) for d in raised.value.diagnostics]


def test_a_device_with_its_driver_attributes_and_capacity():
    scratch = read_scratch("name: mine\ndriver: gpu.example.com  # the domain of unqualified names\n"
                           "attributes:\n  model: {string: H200}\ncapacity:\n  memory: {value: 141Gi}\n", GATES)
    assert (scratch.driver, scratch.device.name) == ("gpu.example.com", "mine")
    answer = evaluate('device.attributes["gpu.example.com"].model == "H200" && '
                      'device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("100Gi"))',
                      scratch.device, scratch.driver, GATES)
    assert (answer["value"], answer["diagnostics"]) == ("true", [])


def test_without_a_driver_or_a_name_the_defaults():
    scratch = read_scratch("attributes:\n  index: {int: 1}\n", GATES)
    assert (scratch.driver, scratch.device.name) == (DEFAULT_DRIVER, "scratch")


def test_errors_are_located_in_the_scratch_text_with_its_own_paths():
    assert errors("attributes:\n  model: {string: A, int: 3}\n")[0][:3] == (2, 10, "attributes[model]")
    (unknown,) = errors("attributes: {}\nbogus: 1\n")
    assert unknown[:3] == (2, 1, "bogus") and 'unknown field "bogus"' in unknown[3]
    (driver,) = errors("attributes: {}\ndriver: 'Not A Driver'\n")
    assert driver[:3] == (2, 9, "driver") and "RFC 1123" in driver[3]
    (syntax,) = errors("attributes: [\n")
    assert syntax[0] == 2
    (empty,) = errors("  \n")
    assert "type the device's attributes and capacity" in empty[3]

