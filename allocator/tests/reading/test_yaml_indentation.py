"""YAML syntax errors that come from indentation name the key that is out of line (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from allocator.engine import analyze
from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.indentation import indentation_problem
from allocator.reading.yamlsource import load_yaml_stream

HEAD = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\nspec:\n  devices:\n    requests:\n"


def syntax_error(text: str):
    with pytest.raises(DiagnosticError) as caught:
        load_yaml_stream(text)
    [diag] = caught.value.diagnostics
    return diag


def test_a_key_between_two_columns_is_named_with_both():
    text = HEAD + "    - name: r\n      exactly:\n        deviceClassName: gpu\n       count: 2\n"
    diag = syntax_error(text)
    assert (diag.line, diag.column) == (11, 8)  # where PyYAML stopped, as before
    assert diag.detail.startswith("YAML syntax error: did not find expected key")
    assert ('the key "count" (line 11, column 8) lines up with no key above it: "deviceClassName" (line 10, '
            'column 9) and "exactly" (line 9, column 7) start in other columns') in diag.detail
    assert diag.hint.startswith('move "count" to column 9 to put it beside "deviceClassName", or to column 7')


def test_a_key_further_right_than_a_key_with_a_value_reads_as_that_value():
    text = HEAD + "    - name: r\n      exactly:\n        deviceClassName: gpu\n          count: 2\n"
    diag = syntax_error(text)
    assert diag.line == 11
    assert ('the key "count" (line 11, column 11) is indented further than "deviceClassName" (line 10, column 9), '
            'whose value is already on its line') in diag.detail
    assert diag.hint.startswith('move "count" to column 9, under "deviceClassName"')


def test_a_key_out_of_line_under_a_list_item():
    text = HEAD + "    - name: r\n      exactly:\n        deviceClassName: gpu\n     selectors: []\n"
    diag = syntax_error(text)
    assert '"selectors" (line 11, column 6) lines up with no key above it: "exactly" (line 9, column 7)' in diag.detail
    assert '"requests" (line 7, column 5)' in diag.detail


def test_the_top_level_case():
    diag = syntax_error("kind: X\n  spec: y\n")
    assert (diag.line, diag.column) == (2, 7)
    assert 'the key "spec" (line 2, column 3) is indented further than "kind" (line 1, column 1)' in diag.detail


def test_other_syntax_errors_are_left_as_they_were():
    # (A tab in the indentation has a hint of its own: test_syntax_hints.)
    for text in ("items: [1, 2\nkind: X\n", "a: 'unterminated\n"):
        diag = syntax_error(text)
        assert "lines up" not in diag.detail and "indented further" not in diag.detail and diag.hint is None


@pytest.mark.parametrize("text", [
    "a:\n  b: 1\n  c: 2\nd: 3\n",  # a nested mapping, then back out
    "a:\n- b: 1\n  c: 2\n- d: 3\n",  # list items at the parent's column
    "a:\n  - b: 1\n    c: 2\n",
    "a: |\n  text: not a key\nb: 1\n",
    "# a: comment\n   b: 1\n",
])
def test_well_aligned_keys_are_never_called_out(text):
    assert all(indentation_problem(text, line) is None for line in range(1, text.count("\n") + 2))


def test_no_sample_line_is_called_out():
    samples = Path(__file__).resolve().parents[3] / "playground" / "samples"
    for path in samples.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert all(indentation_problem(text, n) is None for n in range(1, text.count("\n") + 2)), path


def test_the_engine_reports_it_located_in_the_documents():
    text = HEAD + "    - name: r\n      exactly:\n        deviceClassName: gpu\n       count: 2\n"
    [diag] = analyze(text).to_dict()["diagnostics"]
    assert (diag["source"], diag["line"], diag["severity"]) == ("documents", 11, "error")
    assert 'the key "count" (line 11, column 8)' in diag["message"] and diag["hint"]


def test_a_key_whose_siblings_are_further_up_than_it_looks_is_not_called_out():
    # A list item after a long nested one: its sibling items start more lines up than the search reads.
    long_item = "- name: a\n  spec:\n    devices:\n" + "".join(f"    - name: d{i}\n      v: {i}\n" for i in range(400))
    text = "items:\n" + long_item + "- name: b\n"
    assert indentation_problem(text, text.count("\n")) is None


@pytest.mark.parametrize("value", [
    "'it''s quoted: and goes on",
    '"a \\" quote: and it goes on',
])
def test_a_line_inside_a_quoted_value_that_goes_on_is_not_a_key(value):
    # The colon on line 2 is text of the quoted scalar that line 1 opens: the text is valid YAML.
    text = f"note: {value}\n  with more: of the same text{value[0]}\nnext: 1\n"
    assert len(load_yaml_stream(text)) == 1
    assert indentation_problem(text, 2) is None


@pytest.mark.parametrize("value", ["'closed' ", '"closed \\" still"', "'it''s closed'"])
def test_a_quoted_value_closed_on_its_line_still_gets_the_hint(value):
    text = f"note: {value}\n  more: 1\n"
    problem = indentation_problem(text, 2)
    assert problem is not None and 'reads "more:" as more of that value' in problem[0]
