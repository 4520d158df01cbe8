"""Reading YAML or JSON fast, without positions, into plain dicts and lists.

The positioned reader (``yamlsource``) builds a node graph, then a positioned
container per node: about 7 s for a 1,000-node ``kubectl get -o yaml`` dump.
Most text has nothing to report, so positions are only wanted for the rare
document a diagnostic is about. This reader builds plain data straight from
the parser's events, resolving plain scalars with the very same rules (the
YAML 1.1 resolvers of the positioned reader, timestamps left as strings), and
text that starts like JSON goes through the standard library's C decoder.
Block-style YAML, as ``kubectl get -o yaml`` prints it, is first read line
by line (``blockyaml``, about twice as fast), an item of a List that reader
cannot read being read here alone.

It reads only what it is sure to read exactly as the positioned reader does.
On anything else (a syntax error, an anchor, alias or explicit tag, a
duplicate or merge key, a number JSON and YAML 1.1 disagree about, a limit
crossed) it returns ``None`` and the caller uses the positioned reader,
which reports the problem located, as before.

Each document and each item of a top-level ``items:`` list remembers where it
starts and ends (``Span``), so that one object can be read again with
positions when a message needs them (``objects``).
"""

from __future__ import annotations

import functools
import json
import re

from allocator.reading import records, scalars
from allocator.reading.blockyaml import Unsure, read_block
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.positions import Position
from allocator.reading.records import field, record


@record(frozen=True)
class Span:
    """Where a node starts and where the parser saw its end (0-based lines and columns)."""

    line: int
    column: int
    end_line: int
    end_column: int

    @property
    def position(self) -> Position:
        return self.line + 1, self.column + 1


@record
class PlainDocument:
    data: object
    index: int  # position of the document in the stream, 0-based
    span: Span | None  # None when the reader cannot tell (JSON)
    # The spans of the items of a top-level mapping's "items" sequence (a List), in order.
    item_spans: list[Span] = field(default_factory=list)

    @property
    def pos(self) -> Position | None:
        return self.span.position if self.span else None


class _Unsure(Exception):
    """This text is for the positioned reader."""


def read_plain(text: str, limits: Limits = DEFAULT) -> list[PlainDocument] | None:
    """The documents of ``text`` as plain data, or None when the positioned reader must read it.

    ``text`` must have passed ``yamlsource.check_text``. Empty documents are skipped.
    """
    try:
        if text.lstrip()[:1] in ("{", "["):
            found = _read_json(text, limits)
            if found is not None:
                return found
        return _read_yaml(text, limits)
    except _DOUBTS:
        return None


# What makes a fast reader give up (a merge key or an unreadable number is a ValueError: ``scalars``).
_DOUBTS = (_Unsure, RecursionError, ValueError, TypeError, OverflowError, ArithmeticError)


# --------------------------------------------------------------------------- YAML

def _scalar(value: str):
    """A plain scalar as the positioned reader resolves and constructs it."""
    try:
        return scalars.resolve(value)
    except scalars.NotPlainData:
        raise _Unsure from None


def _key(key):
    """A mapping key as the positioned reader keeps it: text, with booleans as true/false."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int | float):
        return str(key)
    raise _Unsure  # null or a collection as a key: the positioned reader says what is wrong


def _read_yaml(text: str, limits: Limits) -> list[PlainDocument]:
    found = _read_block(text, limits)
    if found is not None:
        return found
    return _read_events(text, limits)


def _read_events(text: str, limits: Limits) -> list[PlainDocument]:
    """The documents of ``text`` built from libyaml's events (PyYAML is imported only when it comes to this)."""
    import yaml

    from allocator.reading.yamlsource import _Loader

    loader = _Loader(text)
    try:
        return _build(loader, limits)
    except yaml.YAMLError:
        raise _Unsure from None
    finally:
        loader.dispose()


def _read_block(text: str, limits: Limits) -> list[PlainDocument] | None:
    """The documents of block-style ``text`` read line by line (``blockyaml``), or None when outside its part."""
    try:
        found = read_block(text, limits, _scalar, _key, scalars.RESOLVABLE, _read_item)
    except (Unsure, _Unsure):
        return None
    return [PlainDocument(data, index, Span(*span), [Span(*item) for item in items])
            for data, index, span, items in found]


