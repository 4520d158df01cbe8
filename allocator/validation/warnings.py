"""Warnings about claims measured against a device inventory.

None of these are apiserver errors: the apiserver accepts the objects, and the
trouble shows only when the scheduler allocates. The allocator evaluates the
class selectors and then the request selectors on every device; a CEL runtime
error on any device aborts the whole allocation (it does not just skip the
device). So we do exactly that evaluation and report:

* a ``deviceClassName`` that names no DeviceClass of the inventory;
* a selector that fails at runtime on some devices (naming them), which
  usually means an attribute read without ``has()``, ``in`` or ``.?``;
* an attribute or capacity that no device of the class publishes (the
  selector is always false, or fails at runtime, unless a guard such as
  has() lets it be true without the name: then it says so);
* a request that no device of the inventory can ever satisfy.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator

from allocator.cel import CELCompileError, compile_selector
from allocator.cel import fixes as cel_fixes
from allocator.cel.guards import GUARDED, guard_state, string_comparisons
from allocator.cel.guards import analyze as guards_analysis
from allocator.cel.hints import (
    close_name,
    domain_hint,
    missing_key_hint,
    runtime_hint,
    semver_wrapped,
    version_string_hint,
)
from allocator.cel.selectors import shared_evaluator
from allocator.kube.objects import Document
from allocator.reading.diagnostics import Diagnostic
from allocator.reading.records import record
from allocator.releases.gates import FeatureGates, make_gates
from allocator.validation.cel import ExpressionLocator, apiserver_cel_gates
from allocator.validation.errors import WARNING, Errors, FieldError, located

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_QUOTED = r"""(?:"([^"\\]*)"|'([^'\\]*)')"""
# device.attributes["domain"].id, device.attributes["domain"]["id"], with .? / [? optional forms.
_REFERENCE = re.compile(
    rf"device\s*\.\s*(attributes|capacity)\s*\[\s*{_QUOTED}\s*\]\s*"
    rf"(?:\.\s*\??\s*({_NAME})|\[\s*\??\s*{_QUOTED}\s*\])")

MAX_LISTED = 5


@record
class _Device:
    driver: str
    pool: str
    name: str
    device: object
    published: dict  # "attributes"/"capacity" -> set of (domain, id)

    @functools.cached_property
    def seen_by_cel(self) -> tuple:
        """(driver, device, allowMultipleAllocations): what ``SelectorEvaluator.outcomes`` takes."""
        return self.driver, self.device, self.device.allow_multiple_allocations

    @property
    def id(self) -> str:
        return f"{self.driver}/{self.pool}/{self.name}"


def _documents(source) -> list:
    if source is None:
        return []
    return list(getattr(source, "documents", source))


def _split(name: str, driver: str) -> tuple[str, str]:
    domain, sep, ident = name.partition("/")
    return (domain, ident) if sep else (driver, name)


# A read inventory's objects are shared by every call on the same text (``objects.read_documents``),
# so the devices of a slice are worked out once: id(slice) -> (slice, its devices). The slices are kept
# alive here (so an id is not reused), up to about as many devices as the shared selector memory keeps.
_SLICE_DEVICES_MAX = 20_000
_slice_devices: dict[int, tuple[object, list[_Device]]] = {}
_slice_devices_count = [0]


def _devices_of(spec_owner) -> list[_Device]:
    found = _slice_devices.get(id(spec_owner))
    if found is not None and found[0] is spec_owner:
        return found[1]
    spec = spec_owner.spec
    devices = [_Device(spec.driver, spec.pool.name, dev.name, dev,
                       {"attributes": {_split(k, spec.driver) for k in dev.attributes},
                        "capacity": {_split(k, spec.driver) for k in dev.capacity}})
               for dev in spec.devices]
    if _slice_devices_count[0] + len(devices) > _SLICE_DEVICES_MAX:
        _slice_devices.clear()
        _slice_devices_count[0] = 0
    _slice_devices[id(spec_owner)] = (spec_owner, devices)
    _slice_devices_count[0] += len(devices)
    return devices


def _inventory_devices(inventory: list) -> list[_Device]:
    out = []
    for doc in inventory:
        if doc.kind == "ResourceSlice":
            out.extend(_devices_of(doc.obj))
    return out


