"""Collecting field errors the way apimachinery's ``field.ErrorList`` does.

``Errors`` gathers errors by field path while a validator walks an object;
``located`` turns them into ``Diagnostic`` values with the object's kind and
name and the line and column of the field in the user's YAML. Bad values are
rendered as the apiserver renders them (``render``): strings quoted Go-style,
numbers and booleans bare, ``nil`` as ``"null"``.
"""

from __future__ import annotations

from allocator.reading import diagnostics as dg
from allocator.reading.diagnostics import Diagnostic
from allocator.reading.records import field as dc_field
from allocator.reading.records import record

OMIT = object()  # no value shown (Required, Forbidden, Too long, ...)
# The type of playground warnings (the apiserver has no such error type).
WARNING = "Warning"


def go_quote(s: str) -> str:
    """``strconv.Quote``: double-quoted, Go escapes, printable Unicode kept."""
    out = ['"']
    escapes = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
               "\v": "\\v", "\\": "\\\\", '"': '\\"'}
    for ch in s:
        if ch in escapes:
            out.append(escapes[ch])
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


class GoValue:
    """A value already rendered the way Go's ``%#v`` would print it."""

    def __init__(self, text: str):
        self.text = text


def render(value) -> str | None:
    """The ``<value>`` part of ``<path>: <type>: <value>: <detail>``."""
    if value is OMIT:
        return None
    if value is None:
        return '"null"'
    if isinstance(value, GoValue):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return go_quote(value)
    return dg.render_value(value)


def string_slice(items: list[str] | None) -> GoValue:
    """``%#v`` of a ``[]string``."""
    if not items:
        return GoValue("[]string(nil)")
    return GoValue("[]string{" + ", ".join(go_quote(i) for i in items) + "}")


@record
class FieldError:
    field: str
    type: str
    value: object = OMIT
    detail: str = ""
    # Where to point in the YAML when that differs from ``field`` (map keys).
    at: str | None = None
    severity: str = "error"
    # An exact (line, column) in the YAML, e.g. inside a CEL expression.
    pos: tuple[int, int] | None = None
    hint: str | None = None  # the playground's advice beside the upstream message
    fixes: list = dc_field(default_factory=list)  # ``diagnostics.Fix``: edits that apply the hint


class Errors:
    """An ordered list of field errors with the constructors of ``field``."""

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def __len__(self) -> int:
        return len(self.items)

    def add(self, err: FieldError) -> None:
        self.items.append(err)

    def extend(self, other: Errors) -> None:
        self.items.extend(other.items)

    def required(self, path: str, detail: str = "", at: str | None = None) -> None:
        self.add(FieldError(path, dg.REQUIRED, OMIT, detail, at))

    def invalid(self, path: str, value, detail: str, at: str | None = None) -> None:
        self.add(FieldError(path, dg.INVALID, value, detail, at))

    def not_supported(self, path: str, value, supported: list[str], at: str | None = None) -> None:
        detail = "supported values: " + ", ".join(go_quote(v) for v in supported) if supported else ""
        self.add(FieldError(path, dg.UNSUPPORTED, value, detail, at))

    def duplicate(self, path: str, value, at: str | None = None) -> None:
        self.add(FieldError(path, dg.DUPLICATE, value, "", at))

    def not_found(self, path: str, value, detail: str = "", at: str | None = None) -> None:
        self.add(FieldError(path, dg.NOT_FOUND, value, detail, at))

    def too_many(self, path: str, actual: int, limit: int) -> None:
        detail = f"must have at most {limit} item{'s' if limit != 1 else ''}"
        self.add(FieldError(path, dg.TOO_MANY, actual, detail))

    def too_long(self, path: str, limit: int, at: str | None = None) -> None:
        detail = f"may not be more than {limit} byte{'s' if limit != 1 else ''}"
        self.add(FieldError(path, dg.TOO_LONG, OMIT, detail, at))

    def forbidden(self, path: str, detail: str, at: str | None = None) -> None:
        self.add(FieldError(path, dg.FORBIDDEN, OMIT, detail, at))

    def internal(self, path: str, detail: str) -> None:
        self.add(FieldError(path, dg.INTERNAL, OMIT, detail))

    def warn(self, path: str, detail: str, at: str | None = None) -> None:
        """Not an apiserver error: something the playground points out."""
        self.add(FieldError(path, WARNING, OMIT, detail, at, "warning"))


def located(errors: Errors, document) -> list[Diagnostic]:
    """Diagnostics for ``errors`` of one document, positioned via ``Document.position``."""
    out = []
    for err in errors.items:
        pos = err.pos
        if pos is None:
            pos = document.position(err.at or err.field) if document is not None else None
        line, column = pos if pos else (None, None)
        out.append(Diagnostic(
            field=err.field, type=err.type, detail=err.detail,
            kind=document.kind if document is not None else "",
            name=_object_name(document), line=line, column=column,
            severity=err.severity, value=render(err.value), hint=err.hint, fixes=list(err.fixes),
        ))
    return out


def _object_name(document) -> str:
    if document is None:
        return ""
    meta = document.obj.metadata
    return meta.name or meta.generate_name
