"""The DRA CEL environment: compile and evaluate ResourceClaim/DeviceClass CEL selectors.

Behaves like k8s.io/dynamic-resource-allocation/cel: the ``device`` variable, the Kubernetes and
cel-go extension libraries, cel-go's compile error format, a worst-case cost estimate and a runtime
cost limit. Pure Python; no Django. ``selectors`` evaluates class and request selectors on
devices with a memory, for the allocator and the validation's warnings alike.
"""

from __future__ import annotations

# threading.Lock is _thread.allocate_lock: the low-level module spares a command importing threading (start-up)
import _thread
from collections import OrderedDict
from collections.abc import Mapping

from allocator.cel.compiler import (
    COST_LIMIT,
    Budget,
    CheckError,
    Compiler,
    Env,
    ProgramError,
    check,
    heterogeneous_literals,
)
from allocator.cel.cost import estimate as estimate_cost_of
from allocator.cel.cost import explain_cost
from allocator.cel.parser import ParseError, parse
from allocator.cel.values import CELError, type_name
from allocator.kube.quantity import Quantity
from allocator.kube.semver import Version

__all__ = ["CELCompileError", "CELRuntimeError", "CELInternalError", "CompiledSelector", "compile_selector",
           "compile_expression", "MAX_EXPRESSION_LENGTH",
           "MAX_COST"]

MAX_EXPRESSION_LENGTH = 10 * 1024
MAX_COST = 1_000_000
# Not a feature gate: set (from 1.37, ``ReleaseRules.includes_from_lists``) where ``includes()`` comes from the
# apiserver's lists library and is costed by its estimator, as the apiserver of 1.37 compiles new expressions.
INCLUDES_FROM_LISTS = "@includes-from-lists"
RELEVANT_GATES = frozenset({"DRAConsumableCapacity", "DRAListTypeAttributes", INCLUDES_FROM_LISTS})
_INCLUDES_ONLY = frozenset({INCLUDES_FROM_LISTS})
NO_SUCH_KEY_HINT = (". consider using CEL optional chaining (.? followed by orValue()) or guarding the check "
                    "with has() for optional fields")


class CELCompileError(Exception):
    def __init__(self, message: str, errors: list[tuple[int, int, str]], reason: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.errors = errors
        self.reason = reason
        self.hint = hint  # the playground's advice, beside cel-go's message

    def __str__(self):
        return self.message


class CELRuntimeError(Exception):
    internal = False

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self):
        return self.message


class CELInternalError(CELRuntimeError):
    """A failure of this CEL implementation itself (a bug here, never an answer upstream would give)."""

    internal = True


def internal_error_message(exc: BaseException) -> str:
    return (f"internal error in the playground's CEL implementation ({type(exc).__name__}: {exc}); "
            "this is a bug in DRA Playground, not an answer of Kubernetes")


def _location(src: str, offset: int) -> tuple[int, int, str]:
    line_start = src.rfind("\n", 0, offset) + 1
    line_no = src.count("\n", 0, offset) + 1
    line_end = src.find("\n", offset)
    line = src[line_start:] if line_end == -1 else src[line_start:line_end]
    return line_no, offset - line_start, line


def format_issues(src: str, issues: list[tuple[int, str]]) -> tuple[str, list[tuple[int, int, str]]]:
    """cel-go's Issues.String(): one block per error, sorted by position."""
    parts = []
    errors = []
    for offset, msg in sorted(issues, key=lambda x: x[0]):
        line_no, col, line = _location(src, offset)
        snippet = line.replace("\t", " ")
        marker = "".join("\uff0e" if len(c.encode()) > 1 else "." for c in snippet[:col])
        marker += "\uff3e" if col < len(snippet) and len(snippet[col].encode()) > 1 else "^"
        parts.append(f"ERROR: <input>:{line_no}:{col + 1}: {msg}\n | {snippet}\n | {marker}")
        errors.append((line_no, col + 1, msg))
    return "\n".join(parts), errors


class _EmptyDefaultMap(dict):
    """Outer attribute/capacity map: a lookup of an unknown domain yields an empty map."""

    __slots__ = ("default",)

    def __init__(self, *args):
        super().__init__(*args)
        self.default = {}


