"""cel-go's exact words and places for three cases the apiserver shows users (issue 28, item 7)."""

from __future__ import annotations

import pytest

from allocator.cel import CELCompileError, CELRuntimeError, build_device, compile_selector

DEVICE = build_device("d.example.com", {}, {})


def _compile_error(expression: str) -> str:
    with pytest.raises(CELCompileError) as caught:
        compile_selector(expression, estimate_cost=True)
    return str(caught.value)


def test_a_negative_literal_out_of_range_is_located_at_its_minus_sign():
    message = _compile_error("1 == -9223372036854775809")
    assert message.startswith("ERROR: <input>:1:6: Syntax error: invalid int literal: -9223372036854775809")
    assert message.endswith("\n | .....^")


def test_a_negated_unsigned_literal_is_located_at_its_minus_sign():
    assert _compile_error("1u == -1u").startswith("ERROR: <input>:1:7: Syntax error: unsigned literal cannot be negated")


def test_an_undeclared_reference_names_its_container():
    assert _compile_error("x == 1").startswith("ERROR: <input>:1:1: undeclared reference to 'x' (in container '')")


@pytest.mark.parametrize("expression,expected", [
    ('quantity("1").add(0) == quantity("1")', True),
    ('quantity("2").sub(1).compareTo(quantity("1")) == 0', True),
    ('quantity("1").add(quantity("1")).isGreaterThan(quantity("1"))', True),
    ('quantity("1") == quantity("1")', True),
])
def test_sums_of_quantities_compare(expression, expected):
    assert compile_selector(expression).evaluate_device(DEVICE) is expected


@pytest.mark.parametrize("expression", [
    'quantity("1") == quantity("1").add(0)',
    'quantity("1") == quantity("2").sub(1)',
    'quantity("1").add(0) == quantity("1").add(0)',
])
def test_a_sum_on_the_right_of_equals_is_no_such_overload(expression):
    # add/sub return *Quantity, whose Equal only takes a Quantity value (k8s.io/apiserver/pkg/cel).
    with pytest.raises(CELRuntimeError, match="no such overload"):
        compile_selector(expression).evaluate_device(DEVICE)


def test_a_negative_literals_span_starts_at_its_minus_sign():
    root = compile_selector("-1 + 2 == 1").root
    assert (root.start, root.end) == (0, 11)
    assert (root.args[0].start, root.args[0].args[0].start) == (0, 0)
