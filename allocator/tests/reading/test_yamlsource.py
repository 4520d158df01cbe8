"""The positioned YAML/JSON reader (allocator.yamlsource): positions, and failing safely on bad input."""

import time

import pytest

from allocator.reading.diagnostics import PARSE, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits, cli_advice
from allocator.reading.yamlsource import PosDict, PosList, load_yaml_stream, position_in

MAX_DEPTH = DEFAULT.max_depth
# The site's default bounds (playground.limits.engine_limits()): the engine's fixed caps before limits were the caller's.
MAX_NODES = 200_000
SITE = Limits(max_input_bytes=16 * 1024 * 1024, max_values=MAX_NODES, max_depth=64, max_alias_values=MAX_NODES)

# Not a speed target (those live in bench/): a guard against hangs and
# unbounded expansion, generous enough for a loaded CI machine.
HANG_GUARD = 30.0


def fails(text: str, limits: Limits = DEFAULT) -> tuple[int, int, str]:
    """Read text that must fail quickly with exactly one located diagnostic."""
    start = time.monotonic()
    with pytest.raises(DiagnosticError) as info:
        load_yaml_stream(text, limits=limits)
    assert time.monotonic() - start < HANG_GUARD
    (diag,) = info.value.diagnostics
    assert diag.type == PARSE and diag.field == ""
    assert diag.line is not None and diag.column is not None
    return diag.line, diag.column, diag.detail


# --------------------------------------------------------------------------- positions


def test_positions_of_mappings_keys_values_and_items():
    (doc,) = load_yaml_stream("kind: X\nspec:\n  items:\n  - a\n  -   b\n  name:  n\n")
    data = doc.data
    assert isinstance(data, PosDict) and doc.pos == (1, 1)
    assert data.key_pos["spec"] == (2, 1) and data.value_pos["spec"] == (3, 3)
    items = data["spec"]["items"]
    assert isinstance(items, PosList) and items == ["a", "b"]
    assert items.item_pos == [(4, 5), (5, 7)]
    assert data["spec"].key_pos["name"] == (6, 3) and data["spec"].value_pos["name"] == (6, 10)
    assert position_in(data["spec"], "name") == (6, 10)
    assert position_in(items, 1) == (5, 7) and position_in(items, 7) == items.pos
    assert position_in({"plain": 1}, "plain") is None


def test_multi_document_positions_and_empty_documents():
    docs = load_yaml_stream("---\na: 1\n---\n# nothing\n---\n\n---\nb: [1, 2]\n...\n")
    assert [(d.data, d.index, d.pos) for d in docs] == [({"a": 1}, 0, (2, 1)), ({"b": [1, 2]}, 3, (8, 1))]


def test_json_positions():
    (doc,) = load_yaml_stream('{\n  "kind": "X",\n  "spec": {"n": [1, {"a": true}]}\n}')
    assert doc.data == {"kind": "X", "spec": {"n": [1, {"a": True}]}}
    assert doc.data.value_pos["kind"] == (2, 11)
    assert doc.data["spec"]["n"].item_pos == [(3, 18), (3, 21)]


def test_scalars_read_like_kubernetes():
    (doc,) = load_yaml_stream(
        "t: 2025-01-21T18:49:28Z\nd: 2025-01-21\nq: 80Gi\nn: 10\nf: 1.5\nb: true\nz: ~\ns: '10'\n")
    # No datetime objects: timestamps stay strings, as in Kubernetes.
    assert doc.data == {"t": "2025-01-21T18:49:28Z", "d": "2025-01-21", "q": "80Gi", "n": 10, "f": 1.5,
                        "b": True, "z": None, "s": "10"}


def test_merge_keys_are_expanded():
    (doc,) = load_yaml_stream("base: &b {driver: d, count: 1}\nreq:\n  <<: *b\n  name: r\n")
    assert doc.data["req"] == {"driver": "d", "count": 1, "name": "r"}


def test_non_string_keys_become_strings():
    (doc,) = load_yaml_stream("1: a\ntrue: b\n1.5: c\n")
    assert doc.data == {"1": "a", "true": "b", "1.5": "c"}


