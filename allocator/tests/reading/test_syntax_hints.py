"""Hints for the YAML slips PyYAML words only by where it gave up, each with the edit that applies it: a CEL
expression starting with a quote or a bracket, "expression:" in the column of "cel", "name:" in column 1
under "metadata:", a tab in the indentation (allocator.reading.syntaxhints, kube.decode, kube.text_fixes)."""

from __future__ import annotations

import pytest

from allocator.engine import analyze

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: c
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: {expression}
"""
INVENTORY = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
"""


def _apply(text: str, fix: dict) -> str:
    lines = text.split("\n")
    start, end = fix["start"], fix["end"]
    assert start["line"] == end["line"]
    line = lines[start["line"] - 1]
    lines[start["line"] - 1] = line[:start["column"] - 1] + fix["replacement"] + line[end["column"] - 1:]
    return "\n".join(lines)


def _only_error(text: str) -> dict:
    [error] = [d for d in analyze(text, INVENTORY).to_dict()["diagnostics"] if d["severity"] == "error"]
    return error


def _fixed(text: str, error: dict) -> str:
    [fix] = error["fixes"]
    fixed = _apply(text, fix)
    assert analyze(fixed, INVENTORY).valid, fixed
    return fixed


@pytest.mark.parametrize(("expression", "opener", "quoted"), [
    ("'gpu.example.com' == device.driver", "a quote", "\"'gpu.example.com' == device.driver\""),
    ('"gpu.example.com" == device.driver', "a quote", "\"\\\"gpu.example.com\\\" == device.driver\""),
    ("[1, 2].size() == 2", "a bracket", '"[1, 2].size() == 2"'),
])
def test_an_expression_starting_with_a_quote_or_a_bracket_gets_a_quoting_hint_and_its_edit(expression, opener, quoted):
    text = CLAIM.format(expression=expression)
    error = _only_error(text)
    assert "did not find expected key" in error["detail"]
    assert f'the value of "expression" starts with {opener}' in error["hint"]
    assert f"put the whole value in quotes: expression: {quoted}" in error["hint"]
    fixed = _fixed(text, error)
    assert f"expression: {quoted}\n" in fixed


def test_a_quoted_value_alone_or_followed_by_a_comment_gets_no_quoting_hint():
    text = CLAIM.format(expression="'a' # a comment\n          oops")
    error = _only_error(text)
    assert "starts with a quote" not in (error["hint"] or "")


def test_expression_in_the_column_of_cel_is_told_to_go_under_it():
    text = CLAIM.replace("            expression: {expression}", "          expression: device.driver == 'gpu.example.com'")
    error = _only_error(text)
    assert error["field"] == "spec.devices.requests[0].exactly.selectors[0].expression"
    assert error["hint"].startswith('"expression" belongs under "cel:": indent it two spaces more than "cel"')
    assert error["fixes"][0]["title"] == "Indent under cel:"
    assert "            expression: device.driver" in _fixed(text, error)


def test_name_in_column_1_under_metadata_is_told_to_go_under_it():
    text = CLAIM.replace("  name: c\n", "name: c\n").format(expression="device.driver == 'gpu.example.com'")
    error = _only_error(text)
    assert (error["field"], error["line"], error["column"]) == ("name", 4, 1)
    assert error["hint"].startswith('"name" is a field of metadata: indent it two spaces, under "metadata:"')
    assert error["fixes"][0]["title"] == "Indent under metadata:"
    _fixed(text, error)


def test_a_tab_in_the_indentation_is_named_and_replaced_with_spaces():
    text = CLAIM.replace("  name: c\n", "\tname: c\n").format(expression="device.driver == 'gpu.example.com'")
    error = _only_error(text)
    assert error["line"] == 4
    assert error["hint"].startswith("line 4 is indented with a tab: YAML indents with spaces only")
    assert error["fixes"][0]["title"] == "Replace the tab with spaces"
    assert "\n  name: c\n" in _fixed(text, error)
