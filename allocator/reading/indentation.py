"""Which key is out of line, for a YAML syntax error that comes from indentation.

PyYAML says where it gave up ("did not find expected key", "mapping values are not allowed here"),
not why. In a block mapping every key starts in the same column, so a key line can go wrong in two
ways, both found here by looking at the keys written above it:

* it starts between the columns of two enclosing mappings, lining up with neither;
* it starts further right than the key just above it, whose value is already on that line, so YAML
  reads it as more of that value.
"""

from __future__ import annotations

import re

from allocator.reading.records import record

_LEAD = re.compile(r" *(?:- +)*")  # indentation and any "- " of sequence items
_COLON = re.compile(r":(?:[ \t]|$)")
_MAX_LINES_UP = 500


@record(frozen=True)
class KeyLine:
    line: int  # 1-based
    name: str
    column: int  # 1-based column of the key's first character
    has_value: bool  # a value follows the colon on the same line (not a block scalar or a comment)
    open_quote: bool = False  # that value is a quoted scalar that goes on past the end of the line

    def where(self) -> str:
        return f"\"{self.name}\" (line {self.line}, column {self.column})"


def key_line(text: str, number: int) -> KeyLine | None:
    """The key a block mapping line starts with (written in linear time: the text is the user's)."""
    text = text.rstrip("\r")
    lead = _LEAD.match(text).end()
    body = text[lead:]
    if not body or body[0] in "#-:{[ \t|>&*!?%@`":
        return None
    if body[0] in "\"'":
        end = body.find(body[0], 1)
        after = body[end + 1:].lstrip(" \t") if end > 0 else ""
        if not after.startswith(":") or (len(after) > 1 and after[1] not in " \t"):
            return None
        name, rest = body[1:end], after[1:]
    else:
        colon = _COLON.search(body)
        if colon is None:
            return None
        name, rest = body[:colon.start()].rstrip(" \t"), body[colon.end():]
        if "#" in name:
            return None
    rest = rest.strip()
    has_value = bool(rest) and not rest.startswith(("#", "|", ">", "&", "!"))
    return KeyLine(number, name, lead + 1, has_value, has_value and _quote_left_open(rest))


def _quote_left_open(value: str) -> bool:
    """Whether ``value`` starts a quoted scalar that its line does not close ('' and \\" are escapes)."""
    quote = value[0]
    if quote not in "'\"":
        return False
    index = 1
    while index < len(value):
        char = value[index]
        if quote == "'" and char == "'":
            if value[index + 1:index + 2] != "'":
                return False
            index += 1
        elif quote == '"' and char == "\\":
            index += 1
        elif quote == '"' and char == '"':
            return False
        index += 1
    return True


def _keys_above(lines: list[str], number: int) -> tuple[list[KeyLine], bool]:
    """The key lines above line ``number``, nearest first, up to the start of the YAML document or
    ``_MAX_LINES_UP`` lines; and whether they reach the document's start (all of its keys were seen)."""
    out = []
    lowest = max(-1, number - 2 - _MAX_LINES_UP)
    for index in range(number - 2, lowest, -1):
        text = lines[index]
        if text.startswith(("---", "...")):
            return out, True
        found = key_line(text, index + 1)
        if found is not None:
            out.append(found)
    return out, lowest == -1


def indentation_problem(text: str, line: int | None) -> tuple[str, str] | None:
    """(message, hint) when the key on ``line`` (1-based) is out of line with the keys above it."""
    lines = text.split("\n")
    if line is None or not 1 <= line <= len(lines):
        return None
    here = key_line(lines[line - 1], line)
    if here is None:
        return None
    above, whole = _keys_above(lines, line)
    if not above:
        return None
    previous = above[0]
    if here.column > previous.column:
        if not previous.has_value:
            return None  # the first key of a nested mapping
        if previous.open_quote:
            return None  # a line of that key's quoted value, where a colon is only text
        return (f"the key {here.where()} is indented further than {previous.where()}, whose value is already on "
                f"its line, so YAML reads \"{here.name}:\" as more of that value",
                f"move \"{here.name}\" to column {previous.column}, under \"{previous.name}\", if it belongs "
                "beside it; a nested mapping starts on a new line after a key with nothing after its colon")
    if here.column == previous.column:
        return None
    outer = next((k for k in above if k.column <= here.column), None)
    if outer is not None and outer.column == here.column:
        return None
    if outer is None and not whole:
        return None  # its mapping may start further up than we looked: say nothing rather than guess
    between = above[:above.index(outer)] if outer is not None else above
    inner = min(between, key=lambda k: (k.column, above.index(k)))
    message = f"the key {here.where()} lines up with no key above it: {inner.where()}"
    fix = f"move \"{here.name}\" to column {inner.column} to put it beside \"{inner.name}\""
    if outer is not None:
        message += f" and {outer.where()} start in other columns"
        fix += f", or to column {outer.column} to put it beside \"{outer.name}\""
    else:
        message += " starts in another column"
    return message, fix + " (keys of one mapping start in the same column)"
