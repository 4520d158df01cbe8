"""Explanations evaluate as CEL does: an error that ``&&``, ``||``, ``? :`` or a macro absorbs is not
shown as an error, and a part is an error only when its error reaches the selector's value (issue 24)."""

from __future__ import annotations

import pytest
import yaml

from allocator.cel import CELRuntimeError, build_device, compile_selector
from allocator.cel.explain import explain_false
from allocator.engine import analyze
from allocator.kube.model import DeviceAttribute as A
from allocator.tests.helpers import SAMPLES

GPU = 'device.attributes["gpu.example.com"]'
# No "numa" attribute: reading it fails with "no such key: numa".
DEVICE = build_device("gpu.example.com", {"model": A(string="A100"), "index": A(int=3),
                                          "ints": A(ints=[0, 2])}, {})
HAS_HINT = "guard optional attributes with has("


def explained(expression: str, expected):
    """The parts of ``expression`` on DEVICE, after checking its value there is ``expected`` ("error": fails)."""
    selector = compile_selector(expression, estimate_cost=False, gates=frozenset({"DRAListTypeAttributes"}))
    try:
        value = selector.evaluate_device(DEVICE)
    except CELRuntimeError:
        value = "error"
    assert value == expected, expression
    return explain_false(selector, DEVICE)


def summaries(expression: str, expected) -> list[str]:
    return [p.summary() for p in explained(expression, expected)]


@pytest.mark.parametrize("expression", [
    f'has({GPU}.numa) && {GPU}.numa == 0',
    f'{GPU}.numa == 0 && has({GPU}.numa)',  # && is commutative for errors in CEL
])
def test_a_has_guard_that_is_false_decides_and_the_guarded_read_is_not_an_error(expression):
    [part] = explained(expression, False)
    assert part.text == f"has({GPU}.numa)" and part.verdict == "false"
    assert part.summary() == f"`has({GPU}.numa)` is false (numa is missing)"
    assert part.hint is None


def test_a_false_conjunct_absorbs_an_error_beside_it():
    assert summaries(f'{GPU}.numa == 0 && {GPU}.model == "H100"', False) == [
        f'`{GPU}.model == "H100"` is false (model = "A100")']


def test_an_and_without_a_false_operand_fails_by_its_errors_only():
    [part] = explained(f'{GPU}.model == "A100" && {GPU}.numa == 0', "error")
    assert part.text == f"{GPU}.numa == 0" and part.verdict == "error" and part.error == "no such key: numa"
    assert part.hint.startswith(HAS_HINT)


def test_or_a_true_alternative_absorbs_an_error_and_a_failing_or_shows_its_false_alternatives():
    # true under `!`: the true alternative decided, the failing one was absorbed
    [part] = explained(f'!({GPU}.numa == 0 || {GPU}.model == "A100")', False)
    assert part.text == f'{GPU}.model == "A100"' and part.verdict == "true"
    # no true alternative: the error reaches the value, and the false alternative is why it was not absorbed
    failed, false = explained(f'{GPU}.numa == 0 || {GPU}.model == "H100"', "error")
    assert (failed.verdict, failed.error, false.verdict) == ("error", "no such key: numa", "false")
    # a guard written with || : !has(...) is false, the read runs, and is false here
    assert summaries(f'!has({GPU}.model) || {GPU}.model == "H100"', False) == [
        f'`has({GPU}.model)` is true', f'`{GPU}.model == "H100"` is false (model = "A100")']
    # ... and on a missing attribute the guard makes the selector true: nothing to explain
    assert explained(f'!has({GPU}.numa) || {GPU}.numa == 0', True) == []


def test_a_ternary_explains_the_branch_taken_and_only_it():
    assert summaries(f'has({GPU}.numa) ? {GPU}.numa == 0 : {GPU}.model == "H100"', False) == [
        f'`{GPU}.model == "H100"` is false (model = "A100")']
    assert summaries(f'{GPU}.model == "A100" ? {GPU}.index > 5 : {GPU}.numa == 0', False) == [
        f"`{GPU}.index > 5` is false (index = 3)"]
    # a failing condition: its error is the one that reaches the value, not the branches'
    [part] = explained(f'{GPU}.numa == 0 ? {GPU}.model == "H100" : false', "error")
    assert part.text == f"{GPU}.numa == 0" and part.verdict == "error"


