"""Quick fixes for the hints (``hints``): the edit that does what a hint says, in expression offsets.

Each function returns an ``ExprFix`` (or None when no mechanical edit fits): replace
``expression[start:end]`` with ``replacement``. Callers map the span into the YAML document
(``validation.cel.ExpressionLocator.fix``); applying the edit and analyzing again removes the hint.
"""

from __future__ import annotations

from allocator.cel.guards import Read, analyze
from allocator.cel.parser import Node, ParseError, parse
from allocator.reading.records import record

ORDERING = {"_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">="}
_ORDERING = ORDERING
_LOGIC = {"_&&_", "_||_", "_?_:_", "!_"}


@record(frozen=True)
class ExprFix:
    title: str
    start: int
    end: int
    replacement: str


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def rename(title: str, start: int, end: int, name: str) -> ExprFix:
    """Replace the name (or domain) at [start, end) with ``name``."""
    return ExprFix(title, start, end, name)


def semver_literal(node: Node, wrapped: str) -> ExprFix:
    """Wrap the string literal ``node`` (compared with a version) in semver(...): ``wrapped``."""
    return ExprFix("Wrap in semver()", node.start, node.end, wrapped)


def has_guard(expression: str, key: str) -> ExprFix | None:
    """Guard the first unguarded read of ``key``: the operand of the logic it sits in becomes
    ``has(read) && operand`` (in parentheses unless it is the whole expression)."""
    found = analyze(expression)
    if found is None:
        return None
    read = next((r for r in found.reads if r.name == key and not r.guarded), None)
    if read is None:
        return None
    test = _presence(expression, read)
    if test is None:
        return None
    root = parse(expression)
    chain = _ancestors(root, read.node)
    if not chain:
        return None
    atom = chain[-1]
    for parent in reversed(chain[:-1]):
        if parent.kind == "call" and parent.function in _LOGIC:
            break
        atom = parent
    text = expression[atom.start:atom.end]
    replacement = f"{test} && {text}" if atom is root else f"({test} && {text})"
    return ExprFix(f"Guard with {test}", atom.start, atom.end, replacement)


def _presence(expression: str, read: Read) -> str | None:
    node = read.node
    if node.kind == "select":
        return f"has({expression[node.start:node.end]})"
    if node.kind == "call" and node.function == "_[_]" and node.args and len(node.args) == 2:
        target = node.args[0]
        return f"{quoted(read.name)} in {expression[target.start:target.end]}"
    return None


def _ancestors(root: Node, target: Node) -> list[Node]:
    """The nodes from ``root`` down to the node with ``target``'s kind and span (both included), or []."""
    stack = [(root, [root])]
    while stack:
        node, path = stack.pop()
        if (node.kind, node.start, node.end) == (target.kind, target.start, target.end):
            return path
        for child in node.children():
            stack.append((child, path + [child]))
    return []


def compare_to(expression: str, operator_call: str, opaque_first: bool, wrap: str | None,
               offset: int | None = None) -> ExprFix | None:
    """``a >= b`` on quantities or versions -> ``a.compareTo(b) >= 0``. ``operator_call`` is cel-go's
    function (``_>=_``); ``opaque_first`` whether the left operand is the quantity/version; ``wrap``
    the function ("quantity", "semver") for the other operand when it is a string literal, else None.
    ``offset``: where cel-go placed the error, to choose among several comparisons."""
    try:
        root = parse(expression)
    except (ParseError, RecursionError):
        return None
    found = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind == "call" and node.function == operator_call and node.args and len(node.args) == 2:
            found.append(node)
        stack.extend(node.children())
    if offset is not None and len(found) > 1:
        found = [n for n in found if n.start <= offset < n.end] or found
    if len(found) != 1:
        return None
    node = found[0]
    left, right = node.args
    texts = [expression[left.start:left.end], expression[right.start:right.end]]
    other = 1 if opaque_first else 0
    if wrap is not None:
        literal = node.args[other]
        if not (literal.kind == "lit" and isinstance(literal.value, str)):
            return None
        texts[other] = f"{wrap}({texts[other]})"
    # a OP b is a.compareTo(b) OP 0, whichever side is the quantity or version (a dyn side is one at runtime)
    return ExprFix("Use compareTo", node.start, node.end, f"{texts[0]}.compareTo({texts[1]}) {_ORDERING[operator_call]} 0")


def ordered_string_literals(expression: str) -> list[tuple[Node, Node, Node]]:
    """``<``, ``<=``, ``>``, ``>=`` with a string literal on one side: (comparison, literal, other side)."""
    try:
        root = parse(expression)
    except (ParseError, RecursionError):
        return []
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.kind == "call" and node.function in _ORDERING and node.args and len(node.args) == 2:
            left, right = node.args
            for literal, other in ((left, right), (right, left)):
                if literal.kind == "lit" and isinstance(literal.value, str) and other.kind != "lit":
                    out.append((node, literal, other))
        stack.extend(node.children())
    return sorted(out, key=lambda t: t[0].start)
