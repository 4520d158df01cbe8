"""CEL selectors in validation: compile errors located inside the YAML, length and cost limits, gates."""

from __future__ import annotations

import textwrap

import pytest

from allocator.tests.helpers.validation import diagnostics, errors, gates

pytest.importorskip("allocator.cel")

CLASS_HEAD = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: c
spec:
  selectors:
"""


def located(selectors: str, **kw):
    text = CLASS_HEAD + textwrap.indent(textwrap.dedent(selectors), "  ")
    return [(d.line, d.column, d.message()) for d in diagnostics(text=text, **kw) if d.severity == "error"]


def test_plain_scalar_error_points_inside_the_expression():
    (line, col, msg), = located("""\
      - cel:
          expression: device.driver == "x" && devic.foo
    """)
    assert (line, col) == (8, 43)  # the "d" of "devic"
    assert msg == (
        'spec.selectors[0].cel.expression: Invalid value: "device.driver == \\"x\\" && devic.foo": compilation '
        "failed: ERROR: <input>:1:25: undeclared reference to 'devic' (in container '')\n"
        " | device.driver == \"x\" && devic.foo\n"
        " | ........................^")


def test_quoted_scalars():
    got = located("""\
      - cel:
          expression: "device.driver == \\"x\\" && devic.foo"
      - cel:
          expression: 'device.driver == ''x'' && devic.foo'
    """)
    assert [(line, col) for line, col, _ in got] == [(8, 46), (10, 46)]  # after the escaped quotes


def test_block_scalars():
    got = located("""\
      - cel:
          expression: |
            device.driver == "x" &&
              devic.foo
      - cel:
          expression: >-
            device.driver == "x" &&
            device.attributes["a"].b + 1 + "s"
    """)
    assert [(line, col) for line, col, _ in got] == [(10, 11), (14, 38)]
    assert "found no matching overload for '_+_' applied to '(int, string)'" in got[1][2]


def test_syntax_error_at_the_end():
    (line, col, msg), = located("""\
      - cel:
          expression: device.driver ==
    """)
    assert (line, col) == (8, 35)
    assert "compilation failed: ERROR: <input>:1:17: Syntax error:" in msg


def test_result_type():
    assert errors(text=CLASS_HEAD + "  - cel:\n      expression: '1 + 2'\n") == [
        'spec.selectors[0].cel.expression: Invalid value: "1 + 2": must evaluate to bool or the unknown type, '
        "not int"]


def test_length_limit():
    long_ok = "true" + " " * (10 * 1024 - 4)
    assert errors(text=CLASS_HEAD + f"  - cel:\n      expression: '{long_ok}'\n") == []
    too_long = long_ok + " "
    assert errors(text=CLASS_HEAD + f"  - cel:\n      expression: '{too_long}'\n") == [
        "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"]


def test_cost_limit():
    nested = "true"
    for name in "abcdefg":
        nested = f"[1,2,3,4,5,6,7,8,9,10].all({name}, {nested})"
    got = errors(text=CLASS_HEAD + f"  - cel:\n      expression: '{nested}'\n")
    assert got == ["spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit"]


def test_allow_multiple_allocations_needs_consumable_capacity():
    text = CLASS_HEAD + "  - cel:\n      expression: device.allowMultipleAllocations\n"
    assert errors(text=text) == []
    got = errors(text=text, gates=gates(DRAConsumableCapacity=False))
    assert len(got) == 1 and "undefined field 'allowMultipleAllocations'" in got[0]


def test_claim_selector_errors_are_located_too():
    text = textwrap.dedent("""\
        apiVersion: resource.k8s.io/v1
        kind: ResourceClaim
        metadata: {name: c}
        spec:
          devices:
            requests:
            - name: r
              exactly:
                deviceClassName: c
                selectors:
                - cel: {expression: 'device.attributes[true] == 1'}
    """)
    (d,) = [d for d in diagnostics(text=text) if d.severity == "error"]
    assert d.field == "spec.devices.requests[0].exactly.selectors[0].cel.expression"
    assert (d.line, d.column) == (11, 47)  # the '[' that cel-go points at (1:18)
    assert "<input>:1:18:" in d.detail
