"""Errors and warnings as data, located in the user's YAML.

A diagnostic renders like the apiserver's field errors
(``spec.devices.requests[0].name: Required value``) and also knows the
object it belongs to and the line and column (1-based) in the source text.
"""

from __future__ import annotations

import json

from allocator.reading import TYPE_CHECKING, records
from allocator.reading.records import asdict, record

if TYPE_CHECKING:
    from typing import Any

# The apiserver's field.ErrorType strings.
REQUIRED = "Required value"
INVALID = "Invalid value"
UNSUPPORTED = "Unsupported value"
DUPLICATE = "Duplicate value"
TOO_MANY = "Too many"
TOO_LONG = "Too long"
FORBIDDEN = "Forbidden"
NOT_FOUND = "Not found"
INTERNAL = "Internal error"
# Not an apiserver type: the document could not be read at all (YAML syntax,
# unknown fields under strict decoding, wrong JSON types).
PARSE = "Parse error"
# Not an apiserver type either: the release does not serve the object's
# apiVersion, so the apiserver would answer 404 before any validation.
NOT_SERVED = "Not served"

_OMIT = object()


@record
class Fix:
    """A mechanical edit that does what a hint says: replace the text between ``start`` and ``end``
    (each ``{"line": L, "column": C}``, 1-based, ``end`` exclusive, columns counted in characters) of
    the document the diagnostic is about with ``replacement``. ``title`` is the button's text
    ("Use productName"). The report adds ``document`` ("documents" or "inventory")."""

    title: str
    start: dict
    end: dict
    replacement: str


@record
class Diagnostic:
    field: str
    type: str
    detail: str = ""
    kind: str = ""
    name: str = ""
    line: int | None = None
    column: int | None = None
    severity: str = "error"  # or "warning"
    # The offending value as the apiserver would print it, already rendered.
    value: str | None = None
    # Advice of the playground's own, shown beside the upstream message (never instead of it).
    hint: str | None = None
    # Edits that apply the hint (``Fix``); empty when it has no mechanical fix.
    fixes: list[Fix] = records.field(default_factory=list)

    def message(self) -> str:
        """The text the apiserver would print for this error."""
        parts = [f"{self.field}: {self.type}" if self.field else self.type]
        if self.value is not None:
            parts.append(self.value)
        if self.detail:
            parts.append(self.detail)
        return ": ".join(parts)

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}: " if self.line else ""
        obj = f"{self.kind} {self.name!r}: " if self.kind else ""
        return f"{where}{obj}{self.message()}"

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["message"] = self.message()
        return out


def render_value(value: Any) -> str:
    """Render a bad value the way field.Invalid does: strings quoted, numbers bare."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, sort_keys=True, default=str)


class DiagnosticError(Exception):
    """Raised when input cannot be read at all; carries the located diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))