def test_exists_and_all_absorb_errors_like_cel_go():
    # all: one false element decides, the failing element (1 / 0) is absorbed
    [part] = explained(f"{GPU}.ints.all(i, 1 / i == 1)", False)
    assert part.verdict == "false" and part.error is None and part.hint is None
    # exists: no true element, so the error of the element 0 reaches the value
    [part] = explained(f"{GPU}.ints.exists(i, 1 / i == 1)", "error")
    assert part.verdict == "error" and part.error == "division by zero"
    # exists over names, some missing: a true element absorbs the missing key, under a `!`
    [part] = explained(f'!["numa", "model"].exists(k, {GPU}[k] == "A100")', False)
    assert part.verdict == "true" and part.hint is None
    [part] = explained(f'["numa", "model"].all(k, {GPU}[k] == "H100")', False)
    assert part.verdict == "false" and part.hint is None
    # exists_one absorbs nothing: every element is evaluated
    [part] = explained(f'["numa", "model"].exists_one(k, {GPU}[k] == "A100")', "error")
    assert part.error == "no such key: numa"


def test_bind_not_and_a_result_that_is_not_a_bool():
    assert summaries(f'cel.bind(g, {GPU}, has(g.numa) && g.numa == 0)', False) == [
        "`has(g.numa)` is false (numa is missing)"]
    assert summaries(f'!(has({GPU}.numa) || {GPU}.model == "A100")', False) == [
        f'`{GPU}.model == "A100"` is true (model = "A100")']
    [part] = explained(f"{GPU}.index", "error")
    assert part.verdict == "error" and part.error.startswith("CEL result of type int could not be converted to bool")


def test_a_true_selector_has_nothing_to_explain():
    assert explained(f'{GPU}.numa == 0 || {GPU}.model == "A100"', True) == []


NIC_SELECTOR = 'has(device.attributes["dra.net"].ifName) && device.attributes["dra.net"].ifName.startsWith("ens")'


def nic_claim(selector: str) -> str:
    return ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: nic, namespace: default}\n"
            "spec:\n  devices:\n    requests:\n    - name: nic\n      exactly:\n        deviceClassName: dra.net\n"
            f"        selectors: [{{cel: {{expression: '{selector}'}}}}]\n")


def rdma_inventory() -> str:
    sample = SAMPLES / "inventories" / "gpu-rdma-pcie.yaml"
    return yaml.safe_dump_all(yaml.safe_load(sample.read_text())["objects"])


def test_the_reported_case_nics_without_ifname_are_explained_by_the_has_guard_alone():
    report = analyze(nic_claim(NIC_SELECTOR), rdma_inventory()).to_dict()
    assert report["allocation"]["status"] == "allocated"
    assert report["diagnostics"] == []  # no warning underlines the selector
    [request] = report["requests"]
    nics = [d for d in request["devices"] if d["reasonCode"] == "request-selector"]
    assert len(nics) == 4  # the EFA adapters publish no ifName
    for device in nics:
        [part] = device["why"]
        assert part["text"] == 'has(device.attributes["dra.net"].ifName)'
        assert (part["verdict"], part["error"], part["hint"]) == ("false", None, None)
        assert device["reason"] == ('request selector #0 is false: `has(device.attributes["dra.net"].ifName)` '
                                    "is false (ifName is missing)")
    every_part = [p for d in request["devices"] for p in d["why"] or []]
    assert not [p for p in every_part if p["verdict"] == "error" or p["hint"]]


def test_an_unpublished_name_under_a_guard_is_not_called_always_false_when_the_selector_matches():
    guarded_typo = '!has(device.attributes["dra.net"].ifname) || device.attributes["dra.net"].ifname == "ens5"'
    report = analyze(nic_claim(guarded_typo), rdma_inventory()).to_dict()
    assert report["allocation"]["status"] == "allocated"
    [warning] = report["diagnostics"]
    assert warning["detail"] == ("no device of class 'dra.net' publishes attribute dra.net/ifname; the selector "
                                 "is still true on 7 of them, where CEL finds the name missing")
    assert warning["hint"].startswith('did you mean "ifName"?')
    # guarded with && instead, the same typo is always false, and the warning says so
    report = analyze(nic_claim(guarded_typo.replace("!has", "has").replace("||", "&&")), rdma_inventory()).to_dict()
    assert report["allocation"]["status"] == "unsatisfiable"
    assert any(d["detail"].endswith("publishes attribute dra.net/ifname: this selector is always false or fails "
                                    "at runtime") for d in report["diagnostics"])


def test_parts_that_exceed_the_cost_limit_only_together_are_explained_as_the_whole():
    # each quantifier alone is within the runtime cost limit, both together are not: && does not absorb that
    expression = "lists.range(90000).all(i, i >= 0) && lists.range(90000).all(i, i >= 0) && 1 == 2"
    [part] = explained(expression, "error")
    assert part.text == expression and part.error == "operation cancelled: actual cost limit exceeded"
    # an operand that exceeds it alone aborts the evaluation: a false operand beside it does not absorb that
    expression = "lists.range(200000).all(i, i >= 0) && 1 == 2"
    [part] = explained(expression, "error")
    assert part.text == "lists.range(200000).all(i, i >= 0)"
    assert part.error == "operation cancelled: actual cost limit exceeded"
