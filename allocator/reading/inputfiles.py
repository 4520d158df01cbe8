"""Reading the command line's input files (or stdin) as text, within ``Limits.max_input_bytes``.

A file larger than the limit is refused before it is read, so a mistaken
multi-gigabyte argument costs nothing; stdin is read in chunks up to one byte
past the limit (a read asks Python for as much memory as it asks for bytes, so
none asks for the whole limit, a GiB by default). The text must be UTF-8 (a
byte order mark is allowed).
"""

from __future__ import annotations

import os
import sys

from allocator.reading.limits import MAX_INPUT_BYTES, Limits

# The most one read of a stream of unknown length (stdin, a file that grew) asks for.
CHUNK = 1024 * 1024


class InputError(Exception):
    """The input cannot be read: ``reason`` says why (and, for a limit, how to change it); str() adds the source."""

    def __init__(self, source: str, reason: str):
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


def read_input(path: str, limits: Limits) -> str:
    """The text of ``path`` (``-`` is stdin)."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            if not hasattr(sys.stdin, "buffer"):  # replaced by a text stream (tests, embedding)
                return _newlines(_read_text_limited(sys.stdin, limits, source))
            data = _read_limited(sys.stdin.buffer, limits)
        else:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > limits.max_input_bytes:
                    raise InputError(source, _too_large(size, limits))
                data = _read_limited(handle, limits, expected=size)
        if len(data) > limits.max_input_bytes:
            raise InputError(source, _too_large(None, limits))
        return _newlines(data.decode("utf-8"))
    except OSError as err:
        raise InputError(source, f"cannot read: {err}") from None
    except UnicodeDecodeError as err:
        raise InputError(source, f"cannot read: not UTF-8 text: {err}") from None


def _newlines(text: str) -> str:
    """Line ends as a text-mode read gives them (\\r\\n and \\r become \\n), so positions do not change."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _read_limited(handle, limits: Limits, expected: int = 0) -> bytes:
    """Up to one byte past the limit, to the end. ``expected`` bytes (a file's size) are read first, at once;
    the rest (all of stdin, a file that has grown since its size was asked) in chunks of ``CHUNK``: a read of
    the limit's size at once has Python reserve that much (a GiB by default) and shrink it after."""
    first = handle.read(min(expected, limits.max_input_bytes) + 1)
    if len(first) <= expected:
        return first  # the end of the file (a read returns less than asked only there)
    parts = [first]
    left = limits.max_input_bytes + 1 - len(first)
    while left > 0:
        chunk = handle.read(min(CHUNK, left))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _read_text_limited(stream, limits: Limits, source: str) -> str:
    """A text stream's text, in chunks, refused once its UTF-8 form is over the limit."""
    parts: list[str] = []
    size = 0
    while chunk := stream.read(CHUNK):
        size += len(chunk.encode("utf-8", "surrogatepass"))
        if size > limits.max_input_bytes:
            raise InputError(source, _too_large(None, limits))
        parts.append(chunk)
    return "".join(parts)


def _too_large(size: int | None, limits: Limits) -> str:
    what = f"{size} bytes" if size is not None else "more bytes"
    return limits.refusal(MAX_INPUT_BYTES, f"input too large: {what}, more than {limits.max_input_bytes}")
