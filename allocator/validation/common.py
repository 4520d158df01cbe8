"""Validation pieces shared by several kinds: list limits, qualified names,
tolerations and taints, opaque configuration."""

from __future__ import annotations

import functools
import json

from allocator.reading.records import record
from allocator.releases.gates import FeatureGates
from allocator.validation import names
from allocator.validation.cel import ExpressionLocator, apiserver_cel_gates, check_selector
from allocator.validation.errors import Errors

DEVICE_MAX_ID_LENGTH = 32
DEVICE_MAX_DOMAIN_LENGTH = 63
OPAQUE_PARAMETERS_MAX_LENGTH = 10 * 1024
SELECTORS_MAX = 32
CONFIG_MAX = 32

TOLERATION_OPERATORS = ["Equal", "Exists"]


@record
class Context:
    """What every validator needs: where errors go, the gates, the CEL locator."""

    errs: Errors
    gates: FeatureGates
    locator: ExpressionLocator | None = None
    # The labels of the Namespaces the input defines, by name; None when the object is stored already.
    namespaces: dict | None = None
    # Up to 1.32: the paths of a slice's devices written without ``basic`` (``ReleaseRules.device_needs_basic``).
    without_basic: frozenset[str] = frozenset()

    def enabled(self, gate: str) -> bool:
        return self.gates.enabled(gate)

    @property
    def taint_effects(self) -> list[str]:
        """Supported effects, sorted like ``sets.List`` (``ReleaseRules.taint_effects``: ``None`` since 1.35)."""
        return list(self.gates.release_rules.taint_effects)

    def key_field(self, name: str) -> str | None:
        """Where a duplicate of a list keyed by field ``name`` is reported: on that field before 1.35, on
        the item from 1.35 (``ReleaseRules.duplicate_on_key_field``)."""
        return name if self.gates is not None and self.gates.release_rules.duplicate_on_key_field else None


def each(errs: Errors, items: list, limit: int, path: str, check, key=None, key_field: str | None = None) -> None:
    """``validateSlice``/``validateSet``: a too-long list is one error and nothing else;
    otherwise every item is checked and, with ``key``, duplicates are reported on the item (on its
    ``key_field`` when given)."""
    if limit >= 0 and len(items) > limit:
        errs.too_many(path, len(items), limit)
        return
    for i, item in enumerate(items):
        check(item, f"{path}[{i}]")
    if key is not None:
        seen = set()
        for i, item in enumerate(items):
            k = key(item)
            if k in seen:
                errs.duplicate(f"{path}[{i}].{key_field}" if key_field else f"{path}[{i}]", k)
            else:
                seen.add(k)


def c_identifier(errs: Errors, value: str, path: str, at: str | None = None) -> None:
    if len(value) > DEVICE_MAX_ID_LENGTH:
        errs.too_long(path, DEVICE_MAX_ID_LENGTH, at=at)
    for msg in names.is_c_identifier(value):
        errs.invalid(path, value, msg, at=at)


def qualified_name(errs: Errors, name: str, path: str, at: str | None = None) -> None:
    """An attribute or capacity name: ``id`` or ``domain/id``."""
    if _valid_qualified_name(name):
        return  # the usual case: every device of a cluster repeats the same few names
    _check_qualified_name(errs, name, path, at)


@functools.lru_cache(maxsize=4096)
def _valid_qualified_name(name: str) -> bool:
    found = Errors()
    _check_qualified_name(found, name, "", None)
    return not found.items


def _check_qualified_name(errs: Errors, name: str, path: str, at: str | None) -> None:
    parts = name.split("/")
    if len(parts) == 1:
        c_identifier(errs, parts[0], path, at)
    elif len(parts) == 2:
        domain, ident = parts
        if not domain:
            errs.invalid(path, "", "the domain must not be empty", at=at)
        else:
            sub = Errors()
            names.driver_name(sub, domain, path)
            for e in sub.items:
                e.at = at
            errs.extend(sub)
        if not ident:
            errs.invalid(path, "", "the name must not be empty", at=at)
        else:
            c_identifier(errs, ident, path, at)
    else:
        errs.invalid(path, name, "must not contain more than one slash", at=at)


def fully_qualified_name(errs: Errors, name: str, path: str) -> None:
    qualified_name(errs, name, path)
    if "/" not in name:
        errs.invalid(path, name, "a fully qualified name must be a domain and a name separated by a slash")


def selectors(ctx: Context, items: list, path: str) -> None:
    def one(selector, p):
        if selector.cel is None:
            ctx.errs.required(f"{p}.cel")
        else:
            check_selector(ctx.errs, selector.cel.expression, f"{p}.cel.expression",
                           apiserver_cel_gates(ctx.gates), ctx.locator)

    each(ctx.errs, items, SELECTORS_MAX, path, one)


def opaque_config(ctx: Context, config, path: str) -> None:
    """``DeviceConfiguration``: ``opaque`` is required, with a driver and JSON object parameters."""
    if config.opaque is None:
        ctx.errs.required(f"{path}.opaque")
        return
    opaque = config.opaque
    names.driver_name(ctx.errs, opaque.driver, f"{path}.opaque.driver",
                      ctx.gates.release_rules.empty_driver_also_invalid)
    raw_extension(ctx.errs, opaque.parameters, f"{path}.opaque.parameters")


def raw_extension(errs: Errors, value, path: str, limit: int = OPAQUE_PARAMETERS_MAX_LENGTH) -> None:
    """A ``runtime.RawExtension`` as kubectl sends it: compact JSON."""
    if value is None:
        errs.required(path)
        return
    raw = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    if len(raw.encode()) > limit:
        errs.too_long(path, limit)
    elif not isinstance(value, dict):
        errs.invalid(path, "<value omitted>", "must be a valid JSON object")


def toleration(ctx: Context, tol, path: str) -> None:
    errs = ctx.errs
    if tol.key:
        names.label_name(errs, tol.key, f"{path}.key")
    if tol.operator == "Exists":
        if tol.value:
            errs.invalid(f"{path}.value", tol.value, "must be empty for operator `Exists`")
    elif tol.operator == "Equal":
        names.label_value(errs, tol.value, f"{path}.value")
    elif tol.operator == "":
        errs.required(f"{path}.operator")
    else:
        errs.not_supported(f"{path}.operator", tol.operator, TOLERATION_OPERATORS)
    if tol.effect and tol.effect not in ctx.taint_effects:
        errs.not_supported(f"{path}.effect", tol.effect, ctx.taint_effects)


def taint(ctx: Context, t, path: str) -> None:
    errs = ctx.errs
    names.label_name(errs, t.key, f"{path}.key")
    if t.value:
        names.label_value(errs, t.value, f"{path}.value")
    if not t.effect:
        errs.required(f"{path}.effect")
    elif t.effect not in ctx.taint_effects:
        errs.not_supported(f"{path}.effect", t.effect, ctx.taint_effects)