class _Evaluator:
    """Compiles and evaluates selectors like the allocator, through the process's shared memory of answers."""

    def __init__(self, gates: FeatureGates):
        self.gates = frozenset(gates.enabled_set())
        self.selectors = shared_evaluator(self.gates)
        self.apiserver_gates = apiserver_cel_gates(gates)  # the cost estimate is the apiserver's

    def compile(self, expression: str):
        compiled = self.selectors.compile(expression)
        return None if isinstance(compiled, CELCompileError) else compiled  # an error: reported by validation

    def compile_request(self, expression: str):
        """``compile``, or None for a selector over the apiserver's cost estimate too: validation refuses it
        ("too complex, exceeds cost limit"), and evaluating it on every device of a large inventory would
        only spend the time budget before that answer is shown."""
        compiled = self.compile(expression)
        if compiled is None:
            return None
        try:
            compile_selector(expression, gates=self.apiserver_gates, estimate_cost=True)
        except CELCompileError:
            return None
        return compiled

    def passing(self, selectors: list, devices: list[_Device], failures: dict) -> list[_Device]:
        """The devices on which every selector is true, in order, as a device's selectors are tried in
        order up to the first false one; runtime errors go to ``failures`` (selector -> error -> device
        ids), the selectors in the order a device-by-device walk meets their first error."""
        first_error: dict[int, int] = {}  # selector -> position of the first device it failed on
        positions = list(range(len(devices)))
        for index, compiled in selectors:
            outcomes = self.selectors.outcomes(compiled.expression, [devices[k].seen_by_cel for k in positions])
            kept = []
            for k, outcome in zip(positions, outcomes, strict=True):
                if outcome is True:
                    kept.append(k)
                elif outcome is not False:
                    first_error.setdefault(index, k)
                    failures.setdefault(index, {}).setdefault(str(outcome), []).append(devices[k].id)
            positions = kept
        if len(failures) > 1:
            ordered = sorted(failures.items(), key=lambda item: (first_error[item[0]], item[0]))
            failures.clear()
            failures.update(ordered)
        return [devices[k] for k in positions]


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:MAX_LISTED])
    return shown + (f" and {len(items) - MAX_LISTED} more" if len(items) > MAX_LISTED else "")


def selector_expressions(doc: Document) -> Iterator[tuple[str, str]]:
    """(path, expression) of every CEL selector of a claim, a template or a DeviceClass."""
    if doc.kind == "DeviceClass":
        for i, selector in enumerate(doc.obj.spec.selectors):
            if selector.cel is not None:
                yield f"spec.selectors[{i}].cel.expression", selector.cel.expression
        return
    for path, _class_name, selectors in _requests(doc):
        for j, selector in enumerate(selectors):
            if selector.cel is not None:
                yield f"{path}.selectors[{j}].cel.expression", selector.cel.expression


def _requests(doc):
    """(path, deviceClassName, selectors) for every request and subrequest of a claim or template."""
    if doc.kind == "ResourceClaim":
        spec, base = doc.obj.spec, "spec"
    elif doc.kind == "ResourceClaimTemplate":
        spec, base = doc.obj.spec.spec, "spec.spec"
    else:
        return
    for i, req in enumerate(spec.devices.requests):
        path = f"{base}.devices.requests[{i}]"
        if req.exactly is not None:
            yield f"{path}.exactly", req.exactly.device_class_name, req.exactly.selectors
        for j, sub in enumerate(req.first_available):
            yield f"{path}.firstAvailable[{j}]", sub.device_class_name, sub.selectors


def inventory_warnings(documents, inventory=None, gates: FeatureGates | None = None,
                       text: str | None = None) -> list[Diagnostic]:
    """Warnings for the claims and templates in ``documents`` against ``inventory``.

    Both are a ``ReadResult`` or a list of ``Document``; without ``inventory``
    the DeviceClasses and ResourceSlices of ``documents`` are the inventory.
    ``text`` is the YAML of ``documents``, to point inside CEL expressions.
    """
    gates = gates or make_gates()
    docs = _documents(documents)
    inventory_docs = _documents(inventory) if inventory is not None else docs
    classes = {d.name: d.obj for d in inventory_docs if d.kind == "DeviceClass"}
    devices = _inventory_devices(inventory_docs)
    if not classes and not devices:
        return []  # no inventory: nothing to compare with
    evaluator = _Evaluator(gates)
    out: list[Diagnostic] = []
    for doc in docs:
        errs = Errors()
        locator = ExpressionLocator(doc, text)
        for path, class_name, selectors in _requests(doc):
            _request(errs, locator, evaluator, path, class_name, selectors, classes, devices)
        _constraint_names(errs, locator, doc, devices)
        out.extend(located(errs, doc))
    return out


