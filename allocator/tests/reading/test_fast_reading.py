"""The fast reader (allocator.plainyaml, positions found later) and the positioned reader answer alike.

Every diagnostic must carry the same text, line and column whichever reader
read the text, on a corpus of good and bad documents: the test data (with the
driver examples in ``data/examples``) and mutations of them (wrong values, unknown
fields, broken CEL, syntax errors), as YAML, as kubectl-style Lists and as JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from allocator.kube import objects
from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.limits import Limits
from allocator.reading.plainyaml import read_plain
from allocator.releases.gates import make_gates
from allocator.synthetic import cluster_json, cluster_yaml
from allocator.tests.helpers import DATA, example_files, read_uncached
from allocator.validation import validate_documents


def _corpus_files() -> list[Path]:
    """Test data and examples; a synthetic cluster stands for a kubectl dump."""
    return sorted(DATA.glob("*.yaml")) + example_files()[:80]


MUTATIONS = [
    ("count", lambda t: re.sub(r"count: \d+", "count: -3", t, count=1)),
    ("count type", lambda t: re.sub(r"count: \d+", "count: many", t, count=1)),
    ("unknown field", lambda t: re.sub(r"(\n( *)name: ([^\n]+))", r"\1\n\2nmae: x", t, count=1)),
    ("bad name", lambda t: re.sub(r"(\n *name: )([a-z0-9][^\n]*)", r"\1Bad_Name", t, count=1)),
    ("broken CEL", lambda t: re.sub(r"expression: [^\n]+", "expression: device.driver ==", t, count=1)),
    ("CEL type", lambda t: re.sub(r"expression: [^\n]+", "expression: device.driver + 1 == 2", t, count=1)),
    ("syntax", lambda t: t.replace(":", " :: [", 1)),
    ("duplicate key", lambda t: re.sub(r"(\n( *)kind: ([^\n]+))", r"\1\n\2kind: \3", t, count=1)),
    ("JSON duplicate key", lambda t: re.sub(r'(\n( *)"kind": ([^\n]+,))', r'\1\n\2"kind": \3', t, count=1)),
    ("JSON duplicate name", lambda t: re.sub(r'(\n( *)"name": ([^\n]+,))', r'\1\n\2"name": "other",', t, count=1)),
    ("attribute", lambda t: re.sub(r"(\n *)int: \d+", r"\1int: 1.5", t, count=1)),
]


def _variants(text: str) -> list[tuple[str, str]]:
    out = [("as is", text)]
    try:
        docs = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError:
        docs = []
    if docs and all(isinstance(d, dict) for d in docs):
        listed = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}, sort_keys=True)
        out.append(("List", listed))
        out.append(("JSON", json.dumps({"apiVersion": "v1", "kind": "List", "items": docs}, indent=2)))
    for base_name, base in list(out):
        for name, mutate in MUTATIONS:
            changed = mutate(base)
            if changed != base:
                out.append((f"{base_name}, {name}", changed))
    return out


def _answer(text: str, fast: bool):
    try:
        result = read_uncached(text, fast)
    except DiagnosticError as err:
        return "unreadable", [d.to_dict() for d in err.diagnostics]
    diagnostics = validate_documents(result, make_gates(), text)
    return ([(d.kind, d.name, d.index, d.line, d.column) for d in result.documents],
            [d.to_dict() for d in diagnostics], result.ignored)


SOURCES = [(path.name, path.read_text()) for path in _corpus_files()]
SOURCES += [("synthetic cluster", cluster_yaml(2)), ("synthetic cluster JSON", cluster_json(2))]
CASES = [(f"{source}: {name}", text) for source, content in SOURCES for name, text in _variants(content)]


def test_the_corpus_is_large_and_mostly_read_fast():
    assert len(CASES) > 100
    fast = sum(read_plain(text) is not None for _, text in CASES)
    assert fast > len(CASES) // 2


@pytest.mark.parametrize("text", [t for _, t in CASES], ids=[n for n, _ in CASES])
def test_both_readers_give_identical_objects_and_diagnostics(text):
    assert _answer(text, fast=True) == _answer(text, fast=False)


def test_a_fast_read_object_is_read_again_alone_for_its_positions(monkeypatch):
    listed = re.sub(r"driver: [^\n]+", "driver: Bad_Driver!", cluster_yaml(3), count=1)
    whole_reads = []
    real = objects._read_positioned
    monkeypatch.setattr(objects, "_read_positioned", lambda *a: whole_reads.append(1) or real(*a))
    objects._cache.clear()
    result = objects.read_documents(listed)
    diagnostics = validate_documents(result, make_gates(), listed)
    bad = [d for d in diagnostics if d.severity == "error"]
    assert bad and {d.line for d in bad} == {listed[:listed.index("Bad_Driver!")].count("\n") + 1}
    assert whole_reads == []  # located by reading the one object again, not the whole text


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 2}',
    '{"items": [{"kind": "X", "spec": {"b": "x", "b": "y"}}]}',
    '{"a": {"b": "c", "d": ["e"]}, "a": "f"}',  # the dropped value held strings of its own
    '{"a": "say \\"hi\\"", "a": "x"}',  # escaped quotes are counted out
    '{"a\\\\": 1, "a\\\\": 2}',  # an escaped backslash: the hook sees the keys
    '{"a": "\\u0022", "a": "\\u0022"}',
])
def test_a_duplicate_json_key_is_left_to_the_positioned_reader(text):
    assert read_plain(text) is None


@pytest.mark.parametrize("text, data", [
    ('{"a": "say \\"hi\\"", "b": ["c", 1, {"d": null}]}', {"a": 'say "hi"', "b": ["c", 1, {"d": None}]}),
    ('{"a\\\\": "x\\\\"}', {"a\\": "x\\"}),
    ('{"a": "\\u0022:", "b": "\\u003a"}', {"a": '":', "b": ":"}),
    ('[]', []),
    ('{"a": {}, "b": []}', {"a": {}, "b": []}),
])
def test_json_without_duplicate_keys_is_read_fast(text, data):
    (document,) = read_plain(text)
    assert document.data == data


def test_a_kubectl_json_dump_is_parsed_without_the_duplicate_key_hook(monkeypatch):
    from allocator.reading import plainyaml

    text = cluster_json(3)
    expected = read_plain(text)[0].data
    monkeypatch.setattr(plainyaml, "_DECODER", None)  # any use of the hooked decoder fails
    assert read_plain(text)[0].data == expected == json.loads(text)


def test_limits_crossed_are_reported_by_the_positioned_reader():
    text = "items:\n" + "- a\n" * 50
    with pytest.raises(DiagnosticError) as info:
        objects.read_documents(text, limits=Limits(max_values=20))
    assert info.value.diagnostics[0].detail == "document too large: more than 20 values"


def test_an_object_that_cannot_be_decoded_is_located_alone_and_the_others_stay_fast(monkeypatch):
    listed = cluster_yaml(3).replace("    generation: 1\n", "    generation: 1\n    genration: 2\n", 2)
    whole_reads = []
    real = objects._read_positioned
    monkeypatch.setattr(objects, "_read_positioned", lambda *a: whole_reads.append(1) or real(*a))
    objects._cache.clear()
    result = objects.read_documents(listed)
    assert whole_reads == []
    lines = [i + 1 for i, line in enumerate(listed.split("\n")) if "genration" in line]
    assert [(e.field, e.line, e.column) for e in result.errors] == [
        ("metadata.genration", line, 5) for line in lines]
    assert len(result.documents) == 4 + 3 + 3 - 2  # classes, slices and nodes, less the two refused
    monkeypatch.setattr(objects, "FAST_READER", False)
    objects._cache.clear()
    assert [e.to_dict() for e in objects.read_documents(listed).errors] == [e.to_dict() for e in result.errors]
    objects._cache.clear()
