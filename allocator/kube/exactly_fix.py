"""The quick fix of a v1beta1-shaped request under resource.k8s.io/v1: move its fields under ``exactly:``.

The decoder reports each moved field (``deviceClassName``, ``count``...) as an unknown field with a hint
(``decode.exactly_hint``); this adds to each of them one edit of the YAML text that rewrites the whole
request: its other keys (``name``) stay, the moved ones go, in their order and two spaces deeper, under a
new ``exactly:`` key. Only block-style requests get the edit (a flow mapping, ``{name: gpu, count: 1}``,
or a request that already has ``exactly``, is left to the user).
"""

from __future__ import annotations

from allocator.kube.decode import EXACTLY_FIELDS
from allocator.reading.diagnostics import Diagnostic, Fix

TITLE = "Move under exactly:"
_HINT = "this field goes under exactly:"


def add_exactly_fixes(text: str, errors: list[Diagnostic]) -> None:
    """Give each unknown-field error of a v1beta1-shaped request its ``Fix`` (in place)."""
    if not any(e.hint and _HINT in e.hint for e in errors):
        return
    lines = text.split("\n")
    for error in errors:
        if error.hint and _HINT in error.hint and error.line and error.column and not error.fixes:
            fix = _fix(lines, error.line - 1, error.column - 1)
            if fix is not None:
                error.fixes.append(fix)


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
