"""The CEL syntax tree: one small class per node kind, each with named fields and ``children()``.

Every node has ``kind`` (a class attribute: lit, ident, select, call, list, map, struct, comp, bind, which
the checker, the cost estimate and the compiler dispatch on), its offset ``pos``, the source span
[``start``, ``end``) of the whole sub-expression (explanations underline it), the static ``type`` the
checker infers and a unique ``id`` the parser gives it.
"""

from __future__ import annotations

from allocator.reading.records import NamedTuple


class Node:
    __slots__ = ("pos", "start", "end", "type", "id")
    kind = ""

    def __init__(self, pos: int):
        self.pos = pos
        self.start = pos
        self.end = pos
        self.type = None
        self.id = 0

    def children(self) -> tuple[Node, ...]:
        """The sub-expressions in source order (a macro's: its range, then its bodies)."""
        return ()

    def __repr__(self):  # pragma: no cover - debugging aid
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__slots__)
        return f"{type(self).__name__}({fields})"


class Literal(Node):
    """``1``, ``2u``, ``1.5``, ``"s"``, ``b"s"``, ``true``, ``null``: ``value`` is the Python value."""

    __slots__ = ("value",)
    kind = "lit"

    def __init__(self, pos: int, value):
        super().__init__(pos)
        self.value = value


class Ident(Node):
    __slots__ = ("name",)
    kind = "ident"

    def __init__(self, pos: int, name: str):
        super().__init__(pos)
        self.name = name


class Select(Node):
    """``operand.field``; ``mode`` is "" for a plain read, "has" inside ``has()``, "opt" for ``.?field``."""

    __slots__ = ("operand", "field", "mode")
    kind = "select"

    def __init__(self, pos: int, operand: Node, field: str, mode: str = ""):
        super().__init__(pos)
        self.operand = operand
        self.field = field
        self.mode = mode

    def children(self):
        return (self.operand,)


class Call(Node):
    """A function or operator (``_==_``, ``_[_]``, ...) on ``args``; ``target`` is a member call's receiver."""

    __slots__ = ("function", "target", "args")
    kind = "call"

    def __init__(self, pos: int, function: str, target: Node | None, args: list[Node]):
        super().__init__(pos)
        self.function = function
        self.target = target
        self.args = args

    def children(self):
        return tuple(self.args) if self.target is None else (self.target, *self.args)


class ListLiteral(Node):
    """``[a, ?b]``: ``optional_indexes`` are the positions of the elements written ``?e``."""

    __slots__ = ("elements", "optional_indexes")
    kind = "list"

    def __init__(self, pos: int, elements: list[Node], optional_indexes: frozenset[int]):
        super().__init__(pos)
        self.elements = elements
        self.optional_indexes = optional_indexes

    def children(self):
        return tuple(self.elements)


class MapEntry(NamedTuple):
    key: Node
    value: Node
    optional: bool  # written ``?key: value``


class MapLiteral(Node):
    __slots__ = ("entries",)
    kind = "map"

    def __init__(self, pos: int, entries: list[MapEntry]):
        super().__init__(pos)
        self.entries = entries

    def children(self):
        return tuple(part for entry in self.entries for part in (entry.key, entry.value))


class StructField(NamedTuple):
    name: str
    value: Node
    optional: bool  # written ``?name: value``


class StructLiteral(Node):
    """``Name{field: value}``: parsed to be refused (the DRA environment declares no message types)."""

    __slots__ = ("type_name", "fields")
    kind = "struct"

    def __init__(self, pos: int, type_name: str, fields: list[StructField]):
        super().__init__(pos)
        self.type_name = type_name
        self.fields = fields

    def children(self):
        return tuple(field.value for field in self.fields)


class Comprehension(Node):
    """An expanded macro: ``macro`` (all, exists, exists_one, map, map_filter, filter, transformList, ...)
    over ``range`` with one or two ``variables``; ``bodies`` are the macro's expressions after the
    variables (a predicate, a transform, or both); ``written`` is the name as written, for messages."""

    __slots__ = ("macro", "range", "variables", "bodies", "written")
    kind = "comp"

    def __init__(self, pos: int, macro: str, range: Node, variables: tuple[str, ...], bodies: list[Node],
                 written: str):
        super().__init__(pos)
        self.macro = macro
        self.range = range
        self.variables = variables
        self.bodies = bodies
        self.written = written

    def children(self):
        return (self.range, *self.bodies)


class Bind(Node):
    """``cel.bind(name, init, body)``."""

    __slots__ = ("name", "init", "body")
    kind = "bind"

    def __init__(self, pos: int, name: str, init: Node, body: Node):
        super().__init__(pos)
        self.name = name
        self.init = init
        self.body = body

    def children(self):
        return (self.init, self.body)


def children(node: Node) -> tuple[Node, ...]:
    """The sub-expressions of ``node`` in source order; a macro's are its range, then its bodies."""
    return node.children()
