"""Quick fixes: each hint with a mechanical edit carries it (``Diagnostic.fixes``); applying the edit to the
text and analyzing again removes that hint and leaves a document that reads and validates."""

from __future__ import annotations

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.fixes import INVENTORY, apply, claim


def fixed(documents: str, title: str) -> tuple[dict, str]:
    """The first fix titled ``title`` of the report on ``documents``, and the documents with it applied."""
    report = analyze(documents, INVENTORY).to_dict()
    found = [(d, f) for d in report["diagnostics"] for f in d["fixes"] if f["title"] == title]
    assert found, [(d["message"], d["hint"], d["fixes"]) for d in report["diagnostics"]]
    diagnostic, fix = found[0]
    assert fix["document"] == "documents"
    return diagnostic, apply(documents, fix)


def after(documents: str) -> list[dict]:
    report = analyze(documents, INVENTORY).to_dict()
    assert report["valid"], [d["message"] for d in report["diagnostics"]]
    return report["diagnostics"]


STYLES = ["plain", "double", "single", "block"]
CASES = [
    # (expression, the fix's title, what the expression reads after the fix)
    ("device.attributes['dra.example.com'].productNme == 'a100'", "Use productName",
     "device.attributes['dra.example.com'].productName == 'a100'"),
    ("device.attributes['dra.exmaple.com'].productName == 'a100'", "Use dra.example.com",
     "device.attributes['dra.example.com'].productName == 'a100'"),
    ("device.capacity['dra.example.com'].memroy.isGreaterThan(quantity('1Gi'))", "Use memory",
     "device.capacity['dra.example.com'].memory.isGreaterThan(quantity('1Gi'))"),
    ("device.attributes['dra.example.com'].productName == 'a100'",
     "Guard with has(device.attributes['dra.example.com'].productName)",
     "has(device.attributes['dra.example.com'].productName) && "
     "device.attributes['dra.example.com'].productName == 'a100'"),
    ("device.attributes['dra.example.com'].driverVersion == '1.2.3'", "Wrap in semver()",
     "device.attributes['dra.example.com'].driverVersion == semver(\"1.2.3\")"),
    ("device.capacity['dra.example.com'].memory >= quantity('40Gi')", "Use compareTo",
     "device.capacity['dra.example.com'].memory.compareTo(quantity('40Gi')) >= 0"),
    ("device.capacity['dra.example.com'].memory < '40Gi'", "Use compareTo",
     "device.capacity['dra.example.com'].memory.compareTo(quantity('40Gi')) < 0"),
    ("device.attributes['dra.example.com'].driverVersion >= semver('1.0.0')", "Use compareTo",
     "device.attributes['dra.example.com'].driverVersion.compareTo(semver('1.0.0')) >= 0"),
    ("device.attributes['dra.example.com'].driverVersion > '1.0.0'", "Use compareTo",
     "device.attributes['dra.example.com'].driverVersion.compareTo(semver('1.0.0')) > 0"),
    ("'1.0.0' < device.attributes['dra.example.com'].driverVersion", "Use compareTo",
     "semver('1.0.0').compareTo(device.attributes['dra.example.com'].driverVersion) < 0"),
    ("semver('1.0.0') <= device.attributes['dra.example.com'].driverVersion", "Use compareTo",
     "semver('1.0.0').compareTo(device.attributes['dra.example.com'].driverVersion) <= 0"),
]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("expression", "title", "expected"), CASES, ids=[c[1] for c in CASES])
def test_applying_a_fix_removes_its_hint(expression, title, expected, style):
    if style == "plain" and expression[0] in "'\"":
        pytest.skip("a plain scalar cannot start with a quote")
    documents = claim(expression, style)
    diagnostic, text = fixed(documents, title)
    assert text == claim(expected, style)
    remaining = after(text)
    assert not [d for d in remaining if d["hint"] == diagnostic["hint"]]
    assert not [f for d in remaining for f in d["fixes"] if f["title"] == title]


def test_a_guard_inside_logic_goes_around_the_comparison_only():
    expression = "device.driver == 'dra.example.com' && device.attributes['dra.example.com'].productName == 'a100'"
    _, text = fixed(claim(expression), "Guard with has(device.attributes['dra.example.com'].productName)")
    assert text == claim("device.driver == 'dra.example.com' && (has(device.attributes['dra.example.com']"
                         ".productName) && device.attributes['dra.example.com'].productName == 'a100')")
    after(text)


def test_no_fix_without_a_mechanical_edit():
    # A name nobody publishes and nothing near it: the hint lists the names, no edit is guessed.
    report = analyze(claim("device.attributes['dra.example.com'].zzz == 'a'"), INVENTORY).to_dict()
    assert report["diagnostics"] and all(d["fixes"] == [] for d in report["diagnostics"])


V1BETA1_SHAPE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: claim
  namespace: default
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu
      count: 1
      selectors:
      - cel:
          expression: device.driver == "dra.example.com"
    - deviceClassName: gpu

      name: second
"""

IN_EXACTLY = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: claim
  namespace: default
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        count: 1
        selectors:
        - cel:
            expression: device.driver == "dra.example.com"
    - name: second
      exactly:
        deviceClassName: gpu
"""


