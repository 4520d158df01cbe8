"""Reading the block-style YAML that ``kubectl get -o yaml`` prints, line by line.

libyaml's event stream costs most of the time of reading a cluster dump
(about 0.65 s of 1 s for 1,000 nodes): every event and both of its marks
become Python objects. Dumps use a small, regular part of YAML: block
mappings and sequences with one key or item a line, and scalars that are
plain, quoted on one line, or ``|`` literal. This reader splits each
different line once with one regular expression (a dump repeats most of its
lines) and builds the data in one loop, resolving plain scalars with the very
same YAML 1.1 rules as the other readers (the ``scalar`` and ``key``
functions it is given), each different scalar once.

It is a fast path, not a YAML parser: on anything outside that part
(comments, flow collections other than ``{}`` and ``[]``, anchors, aliases,
tags, directives, tabs, carriage returns, ``>`` folded or multi-line plain
and quoted scalars, characters libyaml refuses, a limit crossed, anything it
does not expect) it raises ``Unsure`` and the libyaml reader reads the text,
so every answer is the one the libyaml reader gives. Inside an item of a
List (kubectl folds long messages over several lines), the caller's
``read_item`` reads that item alone instead, and the rest stays fast. The
tests compare both readers on every sample, on mutations and on generated
documents.
"""

from __future__ import annotations

import functools
import json
import re

from allocator.reading.limits import Limits

# Left to libyaml: characters it refuses (outside its printable set) and the line breaks it has
# beyond "\n" (\x85, \u2028, \u2029, \r), tabs and a byte-order mark. Compiling the whole set takes
# a few milliseconds of every command, so it is compiled only for text that is not ASCII; ASCII text
# is checked by deleting the characters allowed (a C loop, several times faster than a search).
_PLAIN_ASCII = bytes([0x0A, *range(0x20, 0x7F)])


def _not_plain(text: str) -> bool:
    """Whether ``text`` has a character outside the plain set above."""
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _PLAIN_ASCII))
    return _not_plain_text().search(text) is not None


@functools.cache
def _not_plain_text() -> re.Pattern:
    return re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
# One line: its indentation, a "- " list item mark, a plain key and the ": " after it, and the rest.
_LINE = re.compile(r"^( *)(- +)?(?:([^\s'\"#?:,\[\]{}&*!|>%@`\-][^\n]*?):(?: +|$))?([^\n]*)$", re.MULTILINE)


# Escapes of double-quoted scalars that mean something else or nothing in JSON (\/, \x, \e, a surrogate ...),
# compiled at first use: most inputs' quoted scalars have no escapes.
@functools.cache
def _other_escape() -> re.Pattern:
    return re.compile(r'\\(?:[^"\\bfnrtu]|u[dD][89a-fA-F])')


# Characters a plain scalar may not start with here ("-" only before a space or alone; checked apart).
_INDICATORS = frozenset("?:,[]{}#&*!|>'\"%@`")
# A token of a one-line flow collection: an indicator (":" only before a space), or a scalar, quoted on the
# line or plain (no ":" or "#" in it, no space at its ends). Spaces between tokens are dropped.
_FLOW_TOKEN = re.compile(r"""([\[\]{},]|:(?= ))|("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s\[\]{},:#'"](?:[^\[\]{},:#]*[^\s\[\]{},:#])?)""")
_LONGEST_KEY = 1000  # libyaml refuses simple keys longer than 1024 characters


class Unsure(Exception):
    """The text is outside what this reader reads; the libyaml reader must read it."""


def read_block(text: str, limits: Limits, scalar, key, resolvable: frozenset[str], read_item=None) -> list[tuple]:
    """The non-empty documents of ``text`` as ``(data, index, span, item_spans)``; raises Unsure.

    ``scalar`` resolves a plain scalar's text to its value, ``key`` turns a
    resolved key into the text the readers keep (both may raise to refuse);
    a plain scalar is text without asking ``scalar`` unless it starts with a
    character of ``resolvable`` (or is empty). ``read_item(text, max_depth,
    max_values)`` reads an item of a top-level ``items:`` list that this reader
    cannot, as a document of its own, returning (mapping, values counted) or
    raising Unsure.
    Spans are ``(line, column, end_line, end_column)``, 0-based, as libyaml's
    marks give them; ``item_spans`` are those of the items of a top-level
    ``items:`` list.
    """
    lines = text.split("\n")
    if lines[-1] and not lines[-1].strip(" "):
        raise Unsure  # (spaces at the very end: libyaml ends some blocks there, some on the next line)
    # First characters of plain scalars that are text as they stand.
    plain_text = frozenset(chr(c) for c in range(0x21, 0x7f)) - _INDICATORS - resolvable - {"-"}
    rows, marked = _rows(lines, plain_text)
    reader = _Reader(rows, lines, limits, scalar, key, resolvable, read_item)
    docs = []
    index = 0
    start = 0
    n = len(lines)
    while True:
        end = start
        if not marked:
            end = n
        while end < n and lines[end] != "---":
            if lines[end].startswith(("---", "...", "%")):
                raise Unsure
            end += 1
        data, span, items = reader.document(start, end)
        if data is not None:
            docs.append((data, index, span, items))
        if data is not None or start > 0:
            index += 1  # an empty document counts after a "---", not before the first one
        if end >= n:
            return docs
        start = end + 1


