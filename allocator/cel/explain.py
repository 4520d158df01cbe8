"""Why a selector is false on a device: the parts of the expression that decided it, with the values read.

The explanation re-evaluates sub-expressions of a compiled selector with the closures the compiler built
for them, so it sees exactly what the selector saw. It descends through the operators that combine
verdicts (``&&``, ``||``, ``!``, ``? :`` and ``cel.bind``) and stops at the first part that is not one of
them (a comparison, ``in``, ``has()``, a function call, a macro): that part decided. For it, it reports
its source span, the values it read from the device (``memory`` = 80Gi) and, for comparisons, both sides.

It follows CEL's evaluation, not the source's shape: ``&&`` and ``||`` absorb an error when another
operand decides (``false && error`` is false, ``true || error`` is true), so such an error is not shown;
a part is shown as an error only when its error reaches the selector's value. ``? :`` is explained by
the branch it took, and a macro (``all``, ``exists``, ...) by its own value, which absorbs errors likewise.

Only used to explain a verdict the allocator already reached: its work is bounded by the size of the
expression (each sub-expression is evaluated at most once), and each evaluation has the runtime cost
limit of the selector itself (it evaluates parts the selector evaluated within that limit).
"""

from __future__ import annotations

from typing import ClassVar

from allocator.cel import internal_error_message
from allocator.cel import types as T
from allocator.cel.compiler import COST_LIMIT, Budget, LazyBinding
from allocator.cel.hints import runtime_hint
from allocator.cel.parser import Node
from allocator.cel.values import Abort, CELError, Optional, TypeValue, type_name
from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version
from allocator.reading.records import field, record

