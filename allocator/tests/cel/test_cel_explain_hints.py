"""Explanations of a false selector (the deciding parts with the values read) and hints for usual mistakes."""

from __future__ import annotations

import pytest

from allocator.cel import CELCompileError, build_device, compile_selector
from allocator.cel.explain import explain_false
from allocator.cel.hints import domain_hint, runtime_hint
from allocator.kube.model import DeviceAttribute as A
from allocator.kube.model import DeviceCapacity as C

GPU = 'device.attributes["gpu.example.com"]'
MEMORY = 'device.capacity["gpu.example.com"].memory'
DEVICE = build_device("gpu.example.com", {"model": A(string="A100"), "driverVersion": A(version="1.2.3"),
                                          "index": A(int=3)}, {"memory": C(value="80Gi")})


def parts(expression):
    selector = compile_selector(expression, estimate_cost=False)
    assert selector.evaluate_device(DEVICE) is False
    return explain_false(selector, DEVICE)


def test_the_failing_half_of_an_and_with_the_value_read():
    expression = f'{GPU}.model == "A100" && {MEMORY}.compareTo(quantity("100Gi")) >= 0'
    [part] = parts(expression)
    assert expression[part.start:part.end] == f'{MEMORY}.compareTo(quantity("100Gi")) >= 0'
    assert part.verdict == "false"
    assert [(r.name, r.value) for r in part.reads] == [("memory", "80Gi")]
    assert (part.operator, part.left, part.right) == (">=", "-1", "0")
    assert part.summary().endswith("is false (memory = 80Gi)")


def test_every_false_conjunct_and_every_alternative_is_shown():
    both = parts(f'{GPU}.model == "H100" && {GPU}.index > 5')
    assert [p.text for p in both] == [f'{GPU}.model == "H100"', f"{GPU}.index > 5"]
    alternatives = parts(f'cel.bind(g, {GPU}, g.model == "H100" || g.model == "B200")')
    assert [p.summary() for p in alternatives] == ['`g.model == "H100"` is false (model = "A100")',
                                                   '`g.model == "B200"` is false (model = "A100")']


def test_through_not_has_in_and_ternary():
    [negated] = parts(f'!({GPU}.model in ["A100", "H100"])')
    assert negated.verdict == "true" and negated.operator == "in"
    [missing] = parts(f"has({GPU}.numa)")
    assert missing.text == f"has({GPU}.numa)" and [(r.name, r.value) for r in missing.reads] == [("numa", None)]
    [branch] = parts(f'{GPU}.index > 1 ? {GPU}.model == "H100" : true')
    assert branch.text == f'{GPU}.model == "H100"'


def test_a_failing_part_carries_the_error_and_a_hint():
    selector = compile_selector(f'{GPU}.driverVersion > "0.9.0" || {GPU}.model == "x"', estimate_cost=False)
    failed, false = explain_false(selector, DEVICE)
    assert failed.verdict == "error" and failed.error == "no such overload"
    assert failed.hint.startswith("a version attribute is not a string: wrap the string in semver")
    assert false.verdict == "false"


def test_a_macro_is_a_leaf_and_values_inside_it_are_not_read():
    [part] = parts(f'{GPU}.exists(k, k == "nope")')
    assert part.reads == []


@pytest.mark.parametrize("expression, expected", [
    (f'{MEMORY} >= quantity("40Gi")', "quantities are not ordered with >=: use their methods, e.g. a.compareTo(b) >= 0"),
    ('semver("1.0.0") < semver("2.0.0")', "versions are not ordered with <: use their methods, e.g. a.isLessThan(b)"),
    (f"{MEMORY} > 1", "compare with another quantity: quantity(\"...\"), not an int"),
    ("device.modle == 1", "the device has only driver, attributes and capacity"),
])
def test_compile_errors_get_hints_beside_cel_gos_message(expression, expected):
    with pytest.raises(CELCompileError) as caught:
        compile_selector(expression)
    assert caught.value.message.startswith("ERROR: <input>:1:")  # cel-go's text is kept as it is
    assert expected in caught.value.hint


def test_runtime_hints():
    assert runtime_hint("no such key: modle", names=["model", "index"]).startswith('did you mean "model"?')
    assert 'no device here publishes "numa"' in runtime_hint("no such key: numa", names=["model"])
    assert runtime_hint("quantities must match the regular expression '...'").startswith("a quantity is a number")
    assert runtime_hint("No Major.Minor.Patch elements found").startswith("a version has three numbers")
    assert "semver" in runtime_hint("no such overload", left="version", right="string")
    assert runtime_hint("division by zero") is None
    assert domain_hint("gpu.exmaple.com", ["gpu.example.com", "k8s.io"]).endswith('did you mean "gpu.example.com"?')


def test_a_selector_refused_as_too_complex_says_which_part_costs_what():
    expression = f'{GPU}.exists(a, {GPU}.exists(b, {GPU}.exists(c, {GPU}.exists(d, a == b))))'
    with pytest.raises(CELCompileError) as caught:
        compile_selector(expression)
    assert caught.value.message == "too complex, exceeds cost limit"
    assert "the limit is 1,000,000" in caught.value.hint
    assert "runs its body up to 32 times" in caught.value.hint