# What a line is, beyond its parts (``_rows``): blank; a comment after its content ("a: b # c"); its value
# plain text as it stands; anything else.
_BLANK, _COMMENT, _PLAIN, _OTHER = range(4)


def _rows(lines: list[str], plain_text: frozenset[str]) -> tuple[list[tuple[int, str, str, str, int]], bool]:
    """Each line split as ``_LINE`` splits it: (indentation, list item mark, plain key, the rest without the
    spaces after it, what the line is: ``_BLANK`` ...); and whether a line starts, ends a document or is a
    directive (no need to look for documents otherwise: most dumps are one).

    A dump repeats most of its lines (about 21,000 different ones in 187,000 for 1,000 nodes: the same keys
    at the same indentation, the same values), so each different line is checked, split and judged once.
    Raises Unsure on characters libyaml is to judge and on a comment line at the left edge.
    """
    distinct = set(lines)
    if _not_plain("\n".join(distinct)):  # (every character of the text but its line breaks)
        raise Unsure  # characters for libyaml to judge
    split = _LINE.match
    known = {}
    marked = False
    for line in distinct:
        if line[:1] == "#":
            raise Unsure  # a comment line at the left edge
        if line.startswith(("---", "...", "%")):
            marked = True
        spaces, dash, raw_key, rest = split(line).groups("")
        if rest[-1:] == " ":
            rest = rest.rstrip(" ")
        if not dash and not raw_key and not rest:
            kind = _BLANK
        elif " #" in rest or " #" in raw_key:
            kind = _COMMENT
        elif rest and rest[0] in plain_text and ": " not in rest and rest[-1] != ":":
            kind = _PLAIN
        else:
            kind = _OTHER
        known[line] = (len(spaces), dash, raw_key, rest, kind)
    return list(map(known.__getitem__, lines)), marked


