"""Quick fixes of the decoder's errors, worked out on the YAML text: an unknown field with a did-you-mean
gets the name it proposes (``add_text_fixes``), and a v1beta1-shaped request under resource.k8s.io/v1
moves its fields under ``exactly:``.

The decoder reports each moved field (``deviceClassName``, ``count``...) as an unknown field with a hint
(``decode.exactly_hint``); this adds to each of them one edit of the YAML text that rewrites the whole
request: its other keys (``name``) stay, the moved ones go, in their order and two spaces deeper, under a
new ``exactly:`` key. Only block-style requests get the edit (a flow mapping, ``{name: gpu, count: 1}``,
or a request that already has ``exactly``, is left to the user).
"""

from __future__ import annotations

import re

from allocator.kube.decode import EXACTLY_FIELDS, INDENT_HINT
from allocator.reading.diagnostics import Diagnostic, Fix

TITLE = "Move under exactly:"
_HINT = "this field goes under exactly:"
# compiled at first use (re caches it): only a decoding error needs it, and start-up pays for each pattern
_DID_YOU_MEAN = r'unknown field "(?:[^"]*\.)?([^".]+)" \(did you mean "([^"]+)"\?\)'


def add_text_fixes(text: str, errors: list[Diagnostic]) -> None:
    """Give the decoder's errors their ``Fix`` (in place): a v1beta1-shaped request's fields move under
    ``exactly:`` (that comes first: it is the whole story of such a field); a misspelt field takes the
    name the message proposes."""
    if not errors:
        return
    lines = text.split("\n")
    for error in errors:
        if error.fixes or not error.line or not error.column or error.line > len(lines):
            continue
        if error.hint and _HINT in error.hint:
            fix = _fix(lines, error.line - 1, error.column - 1)
        elif error.hint and INDENT_HINT in error.hint:
            fix = _indent_key(lines, error)
        else:
            fix = _rename_key(lines, error)
        if fix is not None:
            error.fixes.append(fix)


def _indent_key(lines: list[str], error: Diagnostic) -> Fix | None:
    """Two spaces before the key the error points at (a key that belongs one level deeper)."""
    key = error.field.rsplit(".", 1)[-1]
    line, col = error.line, error.column
    if not lines[line - 1][col - 1:].startswith(key + ":"):
        return None  # quoted or not where the message points: no edit
    title = "Indent under cel:" if key == "expression" else "Indent under metadata:"
    return Fix(title, {"line": line, "column": col}, {"line": line, "column": col}, "  ")


def _rename_key(lines: list[str], error: Diagnostic) -> Fix | None:
    m = re.search(_DID_YOU_MEAN, error.detail or "")
    if not m:
        return None
    key, near = m.groups()
    line, col = error.line, error.column
    if lines[line - 1][col - 1:col - 1 + len(key) + 1] != key + ":":
        return None  # quoted or not where the message points: no edit
    return Fix(f"Use {near}", {"line": line, "column": col}, {"line": line, "column": col + len(key)}, near)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _fix(lines: list[str], row: int, col: int) -> Fix | None:
    """The edit for the request whose key at (row, col) (0-based) is a moved field."""
    if row >= len(lines):
        return None
    # The request's first line: the nearest "- " item line at or above ``row`` whose key starts at ``col``;
    # the lines between belong to it (as deep as its keys, or deeper).
    if col < 2:
        return None
    first = row
    while first >= 0:
        line = lines[first]
        if _indent(line) == col - 2 and line[col - 2:col] == "- ":
            break
        if line.strip() and not line.lstrip().startswith("#") and _indent(line) < col:
            return None
        first -= 1
    if first < 0:
        return None
    # The request's lines: from the item line to the last line deeper than its "- ".
    last = first
    k = first + 1
    while k < len(lines):
        line = lines[k]
        if line.strip() == "" or line.lstrip().startswith("#"):
            k += 1
            continue
        if _indent(line) < col:
            break
        last = k
        k += 1
    # Split into key blocks: a key line at ``col`` and the deeper lines after it.
    blocks: list[tuple[str, list[str]]] = []
    for k in range(first, last + 1):
        line = lines[k] if k != first else " " * col + lines[k][col:]
        body = line[col:]
        if _indent(line) == col and body and not body.startswith(("#", "- ")):
            key = body.split(":", 1)[0].strip().strip("\"'")
            if ":" not in body:
                return None
            blocks.append((key, [line]))
        elif blocks:
            blocks[-1][1].append(line)
        elif line.strip():
            return None
    keys = [key for key, _ in blocks]
    if "exactly" in keys or not any(key in EXACTLY_FIELDS for key in keys):
        return None
    pad = " " * col
    kept = [ln for key, block in blocks if key not in EXACTLY_FIELDS for ln in block]
    moved = [("  " + ln) if ln.strip() else ln for key, block in blocks if key in EXACTLY_FIELDS for ln in block]
    out = kept + [pad + "exactly:"] + moved
    while out and not out[-1].strip():
        out.pop()
    replacement = "\n".join(out)[col:]
    end_line = last
    return Fix(TITLE, {"line": first + 1, "column": col + 1},
               {"line": end_line + 1, "column": len(lines[end_line]) + 1}, replacement)
