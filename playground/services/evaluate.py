"""A CEL expression evaluated on one device of an inventory (``allocator.authoring.console``).

The page's console reads the state's inventory and documents and shows a reading error beside its
answer; the API refuses unreadable input. Both find the device and evaluate here.
"""

from __future__ import annotations

from allocator.authoring.console import DeviceRef, evaluate, find_device
from allocator.kube import model
from allocator.kube.objects import read_documents
from allocator.reading.diagnostics import Diagnostic
from allocator.reading.limits import Limits
from allocator.releases.gates import FeatureGates


def read_slices(text: str, limits: Limits) -> tuple[list[model.ResourceSlice], list[Diagnostic]]:
    """The ResourceSlices of a text and the errors of its objects; raises ``DiagnosticError`` when the text
    cannot be read at all (the engine caches the reading)."""
    read = read_documents(text, limits=limits)
    return list(read.of_kind("ResourceSlice")), list(read.errors)


def evaluate_on(expression: str, ref: DeviceRef, slices: list[model.ResourceSlice], gates: FeatureGates) -> dict:
    """The engine's answer (value, type, parts, cost, diagnostics) on the device ``ref`` names among
    ``slices``; raises ``DeviceNotFound`` when none has it."""
    return evaluate(expression, find_device(slices, ref), ref.driver, gates)