# --------------------------------------------------------------------------- syntax errors


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("kind: X\n  spec: y\n", 2, 7, "mapping values are not allowed"),
        ("kind: X\nspec:\n\tname: y\n", 3, 1, "cannot start any token"),
        ("items: [1, 2\nkind: X\n", 2, 5, "did not find expected ',' or ']'"),
        ('{"kind": "X",, "spec": {}}', 1, 14, "did not find expected node content"),
        ('{"kind": "X"', 1, 13, "did not find expected ',' or '}'"),
        ("a: 'unterminated\n", 2, 1, "found unexpected end of stream"),
        ("a: *nowhere\n", 1, 4, "found undefined alias"),
        ("a: !!python/object:os.system ls\n", 1, 4, "could not determine a constructor"),
        ("%YAML 2.0\n---\na: 1\n", 1, 1, "incompatible YAML document"),
    ],
)
def test_syntax_errors_are_located(text, line, column, words):
    got_line, got_column, detail = fails(text)
    assert (got_line, got_column) == (line, column)
    assert detail.startswith("YAML syntax error") and words in detail


def test_duplicate_keys_are_errors():
    assert fails("kind: X\nspec: {}\nkind: Y\n") == (3, 1, 'duplicate field "kind"')
    assert fails("spec:\n  name: a\n  count: 1\n  name: b\n") == (4, 3, 'duplicate field "name"')
    # A merge key does not hide a duplicate either.
    assert fails("b: &b {a: 1}\nc:\n  <<: *b\n  a: 2\n")[:2] == (4, 3)


def test_keys_must_be_scalars():
    assert fails("? [a, b]\n: c\n") == (1, 3, "mapping keys must be strings")
    assert fails("~: 1\n") == (1, 1, "mapping keys must be strings")


def test_unreadable_scalars_are_located():
    line, column, detail = fails("a: 1\nb: !!int abc\n")
    assert (line, column) == (2, 4) and detail.startswith("cannot read value 'abc'")
    line, column, detail = fails("n: " + "9" * 5000 + "\n")
    assert (line, column) == (1, 4) and "cannot read value" in detail


# --------------------------------------------------------------------------- hostile input


ALIAS_BOMB = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]) + "\n"  # 10**10 values expanded


BOMB_SAYS = ("(an alias bomb): each *name repeats the whole value anchored as &name, and these repeat one "
             "another; write the values out instead")


def test_alias_bomb_is_refused_quickly():
    # Most values come from aliases when the site's count of values runs out: said as an alias bomb, not as
    # "too large" with a size setting to change.
    line, column, detail = fails(ALIAS_BOMB, SITE)
    assert detail.startswith(f"YAML aliases expand to more than {MAX_NODES} values {BOMB_SAYS}")
    assert (line, column) == (2, 5)  # the list of a1 (its anchor), the first to use an alias (*a0)


def test_alias_bomb_is_refused_by_what_aliases_add_however_large_documents_may_be():
    line, column, detail = fails(ALIAS_BOMB, DEFAULT)  # a hundred million values allowed, a million from aliases
    assert detail == f"YAML aliases expand to more than {DEFAULT.max_alias_values} values {BOMB_SAYS}"
    assert (line, column) == (2, 5)
    line, _, detail = fails(ALIAS_BOMB, Limits(max_alias_values=50, advice=cli_advice()))
    assert detail == f"YAML aliases expand to more than 50 values {BOMB_SAYS}; change it with --max-alias-values"
    assert line == 2


def test_a_large_document_without_aliases_is_still_too_large():
    text = "a: [" + ", ".join(["x"] * 20) + "]\n"
    assert fails(text, Limits(max_values=10))[2].startswith("document too large: more than 10 values")


def test_aliases_within_the_limit_expand():
    text = "a: &a [x, y]\nb: [*a, *a, *a]\n"
    (doc,) = load_yaml_stream(text, limits=Limits(max_alias_values=9))
    assert doc.data["b"] == [["x", "y"]] * 3
    assert "aliases expand" in fails(text, Limits(max_alias_values=8))[2]


def test_self_referencing_alias_stops_at_the_depth_limit():
    assert fails("a: &a [*a]\n") == (1, 4, f"document nested more than {MAX_DEPTH} levels deep")


def test_deep_block_nesting():
    text = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 10)) + "  " * (MAX_DEPTH + 10) + "v\n"
    line, column, detail = fails(text)
    assert detail == f"document nested more than {MAX_DEPTH} levels deep"
    assert line == MAX_DEPTH + 1 and column == 2 * MAX_DEPTH + 1


@pytest.mark.parametrize("depth", [2_000, 200_000])
def test_deep_flow_nesting(depth):
    line, column, detail = fails("[" * depth + "]" * depth)
    assert line == 1 and "nesting depth" in detail


