"""What an expression already does about a name: the reads a presence test guards, and the comparisons
of a string literal with an attribute. Worked out from the source alone, for the hints (``hints``).

CEL's ``&&`` is false as soon as one operand is false, whatever error another one gives, ``||`` is true
as soon as one operand is true, and ``? :`` evaluates only the branch its condition picks. So a read
of ``x.name`` (or ``x["name"]``) cannot fail for a missing key when it sits

* in an ``&&`` chain of which another operand is ``has(x.name)`` or ``"name" in x``;
* in an ``||`` chain of which another operand is ``!has(x.name)`` or ``!("name" in x)``;
* in the branch of ``? :`` that the condition's presence test picks.

Operands are compared by their source text (spaces dropped, quotes made alike), with ``cel.bind``
variables replaced by what they are bound to.
"""

from __future__ import annotations

import functools
import re

from allocator.cel.parser import Node, ParseError, children, parse
from allocator.reading.records import record

GUARDED = "guarded"  # every read of the name is guarded by a presence test
MISPLACED = "misplaced"  # a presence test of the name is there, but does not guard every read of it

_DOMAIN_MAP = re.compile(r'device\.(attributes|capacity)\["([^"\\]*)"\]')
_EQUALITY = {"_==_": "==", "_!=_": "!="}


@record(frozen=True)
class Read:
    """A read of ``name`` from ``operand`` (normalized text) that fails when the key is missing."""

    node: Node
    operand: str
    name: str
    guarded: bool

    @property
    def domain(self) -> tuple[str, str] | None:
        """("attributes" or "capacity", domain) when the operand is ``device.attributes["<domain>"]``."""
        match = _DOMAIN_MAP.fullmatch(self.operand)
        return (match.group(1), match.group(2)) if match else None


@record(frozen=True)
class Analysis:
    reads: tuple[Read, ...]
    presence: frozenset[tuple[str, str]]  # (operand, name) of every presence test in the expression
    literal_comparisons: tuple[tuple[Node, str, Read | None, bool], ...]  # (node, operator, read, literal first)


@functools.lru_cache(maxsize=256)
def analyze(expression: str) -> Analysis | None:
    """The reads, presence tests and string comparisons of ``expression``; None if it does not parse."""
    try:
        root = parse(expression)
    except (ParseError, RecursionError):
        return None
    walker = _Walker(expression)
    try:
        walker.walk(root, {}, frozenset())
    except RecursionError:
        return None
    return Analysis(tuple(walker.reads), frozenset(walker.presence), tuple(walker.comparisons))


def guard_state(expression: str, name: str, within: tuple[int, int] | None = None) -> str | None:
    """``GUARDED``, ``MISPLACED`` or None for the reads of ``name`` (those inside the span ``within``)."""
    found = analyze(expression)
    if found is None:
        return None
    reads = [r for r in found.reads if r.name == name and _inside(r.node, within)]
    if not reads:
        return None
    if all(r.guarded for r in reads):
        return GUARDED
    if any(p_name == name for _, p_name in found.presence):
        return MISPLACED
    return None


def reads_of(expression: str, name: str, within: tuple[int, int] | None = None) -> list[Read]:
    found = analyze(expression)
    return [r for r in found.reads if r.name == name and _inside(r.node, within)] if found else []


def string_comparisons(expression: str, within: tuple[int, int] | None = None) -> list[tuple[Node, str, Read, bool]]:
    """``==``/``!=`` of a string literal with an attribute read: (node, operator, read, literal written first)."""
    found = analyze(expression)
    if found is None:
        return []
    return [(node, op, read, first) for node, op, read, first in found.literal_comparisons
            if read is not None and _inside(node, within)]


def _inside(node: Node, span: tuple[int, int] | None) -> bool:
    return span is None or (span[0] <= node.start and node.end <= span[1])


