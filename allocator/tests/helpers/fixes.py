"""A quick fix (its start and end as line and column) applied to the text it was made for."""

from __future__ import annotations


def offset(text: str, position: dict) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:position["line"] - 1]) + position["column"] - 1


def apply(text: str, fix: dict) -> str:
    return text[:offset(text, fix["start"])] + fix["replacement"] + text[offset(text, fix["end"]):]
