"""The line reader of block YAML (allocator.blockyaml) answers as the libyaml reader, or steps aside.

For every text it either gives exactly what the libyaml-event reader of
``plainyaml`` gives (data, document indexes, spans of documents and of the
items of a List), or it declines and that reader reads the text. It never
accepts what libyaml refuses. Checked on the examples and test data, on
mutations of them, on hand-written corner cases and on generated documents
dumped in several styles; and it must accept a kubectl-style dump, else the
fast path would silently be lost.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allocator.reading import plainyaml
from allocator.reading.limits import DEFAULT, Limits
from allocator.synthetic import cluster_yaml
from allocator.tests.helpers import DATA, ROOT, example_files


def _libyaml(text: str, limits: Limits):
    """What the libyaml-event reader gives, or the exception it stops with."""
    try:
        return [(d.data, d.index, d.span, d.item_spans) for d in plainyaml._read_events(text, limits)]
    except Exception as exc:  # noqa: BLE001 - any refusal counts: the line reader must refuse too
        return exc


def _block(text: str, limits: Limits):
    found = plainyaml._read_block(text, limits)
    return None if found is None else [(d.data, d.index, d.span, d.item_spans) for d in found]


def check(text: str, limits: Limits = DEFAULT) -> bool:
    """Assert the line reader agrees or declines; True when it read the text."""
    block = _block(text, limits)
    if block is None:
        return False
    expected = _libyaml(text, limits)
    assert not isinstance(expected, Exception), f"read what libyaml refuses ({expected!r}):\n{text}"
    assert block == expected, text
    return True


def _yaml_files() -> list[Path]:
    return sorted(DATA.glob("*.yaml")) + sorted((ROOT / "playground").rglob("*.yaml")) + example_files()


def test_reads_a_kubectl_dump_and_agrees():
    text = cluster_yaml(20)
    assert check(text)
    kubectl_quoting = text.replace("'", '"')  # kubectl quotes with double quotes
    assert check(kubectl_quoting)


def test_every_file_agrees_or_is_declined():
    read = 0
    files = _yaml_files()
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        read += check(text)
        read += check(_without_comments(text))
    assert read >= len(files) // 4, "the line reader declined nearly every file"


def _without_comments(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))


def _mutations(text: str, rng: random.Random, n: int) -> list[str]:
    lines = text.split("\n")
    out = []
    for _ in range(n):
        changed = list(lines)
        at = rng.randrange(len(changed))
        line = changed[at]
        kind = rng.randrange(9)
        if kind == 0:
            changed[at] = " " + line
        elif kind == 1 and line.startswith(" "):
            changed[at] = line[1:]
        elif kind == 2:
            changed.insert(at, line)
        elif kind == 3:
            del changed[at]
        elif kind == 4 and line:
            cut = rng.randrange(len(line))
            changed[at] = line[:cut] + line[cut + 1:]
        elif kind == 5:
            cut = rng.randrange(len(line) + 1)
            changed[at] = line[:cut] + rng.choice(":-'\"|>{}[]&*!?,# %@`~\\") + line[cut:]
        elif kind == 6:
            changed[at] = line + rng.choice([" ", ":", " |", " yes", " 0777", " - a", " '", ' "', " #"])
        elif kind == 7:
            changed.insert(at, rng.choice(["---", "...", "", "  ", "- x", "%YAML 1.1", "a:", "  b: |", "|"]))
        else:
            changed[at] = line.replace(": ", ":", 1)
        out.append("\n".join(changed))
    return out


def test_mutated_files_agree_or_are_declined():
    """Mutations of the texts it reads: the ones close to what it reads are where a mistake would hide."""
    rng = random.Random(12)
    texts = [cluster_yaml(2), cluster_yaml(2).replace("'", '"')]
    texts += [text for text in (_without_comments(p.read_text(encoding="utf-8")) for p in _yaml_files())
              if _block(text, Limits()) is not None and len(text) < 20_000][:60]
    assert len(texts) > 30
    read = 0
    for text in texts:
        for changed in _mutations(text, rng, 60):
            read += check(changed)
    assert read > 500


CORNERS = [
    "",
    "---",
    "---\n",
    "a: 1\n",
    "a: 1",
    "a: 1\n---\nb: 2\n",
    "---\na: 1\n---\n",
    "a: 1\n---\n---\nb: 2",
    "\n\na: 1\n\n\n",
    "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
    "a:\n- 1\n- 2\nb: x\n",
    "a:\n  - 1\n  - 2\nb:\n",
    "a:\nb:\n",
    "a:\n  b:\n",
    "items:\n- a: 1\n  b: 2\n- c: 3\nkind: List\n",
    "items:\n- a: 1\n\n\n- c: 3\n\n",
    "items:\n  - a: 1\n  - c:\n      d: 2\n",
    "items:\n- x\n- y\n",
    "items:\n- {}\n",
    "items: {}\n",
    "items:\n  a: 1\n",
    "a: |\n  one\n  two\nb: 1\n",
    "a: |-\n  one\n\n  two\n\n\nb: 1\n",
    "a: |\n    indented\n  less\n",
    "a: |\n  x\n   y\n",
    "a: |\n\n  x\n",
    "a: |\n   \n  x\n",
    "a: |\nb: 1\n",
    "a: |+\n  x\n\n",
    "a: >\n  x\n  y\n",
    "- a\n- b\n",
    "a: yes\nb: No\nc: 0777\nd: 0x1F\ne: 1_000\nf: 1:20\ng: .inf\nh: ~\ni: null\nj: 2001-12-14\nk: 1e3\nl: +1\n",
    "a: 'yes'\nb: \"0777\"\nc: 'it''s'\nd: \"tab\\there\"\ne: \"\\u00e9\"\nf: \"\\x41\"\ng: \"a\\/b\"\n",
    "a: \"unterminated\nb: 1\n",
    "a: 'x' y\n",
    "a: \"x\" y\n",
    "a: b: c\n",
    "a: b:\n",
    "a:b\n",
    "a : 1\n",
    "true: 1\n1: 2\n1.50: 3\n~: 4\n",
    "<<: {a: 1}\n",
    "=: 1\n",
    "a: 1\na: 2\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: [1, 2]\nb: {c: 1}\nc: []\nd: {}\n",
    "a: plain\n  continued\n",
    "- a\n  continued\n",
    "a: 1 # comment\n",
    "# comment\na: 1\n",
    "a: x\n\tb: 1\n",
    "a: x\r\nb: 1\r\n",
    "\ufeffa: 1\n",
    "a: \x85x\n",
    "a: \u2028\n",
    "a: \x07\n",
    "a: -\n",
    "a: - b\n",
    "- - a\n",
    "-\n  a: 1\n",
    "a: -1\nb: -x\nc: -.5\n",
    "a: ?x\nb: :x\n",
    "? a\n: b\n",
    "%YAML 1.1\n---\na: 1\n",
    "a: 1\n...\n",
    "--- a: 1\n",
    "a: 1\n   \nb: 2\n",
    "a:\n  b:\n    c: 1\n  ",
    "a:\n  b:\n    c: 1\n  \n",
    "a:   spaced   \nb:    \n",
    "a: 1\n b: 2\n",
    "a:\n    b: 1\n  c: 2\n",
    "x" * 1100 + ": 1\n",
    "a: é\nb: 😀\nc: ü: x\n",
    "a: \"é\\\"q\\\"\"\n",
    "a: \"\\\\\"\n",
    "a: \"\\\"\n",
    # Flow collections on one line, as hand-written claims have them.
    "metadata: {name: train}\nspec: {devices: {requests: [{name: a, exactly: {count: 2}}]}}\n",
    "a: {expression: \"device.driver == 'x' && device.capacity['x'].memory >= quantity('1Gi')\"}\n",
    "a: [1, 0x1F, yes, 1.5, '2', \"3\", b c, -1, ~x]\n",
    "a: {b: [], c: {}, d: [[1], [2, [3]]]}\n",
    "- {a: 1}\n- [b, c]\n",
    "a: [b, ]\n", "a: [b,]\n", "a: [, b]\n", "a: {b}\n", "a: {b: }\n", "a: {b: c, b: d}\n", "a: {b :c}\n",
    "a: {b: c:d}\n", "a: [b: c]\n", "a: {b: c} d\n", "a: {b: c #d}\n", "a: [~, null, ]\n", "a: {? b: c}\n",
    "a: {'b': \"c\\td\"}\n", "a: {\"b\":c}\n", "a: [-, b]\n", "a: [- b]\n", "a: {b: [c}\n", "a: [b, {c: d]}\n",
    "a: {<<: {b: c}}\n", "a: {b: =}\n", "a: {1: x, true: y, 1.5: z}\n", "a: [&x b, *x]\n", "a: [!!str 1]\n",
]


@pytest.mark.parametrize("text", CORNERS)
def test_corner_cases(text):
    check(text)


def test_corner_cases_are_mostly_read():
    assert sum(check(text) for text in CORNERS) >= 20


@pytest.mark.parametrize("char", ["\t", "\r", "\x00", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff"])
def test_characters_outside_the_plain_set_are_left_to_libyaml(char):
    text = f"a: b{char}c\nd: e\n"
    assert _block(text, DEFAULT) is None
    check(text)


@pytest.mark.parametrize("text", ["a: 1\n---\nb: 2\n", "---\na: 1\n", "a: 1\n...\n", "%YAML 1.1\n---\na: 1\n",
                                  "a: |\n  x\n  ---\nb: 2\n", "a: 1\n--- \nb: 2\n"])
def test_documents_are_told_apart_as_libyaml_tells_them(text):
    check(text)


def test_limits_are_left_to_libyaml():
    text = cluster_yaml(3)
    values = len(yaml.safe_load(text)["items"]) * 50
    assert _block(text, Limits()) is not None
    for max_values in (10, values, values * 4):
        check(text, Limits(max_values=max_values))
    for max_depth in (1, 3, 5, 8):
        check(text, Limits(max_depth=max_depth))
    assert _block(text, Limits(max_depth=3)) is None


def test_flow_collections_count_against_the_limits_as_libyaml_counts_them():
    text = "a:\n  b: {c: [1, {d: e}, []], f: g}\nh: [i, j]\n"
    for name, top in (("max_values", 20), ("max_depth", 7)):
        limits = [Limits(**{name: bound}) for bound in range(1, top)]
        block = [limit for limit in limits if check(text, limit)]
        libyaml = [limit for limit in limits if not isinstance(_libyaml(text, limit), Exception)]
        assert block and block == libyaml, name  # read from the same bound on


# Around what the reader does once for all the lines or values alike (a line split and judged once, a
# scalar read once, a key whose value is a one-entry mapping on the next line read in one step): the same
# lines or values in other places, and every way the next lines can go on.
REPEATS = [
    "a:\n  b: c\nd:\n  e: c\nf: c\n",
    "a:\n  b: 1\nd:\n  e: 1\nf: 1\ng: '1'\nh: \"1\"\n",
    "a:\n  b: 'x'\nc:\n  d: 'x'\ne: x\nf: \"x\"\n",
    "a: ~\nb: ~\nc:\n  d: ~\ne:\n  f: null\n",
    "a:\n  b: c\n  d: e\nf:\n  b: c\n",
    "a:\n  b: c\n    d\n",
    "a:\n  b: c\n\nd:\n  b: c\n",
    "a:\n  b: c\na:\n  b: c\n",
    "a:\n  b:\n    c: d\n  e:\n    c: d\n",
    "items:\n  b: c\n",
    "x:\n  items:\n    b: c\n",
    "a:\n  b: c\n d: e\n",
    "- a:\n    b: c\n  d:\n    b: c\n- e\n",
    "a:\n  b: c # x\nd:\n  b: c\n",
    "a:\n  b: |\n    x\nc:\n  b: |\n    x\n",
    "a:\n  b: {c: d}\ne:\n  b: {c: d}\n",
    "a:\n  b: [c]\ne:\n  b: [c]\n",
    "a:\n  b: c",
    "a:\n  b: c\n  ",
    "items:\n- a:\n    b: c\n  d:\n    b: c\n- e:\n    f: g\nkind: List\n",
    "items:\n- a:\n    b: c\nkind:\n  b: c\n",
    "a:\n  b: x\n---\nc:\n  b: x\n",
    "a:\n- 1\n- 1\n- '1'\n- 1\n- x\n- x\n",
    "a:\n  b: c\n  b: c\n",
    "a:\n  yes: c\nb:\n  yes: c\n",
    "a:\n  - b: c\n  - b: c\n",
    "a:\n  b:\n  c: d\n",
    "a:\n  b: - c\nd:\n  b: - c\n",
    "a:\n  b: 'c' d\n",
]


@pytest.mark.parametrize("text", REPEATS)
def test_repeated_lines_and_values_agree_at_every_limit(text):
    check(text)
    for max_values in range(1, 30):
        check(text, Limits(max_values=max_values))
    for max_depth in range(1, 6):
        check(text, Limits(max_depth=max_depth))


def test_repeated_lines_and_values_are_mostly_read():
    assert sum(check(text) for text in REPEATS) >= 19
    # A key known from before, then a mapping of two entries: read, not taken for one entry and declined.
    assert check("b: x\na:\n  b: c\n  d: e\n")


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.floats(allow_nan=False, allow_infinity=True, width=32),
    st.sampled_from(["yes", "no", "on", "off", "y", "n", "~", "null", "0777", "0x1F", "1_000", "1:20", ".inf",
                     "2001-12-14", "1e3", "+1", "", " ", "a: b", "- a", "#x", "a #b", "it's", '"q"', "|", ">",
                     "é", "line\nbreak", "trailing ", " leading", "tab\there", "x" * 90, "word " * 30,
                     "a\\b", "{}", "[]", "@", "`", "%", "*a", "&a", "!a", "?", ":", "-", "---", "..."]),
    st.text(alphabet=string.ascii_letters + string.digits + " -_.:/#'\"\\é", max_size=12),
)
_KEYS = st.one_of(st.sampled_from(["name", "items", "yes", "1", "a b", "a: b", "-x", "~", "true"]),
                  st.text(alphabet=string.ascii_lowercase + "./-", min_size=1, max_size=8))
_TREES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(_KEYS, inner, max_size=4)), max_leaves=25)
_STYLES = [dict(), dict(indent=4), dict(default_style='"'), dict(default_style="'"), dict(width=20),
           dict(allow_unicode=True), dict(explicit_start=True),
           # flow style for the innermost collections, on one line or wrapped
           dict(default_flow_style=None, width=10_000), dict(default_flow_style=None),
           dict(default_flow_style=None, width=10_000, default_style='"')]


# Objects as Kubernetes has them: mappings of mappings, with plainer text most of the time.
_PLAIN_TEXT = st.text(alphabet=string.ascii_letters + string.digits + "-_./", min_size=1, max_size=12)
_OBJECTS = st.dictionaries(_KEYS, st.recursive(
    st.one_of(_PLAIN_TEXT, _PLAIN_TEXT, _SCALARS),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=20), min_size=1, max_size=5)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_OBJECTS, _TREES), min_size=1, max_size=3), st.sampled_from(_STYLES))
def test_generated_documents_agree_or_are_declined(docs, style):
    style = {"default_flow_style": False, **style}
    text = yaml.safe_dump_all(docs, sort_keys=False, **style)
    check(text)
    check(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}, **style))


def test_an_item_it_cannot_read_is_read_by_libyaml_alone_and_the_rest_stays_fast(monkeypatch):
    """A folded message in one Node (kubectl wraps long strings) must not send the whole dump to libyaml."""
    docs = yaml.safe_load(cluster_yaml(3))["items"]
    docs[2]["metadata"]["annotations"] = {"note": "a message long enough to be folded over several lines " * 3,
                                          "flow": "x"}
    text = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}, sort_keys=False, width=60)
    text = text.replace("flow: x", "flow: {a: [1, 2]}")
    alone = []
    real = plainyaml._read_item
    monkeypatch.setattr(plainyaml, "_read_item", lambda *args: alone.append(args[0]) or real(*args))
    assert check(text)
    assert 1 <= len(alone) < len(docs) and any("flow: {a: [1, 2]}" in item for item in alone)
    assert _block(text, Limits())[0][0]["items"][2]["metadata"]["annotations"]["flow"] == {"a": [1, 2]}


def test_an_item_read_alone_counts_against_the_limits():
    docs = yaml.safe_load(cluster_yaml(2))["items"]
    docs[-1]["metadata"]["labels"] = {"flow": "x"}
    text = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}, sort_keys=False)
    text = text.replace("flow: x", "flow: {a: 1}")
    for max_values in range(200, 2000, 37):
        check(text, Limits(max_values=max_values))
    for max_depth in range(2, 9):
        check(text, Limits(max_depth=max_depth))


def test_comments_inside_items_are_left_to_libyaml_for_that_item_only(monkeypatch):
    text = cluster_yaml(3)
    commented = text.replace("\n  spec:", "\n  # the spec\n  spec:", 1).replace(
        "generation: 1\n", "generation: 1  # GPU #0\n", 1)
    alone = []
    real = plainyaml._read_item
    monkeypatch.setattr(plainyaml, "_read_item", lambda *args: alone.append(args[0]) or real(*args))
    assert check(commented)
    assert 1 <= len(alone) <= 2
    # A comment on an item's own first line, or at the left edge: the whole text goes to libyaml.
    assert not check(text.replace("- apiVersion: resource.k8s.io/v1\n", "- apiVersion: resource.k8s.io/v1  # x\n", 1))
    assert not check("# a dump\n" + text)