def _request(errs: Errors, locator, evaluator: _Evaluator, path: str, class_name: str, selectors,
             classes: dict, devices: list[_Device]) -> None:
    if not class_name:
        return
    device_class = classes.get(class_name)
    if device_class is None:
        field = f"{path}.deviceClassName"
        close = close_name(class_name, sorted(classes))
        fix = locator.fix(field, class_name, cel_fixes.rename(f"Use {close}", 0, len(class_name), close)) \
            if close else None
        errs.add(FieldError(field, WARNING, detail=f"DeviceClass {class_name!r} is not in the inventory: "
                            "the claim cannot be allocated until it exists", severity="warning",
                            hint=f"did you mean \"{close}\"? The inventory's classes: {_listed(sorted(classes))}"
                            if close else None, fixes=[fix] if fix else []))
        return
    if not devices:
        return
    class_sels = [(i, evaluator.compile(s.cel.expression)) for i, s in enumerate(device_class.spec.selectors)
                  if s.cel is not None]
    request_sels = [(j, evaluator.compile_request(s.cel.expression)) for j, s in enumerate(selectors)
                    if s.cel is not None]
    if any(c is None for _, c in class_sels + request_sels):
        return  # a compile error, reported by validation
    class_failures: dict[int, dict[str, list[str]]] = {}  # selector -> error -> device ids
    request_failures: dict[int, dict[str, list[str]]] = {}
    in_class = evaluator.passing(class_sels, devices, class_failures)
    matching = len(evaluator.passing(request_sels, in_class, request_failures))
    # One warning per distinct runtime error, with the devices it hit counted.
    for i, by_error in class_failures.items():
        expression = device_class.spec.selectors[i].cel.expression
        for error, ids in by_error.items():
            errs.add(FieldError(f"{path}.deviceClassName", WARNING, detail=(
                f"DeviceClass {class_name!r} selector #{i} fails at runtime on {len(ids)} device(s), which aborts "
                f"allocation: {error} (on {_listed(ids)})"), severity="warning",
                hint=_runtime_hint(error, expression, devices)))
    for j, by_error in request_failures.items():
        expression = selectors[j].cel.expression
        for error, ids in by_error.items():
            field = f"{path}.selectors[{j}].cel.expression"
            fix = locator.fix(field, expression, _runtime_fix(error, expression, in_class))
            errs.add(FieldError(field, WARNING, detail=(
                f"fails at runtime on {len(ids)} device(s) of class {class_name!r}, which aborts allocation: "
                f"{error} (on {_listed(ids)})"), severity="warning", hint=_runtime_hint(error, expression, in_class),
                fixes=[fix] if fix else []))
    for j, selector in enumerate(selectors):
        if selector.cel is not None:
            # A name the runtime warning already gives as "no such key" (with its hint and fix) is said once.
            said = {m.group(1) for error in request_failures.get(j, {}) for m in _NO_SUCH_KEY.finditer(error)}
            _unpublished(errs, locator, f"{path}.selectors[{j}].cel.expression", selector.cel.expression,
                         class_name, in_class, evaluator, said)
            _version_strings(errs, locator, f"{path}.selectors[{j}].cel.expression", selector.cel.expression,
                             in_class)
    if matching == 0 and not class_failures and not request_failures:
        errs.warn(path, f"no device in the inventory matches this request (class {class_name!r}"
                  f"{' and its selectors' if request_sels else ''})")


_NO_SUCH_KEY = re.compile(r"no such key: ([^\s]+?)\.?(?=\s|$)")


def _unpublished(errs: Errors, locator, path: str, expression: str, class_name: str, in_class: list[_Device],
                 evaluator: _Evaluator, said: set[str] = frozenset()) -> None:
    if not in_class:
        return
    reported = set()
    matches = None  # devices of the class the selector is true on, counted when a name is unpublished
    for m in _REFERENCE.finditer(expression):
        what = m.group(1)
        domain = m.group(2) if m.group(2) is not None else m.group(3)
        ident = m.group(4) or (m.group(5) if m.group(5) is not None else m.group(6))
        if (what, domain, ident) in reported:
            continue
        reported.add((what, domain, ident))
        if ident in said or any((domain, ident) in dev.published[what] for dev in in_class):
            continue
        singular = "attribute" if what == "attributes" else "capacity"
        line, col = _line_col(expression, m.start())
        pos = locator.locate(path, expression, line, col)
        if matches is None:
            outcomes = evaluator.selectors.outcomes(expression, [dev.seen_by_cel for dev in in_class])
            matches = sum(1 for outcome in outcomes if outcome is True)
        # A guarded read (has(), .?, `in`) can leave the selector true without the name: say what CEL does.
        effect = (": this selector is always false or fails at runtime" if not matches else
                  f"; the selector is still true on {matches} of them, where CEL finds the name missing")
        fix = locator.fix(path, expression, _name_fix(m, what, domain, ident, in_class))
        errs.add(FieldError(path, WARNING, detail=f"no device of class {class_name!r} publishes {singular} "
                            f"{domain}/{ident}{effect}",
                            pos=pos, severity="warning", hint=_name_hint(what, domain, ident, in_class),
                            fixes=[fix] if fix else []))