def _attribute_value(attr, list_values=True):
    if not list_values:
        # Without DRAListTypeAttributes the scheduler's CEL (1.36's dynamic-resource-allocation) converts only
        # scalars: a list stored while the gate was on has no value for it, and selecting stops with an error.
        return _scalar_value(attr)
    if attr.ints is not None:
        return list(attr.ints)
    if attr.bools is not None:
        return list(attr.bools)
    if attr.strings is not None:
        return list(attr.strings)
    if attr.versions is not None:
        return [_version(v) for v in attr.versions]
    return _scalar_value(attr)


def _scalar_value(attr):
    if attr.int is not None:
        return attr.int
    if attr.bool is not None:
        return attr.bool
    if attr.string is not None:
        return attr.string
    if attr.version is not None:
        return _version(attr.version)
    raise CELRuntimeError("unsupported attribute value")


def _version(text):
    try:
        return Version.parse(text)
    except ValueError as e:
        raise CELRuntimeError(f"parse semantic version: {e}") from None


def _split(name: str, driver: str):
    domain, sep, ident = name.partition("/")
    return (domain, ident) if sep else (driver, name)


def build_device(driver, attributes, capacity, allow_multiple_allocations=None, list_values=True) -> dict:
    """The CEL value of a device; ``list_values`` false: a list-typed attribute is an error (DRAListTypeAttributes off)."""
    attrs = _EmptyDefaultMap()
    for name, attr in attributes.items():
        try:
            value = _attribute_value(attr, list_values)
        except CELRuntimeError as e:
            raise CELRuntimeError(f"attribute {name}: {e}") from None
        domain, ident = _split(name, driver)
        attrs.setdefault(domain, {})[ident] = value
    caps = _EmptyDefaultMap()
    for name, cap in capacity.items():
        domain, ident = _split(name, driver)
        value = cap.value if isinstance(cap.value, Quantity) else Quantity.parse(str(cap.value))
        caps.setdefault(domain, {})[ident] = value
    return {"driver": driver or "", "attributes": attrs, "capacity": caps,
            "allowMultipleAllocations": bool(allow_multiple_allocations)}


class CompiledSelector:
    __slots__ = ("expression", "gates", "estimated_cost", "_program", "_env", "result_type", "root", "closures")

    def __init__(self, expression, gates, program, estimated_cost, result_type, root=None, closures=None):
        self.expression = expression
        self.gates = gates
        self._program = program
        self.estimated_cost = estimated_cost
        self.result_type = result_type
        self.root = root  # the checked expression (spans, types) and each node's closure, for explanations
        self.closures = closures or {}

    def evaluate(self, driver: str, attributes: Mapping, capacity: Mapping,
                 allow_multiple_allocations: bool | None = None) -> bool:
        device = build_device(driver, attributes, capacity, allow_multiple_allocations,
                              list_values="DRAListTypeAttributes" in self.gates)
        return self.evaluate_device(device)

    def evaluate_device(self, device: dict) -> bool:
        result = self.value(device)
        if type(result) is not bool:
            raise CELRuntimeError(f"CEL result of type {type_name(result)} could not be converted to bool: "
                                  f"type conversion error from '{type_name(result)}' to 'bool'")
        return result

    def value(self, device: dict):
        """The expression's value for ``device``, of whatever CEL type; raises CELRuntimeError."""
        act = {"device": device, "@budget": Budget(COST_LIMIT)}
        try:
            result = self._program(act)
        except CELError as e:
            msg = e.message
            if "no such key:" in msg:
                msg += NO_SUCH_KEY_HINT
            raise CELRuntimeError(msg) from None
        except RecursionError:
            raise CELRuntimeError("operation cancelled: actual cost limit exceeded") from None
        except Exception as e:  # noqa: BLE001 - a bug here must not pass for an answer
            raise CELInternalError(internal_error_message(e)) from e
        return result


def _compile(expression: str, gates: frozenset[str], estimate_cost: bool, any_result: bool = False) -> CompiledSelector:
    try:
        return _compile_checked(expression, gates, estimate_cost, any_result)
    except CELCompileError:
        raise
    except Exception as e:  # noqa: BLE001 - a bug here must not pass for an answer
        raise CELCompileError(internal_error_message(e), [], "internal") from e