class _Walker:
    def __init__(self, source: str):
        self.source = source
        self.reads: list[Read] = []
        self.presence: set[tuple[str, str]] = set()
        self.comparisons: list[tuple[Node, str, Read | None, bool]] = []

    def text(self, node: Node, binds: dict) -> str:
        if node.kind == "ident" and node.name in binds:
            return binds[node.name]
        return re.sub(r"\s+", "", self.source[node.start:node.end]).replace("'", '"')

    def present(self, node: Node, binds: dict) -> tuple[str, str] | None:
        """(operand, name) when ``n`` is ``has(operand.name)`` or ``"name" in operand``."""
        if node.kind == "select" and node.mode == "has":
            return self.text(node.operand, binds), node.field
        if node.kind == "call" and node.function == "@in" and len(node.args) == 2 and node.args[0].kind == "lit" and type(node.args[0].value) is str:
            return self.text(node.args[1], binds), node.args[0].value
        return None

    def absent(self, node: Node, binds: dict) -> tuple[str, str] | None:
        """(operand, name) when ``n`` is the negation of a presence test."""
        if node.kind == "call" and node.function == "!_" and node.target is None:
            return self.present(node.args[0], binds)
        return None

    def read(self, node: Node, binds: dict, guards: frozenset) -> Read | None:
        if node.kind == "select" and node.mode == "":
            operand, name = self.text(node.operand, binds), node.field
        elif (node.kind == "call" and node.function == "_[_]" and node.target is None and len(node.args) == 2 and node.args[1].kind == "lit"
              and type(node.args[1].value) is str):
            operand, name = self.text(node.args[0], binds), node.args[1].value
        else:
            return None
        if operand in ("device", "device.attributes", "device.capacity"):
            return None  # a field of the device, or a domain: never missing (an unknown domain reads as {})
        return Read(node, operand, name, (operand, name) in guards)

    def walk(self, node: Node, binds: dict, guards: frozenset) -> None:
        if not isinstance(node, Node):
            return
        test = self.present(node, binds)
        if test is not None:
            self.presence.add(test)
        if node.kind == "call" and node.function in ("_&&_", "_||_") and node.target is None:
            operands = _chain(node, node.function)
            check = self.present if node.function == "_&&_" else self.absent
            added = {k for k in (check(o, binds) for o in operands) if k is not None}
            for o in operands:
                self.walk(o, binds, guards | added)
            return
        if node.kind == "call" and node.function == "_?_:_" and len(node.args) == 3:
            cond, yes, no = node.args
            self.walk(cond, binds, guards)
            self.walk(yes, binds, guards | self._when_true(cond, binds))
            self.walk(no, binds, guards | self._when_false(cond, binds))
            return
        if node.kind == "bind":
            self.walk(node.init, binds, guards)
            self.walk(node.body, {**binds, node.name: self.text(node.init, binds)}, guards)
            return
        found = self.read(node, binds, guards)
        if found is not None:
            self.reads.append(found)
        if node.kind == "call" and node.function in _EQUALITY and len(node.args) == 2:
            self._comparison(node, binds, guards)
        for child in children(node):
            self.walk(child, binds, guards)

    def _comparison(self, node: Node, binds: dict, guards: frozenset) -> None:
        left, right = node.args
        for lit, other, first in ((left, right, True), (right, left, False)):
            if lit.kind == "lit" and type(lit.value) is str:
                self.comparisons.append((node, _EQUALITY[node.function], self.read(other, binds, guards), first))
                return

    def _when_true(self, cond: Node, binds: dict) -> frozenset:
        tests = _chain(cond, "_&&_")
        return frozenset(k for k in (self.present(t, binds) for t in tests) if k is not None)

    def _when_false(self, cond: Node, binds: dict) -> frozenset:
        tests = _chain(cond, "_||_")
        return frozenset(k for k in (self.absent(t, binds) for t in tests) if k is not None)


def _chain(node: Node, op: str) -> list[Node]:
    if node.kind == "call" and node.function == op and node.target is None:
        return _chain(node.args[0], op) + _chain(node.args[1], op)
    return [node]