def test_nesting_just_inside_the_limit_is_fine():
    text = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    (doc,) = load_yaml_stream(text)
    assert isinstance(doc.data, PosList)


def test_huge_document_is_refused_before_it_is_built():
    text = "items:\n" + "- a\n" * (MAX_NODES * 5)  # a million values, 4 MB
    line, column, detail = fails(text, SITE)
    assert detail == f"document too large: more than {MAX_NODES} values"
    assert (line, column) == (MAX_NODES - 1, 3)  # where the limit was crossed


def test_many_small_documents_count_together():
    text = "---\n[" + ", ".join(["1"] * 1000) + "]\n"
    line, _, detail = fails(text * (MAX_NODES // 1000 + 1), SITE)
    assert "document too large" in detail and line > 1


def test_huge_text_is_refused():
    line, column, detail = fails("a: " + "x" * (17 * 1024 * 1024) + "\n", SITE)
    assert (line, column) == (1, 1) and detail.startswith("input too large")


def test_the_engine_default_reads_more_values_than_the_site():
    text = "items:\n" + "- a\n" * (MAX_NODES + 10)
    (doc,) = load_yaml_stream(text)
    assert len(doc.data["items"]) == MAX_NODES + 10


def test_input_size_is_counted_in_utf8_bytes_and_names_the_setting():
    text = "a: " + "é" * 10 + "\n"  # 14 characters, 24 bytes
    load_yaml_stream(text, limits=Limits(max_input_bytes=24))
    limits = Limits(max_input_bytes=23, advice={"max_input_bytes": "raise DRA_MAX_TEXT_BYTES"})
    assert fails(text, limits) == (1, 1, "input too large: 24 bytes, more than 23; raise DRA_MAX_TEXT_BYTES")


def test_every_limit_names_the_flag_that_changes_it():
    cli = cli_advice()
    assert fails("a: [1, 2, 3]\n", Limits(max_values=3, advice=cli))[2] == (
        "document too large: more than 3 values; change it with --max-values")
    assert fails("a: {b: {c: 1}}\n", Limits(max_depth=1, advice=cli))[2] == (
        "document nested more than 1 levels deep; change it with --max-depth")
    assert fails("a: 1\n", Limits(max_input_bytes=2, advice=cli))[2] == (
        "input too large: 5 bytes, more than 2; change it with --max-input-bytes")


@pytest.mark.parametrize("bad", [dict(max_values=0), dict(max_depth=-1), dict(max_input_bytes=True),
                                 dict(max_alias_values=1.5), dict(advice={"max_cats": "no"})])
def test_limits_are_checked(bad):
    with pytest.raises(ValueError):
        Limits(**bad)


def test_limits_with_the_same_numbers_and_advice_are_equal_and_hashable():
    assert Limits(advice={"max_depth": "x"}) == Limits(advice=(("max_depth", "x"),))
    assert len({Limits(), Limits(), Limits(max_depth=3)}) == 2


def test_large_but_reasonable_input_reads():
    devices = "".join(f"  - name: gpu-{i}\n    attributes: {{index: {{int: {i}}}}}\n" for i in range(5000))
    (doc,) = load_yaml_stream("spec:\n  devices:\n" + devices)
    assert len(doc.data["spec"]["devices"]) == 5000
    assert doc.data["spec"]["devices"].item_pos[4999] == (3 + 2 * 4999, 5)


def test_nul_bytes():
    assert fails("kind: X\nspec: a\x00b\n") == (2, 8, "input contains NUL bytes (binary data?)")


def test_binary_garbage():
    line, column, detail = fails("".join(chr(c) for c in range(1, 256)))
    assert (line, column) == (1, 1)
    assert detail == "YAML error: unacceptable character #x0001: control characters are not allowed"


def test_control_character_is_located():
    assert fails("kind: X\nname: é\x07\n") == (
        2, 8, "YAML error: unacceptable character #x0007: control characters are not allowed")


def test_lone_surrogate():
    assert fails("kind: X\nname: \ud800\n") == (2, 7, "input is not valid Unicode text (lone surrogate)")


def test_byte_order_mark_is_accepted():
    (doc,) = load_yaml_stream("\ufeffkind: X\n")
    assert doc.data == {"kind": "X"}


def test_empty_input():
    assert load_yaml_stream("") == []
    assert load_yaml_stream("# only a comment\n---\n") == []
