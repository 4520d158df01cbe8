"""A CEL expression evaluated on one device of an inventory (``allocator.authoring.console``).

The page's console evaluates on the engine's read of the state's inventory and documents
(``allocator.authoring.inventory``, the analysis's own) and shows a reading error beside its answer; the
API refuses unreadable input (``read_all_slices``). Both find the device and evaluate here (``evaluate_on``),
and evaluate on a scratch device, typed as YAML, with ``evaluate_scratch``.
"""

from __future__ import annotations

from typing import Any

from allocator.authoring.console import DeviceRef, evaluate, find_device
from allocator.authoring.scratch import POOL as SCRATCH_POOL
from allocator.authoring.scratch import ScratchError, read_scratch
from allocator.kube import model
from allocator.kube.objects import read_documents
from allocator.reading.diagnostics import Diagnostic, DiagnosticError
from allocator.reading.limits import Limits
from allocator.releases.gates import FeatureGates


def read_slices(text: str, limits: Limits) -> tuple[list[model.ResourceSlice], list[Diagnostic]]:
    """The ResourceSlices of a text and the errors of its objects; raises ``DiagnosticError`` when the text
    cannot be read at all."""
    read = read_documents(text, limits=limits)
    return list(read.of_kind("ResourceSlice")), list(read.errors)


class Unreadable(Exception):
    """Texts the API will not evaluate on: one cannot be read at all, or objects in them are invalid."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(diagnostics[0].message() if diagnostics else "unreadable")
        self.diagnostics = diagnostics


def read_all_slices(texts: list[str], limits: Limits) -> list[model.ResourceSlice]:
    """The ResourceSlices of every text; raises ``Unreadable`` with the first text that cannot be read, or
    with the errors of every object."""
    slices, errors = [], []
    for text in texts:
        try:
            found, refused = read_slices(text, limits)
        except DiagnosticError as err:  # not YAML at all, or beyond the limits
            raise Unreadable(list(err.diagnostics)) from None
        errors.extend(refused)
        slices.extend(found)
    if errors:
        raise Unreadable(errors)
    return slices


def evaluate_on(expression: str, ref: DeviceRef, slices: list[model.ResourceSlice], gates: FeatureGates) -> dict[str, Any]:
    """The engine's answer (value, type, parts, cost, diagnostics) on the device ``ref`` names among
    ``slices``; raises ``DeviceNotFound`` when none has it."""
    return evaluate(expression, find_device(slices, ref), ref.driver, gates)


def evaluate_scratch(expression: str, scratch: str, slice_gates: FeatureGates, gates: FeatureGates,
                     limits: Limits) -> dict[str, Any]:
    """The engine's answer on the scratch device ``scratch`` (YAML, read and checked as a slice's device with
    ``slice_gates``; the expression compiled with ``gates``), with ``device`` ({driver, pool, device}) added;
    raises ``ScratchError`` with errors located in ``scratch``."""
    device = read_scratch(scratch, slice_gates, limits)
    answer = evaluate(expression, device.device, device.driver, gates)
    return {**answer, "device": {"driver": device.driver, "pool": SCRATCH_POOL, "device": device.device.name}}


__all__ = ["ScratchError", "Unreadable", "evaluate_on", "evaluate_scratch", "read_all_slices", "read_slices"]
