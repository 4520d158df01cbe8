"""The CEL disagreements found by the differential run against the upstream allocator (issue 16's table).

Each case gives what cel-go and the apiserver's CEL library do, and why, from their sources:
``types.Equal`` dispatches on the left operand and the Kubernetes value types answer "no such overload"
for another type; list and map equality skip an element that fails to compare; with ``OptOptimize``
(on in Kubernetes) ``x in [constants]`` looks ``x`` up in a Go map, where a semver cannot be hashed, and
conversions of constants run when the program is built; ``cel.bind`` initialises its variable lazily;
type parameters widen to the more general type; the homogeneous aggregate literal validator refuses
``[dyn, int]``.
"""

from __future__ import annotations

import io
import json
from collections import OrderedDict
from contextlib import redirect_stderr, redirect_stdout

import pytest

from allocator.cel import CELCompileError, CELRuntimeError, compile_selector
from allocator.tests.helpers import write_files
from allocator.tests.helpers.cel_corpus import ATTRS, CAPACITY, DRV, corpus_devices
from allocator.tests.helpers.inventory import device_class

X = 'device.attributes["x.example.com"]'
MEM = 'device.capacity["x.example.com"].mem'
BW = 'device.capacity["x.example.com"].bw'
STORED = frozenset({"DRAListTypeAttributes", "DRAConsumableCapacity"})  # the allocator's 1.37 environment

RUNTIME = "runtime error: "
COMPILE = "compile error: "

TABLE = {
    # Equality of the Kubernetes value types.
    "semver-eq-string": (f'{X}.v == "1.2.3"', RUNTIME + "no such overload"),
    "string-eq-semver": (f'"1.2.3" == {X}.v', False),
    "semver-ne-string": (f'{X}.v != "1.2.3"', True),  # `!=` is "Equal is not true"
    "quantity-eq-int": (f"{MEM} == {X}.a", RUNTIME + "no such overload"),
    "int-eq-quantity": (f"{X}.a == {MEM}", False),
    "list-eq-skips-failed-element": (f'[{X}.v] == ["1.2.3"]', True),
    "list-eq-other-element-decides": (f"[{X}.v, {X}.a] == [{X}.s, {X}.s]", False),
    "list-eq-all-but-failed-equal": (f"[{X}.v, {X}.a] == [{X}.s, {X}.a]", True),
    "map-eq-skips-failed-value": (f'{{"k": {X}.v}} == {{"k": "1.2.3"}}', True),
    "semver-in-constant-list": (f'{X}.v in ["1.2.3"]',
                                RUNTIME + "internal error: runtime error: hash of unhashable type cel.Semver"),
    "semver-in-list-not-absorbed": (f'{X}.v in ["1.2.3"] || true',
                                    RUNTIME + "internal error: runtime error: hash of unhashable type cel.Semver"),
    "semver-in-map-literal": (f'{X}.v in {{"1.2.3": 1}}',
                              RUNTIME + "internal error: runtime error: hash of unhashable type cel.Semver"),
    "semver-in-computed-list": (f"{X}.v in [{X}.s]", False),  # Contains: a failed comparison is skipped
    "semver-in-semver-list": (f'{X}.v in [semver("1.2.3")]', True),
    "quantity-eq-quantity": (f'{MEM} == quantity("1024Mi")', True),
    # cel.bind is lazy; an error bound to the variable is a value that || and && absorb.
    "bind-unused-error": (f"cel.bind(x, {X}.nope, true)", True),
    "bind-error-absorbed": (f"cel.bind(x, {X}.nope, x || true)", True),
    "bind-error-used": (f"cel.bind(x, {X}.nope, x)",
                        RUNTIME + "no such key: nope. consider using CEL optional chaining (.? followed by "
                                  "orValue()) or guarding the check with has() for optional fields"),
    # orValue() on an attribute stays dyn: resolved at run time.
    "orvalue-bool-le-int": (f"{X}.?b.orValue(1) <= 100", RUNTIME + "no such overload"),
    "orvalue-int-endswith": (f'{X}.?a.orValue("").endsWith("a")', RUNTIME + "no such overload"),
    "orvalue-int-eq-string": (f'{X}.?a.orValue(0) == "x"', False),
    # Homogeneous aggregate literals.
    "list-dyn-then-int": (f"[{X}.a, 3] == [1]", COMPILE + "expected type 'dyn' but found 'int'"),
    "list-int-then-dyn": (f"[3, {X}.a] == [1]", COMPILE + "expected type 'int' but found 'dyn'"),
    "list-optional-none-binds": ("[?optional.none(), ?optional.of(1)] == [1]", True),
    "format-args-exempt": (f'"%s %d".format([{X}.s, 1]) == "abc 1"', True),
    # Conversions of constants fail when the program is built.
    "bool-yes": ('bool("yes")', COMPILE + "program instantiation failed: type conversion error from 'string' to 'bool'"),
    "int-abc": ('int("abc") == 1', COMPILE + "program instantiation failed: type conversion error from 'string' to 'int'"),
    "int-hex": ('int("0x10") == 16',
                COMPILE + "program instantiation failed: type conversion error from 'string' to 'int'"),
    "int-of-attribute-at-runtime": (f"int({X}.s) == 1", RUNTIME + "type conversion error from 'string' to 'int'"),
    "uint-negative": ('uint("-1") == 1u',
                      COMPILE + "program instantiation failed: type conversion error from 'string' to 'uint'"),
    "int-ok": ('int("-42") == -42', True),
}


