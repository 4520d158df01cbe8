"""What to do about two YAML syntax errors PyYAML words only by where it gave up.

* A value that starts with a quote or a bracket and goes on after it: ``expression: 'a' in
  device.attributes`` or ``expression: [1, 2].size() == 2``. YAML reads ``'a'`` as a quoted string (or
  ``[1, 2]`` as a list) and then meets more text where it expects the next key: "did not find expected
  key". CEL expressions often start so; the cure is to quote the whole value.
* A tab in a line's indentation: YAML indents with spaces only ("found character that cannot start any
  token").

Each hint comes with the edit that applies it (``Fix``).
"""

from __future__ import annotations

import re

from allocator.reading.diagnostics import Fix

_LEAD = re.compile(r"[ \t]*(?:-[ \t]+)*")
_COLON = re.compile(r":(?:[ \t]+|$)")
_CLOSING = {"[": "]", "{": "}"}


def syntax_hint(text: str, line: int | None) -> tuple[str, list[Fix]] | None:
    """(hint, fixes) for the syntax error reported on ``line`` (1-based), when one of the above is there
    (on that line or the one before, where PyYAML's mark may already have moved on)."""
    lines = text.split("\n")
    if line is None or not 1 <= line <= len(lines):
        return None
    for number in (line, line - 1):
        if number < 1:
            continue
        found = _tab_hint(lines[number - 1], number) or _quoting_hint(lines[number - 1], number)
        if found is not None:
            return found
    return None


def _tab_hint(text: str, number: int) -> tuple[str, list[Fix]] | None:
    indent = text[:len(text) - len(text.lstrip(" \t"))]
    if "\t" not in indent:
        return None
    spaces = indent.replace("\t", "  ")
    return (f"line {number} is indented with a tab: YAML indents with spaces only; put spaces in its place "
            "(as many as line up the key with its neighbours)",
            [Fix(title="Replace the tab with spaces", start={"line": number, "column": 1},
                 end={"line": number, "column": len(indent) + 1}, replacement=spaces)])


def _quoting_hint(text: str, number: int) -> tuple[str, list[Fix]] | None:
    text = text.rstrip("\r")
    lead = _LEAD.match(text).end()
    colon = _COLON.search(text, lead)
    if colon is None or colon.end() >= len(text):
        return None
    key = text[lead:colon.start()].strip()
    if not key or key[0] in "'\"#[{":
        return None
    start = colon.end()
    value = text[start:].rstrip(" \t")
    end = _end_of_first_node(value)
    if end is None or not value[end:].strip() or value[end:].lstrip().startswith("#"):
        return None  # nothing after the quoted string or the list: not this mistake
    opener = "a quote" if value[0] in "'\"" else "a bracket"
    quoted = _double_quoted(value) if " #" not in value else None
    hint = (f"the value of \"{key}\" starts with {opener}, so YAML reads {value[:end]} as the whole value and "
            f"stops at what follows; put the whole value in quotes"
            + (f": {key}: {quoted}" if quoted else "") + " (or write it as a block scalar after \"|-\")")
    if quoted is None:
        return hint, []
    return hint, [Fix(title="Quote the whole value", start={"line": number, "column": start + 1},
                      end={"line": number, "column": start + len(value) + 1}, replacement=quoted)]


def _end_of_first_node(value: str) -> int | None:
    """Where the quoted scalar or flow collection ``value`` starts with ends (an index), or None."""
    first = value[:1]
    if first == "'":
        index = 1
        while index < len(value):
            if value[index] == "'":
                if value[index + 1:index + 2] == "'":
                    index += 2
                    continue
                return index + 1
            index += 1
        return None
    if first == '"':
        index = 1
        while index < len(value):
            if value[index] == "\\":
                index += 2
                continue
            if value[index] == '"':
                return index + 1
            index += 1
        return None
    if first in _CLOSING:
        depth = 0
        for index, char in enumerate(value):
            if char in "[{":
                depth += 1
            elif char in "]}":
                depth -= 1
                if depth == 0:
                    return index + 1
        return None
    return None


def _double_quoted(value: str) -> str:
    """``value`` as a YAML double-quoted scalar that reads back as exactly ``value``."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