def _published(what: str, devices: list[_Device]) -> dict[str, set[str]]:
    """domain -> the names devices publish there, for attributes or capacity."""
    out: dict[str, set[str]] = {}
    for dev in devices:
        for domain, ident in dev.published[what]:
            out.setdefault(domain, set()).add(ident)
    return out


def _name_hint(what: str, domain: str, ident: str, devices: list[_Device], guard: str | None = None) -> str | None:
    published = _published(what, devices)
    if domain not in published:
        return domain_hint(domain, sorted(published)) if published else None
    return missing_key_hint(ident, sorted(published[domain]), guard)


def _name_fix(m: re.Match, what: str, domain: str, ident: str, devices: list[_Device]):
    """The did-you-mean of ``_name_hint`` as an edit of the name (or the domain) ``m`` matched."""
    published = _published(what, devices)
    domain_group = 2 if m.group(2) is not None else 3
    if domain not in published:
        close = difflib.get_close_matches(domain, [d for d in published if d != domain], n=1, cutoff=0.8)
        if not close:
            return None
        return cel_fixes.rename(f"Use {close[0]}", m.start(domain_group), m.end(domain_group), close[0])
    close = close_name(ident, sorted(published[domain]))
    if close is None or ident in published[domain]:
        return None
    group = 4 if m.group(4) else (5 if m.group(5) is not None else 6)
    return cel_fixes.rename(f"Use {close}", m.start(group), m.end(group), close)


def _runtime_fix(error: str, expression: str, devices: list[_Device]):
    """The edit for a runtime error's hint: a did-you-mean, a has() guard for a name only some devices
    publish, or semver() around a string compared with a version."""
    if "no such key:" in error:
        key = error.split("no such key:", 1)[1].split(".", 1)[0].strip()
        for m in _REFERENCE.finditer(expression):
            ident = m.group(4) or (m.group(5) if m.group(5) is not None else m.group(6))
            if ident != key:
                continue
            what = m.group(1)
            domain = m.group(2) if m.group(2) is not None else m.group(3)
            renamed = _name_fix(m, what, domain, key, devices)
            if renamed is not None:
                return renamed
            published = _published(what, devices)
            if key in published.get(domain, ()) and guard_state(expression, key) != GUARDED:
                return cel_fixes.has_guard(expression, key)
            return None
    if error.startswith("no such overload"):
        for node, operator, read, first in string_comparisons(expression):
            if operator == "==" and not first and _is_version(read, devices):
                return _semver_fix(node, first)
        ordered = _ordered_version_string(expression, devices)
        if ordered is not None:
            node, literal, _read = ordered
            return cel_fixes.compare_to(expression, node.function, literal is node.args[1], "semver", node.start)
    return None


def _ordered_version_string(expression: str, devices: list[_Device]):
    """The first ``<``/``>`` of a version attribute with a string literal: (comparison, literal, read)."""
    found = guards_analysis(expression)
    if found is None:
        return None
    for node, literal, other in cel_fixes.ordered_string_literals(expression):
        read = next((r for r in found.reads if (r.node.start, r.node.end) == (other.start, other.end)), None)
        if read is not None and _is_version(read, devices):
            return node, literal, read
    return None


def _semver_fix(node, first: bool):
    literal = node.args[0] if first else node.args[1]
    wrapped = semver_wrapped(literal.value)
    if "MAJOR.MINOR.PATCH" in wrapped:
        return None  # the string is no version at all: no mechanical edit
    return cel_fixes.semver_literal(literal, wrapped)


def _runtime_hint(error: str, expression: str, devices: list[_Device]) -> str | None:
    """Advice for a runtime error; for a missing key, the names published where the selector looked and
    what the expression already guards; for a version compared with a string, how to compare versions."""
    if "no such key:" in error:
        key = error.split("no such key:", 1)[1].split(".", 1)[0].strip()
        for m in _REFERENCE.finditer(expression):
            ident = m.group(4) or (m.group(5) if m.group(5) is not None else m.group(6))
            if ident == key:
                domain = m.group(2) if m.group(2) is not None else m.group(3)
                return _name_hint(m.group(1), domain, key, devices, guard_state(expression, key))
    if error.startswith("no such overload"):
        for node, operator, read, first in string_comparisons(expression):
            if operator == "==" and not first and _is_version(read, devices):
                literal = node.args[1].value
                return version_string_hint(literal, operator, first, expression[read.node.start:read.node.end])
        ordered = _ordered_version_string(expression, devices)
        if ordered is not None:
            return ("a version attribute is not a string and versions are not ordered with < or >: wrap the string "
                    f"in semver(\"...\") and compare with compareTo, e.g. "
                    f"{expression[ordered[2].node.start:ordered[2].node.end]}.compareTo({semver_wrapped(ordered[1].value)})"
                    f" {cel_fixes.ORDERING[ordered[0].function]} 0")
    return runtime_hint(error)