def _compile_checked(expression: str, gates: frozenset[str], estimate_cost: bool,
                     any_result: bool = False) -> CompiledSelector:
    if len(expression.encode("utf-8")) > MAX_EXPRESSION_LENGTH:
        raise CELCompileError(f"may not be more than {MAX_EXPRESSION_LENGTH} bytes", [], "length")
    try:
        root = parse(expression)
    except ParseError as e:
        msg, errs = format_issues(expression, e.errors)
        raise CELCompileError(msg, errs, "syntax") from None
    except RecursionError:
        msg, errs = format_issues(expression, [(0, "Syntax error: expression recursion limit exceeded: 250")])
        raise CELCompileError(msg, errs, "syntax") from None
    env = Env(gates)
    try:
        result_type, overloads = check(env, root)
    except CheckError as e:
        # Deferred: hints (with their quick fixes) are for expressions that do not compile (start-up).
        from allocator.cel.hints import compile_hint

        msg, errs = format_issues(expression, [(e.pos, e.message)])
        raise CELCompileError(msg, errs, "type", hint=compile_hint(e.message)) from None
    cost, coster = estimate_cost_of(root, overloads, includes_from_lists=INCLUDES_FROM_LISTS in gates)
    issues = heterogeneous_literals(root)
    if issues:
        msg, errs = format_issues(expression, issues)
        raise CELCompileError(msg, errs, "type")
    from allocator.cel import types as T

    if not any_result and result_type != T.BOOL and result_type != env.attr_type:
        raise CELCompileError(f"must evaluate to bool or the unknown type, not {T.fmt(result_type)}", [],
                              "result-type")
    compiler = Compiler(env, overloads, coster.per_iteration)
    try:
        program = compiler.compile(root)
    except ProgramError as e:
        raise CELCompileError(f"program instantiation failed: {e.message}", [], "program") from None
    if estimate_cost and cost > MAX_COST:
        error = CELCompileError("too complex, exceeds cost limit", [], "cost")
        error.hint = explain_cost(expression, root, coster, MAX_COST)
        raise error
    return CompiledSelector(expression, gates, program, cost if estimate_cost else None, result_type, root,
                            compiler.closures)


def compile_expression(expression: str, *, gates: frozenset[str] = frozenset(),
                       estimate_cost: bool = False) -> CompiledSelector:
    """Compile a CEL expression of any result type in the DRA environment (not cached).

    For the console and for checking the CEL implementation itself (the differential test against
    cel-python compares values of every type); selectors use ``compile_selector``. With
    ``estimate_cost`` the apiserver's cost limit applies, as to a selector. Read the value with
    ``CompiledSelector.value``.
    """
    return _compile(expression, frozenset(gates) & RELEVANT_GATES, estimate_cost, any_result=True)


_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 1024
_LOCK = _thread.allocate_lock()


def compile_selector(expression: str, *, gates: frozenset[str] = frozenset(),
                     estimate_cost: bool = True) -> CompiledSelector:
    """Compile (or fetch from the LRU cache) a CEL selector; raises CELCompileError."""
    relevant = frozenset(gates) & RELEVANT_GATES
    if INCLUDES_FROM_LISTS in relevant and "includes" not in expression:
        relevant -= _INCLUDES_ONLY  # it changes only what includes() costs: the same program without it
    key = (expression, relevant, estimate_cost)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is None and not estimate_cost:
            # Compiled with its cost estimated (validation, before the search) it is the same program: every
            # compile estimates the cost; only the limit's check and the cost kept differ.
            costed = _CACHE.get((expression, relevant, True))
            if costed is not None and not isinstance(costed, CELCompileError):
                hit, key = costed, (expression, relevant, True)
        if hit is not None:
            _CACHE.move_to_end(key)
            if isinstance(hit, CELCompileError):
                raise hit
            return hit
    try:
        result = _compile(expression, key[1], estimate_cost)
    except CELCompileError as e:
        result = e
    with _LOCK:
        _CACHE[key] = result
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    if isinstance(result, CELCompileError):
        raise result
    return result