def test_a_v1beta1_shaped_request_moves_under_exactly():
    text = V1BETA1_SHAPE
    for _ in range(2):  # one edit a request; every moved field's error carries its request's edit
        report = analyze(text, INVENTORY).to_dict()
        fixes = [f for d in report["diagnostics"] for f in d["fixes"]]
        assert fixes and {f["title"] for f in fixes} == {"Move under exactly:"}
        text = apply(text, fixes[0])
    assert text == IN_EXACTLY
    after(text)


def test_a_flow_style_request_gets_no_edit():
    text = V1BETA1_SHAPE.replace("    - deviceClassName: gpu\n\n      name: second\n",
                                 "    - {name: second, deviceClassName: gpu}\n")
    report = analyze(text, INVENTORY).to_dict()
    by_field = {d["field"]: d["fixes"] for d in report["diagnostics"]}
    assert by_field["spec.devices.requests[1].deviceClassName"] == []
    assert by_field["spec.devices.requests[0].count"]


@pytest.mark.parametrize("quote", ["", '"', "'"])
def test_a_class_name_typo(quote):
    text = claim("device.driver == 'dra.example.com'").replace("deviceClassName: gpu",
                                                               f"deviceClassName: {quote}gup{quote}")
    diagnostic, fixed_text = fixed(text, "Use gpu")
    assert diagnostic["hint"].startswith('did you mean "gpu"?')
    assert fixed_text == claim("device.driver == 'dra.example.com'").replace(
        "deviceClassName: gpu", f"deviceClassName: {quote}gpu{quote}")
    assert after(fixed_text) == []


def test_a_match_attribute_typo():
    text = claim("device.driver == 'dra.example.com'") + (
        "    constraints:\n    - matchAttribute: dra.example.com/driverVersoin\n")
    diagnostic, fixed_text = fixed(text, "Use dra.example.com/driverVersion")
    assert "matchAttribute: dra.example.com/driverVersion\n" in fixed_text
    assert after(fixed_text) == []


def why_fixes(documents: str) -> list[tuple[dict, dict]]:
    report = analyze(documents, INVENTORY).to_dict()
    return [(part, fix) for req in report["requests"] for device in req["devices"] for part in device["why"] or []
            for fix in part["fixes"]]


@pytest.mark.parametrize(("expression", "title", "expected"), [
    ("device.attributes['dra.example.com'].productNme == 'a100'", "Use productName",
     "device.attributes['dra.example.com'].productName == 'a100'"),
    ('device.attributes["dra.exmaple.com"].productName == "a100"', "Use dra.example.com",
     'device.attributes["dra.example.com"].productName == "a100"'),
    ("device.attributes['dra.example.com'].productName == 'a100'",
     "Guard with has(device.attributes['dra.example.com'].productName)",
     "has(device.attributes['dra.example.com'].productName) && "
     "device.attributes['dra.example.com'].productName == 'a100'"),
])
@pytest.mark.parametrize("style", ["plain", "double", "block"])
def test_the_explanations_carry_the_fixes_too(expression, title, expected, style):
    documents = claim(expression, style)
    found = [fix for _, fix in why_fixes(documents) if fix["title"] == title]
    assert found
    assert {f["document"] for f in found} == {"documents"}
    assert apply(documents, found[0]) == claim(expected, style)
    assert not [f for _, f in why_fixes(apply(documents, found[0])) if f["title"] == title]


def test_every_part_of_an_explanation_has_a_fixes_list():
    report = analyze(claim("device.attributes['dra.example.com'].driverVersion == semver('9.9.9')"), INVENTORY).to_dict()
    parts = [p for req in report["requests"] for d in req["devices"] for p in d["why"] or []]
    assert parts and all(p["fixes"] == [] for p in parts)


@pytest.mark.parametrize(("typo", "name"), [("cuont", "count"), ("deviceclassName", "deviceClassName"),
                                            ("selector", "selectors")])
def test_a_misspelt_field_takes_the_name_the_message_proposes(typo, name):
    text = claim("device.driver == 'dra.example.com'").replace("        deviceClassName: gpu\n",
                                                               "        deviceClassName: gpu\n        count: 1\n")
    wrong = text.replace(f"        {name}:", f"        {typo}:")
    assert wrong != text
    _, fixed_text = fixed(wrong, f"Use {name}")
    assert fixed_text == text
    assert after(fixed_text) == []


def test_a_quoted_misspelt_field_gets_no_edit():
    text = claim("device.driver == 'dra.example.com'").replace("        deviceClassName: gpu\n",
                                                               "        deviceClassName: gpu\n        \"cuont\": 1\n")
    report = analyze(text, INVENTORY).to_dict()
    assert report["diagnostics"] and all(d["fixes"] == [] for d in report["diagnostics"])


def test_a_fix_in_a_device_class_is_an_edit_of_the_inventory():
    inventory = INVENTORY.replace("spec: {}", "spec:\n  selectors:\n  - cel:\n      expression: "
                                  "device.capacity['dra.example.com'].memory >= quantity('1Gi')", 1)
    report = analyze(claim("device.driver == 'dra.example.com'"), inventory).to_dict()
    [fix] = [f for d in report["diagnostics"] for f in d["fixes"]]
    assert fix["document"] == "inventory" and fix["title"] == "Use compareTo"
    fixed_inventory = apply(inventory, fix)
    assert "memory.compareTo(quantity('1Gi')) >= 0\n" in fixed_inventory
    assert analyze(claim("device.driver == 'dra.example.com'"), fixed_inventory).to_dict()["diagnostics"] == []