def outcome(expression: str, gates=STORED):
    try:
        selector = compile_selector(expression, gates=gates, estimate_cost=True)
    except CELCompileError as err:
        return COMPILE + str(err)
    try:
        return selector.evaluate(DRV, ATTRS, CAPACITY)
    except CELRuntimeError as err:
        return RUNTIME + str(err)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_upstream_answer(name):
    expression, expected = TABLE[name]
    got = outcome(expression)
    if isinstance(expected, str) and expected.startswith(COMPILE):
        assert isinstance(got, str) and got.startswith(COMPILE)
        assert expected[len(COMPILE):] in got
    else:
        assert got == expected


def test_attribute_type_is_any_in_the_apiserver_without_list_attributes():
    # The apiserver's new-expressions environment without DRAListTypeAttributes declares attributes `any`.
    got = outcome(f"[{X}.a, 3] == [1]", gates=frozenset())
    assert "expected type 'any' but found 'int'" in got
    assert "ERROR: <input>:1:40:" in got  # at the second element, with cel-go's caret diagram


def test_program_errors_are_internal_errors_in_validation():
    from allocator.validation.cel import compile_outcome

    out = compile_outcome('int("abc") == 1', frozenset())
    assert out.type == "Internal error"
    assert out.detail == "program instantiation failed: type conversion error from 'string' to 'int'"


def _broken_overload(monkeypatch):
    """Make one library function raise a Python error, as a bug in it would."""
    from allocator.cel.library import FUNCTIONS

    def boom(*_args):
        raise AttributeError("'int' object has no attribute 'endswith'")

    for overload in FUNCTIONS["endsWith"]:
        monkeypatch.setattr(overload, "impl", boom)
    # Compiled programs hold their implementations: compile afresh now, and forget these programs after.
    monkeypatch.setattr("allocator.cel._CACHE", OrderedDict())


def test_an_internal_error_is_never_an_answer(monkeypatch):
    _broken_overload(monkeypatch)
    selector = compile_selector(f'{X}.s.endsWith("c")', gates=STORED, estimate_cost=False)
    with pytest.raises(CELRuntimeError) as caught:
        selector.evaluate(DRV, ATTRS, CAPACITY)
    assert caught.value.internal
    assert "internal error in the playground's CEL implementation (AttributeError" in str(caught.value)


CLI_INPUT = """
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
""" + device_class('x', 'device.driver == "x.example.com"') + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-x}
spec:
  driver: x.example.com
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  nodeName: node-a
  devices:
  - name: dev-0
    attributes:
      s: {string: abc}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: claim, namespace: default}
