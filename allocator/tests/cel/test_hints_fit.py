"""Hints that fit the mistake (issue 24): never advice the expression already follows, a typo's
did-you-mean before has(), and the hints for a version compared with a string, a v1beta1-shaped request
under v1 and a matchAttribute/distinctAttribute name no device publishes."""

from __future__ import annotations

import difflib
import json
import re

import pytest
import yaml

from allocator.cel import guards
from allocator.cel.hints import close_name, missing_key_hint, typo_first
from allocator.engine import analyze
from allocator.kube.decode import EXACTLY_FIELDS
from allocator.tests.helpers import SAMPLES
from allocator.tests.helpers.samples import inventory_text, sample

NV = 'device.attributes["gpu.nvidia.com"]'
NET = 'device.attributes["dra.net"]'
NODE = "ip-192-168-153-160.ec2.internal"


def claim(expression: str, device_class: str = "gpu.nvidia.com") -> str:
    return f"""apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: c
spec:
  devices:
    requests:
    - name: r
      exactly:
        deviceClassName: {device_class}
        selectors:
        - cel:
            expression: {json.dumps(expression)}
"""


def run(expression: str, device_class: str = "gpu.nvidia.com", slug: str = "gpu-rdma-pcie") -> dict:
    return analyze(claim(expression, device_class), inventory_text(slug), node=NODE).to_dict()


def why_hints(report: dict, code: str | None = None) -> list[str]:
    """The hints of the explanation's parts, in the order of the devices (only ``code`` reasons if given)."""
    return [p["hint"] for req in report["requests"] for d in req["devices"]
            if code is None or d["reasonCode"] == code for p in d["why"] or [] if p.get("hint")]


def all_hints(report: dict) -> list[str]:
    return [d["hint"] for d in report["diagnostics"] if d.get("hint")] + why_hints(report)


def assert_not_already_followed(expression: str, hints: list[str]) -> None:
    """No hint gives advice the expression already follows (issue 24, item 5)."""
    found = guards.analyze(expression)
    written = {r.name for r in found.reads} | {r.domain[1] for r in found.reads if r.domain} if found else set()
    for hint in hints:
        for proposed in re.findall(r'did you mean "([^"]+)"', hint):
            # it corrects a name written in the expression, and is not that name
            assert any(w != proposed and difflib.SequenceMatcher(None, w, proposed).ratio() >= 0.6
                       for w in written), (hint, expression)
        guarded = re.search(r'publish "([^"]+)" and others do not', hint)
        if guarded:
            assert guards.guard_state(expression, guarded.group(1)) != guards.GUARDED, (hint, expression)
        if "compare versions" in hint:
            assert guards.string_comparisons(expression), (hint, expression)
        if "guard optional attributes with has" in hint:
            assert not guards.analyze(expression).presence, (hint, expression)


# --------------------------------------------------------------------------- a typo gets the right fix first


def test_a_typo_gets_did_you_mean_first_in_the_summary_and_no_has_advice():
    expression = f'{NV}.productname == "NVIDIA A100-SXM4-40GB"'
    report = run(expression)
    assert report["allocation"]["status"] == "error"
    failing = why_hints(report, "cel-error")
    assert failing and failing[0].startswith('did you mean "productName"?')
    assert not any("has(" in h for h in all_hints(report))
    assert_not_already_followed(expression, all_hints(report))


def test_a_typo_under_a_has_that_does_not_guard_it_is_still_a_typo_first():
    assert missing_key_hint("productname", ["productName"], guards.MISPLACED).startswith('did you mean "productName"?')
    assert "does not guard this read" in missing_key_hint("ifName", ["ifName"], guards.MISPLACED)
    assert missing_key_hint("productname", ["productName"], guards.GUARDED) is None  # never fails: nothing to fix


def test_typo_first_orders_did_you_mean_before_other_advice():
    guard = missing_key_hint("ifName", ["ifName"])
    typo = missing_key_hint("productname", ["productName"])
    assert typo_first([guard, typo, guard]) == [typo, guard]


# --------------------------------------------------------------------------- never advice already followed


def test_no_did_you_mean_for_a_name_that_exists():
    example = sample("examples", "selector-missing-attribute")
    report = analyze(example["documents"], inventory_text(example["inventory"]), node=example["node"]).to_dict()
    hints = all_hints(report)
    assert hints and not any('did you mean "ifName"' in h for h in hints)
    assert any('some devices here publish "ifName"' in h for h in hints)
    assert close_name("ifName", ["ifName", "mtu"]) is None


def test_no_has_hint_for_a_read_under_a_has_guard():
    expression = f'has({NET}.ifName) && {NET}.ifName.startsWith("ens")'
    report = run(expression, "dra.net")
    assert report["allocation"]["status"] == "allocated"
    assert not any("has(" in h for h in why_hints(report))
    assert_not_already_followed(expression, all_hints(report))


def test_a_has_that_does_not_guard_the_read_is_named_as_such():
    expression = f'has({NET}.ifName) || {NET}.ifName.startsWith("ens")'
    report = run(expression, "dra.net")
    hints = all_hints(report)
    assert any("does not guard this read" in h for h in hints), hints