_COMPARISONS = {"_==_": "==", "_!=_": "!=", "_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">=", "@in": "in"}
_MAX_PARTS = 8
_MAX_VALUE = 60


@record
class Read:
    """A value the part read from the device: ``text`` as written, ``name`` short, ``value`` as CEL shows it."""

    text: str
    name: str
    value: str | None  # None when the device has no such value

    def to_dict(self) -> dict:
        return {"text": self.text, "name": self.name, "value": self.value}

    @classmethod
    def from_dict(cls, data: dict) -> Read:
        return cls(text=data["text"], name=data["name"], value=data["value"])


@record
class Part:
    """One part of the expression that decided the verdict."""

    kind: ClassVar[str] = "selector"  # beside a device's counter parts (``allocation.counters.Shortage``)
    start: int
    end: int
    text: str
    verdict: str  # "false", "true" (under a `!`) or "error"
    error: str | None = None
    operator: str | None = None  # for comparisons
    left: str | None = None
    right: str | None = None
    reads: list[Read] = field(default_factory=list)
    hint: str | None = None  # advice for a failed part (see ``hints``)
    # The quick fixes of the hint, once the engine has placed them in the YAML text (``engine._why_fixes``):
    # None until then, and left out of the JSON while None.
    fixes: list[dict] | None = None

    def summary(self) -> str:
        """E.g. `memory.compareTo(quantity("100Gi")) >= 0` is false (memory = 80Gi)."""
        if self.verdict == "error":
            return f"`{self.text}` fails: {self.error}"
        values = [f"{r.name} = {r.value}" if r.value is not None else f"{r.name} is missing" for r in self.reads]
        if not values and self.operator is not None:
            values = [f"{self.left} {self.operator} {self.right}"]
        return f"`{self.text}` is {self.verdict}" + (f" ({', '.join(values)})" if values else "")

    def to_dict(self) -> dict:
        out = {"start": self.start, "end": self.end, "text": self.text, "verdict": self.verdict,
                "error": self.error, "operator": self.operator, "left": self.left, "right": self.right,
                "reads": [r.to_dict() for r in self.reads], "summary": self.summary(), "hint": self.hint}
        if self.fixes is not None:
            out["fixes"] = self.fixes
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Part:
        """A part as ``to_dict`` (and the hints fitted to it: ``hints.fitted_parts``) wrote it."""
        return cls(start=data["start"], end=data["end"], text=data["text"], verdict=data["verdict"],
                   error=data["error"], operator=data["operator"], left=data["left"], right=data["right"],
                   reads=[Read.from_dict(r) for r in data["reads"]], hint=data["hint"], fixes=data.get("fixes"))


def show(value, limit: int | None = _MAX_VALUE) -> str:
    """A value as CEL would write it, shortened to ``limit`` characters (None: whole)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    elif isinstance(value, str):
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif isinstance(value, Quantity):
        text = str(value)
    elif isinstance(value, Version):
        text = f"{value} (version)"
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(show(v, limit) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{show(k, limit)}: {show(v, limit)}" for k, v in value.items()) + "}"
    elif isinstance(value, Optional):
        text = f"optional.of({show(value.value, limit)})" if value.present else "optional.none()"
    elif isinstance(value, TypeValue):
        text = value.name
    else:
        text = str(value)
    return text if limit is None or len(text) <= limit else text[: limit - 3] + "..."


class _Explainer:
    def __init__(self, selector, device: dict):
        self.source = selector.expression
        self.closures = selector.closures
        self.device = device
        self.budget = Budget(COST_LIMIT)
        self.parts: list[Part] = []
        self.values: dict[tuple[int, int], tuple] = {}  # (node id, id(act)) -> (value, error)
        self.acts: list[dict] = []  # the activations keyed by id() above, kept alive
        self.aborted: set[int] = set()  # nodes whose evaluation was aborted (cost limit, internal error)

    def act(self) -> dict:
        act = {"device": self.device, "@budget": self.budget}
        self.acts.append(act)
        return act

    def value(self, node: Node, act: dict):
        """(value, error message): evaluate one sub-expression as the selector did, once per activation."""
        key = (node.id, id(act))
        found = self.values.get(key)
        if found is None:
            found = self.values[key] = self._evaluate(node, act)
        return found

    def _evaluate(self, node: Node, act: dict):
        # Each evaluation may spend what the whole selector may: the explanation evaluates parts the
        # selector evaluated within its limit, and their sum must not make one of them fail.
        self.budget.reset(COST_LIMIT)
        try:
            return self.closures[node.id](act), None
        except Abort as e:  # ends the whole evaluation: no operator absorbs it
            self.aborted.add(node.id)
            return None, e.message
        except CELError as e:
            return None, e.message
        except (KeyError, RecursionError):  # a variable of an enclosing macro: not evaluable alone
            return None, None
        except Exception as e:  # noqa: BLE001 - a bug of ours is shown as such, never raised into a page
            return None, internal_error_message(e)

    def why(self, node: Node, act: dict, want: bool) -> None:
        """Explain why ``n`` is not ``want``: it evaluated to the other bool, or failed.

        Only what reaches ``n``'s value is explained, as CEL evaluates: an ``&&`` that is false is false
        because of its false operands, whatever the others did (an error there is absorbed, so it is not
        shown), and an ``||`` that is true because of its true operands; an ``&&`` or ``||`` that failed
        did so because of its failing operands (and, for the value wanted, those that were not it); a
        ``? :`` is explained by the branch taken.
        """
        if len(self.parts) >= _MAX_PARTS:
            return
        value, error = self.value(node, act)
        if error is None and value is want:
            return  # nothing to explain: n is what was wanted
        before = len(self.parts)
        if self.through(node, act, want, value, error) and len(self.parts) > before:
            return
        if len(self.parts) < _MAX_PARTS:  # n decided itself (or its operands, each alone, do not show why)
            self.parts.append(self.leaf(node, act))

    def through(self, node: Node, act: dict, want: bool, value, error) -> bool:
        """Explain ``n`` by its operands if it combines verdicts; False when ``n`` is itself the part."""
        if node.kind == "call" and node.function in ("_&&_", "_||_") and node.target is None:
            operands = _chain(node, node.function)
            outcomes = [self.value(operand, act) for operand in operands]
            if error is None:
                # n is a bool: the operands that have that value decided it, any error beside them was absorbed.
                for operand, (v, e) in zip(operands, outcomes, strict=True):
                    if e is None and v is value:
                        self.why(operand, act, want)
                return True
            failing = any(e is not None for _, e in outcomes)
            if failing and all(e is not None or type(v) is bool for v, e in outcomes):
                # No operand decided (none is false for &&, true for ||), so the failing ones reach the
                # result; beside them, the operands that are not `want` either (the false alternatives of
                # an || that should be true: one true alternative would have absorbed the error).
                aborted = any(operand.id in self.aborted for operand in operands)
                for operand, (v, e) in zip(operands, outcomes, strict=True):
                    if operand.id in self.aborted or (not aborted and (e is not None or v is not want)):
                        self.why(operand, act, want)
                return True
            # An operand that is not a bool (the operator itself fails: no such overload), or no operand
            # fails alone (together they exceeded the cost limit): n is the part.
        elif node.kind == "call" and node.function == "!_" and node.target is None:
            inner, inner_error = self.value(node.args[0], act)
            if inner_error is not None or type(inner) is bool:
                self.why(node.args[0], act, not want)
                return True
        elif node.kind == "call" and node.function == "_?_:_":
            cond, cond_error = self.value(node.args[0], act)
            if cond_error is not None:
                self.why(node.args[0], act, True)  # the condition failed: only its error reaches the result
                return True
            if type(cond) is bool:
                self.why(node.args[1] if cond else node.args[2], act, want)  # only the branch taken is evaluated
                return True
        elif node.kind == "bind":
            inner_act = dict(act)
            inner_act[node.name] = LazyBinding(self.closures[node.init.id], act)
            self.acts.append(inner_act)
            self.why(node.body, inner_act, want)
            return True
        return False

    def leaf(self, node: Node, act: dict) -> Part:
        value, error = self.value(node, act)
        if error is None and type(value) is not bool:
            name = type_name(value)
            error = (f"CEL result of type {name} could not be converted to bool: type conversion error from "
                     f"'{name}' to 'bool'")
        verdict = "error" if error is not None else ("true" if value else "false")
        part = Part(node.start, node.end, self.source[node.start:node.end], verdict, error=error)
        kinds = (None, None)
        if node.kind == "call" and node.function in _COMPARISONS and len(node.args) == 2:
            part.operator = _COMPARISONS[node.function]
            left, lerr = self.value(node.args[0], act)
            right, rerr = self.value(node.args[1], act)
            part.left = show(left) if lerr is None else None
            part.right = show(right) if rerr is None else None
            if lerr is None and rerr is None:
                kinds = (_kind(left), _kind(right))
        if error is not None:
            part.hint = runtime_hint(error, left=kinds[0], right=kinds[1])
        part.reads = self.reads(node, act)
        if node.kind == "select" and node.mode == "has" and error is None and value is False:
            part.reads = [Read(f"{self.source[node.operand.start:node.operand.end]}.{node.field}", node.field, None)]
        return part

    def reads(self, node: Node, act: dict) -> list[Read]:
        found: list[Read] = []
        seen: set[str] = set()
        for read in _device_reads(node):
            text = self.source[read.start:read.end]
            if text in seen:
                continue
            seen.add(text)
            value, error = self.value(read, act)
            if error is None and value is None and read.kind != "lit":
                continue  # not evaluable on its own (inside a macro)
            found.append(Read(text, _short_name(read), show(value) if error is None else None))
        return found


def _kind(value) -> str:
    """A value's kind in the words of the hints."""
    if isinstance(value, Version):
        return "version"
    if isinstance(value, Quantity):
        return "quantity"
    return type_name(value)


def _chain(node: Node, op: str) -> list[Node]:
    """The operands of a chain of the same operator, left to right (cel-go balances such chains)."""
    if node.kind == "call" and node.function == op and node.target is None:
        return _chain(node.args[0], op) + _chain(node.args[1], op)
    return [node]


def _is_device_read(node: Node) -> bool:
    """``device.driver``, ``device.attributes["d"].x``, ``device.capacity["d"]["x"]``, ``d.x`` on a bound map."""
    if node.kind == "select" and node.mode != "has":
        return True
    return (node.kind == "call" and node.function in ("_[_]", "_[?_]") and node.args[1].kind == "lit"
            and type(node.args[1].value) is str)


def _device_reads(node: Node):
    """The outermost reads inside ``n``, not descending into macros (their variables are local)."""
    if _is_device_read(node) and _reads_a_value(node):
        yield node
        return
    if node.kind == "comp":
        yield from _device_reads(node.range)
        return
    for child in node.children():
        yield from _device_reads(child)


def _reads_a_value(node: Node) -> bool:
    """A read of a leaf value (an attribute, a capacity, the driver), not of a whole map."""
    cel_type = node.type
    return cel_type is None or not (cel_type.kind == "map" or cel_type == T.DEVICE)


def _short_name(node: Node) -> str:
    if node.kind == "select":
        return node.field
    if node.kind == "call" and node.args[1].kind == "lit":
        return str(node.args[1].value)
    return "value"  # pragma: no cover - _is_device_read admits only the forms above


def explain_false(selector, device: dict) -> list[Part]:
    """The parts of ``selector`` that made it false (or fail) on ``device``, in source order."""
    explainer = _Explainer(selector, device)
    if selector.root is None:
        return []
    explainer.why(selector.root, explainer.act(), True)
    return sorted(explainer.parts, key=lambda p: p.start)