class _Reader:
    def __init__(self, rows: list[tuple], lines: list[str], limits: Limits, scalar, key, resolvable: frozenset[str],
                 read_item=None):
        self.rows = rows
        self.lines = lines
        self.limits = limits
        self.scalar = scalar
        self.key = key
        self.resolvable = resolvable
        self.read_item = read_item
        self.count = 0  # values, as the other readers count them against the limit
        self.keys: dict[str, str] = {}  # plain key -> key, resolved once
        # A scalar's text as written (quotes included) -> its value: a dump repeats most of its values.
        self.values: dict[str, object] = {}
        self.depth = 0  # collections open around the value being read
        self.nested = 0  # values inside the flow collection just read (the collection itself not counted)

    def document(self, first: int, stop: int):
        """The data on lines [first, stop), its span and its items' spans; (None, None, None) when empty.

        A collection is a list ``[indent, container, is_list, pending key]``:
        its column, its value, whether it is a list, and for a mapping the
        key whose value starts on a later line.
        """
        rows = self.rows
        max_depth, max_values = self.limits.max_depth, self.limits.max_values
        resolve_key, keys = self.key, self.keys
        read_value = self.value
        seen = self.values  # scalars read before
        stack: list[list] = []
        root = None
        root_start = None
        items_list = None  # the list under the root's ``items:`` key
        items_indent = -1
        item_spans: list = []
        open_item = None  # (line, column) where the last item of ``items`` starts
        count = self.count
        top = None
        blank, comment, plain = _BLANK, _COMMENT, _PLAIN
        row = first
        while row < stop:
            try:
                indent, dash, raw_key, rest, kind = rows[row]
                if kind == blank:
                    row += 1
                    continue
                # Another key of the same mapping (most lines) skips finding where the line belongs.
                if top is None or dash or indent != top[0] or top[2] or top[3] is not None or not raw_key \
                        or indent <= items_indent:
                    if open_item is not None and indent <= items_indent:
                        # libyaml ends an item's block where the next token at the list's column or left of it starts.
                        item_spans.append((open_item[0], open_item[1], row, indent))
                        open_item = None
                    # Close the collections this line is not inside of.
                    while stack:
                        top = stack[-1]
                        if top[0] > indent or (top[2] and top[0] == indent and not dash):
                            if top[3] is not None:
                                top[1][top[3]] = None
                                top[3] = None
                                count += 1
                            stack.pop()
                            continue
                        break
                    if not stack:
                        if root is not None or dash:
                            raise Unsure  # a second root, or a list as the whole document
                        if len(stack) >= max_depth:
                            raise Unsure
                        top = [indent, {}, False, None]
                        stack.append(top)
                        count += 1
                        root = top[1]
                        root_start = (row, indent)
                    else:
                        top = stack[-1]
                        if top[3] is not None:
                            if indent > top[0] or (dash and indent == top[0]):
                                if len(stack) >= max_depth:
                                    raise Unsure
                                frame = [indent, [] if dash else {}, bool(dash), None]
                                top[1][top[3]] = frame[1]
                                if len(stack) == 1 and top[3] == "items":
                                    if not dash:
                                        raise Unsure  # ``items`` that is not a list: left to libyaml
                                    items_list, items_indent = frame[1], indent
                                top[3] = None
                                stack.append(frame)
                                count += 1
                                top = frame
                            else:
                                top[1][top[3]] = None
                                top[3] = None
                                count += 1
                        elif indent != top[0]:
                            raise Unsure  # deeper than its collection: a multi-line scalar, or bad indentation
                if kind == comment:
                    raise Unsure  # a comment after a value: inside an item, libyaml reads that item
                container = top[1]
                if dash:
                    if not top[2]:
                        raise Unsure
                    if not raw_key:
                        if not rest:
                            raise Unsure  # "-" alone: the item on the next lines
                        if container is items_list:
                            raise Unsure  # an item of ``items`` that is not a block mapping
                        value = seen.get(rest)
                        if value is not None:  # a scalar read before
                            container.append(value)
                            row += 1
                            count += 1
                        else:
                            self.depth = len(stack)
                            value, row = read_value(rest, row, indent)
                            container.append(value)
                            count += 1 + self.nested
                            self.nested = 0
                        if count > max_values:
                            raise Unsure
                        continue
                    # An item that is a mapping: its keys sit where the first one does.
                    if len(stack) >= max_depth:
                        raise Unsure
                    column = indent + len(dash)
                    mapping = {}
                    container.append(mapping)
                    if container is items_list:
                        open_item = (row, column)
                    top = [column, mapping, False, None]
                    stack.append(top)
                    count += 1
                    container = mapping
                elif top[2] or not raw_key:
                    raise Unsure  # a scalar where a key belongs, or a key where an item belongs
                key = keys.get(raw_key)
                if key is None:
                    if raw_key[-1] == " " or len(raw_key) > _LONGEST_KEY:
                        raise Unsure
                    key = resolve_key(self.scalar(raw_key))
                    keys[raw_key] = key
                if key in container:
                    raise Unsure  # a duplicate key: the libyaml reader reports it
                count += 1
                if not rest:
                    if row + 1 < stop and len(stack) < max_depth and count + 3 <= max_values \
                            and (key != "items" or len(stack) > 1):
                        value = self._one_entry(row, stop, top[0], items_indent)
                        if value is not None:
                            container[key] = value
                            row += 2
                            count += 3
                            continue
                    top[3] = key
                    row += 1
                elif kind == plain:
                    container[key] = rest  # plain text, the most common value
                    row += 1
                    count += 1
                elif (value := seen.get(rest)) is not None:  # a scalar read before
                    container[key] = value
                    row += 1
                    count += 1
                else:
                    self.depth = len(stack)
                    if self.depth == 1 and key == "items" and rest[0] in "[{" and len(rest) > 2:
                        raise Unsure  # a List's items in flow style: libyaml notes where each starts
                    container[key], row = read_value(rest, row, top[0])
                    count += 1 + self.nested
                    self.nested = 0
                if count > max_values:
                    raise Unsure
            except Unsure:
                # An item of a List this reader cannot read (a folded message, a flow mapping ...): libyaml
                # reads that item alone, the rest stays fast. Anything else: libyaml reads the whole text.
                if open_item is None or self.read_item is None or len(stack) < 2 or stack[1][1] is not items_list:
                    raise
                end = self._item_end(open_item[0], stop, items_indent)
                if end <= row:
                    raise  # not inside the item: reading it again would not move on
                item, values = self.read_item(self._item_text(open_item[0], end, items_indent),
                                              max_depth - 2, max_values - count)
                items_list[-1] = item
                count += values
                del stack[2:]
                top = stack[-1]
                row = end
        self.count = count
        if root is None:
            return None, None, None
        for frame in stack:
            if frame[3] is not None:
                frame[1][frame[3]] = None
                self.count += 1
        if self.count > max_values:
            raise Unsure
        end = self._end_mark(stop)
        if open_item is not None:
            item_spans.append((open_item[0], open_item[1], end[0], end[1]))
        return root, (root_start[0], root_start[1], end[0], end[1]), item_spans

    def _one_entry(self, row: int, stop: int, column: int, items_indent: int) -> dict | None:
        """The value of the key on line ``row`` (a key alone, in a mapping at ``column``) when it is a mapping
        of one entry with a text or known value on the next line, the line after going back out:
        ``architecture:`` / ``  string: Hopper``, most lines of a dump's devices. None when it is anything
        else or anything could happen on those lines: the general path reads them.

        The caller has checked the depth, the values' limit (three more: the mapping, its key and value)
        and that the key is not the root's ``items``; what the general path would do on the next line is
        then only this, and on the line after, popping the one-entry mapping first.
        """
        indent, dash, raw_key, rest, kind = self.rows[row + 1]
        if indent <= column or indent <= items_indent or dash or not raw_key or not rest:
            return None
        if row + 2 < stop:
            after = self.rows[row + 2]
            if after[4] == _BLANK or after[0] >= indent:
                return None
        key = self.keys.get(raw_key)
        if key is None:
            return None
        if kind == _PLAIN:
            return {key: rest}
        if kind != _OTHER:
            return None
        value = self.values.get(rest)
        return None if value is None else {key: value}

    def _item_end(self, first: int, stop: int, items_indent: int) -> int:
        """The line after the item starting at ``first``: the next token at the list's column or left of it."""
        lines = self.lines
        row = first + 1
        while row < stop:
            line = lines[row]
            content = line.lstrip(" ")
            if content and len(line) - len(content) <= items_indent:
                break
            row += 1
        return row

    def _item_text(self, first: int, end: int, items_indent: int) -> str:
        """The item's lines as a document of its own, at the same columns (its "-" becomes a space)."""
        lines = self.lines[first:end]
        head = lines[0]
        lines[0] = head[:items_indent] + " " + head[items_indent + 1:]
        return "\n".join(lines) + "\n"

    def _end_mark(self, stop: int) -> tuple[int, int]:
        """Where libyaml ends the blocks still open at a document's end: its ``---`` or the stream's end."""
        lines = self.lines
        if stop < len(lines):
            return stop, 0
        # At the end of the stream libyaml first moves to a new line when the last one is not empty.
        return (len(lines) - 1, 0) if lines[-1] == "" else (len(lines), 0)

    def value(self, text: str, row: int, indent: int):
        """The scalar (or ``{}``/``[]``) ``text`` on line ``row`` of a collection at ``indent``; and the next row.

        A scalar's value (not null) is kept in ``values``, for the same text further on.
        """
        first = text[0]
        if first == '"':
            if len(text) < 2 or text[-1] != '"':
                raise Unsure  # multi-line, or something after the closing quote
            inner = text[1:-1]
            if "\\" in inner:
                if _other_escape().search(inner):
                    raise Unsure
                try:
                    inner = json.loads(text, strict=False)
                except ValueError:
                    raise Unsure from None
            elif '"' in inner:
                raise Unsure
            self.values[text] = inner
            return inner, row + 1
        if first == "'":
            if len(text) < 2 or text[-1] != "'":
                raise Unsure
            inner = text[1:-1]
            if "'" in inner:
                if "'" in inner.replace("''", ""):
                    raise Unsure
                inner = inner.replace("''", "'")
            self.values[text] = inner
            return inner, row + 1
        if first == "|":
            return self._literal(text, row, indent)
        if first == "{" or first == "[":
            if text == "{}":
                return {}, row + 1
            if text == "[]":
                return [], row + 1
            return self._flow(text), row + 1
        if first in _INDICATORS or (first == "-" and (len(text) == 1 or text[1] == " ")):
            raise Unsure
        if ": " in text or text[-1] == ":":
            raise Unsure  # a mapping value where this reader expects a scalar
        # A plain scalar. A deeper line after it would continue it: the caller refuses that line.
        if first not in self.resolvable:
            return text, row + 1
        found = self.values.get(text)
        if found is None:
            found = self.scalar(text)
            if found is None:
                return None, row + 1
            self.values[text] = found
        return found, row + 1

    def _flow(self, text: str):
        """A flow collection on one line (``{name: a, count: 2}``, ``[a, "b"]``), nested ones included.

        Only the plain part of flow style: keys and values that are plain
        scalars without ``:`` or ``#``, or quoted on the line; anything else
        (``[a: b]``, ``{a}``, empty entries, a trailing comma, a comment) is
        left to libyaml.
        """
        self.nested = 0  # (a collection given up on may have left a count behind)
        tokens = []
        end = 0
        for found in _FLOW_TOKEN.finditer(text):
            gap = text[end:found.start()]
            if gap.strip(" ") or (gap and found.group(1) == ":"):
                raise Unsure  # a character no token took, or a space before ":": outside this part
            tokens.append(found.groups(""))
            end = found.end()
        if text[end:].strip(" "):
            raise Unsure
        value, at = self._flow_node(tokens, 0, self.depth)
        if at != len(tokens):
            raise Unsure
        return value

    def _flow_node(self, tokens: list[tuple], at: int, depth: int):
        """The node starting at ``tokens[at]`` and the index after it; counts what it holds in ``nested``."""
        if at >= len(tokens):
            raise Unsure
        mark, scalar = tokens[at]
        if scalar:
            return self._flow_scalar(scalar), at + 1
        if mark not in ("{", "["):
            raise Unsure
        if depth >= self.limits.max_depth:
            raise Unsure
        closing, mapping = ("}", True) if mark == "{" else ("]", False)
        out: dict | list = {} if mapping else []
        at += 1
        if at < len(tokens) and tokens[at][0] == closing:
            return out, at + 1
        while True:
            if mapping:
                key_mark, raw_key = tokens[at] if at < len(tokens) else ("", "")
                if not raw_key or at + 1 >= len(tokens) or tokens[at + 1][0] != ":":
                    raise Unsure  # a key without ": ", or not a scalar
                key = self.key(self._flow_scalar(raw_key))
                if key in out:
                    raise Unsure
                out[key], at = self._flow_node(tokens, at + 2, depth + 1)
                self.nested += 2
            else:
                item, at = self._flow_node(tokens, at, depth + 1)
                out.append(item)
                self.nested += 1
            if at >= len(tokens):
                raise Unsure
            mark = tokens[at][0]
            if mark == closing:
                return out, at + 1
            if mark != "," or at + 1 >= len(tokens) or tokens[at + 1][0] in (",", closing):
                raise Unsure  # an empty entry or a trailing comma
            at += 1

    def _flow_scalar(self, token: str):
        """A scalar token of a flow collection: quoted, or plain and resolved as block values are."""
        first = token[0]
        if first == '"' or first == "'":
            value, _ = self.value(token, 0, 0)
            return value
        if first in _INDICATORS or first == "-" and (len(token) == 1 or token[1] == " "):
            raise Unsure
        if first not in self.resolvable:
            return token
        value = self.scalar(token)
        if value is None:
            raise Unsure  # an empty or null entry: left to libyaml
        return value

    def _literal(self, text: str, row: int, indent: int):
        """A ``|`` or ``|-`` block scalar whose lines follow ``row``; and the next row."""
        if text != "|" and text != "|-":
            raise Unsure
        lines = self.lines
        body = []
        column = None
        nxt = row + 1
        while nxt < len(lines):
            line = lines[nxt]
            stripped = line.lstrip(" ")
            if not stripped:
                if line and (column is None or len(line) > column):
                    raise Unsure  # spaces beyond the content's indentation: left to libyaml
                body.append("")
                nxt += 1
                continue
            lead = len(line) - len(stripped)
            if column is None:
                if lead <= indent:
                    break
                column = lead
            elif lead < column:
                if lead > indent:
                    raise Unsure
                break
            body.append(line[column:])
            last = nxt
            nxt += 1
        while body and body[-1] == "":
            body.pop()
        if column is None or not body:
            raise Unsure  # an empty block scalar
        value = "\n".join(body)
        # "|" keeps the last line's break, when there is one: the text may end right after it.
        return (value + "\n" if text == "|" and last < len(lines) - 1 else value), nxt