@pytest.mark.parametrize("expression, state", [
    ('has(x.a) && x.a == 1', guards.GUARDED),
    ('x.a == 1 && has(x.a)', guards.GUARDED),  # && is commutative for errors in CEL
    ('"a" in x && x["a"] == 1', guards.GUARDED),
    ('!has(x.a) || x.a == 1', guards.GUARDED),
    ('has(x.a) ? x.a == 1 : false', guards.GUARDED),
    ('!has(x.a) ? false : x.a == 1', guards.GUARDED),
    ('has(x.b) && has(x.a) ? x.a == 1 : false', guards.GUARDED),
    (f'cel.bind(n, {NET}, has(n.a) && {NET}.a == 1)', guards.GUARDED),
    (f"has({NET}.a) && device.attributes['dra.net'].a == 1", guards.GUARDED),
    ('has(x.a) || x.a == 1', guards.MISPLACED),
    ('has(x.a) ? false : x.a == 1', guards.MISPLACED),
    ('has(x.a) && x.a == 1 || x.a == 2', guards.MISPLACED),
    ('has(y.a) && x.a == 1', guards.MISPLACED),
    ('x.a == 1', None),
    ('x.?a.orValue(0) == 1', None),  # an optional read never fails
])
def test_guard_state_follows_cel_evaluation(expression, state):
    assert guards.guard_state(expression, "a") == state


# --------------------------------------------------------------------------- a version compared with a string


@pytest.mark.parametrize("expression, outcome", [
    (f'"8.0.0" == {NV}.cudaComputeCapability', "unsatisfiable"),
    (f'{NV}.driverVersion == "1.2.3"', "error"),
    (f'"8.0" != {NV}.cudaComputeCapability && {NV}.productName != ""', "allocated"),
    (f'{NV}.driverVersion != "1.2.3"', "allocated"),
])
def test_a_version_compared_with_a_string_gets_a_semver_hint(expression, outcome):
    report = run(expression)
    assert report["allocation"]["status"] == outcome
    warned = [d for d in report["diagnostics"] if d.get("hint") and "compare versions" in d["hint"]]
    assert warned, report["diagnostics"]
    assert "semver(" in warned[0]["hint"]
    # what the hint says CEL makes of it is what the evaluator gives
    said = {"unsatisfiable": "is always false", "error": "fails at runtime", "allocated": "is always true"}
    assert said[outcome] in warned[0]["hint"]
    if outcome != "allocated":
        assert any("compare versions" in h for h in why_hints(report))
    assert_not_already_followed(expression, all_hints(report))


def test_the_silently_false_comparison_is_warned_at_the_comparison():
    expression = f'{NV}.productName != "" && "8.0.0" == {NV}.cudaComputeCapability'
    report = run(expression)
    [warning] = [d for d in report["diagnostics"] if "compares a string with a version" in d["message"]]
    assert "is false on every device" in warning["message"]
    written = claim(expression).split("\n")[12]  # the YAML line, the expression double-quoted with escapes
    assert (warning["line"], warning["column"]) == (13, written.index('\\"8.0.0\\"') + 2)
    assert 'cudaComputeCapability == semver("8.0.0")' in warning["hint"]


def test_no_version_hint_where_versions_are_compared_already():
    for expression in (f'semver("8.0.0") == {NV}.cudaComputeCapability',
                       f'{NV}.driverVersion.compareTo(semver("500.0.0")) > 0', f'{NV}.productName == "x"'):
        report = run(expression)
        assert not any("compare versions" in h for h in all_hints(report)), expression


# --------------------------------------------------------------------------- v1beta1 request shape under v1


@pytest.mark.parametrize("field, value", [
    ("deviceClassName", "gpu.nvidia.com"), ("selectors", "[]"), ("allocationMode", "ExactCount"), ("count", "1"),
    ("adminAccess", "false"), ("tolerations", "[]"), ("capacity", "{requests: {}}"),
])
def test_a_v1beta1_request_field_under_v1_says_it_goes_under_exactly(field, value):
    docs = claim("true").replace("      exactly:\n", f"      {field}: {value}\n      exactly:\n")
    report = analyze(docs, inventory_text("gpu-rdma-pcie")).to_dict()
    [diag] = [d for d in report["diagnostics"] if d["field"] == f"spec.devices.requests[0].{field}"]
    assert diag["message"].endswith(f'unknown field "spec.devices.requests[0].{field}"')  # the upstream text stays
    assert f"spec.devices.requests[0].exactly.{field}" in diag["hint"] and diag["line"] == 9
    assert set(EXACTLY_FIELDS) == {"deviceClassName", "selectors", "allocationMode", "count", "adminAccess",
                                   "tolerations", "capacity"}


def test_the_exactly_hint_is_not_given_for_other_unknown_fields_or_under_exactly():
    docs = claim("true").replace("      exactly:\n", "      colour: red\n      exactly:\n        tolerations: []\n")
    report = analyze(docs, inventory_text("gpu-rdma-pcie")).to_dict()
    assert [d["hint"] for d in report["diagnostics"] if d["severity"] == "error"] == [None]