def _read_item(text: str, max_depth: int, max_values: int) -> tuple[dict, int]:
    """One item of a List, as its own document, read from libyaml's events: (mapping, values counted)."""
    if max_depth < 1 or max_values < 1:
        raise Unsure
    try:
        docs = _read_events(text, records.replace(DEFAULT, max_depth=max_depth, max_values=max_values))
    except _DOUBTS:
        raise Unsure from None
    if len(docs) != 1 or docs[0].data.__class__ is not dict:
        raise Unsure
    return docs[0].data, _values_in(docs[0].data)


def _values_in(data) -> int:
    """Values as ``_build`` counts them: every scalar, key and collection."""
    levels = list(_counted_levels(data))
    return levels[-1][1] if levels else 1


def _build(loader, limits: Limits) -> list[PlainDocument]:
    import yaml

    scalar_event, mapping_start, sequence_start = yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent
    mapping_end, sequence_end = yaml.MappingEndEvent, yaml.SequenceEndEvent
    stream_end, document_start = yaml.StreamEndEvent, yaml.DocumentStartEvent
    max_values, max_depth = limits.max_values, limits.max_depth
    get_event = loader.get_event
    docs: list[PlainDocument] = []
    stack: list = []  # open containers
    keys: list = []  # per open container: the key waiting for its value (mappings), or _NONE
    none = _NONE
    count = 0
    index = 0
    root_start = None
    item_spans: list[Span] = []
    item_start = None
    while True:
        event = get_event()
        kind = type(event)
        if kind is scalar_event:
            if event.anchor is not None or event.tag is not None:
                raise _Unsure
            value = _scalar(event.value) if event.implicit[0] else event.value
            depth = len(stack)
            if depth == 2 and keys[0] == "items":  # an item of a List that is a scalar
                item_spans.append(_span(event.start_mark, event.end_mark))
            count += 1
            if count > max_values:
                raise _Unsure
        elif kind is mapping_start or kind is sequence_start:
            if event.anchor is not None or event.tag is not None:
                raise _Unsure
            depth = len(stack)
            if depth >= max_depth:
                raise _Unsure
            if depth == 0:
                root_start = event.start_mark
                item_spans = []
            elif depth == 2 and keys[0] == "items":
                item_start = event.start_mark
            count += 1
            stack.append({} if kind is mapping_start else [])
            keys.append(none)
            continue
        elif kind is mapping_end or kind is sequence_end:
            value = stack.pop()
            keys.pop()
            depth = len(stack)
            if depth == 2 and item_start is not None and keys[0] == "items":
                item_spans.append(_span(item_start, event.end_mark))
                item_start = None
        elif kind is yaml.AliasEvent:
            raise _Unsure
        elif kind is document_start:
            root_start = None
            continue
        elif kind is stream_end:
            return docs
        else:  # stream start, document end
            continue
        if depth == 0:
            if value is not None:
                docs.append(PlainDocument(value, index, _span(root_start or event.start_mark, event.end_mark),
                                          item_spans if isinstance(value, dict) else []))
            index += 1
            item_spans = []
            continue
        parent = stack[-1]
        if parent.__class__ is list:
            parent.append(value)
            continue
        key = keys[-1]
        if key is none:
            keys[-1] = _key(value)
        else:
            if key in parent:
                raise _Unsure  # duplicate key
            parent[key] = value
            keys[-1] = none


class _NoneType:
    __slots__ = ()


_NONE = _NoneType()


def _span(start, end) -> Span:
    return Span(start.line, start.column, end.line, end.column)


def snippet(text: str, span: Span) -> str | None:
    """The text of the node at ``span`` alone, at the same lines and columns as in ``text``.

    Lines before it become empty lines and the part of its first line before
    it becomes spaces, so a positioned read of the snippet gives the positions
    of the whole text. None when the node does not start its own block.
    """
    lines = text.split("\n", span.end_line + 1)[: span.end_line + 1]
    if span.line >= len(lines):
        return None
    last, cut = span.end_line, span.end_column
    if last >= len(lines):  # the end of the text (the parser puts it one line further)
        last, cut = len(lines) - 1, None
    elif last > span.line and not lines[last][:cut].strip(" -"):
        # A block ends where the next token starts: that line holds nothing of it.
        last, cut = last - 1, None
    body = lines[span.line: last + 1]
    head = body[0]
    if head[: span.column].strip(" -"):
        return None  # something else before it on its first line (flow style): not alone
    body[0] = " " * span.column + head[span.column:]
    if cut is not None and last > span.line:
        body[-1] = body[-1][:cut]
    return "\n" * span.line + "\n".join(body) + "\n"