spec:
  devices:
    requests:
    - name: req
      exactly:
        deviceClassName: x
        selectors: [{cel: {expression: 'device.attributes["x.example.com"].s.endsWith("c")'}}]
"""


def test_the_command_line_exits_2_on_an_internal_error(monkeypatch, tmp_path):
    from allocator.__main__ import main

    _broken_overload(monkeypatch)
    (path,) = write_files(tmp_path, **{"in": CLI_INPUT})
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["allocate", "--node", "node-a", "-o", "json", path])
    assert code == 2, (out.getvalue(), err.getvalue())
    text = out.getvalue() + err.getvalue()
    assert "claim default/claim" in text
    assert "internal error in the playground's CEL implementation" in text
    assert "selector #0 on device x.example.com/node-a/dev-0" in text
    json.dumps(text)  # plain text, nothing half-written


# Estimated costs, worked out with cel-go's checker.Cost and the apiserver's library.CostEstimator:
# (expression, estimated cost, or None when the apiserver refuses it as too complex).
COSTS = {
    # replace(): traversal of the text (2 * 0.1 per character) and a result no longer than the text.
    "replace-then-indexof": ('"ab".replace("b", "c").indexOf("a") == 0', 3),
    # a comprehension variable has the size of the range's elements (here a 2-character literal).
    "exists-over-literal": ('["ab"].exists(x, x.contains("a"))', 17),
    # join() of a list literal: its elements have no declared size, so the result is unbounded.
    "join-of-literal": ('["ab"].join("") == "a"', None),
    # charAt() declares no result size: indexOf() on it is unbounded.
    "charat-then-indexof": ('"ab".charAt(0).indexOf("a") == 0', None),
    "split-then-join": ('"ab".split("a").join("-") < "a"', None),
    # != on two quantities is costed by their sizes, which a capacity field does not declare.
    "quantity-ne-quantity": (f"{MEM} != {BW}", None),
    "quantity-eq-quantity": (f"{MEM} == {BW}", 1 + 4 + 4),  # == on quantities is O(1)
    "driver-eq": ('device.driver == "x.example.com"', 4),
    "attribute-lowerascii": (f'{X}.s.lowerAscii() == "abc"', 4 + 7 + 1),
    "bind": (f"cel.bind(d, {X}, d.a > 0 && d.b)", 10 + 3 + (3 + 2)),
}


@pytest.mark.parametrize("name", sorted(COSTS))
def test_estimated_cost(name):
    expression, expected = COSTS[name]
    if expected is None:
        with pytest.raises(CELCompileError, match="too complex, exceeds cost limit"):
            compile_selector(expression, gates=STORED)
    else:
        assert compile_selector(expression, gates=STORED).estimated_cost == expected


def _corpus():
    from allocator.tests.data.cel_corpus import CORPUS

    return CORPUS


def test_the_corpus_is_large_and_unique():
    corpus = _corpus()
    assert len(corpus) >= 200
    keys = [(device, expression, repr(expected)) for device, expression, expected in corpus]
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("index", range(len(_corpus())))
def test_corpus(index):
    device, expression, expected = _corpus()[index]
    attrs, capacity = corpus_devices()[device]
    try:
        selector = compile_selector(expression, gates=STORED, estimate_cost=True)
    except CELCompileError as err:
        assert isinstance(expected, str) and expected.startswith("compile:"), (expression, str(err))
        assert expected[len("compile:"):] in str(err), (expression, str(err))
        return
    assert not (isinstance(expected, str) and expected.startswith("compile:")), (expression, "compiled")
    if isinstance(expected, tuple):
        assert selector.estimated_cost == expected[1], expression
        return
    try:
        got = selector.evaluate(DRV, attrs, capacity)
    except CELRuntimeError as err:
        assert isinstance(expected, str) and expected.startswith("!"), (expression, str(err))
        assert expected[1:] in str(err), (expression, str(err))
        assert not err.internal, expression
        return
    assert got is expected, expression