# --------------------------------------------------------------------------- matchAttribute / distinctAttribute


def constrained(attribute: str, kind: str = "matchAttribute") -> str:
    example = sample("examples", "pcie-root-alignment")
    docs = example["documents"]
    assert "matchAttribute: resource.kubernetes.io/pcieRoot" in docs
    return docs.replace("matchAttribute: resource.kubernetes.io/pcieRoot", f"{kind}: {attribute}")


@pytest.mark.parametrize("kind", ["matchAttribute", "distinctAttribute"])
def test_a_constraint_attribute_no_device_publishes_is_warned_with_did_you_mean(kind):
    docs = constrained("resource.kubernetes.io/pcieroot", kind)
    report = analyze(docs, inventory_text("gpu-rdma-pcie"), node=NODE).to_dict()
    [warning] = [d for d in report["diagnostics"] if d["field"] == f"spec.devices.constraints[0].{kind}"]
    assert warning["severity"] == "warning"
    line = docs.split("\n").index(f"      {kind}: resource.kubernetes.io/pcieroot") + 1
    assert (warning["line"], warning["column"]) == (line, 9 + len(kind))
    assert warning["hint"].startswith('did you mean "resource.kubernetes.io/pcieRoot"?')


def test_a_published_constraint_attribute_is_not_warned():
    for kind in ("matchAttribute", "distinctAttribute"):
        report = analyze(constrained("resource.kubernetes.io/pcieRoot", kind), inventory_text("gpu-rdma-pcie")).to_dict()
        assert not any(".constraints[" in d["field"] for d in report["diagnostics"]), kind


def test_an_unknown_constraint_domain_names_the_domains_here():
    report = analyze(constrained("resource.kubernetes.com/pcieRoot"), inventory_text("gpu-rdma-pcie")).to_dict()
    [warning] = [d for d in report["diagnostics"] if ".constraints[0]" in d["field"]]
    assert 'did you mean "resource.kubernetes.io/pcieRoot"?' in warning["hint"]


# --------------------------------------------------------------------------- no hint already followed, on examples


def _gallery():
    return [pytest.param(yaml.safe_load(path.read_text()), id=path.stem)
            for path in sorted((SAMPLES / "examples").glob("*.yaml"))]


@pytest.mark.parametrize("example", _gallery())
def test_no_hint_of_the_gallery_is_already_followed(example):
    report = analyze(example["documents"], inventory_text(example["inventory"]), node=example.get("node"),
                     feature_gates=example.get("featureGates") or None,
                     kubernetes_version=example.get("kubernetesVersion") or "1.37").to_dict()
    expressions = re.findall(r"expression:\s*(.+)", example["documents"])
    for hint in all_hints(report):
        for proposed in re.findall(r'did you mean "([^"]+)"', hint):
            assert not any(re.search(rf"\b{re.escape(proposed.rpartition('/')[2])}\b", e) for e in expressions), hint


ADDED = [
    f'{NV}.productname == "NVIDIA A100-SXM4-40GB"',
    f'{NV}.productName == "x" || {NV}.productname == "y"',
    f'{NET}.ifName.startsWith("ens")',
    f'has({NET}.ifName) && {NET}.ifName.startsWith("ens")',
    f'{NET}.ifName.startsWith("ens") && has({NET}.ifName)',
    f'has({NET}.ifName) ? {NET}.ifName.startsWith("ens") : false',
    f'has({NET}.ifName) || {NET}.ifName.startsWith("ens")',
    f'"8.0.0" == {NV}.cudaComputeCapability',
    f'{NV}.driverVersion == "1.2.3"',
    f'semver("8.0.0") == {NV}.cudaComputeCapability',
    'device.attributes["gpu.nvida.com"].productName == "x"',
]


@pytest.mark.parametrize("expression", ADDED)
@pytest.mark.parametrize("device_class", ["gpu.nvidia.com", "dra.net"])
def test_no_hint_is_already_followed_by_the_expression(expression, device_class):
    report = run(expression, device_class)
    assert_not_already_followed(expression, all_hints(report))


@pytest.mark.parametrize("operator", ["==", "!="])
@pytest.mark.parametrize("literal_first", [True, False])
def test_the_version_hint_says_what_the_evaluator_gives(operator, literal_first):
    from allocator.cel import CELRuntimeError, build_device, compile_selector
    from allocator.cel.hints import version_string_outcome
    from allocator.kube.model import DeviceAttribute

    device = build_device("x.example.com", {"v": DeviceAttribute(version="1.2.3")}, {})
    read = 'device.attributes["x.example.com"].v'
    expression = f'"1.2.3" {operator} {read}' if literal_first else f'{read} {operator} "1.2.3"'
    try:
        value = compile_selector(expression, estimate_cost=False).evaluate_device(device)
    except CELRuntimeError as err:
        value = str(err)
    if isinstance(value, bool):
        expected = "always true" if value else "always false"
    else:
        assert "no such overload" in value
        expected = "no such overload"
    assert expected in version_string_outcome(operator, literal_first), (expression, value)
