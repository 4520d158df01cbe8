"""Positions in the user's text, and the containers that remember them.

Mappings read with positions are ``PosDict`` and sequences ``PosList``:
ordinary dicts and lists that also hold the 1-based line and column of
themselves, of each key and of each value. Converting between API versions
moves these containers around, so positions survive the move. Nothing heavy
is imported here: the fast readers and decoding use it without PyYAML.
"""

from __future__ import annotations

Position = tuple[int, int]  # (line, column), both 1-based


class PosDict(dict):
    """A mapping with positions: ``pos`` (itself), ``key_pos`` and ``value_pos``."""

    def __init__(self, *args, pos: Position | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.pos = pos
        self.key_pos: dict[str, Position] = {}
        self.value_pos: dict[str, Position] = {}

    def position_of(self, key: str) -> Position | None:
        return self.value_pos.get(key) or self.key_pos.get(key) or self.pos


class PosList(list):
    """A sequence with positions: ``pos`` (itself) and ``item_pos``."""

    def __init__(self, *args, pos: Position | None = None):
        super().__init__(*args)
        self.pos = pos
        self.item_pos: list[Position | None] = []

    def position_of(self, index: int) -> Position | None:
        if 0 <= index < len(self.item_pos):
            return self.item_pos[index] or self.pos
        return self.pos


def position_in(container, key) -> Position | None:
    """The position of ``container[key]`` when ``container`` knows it."""
    if hasattr(container, "position_of"):
        return container.position_of(key)
    return None