def _is_version(read, devices: list[_Device]) -> bool:
    """Whether some device publishes the attribute ``read`` (``guards.Read``) reads as a version."""
    where = read.domain
    if where is None or where[0] != "attributes":
        return False
    for dev in devices:
        if (where[1], read.name) not in dev.published["attributes"]:
            continue
        attrs = dev.device.attributes
        attr = attrs.get(f"{where[1]}/{read.name}") or (attrs.get(read.name) if where[1] == dev.driver else None)
        if attr is not None and attr.version is not None:
            return True
    return False


def _version_strings(errs: Errors, locator, path: str, expression: str, in_class: list[_Device]) -> None:
    """A version attribute compared with a string where CEL gives a value, silently: ``"1.2.3" == v`` is
    false, ``!=`` in either order true. (``v == "1.2.3"`` fails at runtime: the runtime warning says it.)"""
    for node, operator, read, first in string_comparisons(expression):
        if (operator == "==" and not first) or not _is_version(read, in_class):
            continue
        text = expression[node.start:node.end]
        line, col = _line_col(expression, node.start)
        literal = (node.args[0] if first else node.args[1]).value
        outcome = "false" if operator == "==" else "true"
        fix = locator.fix(path, expression, _semver_fix(node, first))
        errs.add(FieldError(path, WARNING, fixes=[fix] if fix else [], detail=(
            f"`{text}` compares a string with a version attribute: it is {outcome} on every device that "
            "publishes the attribute as a version"),
            pos=locator.locate(path, expression, line, col), severity="warning",
            hint=version_string_hint(literal, operator, first, expression[read.node.start:read.node.end])))


def _constraint_names(errs: Errors, locator, doc, devices: list[_Device]) -> None:
    """A matchAttribute or distinctAttribute no device of the inventory publishes: a device without the
    attribute never satisfies the constraint, so the requests it applies to get no device."""
    if doc.kind == "ResourceClaim":
        spec, base = doc.obj.spec, "spec"
    elif doc.kind == "ResourceClaimTemplate":
        spec, base = doc.obj.spec.spec, "spec.spec"
    else:
        return
    published = {pair for dev in devices for pair in dev.published["attributes"]}
    if not published:
        return
    for i, constraint in enumerate(spec.devices.constraints):
        for field, name in (("matchAttribute", constraint.match_attribute),
                            ("distinctAttribute", constraint.distinct_attribute)):
            domain, _, ident = (name or "").partition("/")
            if not ident or (domain, ident) in published:
                continue
            path = f"{base}.devices.constraints[{i}].{field}"
            close = close_name(name, sorted(f"{d}/{i}" for d, i in published))
            fix = locator.fix(path, name, cel_fixes.rename(f"Use {close}", 0, len(name), close)) if close else None
            errs.add(FieldError(path, WARNING, detail=(
                f"no device in the inventory publishes attribute {name}: a device without it never satisfies "
                f"{field}, so the requests it applies to cannot be allocated"), severity="warning",
                hint=_attribute_hint(domain, ident, published), fixes=[fix] if fix else []))


def _attribute_hint(domain: str, ident: str, published: set[tuple[str, str]]) -> str | None:
    close = close_name(f"{domain}/{ident}", sorted(f"{d}/{i}" for d, i in published))
    if close:
        near_domain = close.partition("/")[0]
        names = sorted(i for d, i in published if d == near_domain)
        return f"did you mean \"{close}\"? The devices publish under {near_domain}: {_listed(names)}"
    in_domain = sorted(i for d, i in published if d == domain)
    if in_domain:
        return f"the devices publish under {domain}: {_listed(in_domain)}"
    return domain_hint(domain, sorted({d for d, _ in published}))


def _line_col(expression: str, offset: int) -> tuple[int, int]:
    line = expression.count("\n", 0, offset) + 1
    start = expression.rfind("\n", 0, offset) + 1
    return line, offset - start + 1
