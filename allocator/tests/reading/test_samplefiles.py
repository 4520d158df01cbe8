"""A sample file given where objects are expected gets its note; other texts none (``reading.samplefiles``)."""

from __future__ import annotations

from allocator.reading.samplefiles import sample_file_note
from allocator.tests.helpers import ROOT


def test_a_sample_file_gets_the_note_with_its_slug():
    text = (ROOT / "playground/samples/examples/admin-access.yaml").read_text()
    note = sample_file_note(text)
    assert note is not None and "sample 'admin-access'" in note
    assert note.endswith("python -m allocator sample admin-access")


def test_a_slug_with_objects_after_it():
    assert sample_file_note("title: x\nslug: 'gpu-basics'\nobjects: []\n") is not None
    assert "sample 'gpu-basics'" in (sample_file_note("slug: gpu-basics\ndocuments: []\n") or "")


def test_objects_and_texts_without_a_slug_line_get_none():
    assert sample_file_note("apiVersion: v1\nkind: Node\nmetadata: {name: a}\n") is None
    assert sample_file_note("") is None
    assert sample_file_note("metadata: {labels: {slug: x}}\nobjects: []\n") is None  # not at a line's start
    assert sample_file_note("slug: x\nkind: Node\nobjects: []\n") is None  # objects after all
    assert sample_file_note("slug: x\nnothing: []\n") is None
