"""A scratch device: one device typed as YAML, for the console to evaluate expressions on.

The text is a device as a ResourceSlice lists it in ``spec.devices[]`` (``attributes``, ``capacity``,
``name``, ...), with an optional top-level ``driver:`` line (the driver whose domain unqualified attribute
names belong to; ``scratch.example.com`` when none is given). It is read and validated exactly as a device of
a slice is: the text is placed, indented, under ``spec.devices`` of a ResourceSlice, that slice goes through
the engine's reader and the apiserver's checks, and every error's line, column and field path are mapped
back to the scratch text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from allocator.kube import model
from allocator.kube.objects import read_documents
from allocator.reading.diagnostics import Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.releases.gates import FeatureGates
from allocator.validation.documents import validate_documents

DEFAULT_DRIVER = "scratch.example.com"
DEFAULT_NAME = "scratch"
POOL = "scratch"
INDENT = 4  # the columns the scratch text is shifted right by in the slice

# The slice around the text; the scratch text's first line follows the last line of this header.
_HEADER = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: scratch
spec:
  driver: {driver}
  pool:
    name: scratch
    generation: 1
    resourceSliceCount: 1
  allNodes: true
  devices:
  -{name}
"""
_HEADER_LINES = _HEADER.count("\n")
_DRIVER_LINE = 6
_PATH = "spec.devices[0]"
_DRIVER = re.compile(r"driver:[ \t]*(?P<value>[^#]*?)[ \t]*(#.*)?$")
_NAME = re.compile(r"name:")


class ScratchError(ValueError):
    """The scratch text is not a valid device; ``diagnostics`` are located in it."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(str(diagnostics[0]) if diagnostics else "not a device")
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class ScratchDevice:
    driver: str
    device: model.Device


def read_scratch(text: str, gates: FeatureGates, limits: Limits = DEFAULT) -> ScratchDevice:
    """The device the scratch text describes; raises ``ScratchError`` with located diagnostics."""
    if not text.strip():
        raise ScratchError([Diagnostic(field="", type="Required value",
                                       detail="type the device's attributes and capacity as YAML")])
    lines = text.replace("\r\n", "\n").removesuffix("\n").split("\n")
    driver, driver_at = DEFAULT_DRIVER, None
    for number, line in enumerate(lines):
        found = _DRIVER.match(line)
        if found:
            driver, driver_at = found["value"].strip("'\"") or DEFAULT_DRIVER, (number + 1, found.start("value") + 1)
            lines[number] = "#" + line  # a comment now: the lines keep their numbers
            break
    named = any(_NAME.match(line) for line in lines)
    body = "".join(" " * INDENT + line + "\n" if line.strip() else "\n" for line in lines)
    slice_text = _HEADER.format(driver=_quoted(driver), name="" if named else f" name: {DEFAULT_NAME}") + body
    try:
        read = read_documents(slice_text, limits=limits)
    except DiagnosticError as err:
        raise ScratchError([_located(d, driver_at) for d in err.diagnostics]) from None
    errors = [d for d in validate_documents(read, gates, slice_text) if d.severity == "error"]
    if errors:
        raise ScratchError([_located(d, driver_at) for d in errors])
    (resource_slice,) = read.of_kind("ResourceSlice")
    return ScratchDevice(driver, resource_slice.spec.devices[0])


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _located(d: Diagnostic, driver_at: tuple[int, int] | None) -> Diagnostic:
    """A diagnostic of the surrounding slice, told in terms of the scratch text."""
    field = d.field
    if field.startswith(_PATH):
        field = field[len(_PATH):].lstrip(".")
    elif field.startswith("spec."):
        field = field[len("spec."):]
    line, column = d.line, d.column
    if line is not None and line > _HEADER_LINES:
        line, column = line - _HEADER_LINES, max(1, (column or 1) - INDENT)
    elif line == _DRIVER_LINE and driver_at:
        line, column = driver_at
    else:
        line = column = None
    detail = d.detail.replace(f"{_PATH}.", "")
    return replace(d, field=field, detail=detail, kind="", name="", line=line, column=column, fixes=[])
