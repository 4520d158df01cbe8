"""A CEL expression evaluated on one device of an inventory: the console behind ``eval`` and ``/api/v1/evaluate``.

Selectors give a verdict per device; here any expression (of any result type) is evaluated on a device
picked by driver, pool and name, in the DRA environment of the chosen release and gates, and the answer
says what a person learning CEL or debugging a selector wants to see: the value and its type as cel-go
names them, the value of every sub-expression (a tree with the same source spans as the explanations),
the estimated cost against the apiserver's limit (as a selector's), and compile or runtime errors with cel-go's caret
diagram.

Sub-expressions are evaluated with the closures the compiler built for them, on one shared cost budget,
so an expression that never ends stops at the runtime cost limit here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from allocator.allocation.allocator import scheduler_cel_gates
from allocator.cel import (
    MAX_COST,
    CELCompileError,
    CELRuntimeError,
    CompiledSelector,
    build_device,
    compile_expression,
    internal_error_message,
)
from allocator.cel import types as T
from allocator.cel.compiler import COST_LIMIT, Budget
from allocator.cel.explain import show
from allocator.cel.parser import Node, children
from allocator.cel.values import CELError, type_name
from allocator.kube import model
from allocator.releases.gates import FeatureGates

MAX_PARTS = 200  # a tree larger than this is cut (``truncated``); expressions are at most 10 KiB
_NOT_ALONE = object()  # a node that reads a macro's variable: it has no value of its own


class DeviceNotFound(LookupError):
    """The inventory has no such device; the message names what it has instead."""


@dataclass(frozen=True)
class DeviceRef:
    driver: str
    pool: str
    device: str

    @classmethod
    def parse(cls, text: str) -> DeviceRef:
        """``DRIVER/POOL/DEVICE``; a pool name may hold slashes, a driver and a device name do not."""
        driver, _, rest = text.partition("/")
        pool, _, device = rest.rpartition("/")
        if not driver or not pool or not device:
            raise ValueError(f"a device is DRIVER/POOL/DEVICE, e.g. gpu.example.com/node-1/gpu-0, not {text!r}")
        return cls(driver, pool, device)

    def __str__(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"


def find_device(slices: list[model.ResourceSlice], ref: DeviceRef) -> model.Device:
    """The device ``ref`` names among ``slices``; DeviceNotFound says what is there instead."""
    pools = [s for s in slices if s.spec.driver == ref.driver and s.spec.pool.name == ref.pool]
    for resource_slice in pools:
        for device in resource_slice.spec.devices:
            if device.name == ref.device:
                return device
    if pools:
        names = sorted({d.name for s in pools for d in s.spec.devices})
        raise DeviceNotFound(f"pool {ref.pool!r} of driver {ref.driver!r} has no device {ref.device!r}; "
                             f"it has {_some(names)}")
    drivers = sorted({s.spec.driver for s in slices})
    if ref.driver not in drivers:
        raise DeviceNotFound(f"no ResourceSlice of driver {ref.driver!r}; the inventory's drivers are "
                             f"{_some(drivers)}")
    pool_names = sorted({s.spec.pool.name for s in slices if s.spec.driver == ref.driver})
    raise DeviceNotFound(f"driver {ref.driver!r} has no pool {ref.pool!r}; its pools are {_some(pool_names)}")


def _some(names: list[str], shown: int = 10) -> str:
    if not names:
        return "none"
    listed = ", ".join(names[:shown])
    return listed + (f" and {len(names) - shown} more" if len(names) > shown else "")


def evaluate(expression: str, device: model.Device, driver: str, gates: FeatureGates) -> dict:
    """``{value, type, parts, cost, diagnostics}`` for ``expression`` on ``device`` (see the module)."""
    enabled = frozenset(gates.enabled_set())
    answer: dict = {"value": None, "type": None, "parts": [], "truncated": False,
                    "cost": {"estimated": None, "limit": MAX_COST}, "diagnostics": []}
    try:
        compiled = compile_expression(expression, gates=enabled, estimate_cost=True)
    except CELCompileError as err:
        answer["diagnostics"].append(_diagnostic("compile", str(err), err.hint))
        return answer
    answer["cost"]["estimated"] = compiled.estimated_cost
    multiple = gates.enabled("DRAConsumableCapacity") and bool(device.allow_multiple_allocations)
    try:
        value = build_device(driver, device.attributes, device.capacity, multiple)
    except (CELRuntimeError, ValueError) as err:  # a device the allocator cannot evaluate either
        answer["diagnostics"].append(_diagnostic("runtime", str(err)))
        return answer
    try:
        result = compiled.value(value)
    except CELRuntimeError as err:
        answer["diagnostics"].append(_diagnostic("runtime", str(err)))
    else:
        answer["value"], answer["type"] = show(result, limit=None), type_name(result)
    if compiled.root is not None:
        parts = _Parts(compiled, value)
        answer["parts"] = [parts.tree(compiled.root)]
        answer["truncated"] = parts.count > MAX_PARTS
    return answer


def _diagnostic(phase: str, message: str, hint: str | None = None) -> dict:
    return {"phase": phase, "message": message, "hint": hint}


class _Parts:
    """Each sub-expression's value, on one budget shared by all of them."""

    def __init__(self, compiled: CompiledSelector, device: dict[str, Any]) -> None:
        self.source = compiled.expression
        self.closures = compiled.closures
        self.act = {"device": device, "@budget": Budget(COST_LIMIT)}
        self.count = 0

    def tree(self, n: Node) -> dict:
        self.count += 1
        value = self._value(n)
        part = {"start": n.start, "end": n.end, "text": self.source[n.start:n.end],
                "staticType": T.fmt(n.type) if n.type is not None else None,
                "value": None, "type": None, "error": None, "perElement": False, "children": []}
        if value is _NOT_ALONE:
            part["perElement"] = True  # it reads a macro's variable: a value per element, none of its own
        elif isinstance(value, CELError):
            part["error"] = value.message
        elif isinstance(value, Exception):
            part["error"] = internal_error_message(value)
        else:
            part["value"], part["type"] = show(value, limit=None), type_name(value)
        for child in children(n):
            if self.count >= MAX_PARTS:
                self.count += 1  # marks the tree as cut
                break
            part["children"].append(self.tree(child))
        return part

    def _value(self, n: Node) -> object:
        closure = self.closures.get(n.id)
        if closure is None:
            return _NOT_ALONE
        try:
            return closure(self.act)
        except CELError as err:
            return err
        except (KeyError, RecursionError):  # a macro's variable, not evaluable alone
            return _NOT_ALONE
        except Exception as err:  # noqa: BLE001 - a bug of ours is shown as such, never raised into a page
            return err


def class_environment(gates: FeatureGates) -> FeatureGates:
    """``gates`` with the CEL features the scheduler compiles a DeviceClass's selectors with
    (``allocation.allocator.scheduler_cel_gates``): from 1.37 both, whatever the gates say."""
    wanted = scheduler_cel_gates(gates.release, gates.values.get("DRAConsumableCapacity", False),
                                 gates.values.get("DRAListTypeAttributes", False))
    values = dict(gates.values)
    values.update({gate: True for gate in wanted if gate in values})
    return FeatureGates(gates.release, MappingProxyType(values))
