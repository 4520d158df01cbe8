"""Input files are read to their end, up to one byte past the limit, whatever size they said they had; stdin in
chunks, never asking for the whole limit at once."""

from __future__ import annotations

import io
import sys

import pytest

from allocator.reading import inputfiles
from allocator.reading.inputfiles import InputError, _read_limited, read_input
from allocator.reading.limits import Limits


@pytest.mark.parametrize("expected", [0, 5, 9, 10, 11, 50])
def test_a_file_is_read_to_its_end_whatever_size_it_said_it_had(expected):
    # A file may have grown or shrunk since its size was asked (10 bytes now).
    assert _read_limited(io.BufferedReader(io.BytesIO(b"0123456789")), Limits(), expected) == b"0123456789"


@pytest.mark.parametrize("expected", [0, 5, 10, 20])
def test_no_more_than_one_byte_past_the_limit_is_read(expected):
    data = _read_limited(io.BufferedReader(io.BytesIO(b"x" * 30)), Limits(max_input_bytes=10), expected)
    assert data == b"x" * 11


class RecordingReader(io.BufferedReader):
    """A byte stream that remembers how much each read asked for."""

    def __init__(self, data: bytes):
        super().__init__(io.BytesIO(data))
        self.asked: list[int] = []

    def read(self, size=-1):
        self.asked.append(size)
        return super().read(size)


def stdin_of(monkeypatch, data: bytes) -> RecordingReader:
    reader = RecordingReader(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(reader, encoding="utf-8"))
    return reader


def test_stdin_over_the_limit_is_refused_after_reading_in_chunks(monkeypatch):
    monkeypatch.setattr(inputfiles, "CHUNK", 16)
    reader = stdin_of(monkeypatch, b"x" * 300)
    limits = Limits(max_input_bytes=100, advice={"max_input_bytes": "raise it with --max-input-bytes"})
    with pytest.raises(InputError) as caught:
        read_input("-", limits)
    assert str(caught.value) == ("<stdin>: input too large: more bytes, more than 100; "
                                 "raise it with --max-input-bytes")
    assert max(reader.asked) <= 16  # never the whole limit at once
    assert sum(reader.asked) <= 101 + 16  # and not much past it


def test_stdin_never_asks_for_the_whole_default_limit_at_once(monkeypatch):
    reader = stdin_of(monkeypatch, b"kind: Node\n" * 300_000)  # 3.3 MB: several chunks
    assert read_input("-", Limits()) == "kind: Node\n" * 300_000
    assert max(reader.asked) <= inputfiles.CHUNK < Limits().max_input_bytes


def test_a_text_stream_as_stdin_is_held_to_the_limit_too(monkeypatch):
    monkeypatch.setattr(inputfiles, "CHUNK", 16)
    monkeypatch.setattr(sys, "stdin", io.StringIO("é" * 60))  # 120 UTF-8 bytes
    with pytest.raises(InputError, match=r"^<stdin>: input too large: more bytes, more than 100$"):
        read_input("-", Limits(max_input_bytes=100))
    monkeypatch.setattr(sys, "stdin", io.StringIO("é" * 50))
    assert read_input("-", Limits(max_input_bytes=100)) == "é" * 50