# --------------------------------------------------------------------------- JSON

# JSON numbers that YAML 1.1 reads as numbers too; others ("1e3", "1.5e3") are strings there. Compiled at
# first use, as the next: only JSON with a fraction, or with a \u escape, asks.
@functools.cache
def _yaml_float() -> re.Pattern:
    return re.compile(r"^[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?$")


# A \u escape of half a surrogate pair: JSON joins the pair, YAML would not.
@functools.cache
def _surrogate_escape() -> re.Pattern:
    return re.compile(r"\\u[dD][89abAB]")


def _float(text: str) -> float:
    if not _yaml_float().match(text):
        raise _Unsure
    return float(text)


def _constant(text: str):
    raise _Unsure  # NaN, Infinity: not JSON YAML would read alike


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Unsure  # duplicate key
    return out


# Each object through a Python hook that refuses duplicate keys: for the texts whose strings cannot be counted.
_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_float=_float, parse_constant=_constant)
# The C decoder building the dicts itself: about 40% less time on a 1,000-node dump, but a duplicate key
# silently keeps its last value, so ``_read_json`` rules duplicates out by counting strings.
_PLAIN_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_constant)


def _read_json(text: str, limits: Limits) -> list[PlainDocument] | None:
    if _surrogate_escape().search(text):
        return None
    literals = _string_literals(text)
    try:
        data = (_PLAIN_DECODER if literals is not None else _DECODER).decode(text)
        strings = _check_json(data, limits)
        if literals is not None and strings != literals:
            # A string of the text is not in the data: the last of a duplicate key's values replaced the
            # others (or a count was off). The hook decides, and refuses a duplicate key.
            data = _DECODER.decode(text)
    except json.JSONDecodeError:
        return None  # maybe YAML in flow style; the YAML reader decides
    if data is None:
        return []
    return [PlainDocument(data, 0, None)]


def _string_literals(text: str) -> int | None:
    """How many strings (keys and values) a valid JSON ``text`` writes, or None when its escapes make that unsure.

    Outside strings JSON has no quotes, and inside them a quote is escaped, so
    the unescaped quotes are two per string. Parsed, each string is one key or
    text value, except the keys (and what their values hold) a duplicate key
    drops: when the data holds as many strings as the text writes, no key was
    written twice. A text with an escaped backslash (which may stand just before
    a string's closing quote) is left to the hook that sees each object's keys.
    """
    quotes = text.count('"')
    if "\\" in text:
        if "\\\\" in text:
            return None
        quotes -= text.count('\\"')
    return quotes // 2


def _check_json(data, limits: Limits) -> int:
    """Count values and depth as the positioned reader would, raising _Unsure past a limit; the strings in ``data``.

    Keys and text values, as ``_string_literals`` counts them in the text.
    """
    strings = 0
    for depth, count, so_far in _counted_levels(data):
        if depth > limits.max_depth or count > limits.max_values:
            raise _Unsure
        strings = so_far
    return strings


def _counted_levels(data):
    """Level by level of nested collections: (depth, values counted so far, strings so far: keys and text
    values inside), counted as the readers count.

    One plain loop per level (no generator per container): a 1,000-node JSON dump has ~400,000 values.
    """
    count = 1
    strings = 0
    level = [data] if data.__class__ is dict or data.__class__ is list else []
    depth = 0
    while level:
        depth += 1
        below: list = []
        add = below.append
        for container in level:
            if container.__class__ is dict:
                count += 2 * len(container)
                strings += len(container)
                values = container.values()
            else:
                count += len(container)
                values = container
            for value in values:
                kind = value.__class__
                if kind is str:
                    strings += 1
                elif kind is dict or kind is list:
                    add(value)
        yield depth, count, strings
        level = below
