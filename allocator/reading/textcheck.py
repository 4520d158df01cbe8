"""What no reader should try: NUL bytes, lone surrogates, more bytes than the caller allows.

Checked before any reading, fast or positioned, and refused with a located message.
"""

from __future__ import annotations

from allocator.reading.diagnostics import PARSE, Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, MAX_INPUT_BYTES, Limits
from allocator.reading.positions import Position


def _fail(line: int | None, column: int | None, detail: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(field="", type=PARSE, detail=detail, line=line, column=column)])


def offset_position(text: str, offset: int) -> Position:
    """1-based (line, column) of a UTF-8 byte offset into ``text``."""
    data = text.encode("utf-8", "surrogatepass")[:offset]
    line_start = data.rfind(b"\n") + 1
    return data.count(b"\n") + 1, len(data[line_start:].decode("utf-8", "replace")) + 1


def check_text(text: str, limits: Limits = DEFAULT) -> None:
    """Refuse, located, what no reader should try: NUL bytes, lone surrogates, more bytes than allowed."""
    if "\x00" in text:
        at = text.index("\x00")
        line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        raise _fail(line, column, "input contains NUL bytes (binary data?)")
    # Only count bytes when the text might have too many: a character takes 1 to 4 bytes of UTF-8.
    if 4 * len(text) > limits.max_input_bytes:
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            size = 0  # reported below, located
        if size > limits.max_input_bytes:
            raise _fail(1, 1, limits.refusal(
                MAX_INPUT_BYTES, f"input too large: {size} bytes, more than {limits.max_input_bytes}"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            line, column = offset_position(text[: exc.start],
                                            len(text[: exc.start].encode("utf-8", "surrogatepass")))
            raise _fail(line, column, "input is not valid Unicode text (lone surrogate)") from None
