"""Property: no hint gives advice the expression already follows, or that the evaluator contradicts.

On the CEL differential corpus and on generated selectors that read names devices may lack, with or
without has() guards in every position CEL allows (&&, ||, ? :, cel.bind), the hints fitted to the
explanation (``hints.fitted_parts``) never propose the name already written, never advise has() for a
read already guarded, and never advise has() where the evaluator reached no error; and where the guard
analysis says a read is guarded, the evaluator never fails on that name.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allocator.cel import CELCompileError, CELRuntimeError, build_device, compile_selector, guards
from allocator.cel.explain import explain_false
from allocator.cel.hints import fitted_parts
from allocator.kube.model import DeviceAttribute as A
from allocator.kube.model import DeviceCapacity as C
from allocator.tests.data.cel_corpus import CORPUS

DRV = "x.example.com"
STORED = frozenset({"DRAListTypeAttributes", "DRAConsumableCapacity"})
FULL = {"a": A(int=1), "s": A(string="abc"), "v": A(version="1.2.3"), "b": A(bool=True),
        "big": A(int=9223372036854775807), "e": A(string=""), "pre": A(version="1.0.0-rc.1+build.5"),
        "k8s.io/numa": A(int=0), "ints": A(ints=[1, 2, 3]), "strs": A(strings=["a", "b"]),
        "vers": A(versions=["1.0.0", "2.0.0"])}
FULL_CAPACITY = {"mem": C(value="1Gi"), "bw": C(value="10G"), "cores": C(value="500m")}
DEVICES = {"full": build_device(DRV, FULL, FULL_CAPACITY), "bare": build_device(DRV, {}, {})}
PUBLISHED = {"attributes": {DRV: {k for k in FULL if "/" not in k}, "k8s.io": {"numa"}},
             "capacity": {DRV: set(FULL_CAPACITY)}}
HAS_ADVICE = ("guard the read with has", "guard optional attributes with has")


def is_version(read) -> bool:
    return read.domain == ("attributes", DRV) and read.name in ("v", "pre")


def fitted(expression: str, device: dict):
    """(value or "error", the fitted hints) of ``expression`` on ``device``; None if it does not compile."""
    try:
        selector = compile_selector(expression, gates=STORED, estimate_cost=False)
    except CELCompileError:
        return None
    try:
        value = selector.evaluate_device(device)
    except CELRuntimeError as err:
        value = f"error: {err}"
    if value is True:
        return value, []
    parts = [p.to_dict() for p in explain_false(selector, device)]
    failed = not isinstance(value, bool)
    hints = [p["hint"] for p in fitted_parts(expression, parts, PUBLISHED, is_version, selector_failed=failed)
             if p.get("hint")]
    return value, hints


def check(expression: str, value, hints: list[str]) -> None:
    found = guards.analyze(expression)
    written = ({r.name for r in found.reads} | {r.domain[1] for r in found.reads if r.domain}) if found else set()
    for hint in hints:
        for proposed in re.findall(r'did you mean "([^"]+)"', hint):
            assert any(w != proposed for w in written), (expression, hint)  # it corrects another name
        if any(advice in hint for advice in HAS_ADVICE):
            assert not isinstance(value, bool), (expression, value, hint)  # an error that did not happen
            key = re.search(r'publish "([^"]+)"', hint)
            if key:
                assert guards.guard_state(expression, key.group(1)) != guards.GUARDED, (expression, hint)
        if "compare versions" in hint:
            assert guards.string_comparisons(expression), (expression, hint)


@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_no_hint_on_the_corpus_is_already_followed(index):
    device, expression, _ = CORPUS[index]
    result = fitted(expression, DEVICES[device])
    if result is not None:
        check(expression, *result)


X = f'device.attributes["{DRV}"]'
NAMES = ["a", "s", "numa", "sz", "model"]  # published, published, elsewhere, a typo of "s", nowhere


@st.composite
def reads(draw):
    name = draw(st.sampled_from(NAMES))
    form = draw(st.sampled_from([f"{X}.{name}", f'{X}["{name}"]', f"g.{name}"]))
    test = draw(st.sampled_from([f'{X}.{name} == "abc"', f"{X}.{name} == 1", f'string({X}.{name}) != ""']))
    return name, form, test.replace(f"{X}.{name}", form)


@st.composite
def selectors(draw):
    name, form, test = draw(reads())
    guard_name = draw(st.sampled_from([name, name, draw(st.sampled_from(NAMES))]))
    has = draw(st.sampled_from([f"has({X}.{guard_name})", f'"{guard_name}" in {X}', f"has(g.{guard_name})"]))
    shape = draw(st.sampled_from([
        "{test}", "{has} && {test}", "{test} && {has}", "{has} || {test}", "!{has} || {test}",
        "{has} ? {test} : false", "!{has} ? false : {test}", "{has} ? false : {test}",
        "({has} && {test}) || {test}", "true && {test}", "false && {test}", "true || {test}",
    ]))
    body = shape.format(has=has, test=test)
    if "g." in body:
        body = f"cel.bind(g, {X}, {body})"
    return body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression=selectors(), device=st.sampled_from(["full", "bare"]))
def test_no_generated_hint_is_already_followed_or_contradicted(expression, device):
    result = fitted(expression, DEVICES[device])
    if result is None:
        return
    value, hints = result
    check(expression, value, hints)
    # The guard analysis agrees with the evaluator: a guarded read never fails for its missing key.
    for name in NAMES:
        if guards.guard_state(expression, name) == guards.GUARDED:
            assert f"no such key: {name}" not in str(value), (expression, value)
