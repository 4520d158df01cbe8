"""Input files are read to their end, up to one byte past the limit, whatever size they said they had."""

from __future__ import annotations

import io

import pytest

from allocator.reading.inputfiles import _read_limited
from allocator.reading.limits import Limits


@pytest.mark.parametrize("expected", [0, 5, 9, 10, 11, 50])
def test_a_file_is_read_to_its_end_whatever_size_it_said_it_had(expected):
    # A file may have grown or shrunk since its size was asked (10 bytes now).
    assert _read_limited(io.BufferedReader(io.BytesIO(b"0123456789")), Limits(), expected) == b"0123456789"


@pytest.mark.parametrize("expected", [0, 5, 10, 20])
def test_no_more_than_one_byte_past_the_limit_is_read(expected):
    data = _read_limited(io.BufferedReader(io.BytesIO(b"x" * 30)), Limits(max_input_bytes=10), expected)
    assert data == b"x" * 11
