"""DeviceTaintRules as the scheduler sees them: slices with the rules' taints added.

The scheduler does not read ResourceSlices directly but through the
ResourceSlice tracker of k8s.io/dynamic-resource-allocation, which patches
each slice: for every DeviceTaintRule whose selector matches a device, the
rule's taint is appended after the device's own taints. The allocator then
treats those taints like any other (``candidates.taint_prevents``).

What a selector matches, per release (``releases.rules.ReleaseRules``):

- driver, pool and device name must each equal the slice's when set;
- 1.33-1.34 only: a ``deviceClassName`` must name an existing class whose CEL
  selectors all match the device, and the rule's own CEL ``selectors`` must
  all match; a runtime error means "no match", a compile error stops the
  patching of that slice (the tracker keeps no patched copy of it, so the
  scheduler does not see the slice);
- a rule without a selector taints every device (so up to 1.37.0; upstream
  issue 141620).

A taint a rule added is a ``RuleTaint``: the same fields, plus the rule's
name for the explanations.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence

from allocator.cel.selectors import SelectorEvaluator, shared_evaluator
from allocator.kube import model
from allocator.reading import records
from allocator.reading.records import record
from allocator.releases.rules import ReleaseRules


class RuleTaint(model.DeviceTaint):
    """A taint added by a DeviceTaintRule; ``rule`` is the rule's name (not an API field)."""

    rule: str = ""

    @classmethod
    def of(cls, rule: model.DeviceTaintRule) -> RuleTaint:
        taint = rule.spec.taint
        out = cls(key=taint.key, value=taint.value, effect=taint.effect, time_added=taint.time_added)
        out.rule = rule.metadata.name
        return out


def taint_source(taint: model.DeviceTaint) -> str:
    """The name of the DeviceTaintRule that added ``taint``, or "" for the device's own taint."""
    return taint.rule if isinstance(taint, RuleTaint) else ""


@record
class Patched:
    """The slices as the scheduler sees them, and the slices left out by a rule's compile error."""

    slices: list[model.ResourceSlice]
    errors: list[str] = records.field(default_factory=list)


def apply_taint_rules(slices: Sequence[model.ResourceSlice], rules: Iterable[model.DeviceTaintRule],
                      classes: dict[str, model.DeviceClass], selectors: SelectorEvaluator,
                      release: ReleaseRules) -> Patched:
    """``slices`` with the matching rules' taints appended (unchanged slices are the same objects), matched as
    the tracker of ``release`` matched them (``ReleaseRules.taint_rule_class_and_cel``)."""
    class_and_cel = release.taint_rule_class_and_cel
    rules = list(rules)
    if not rules:
        return Patched(list(slices))
    out = Patched([])
    for slice_ in slices:
        try:
            out.slices.append(_patched(slice_, rules, classes, selectors, class_and_cel))
        except _CompileError as err:
            out.errors.append(str(err))
    return out


class _CompileError(Exception):
    pass


def _patched(slice_: model.ResourceSlice, rules: list[model.DeviceTaintRule], classes: dict[str, model.DeviceClass],
             selectors: SelectorEvaluator, class_and_cel: bool) -> model.ResourceSlice:
    spec = slice_.spec
    added: dict[int, list[model.DeviceTaint]] = {}
    for rule in rules:
        chosen = rule.spec.device_selector
        class_expressions: list[str] = []
        rule_expressions: list[str] = []
        device_name = None
        if chosen is not None:
            if chosen.driver is not None and chosen.driver != spec.driver:
                continue
            if chosen.pool is not None and chosen.pool != spec.pool.name:
                continue
            device_name = chosen.device
            if class_and_cel:
                if chosen.device_class_name is not None:
                    device_class = classes.get(chosen.device_class_name)
                    if device_class is None:
                        continue  # no such class: the rule does not apply
                    class_expressions = [s.cel.expression for s in device_class.spec.selectors if s.cel is not None]
                rule_expressions = [s.cel.expression for s in chosen.selectors if s.cel is not None]
        for index, device in enumerate(spec.devices):
            if device_name is not None and device_name != device.name:
                continue
            if not (_all_match(class_expressions, f"class {chosen.device_class_name}" if chosen else "", rule,
                               spec.driver, device, selectors)
                    and _all_match(rule_expressions, "", rule, spec.driver, device, selectors)):
                continue
            added.setdefault(index, []).append(RuleTaint.of(rule))
    if not added:
        return slice_
    devices = [records.replace(d, taints=[*d.taints, *added[i]]) if i in added else d
               for i, d in enumerate(spec.devices)]
    patched = copy.copy(slice_)
    patched.spec = records.replace(spec, devices=devices)
    return patched


def _all_match(expressions: list[str], owner: str, rule: model.DeviceTaintRule, driver: str, device: model.Device,
               selectors: SelectorEvaluator) -> bool:
    for index, expression in enumerate(expressions):
        outcome = selectors.outcome(expression, driver, device, False)
        if outcome is True:
            continue
        if outcome is False:
            return False
        if isinstance(outcome, Exception) and selectors.compile(expression) is outcome:
            where = f"{owner}: " if owner else ""
            raise _CompileError(f"DeviceTaintRule {rule.metadata.name}: {where}selector #{index}: "
                                f"CEL compile error: {outcome}")
        return False  # a runtime error: no match
    return True


def rule_taints_by_device(slices: Sequence[model.ResourceSlice], rules: Iterable[model.DeviceTaintRule],
                          classes: dict[str, model.DeviceClass], gates) -> dict[tuple[str, str, str], list[RuleTaint]]:
    """(driver, pool, device) -> the taints DeviceTaintRules add to it, as the scheduler of ``gates``'
    release sees them: nothing while DRADeviceTaints or the release's rule gate is off (see
    ``ReleaseRules.taint_rules_gate``); a slice a rule's compile error keeps from the scheduler gets none."""
    values = gates.values
    release = gates.release_rules
    rules = list(rules)
    if not rules or not values.get("DRADeviceTaints") or not values.get(release.taint_rules_gate):
        return {}
    cel_gates = frozenset(g for g in ("DRAConsumableCapacity", "DRAListTypeAttributes") if values.get(g))
    patched = apply_taint_rules(slices, rules, classes, shared_evaluator(cel_gates), release)
    out: dict[tuple[str, str, str], list[RuleTaint]] = {}
    for slice_ in patched.slices:
        for device in slice_.spec.devices:
            added = [t for t in device.taints if isinstance(t, RuleTaint)]
            if added:
                out.setdefault((slice_.spec.driver, slice_.spec.pool.name, device.name), []).extend(added)
    return out
