"""The Kubernetes format library: ``format.named()``, ``format.dns1123Label()``, ... and ``validate()``."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.library.strings import compile_regex  # loads RE2 on first use
from allocator.cel.values import (
    NONE,
    Optional,
)

_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_FORMATS = {
    "dns1123Label": (rf"^{_DNS1123_LABEL}$", 63),
    "dns1123Subdomain": (rf"^{_DNS1123_LABEL}(\.{_DNS1123_LABEL})*$", 253),
    "dns1035Label": (r"^[a-z]([-a-z0-9]*[a-z0-9])?$", 63),
    "labelValue": (r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$", 63),
    "qualifiedName": (r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$", 63),
    "uuid": (r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", 36),
    "date": (r"^\d{4}-\d{2}-\d{2}$", 10),
}


class NamedFormat:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def _format_named(name):
    return Optional(NamedFormat(name), True) if name in _FORMATS else NONE


def _validate(named, text):
    pattern, max_len = _FORMATS[named.name]
    errs = []
    if len(text) > max_len:
        errs.append(f"must be no more than {max_len} characters")
    if not compile_regex(pattern).search(text):
        errs.append(f"must be a valid {named.name}")
    return Optional(errs, True) if errs else NONE


decl("format.named", ["string"], "optional_type(kubernetes.NamedFormat)", _format_named)
for _name in _FORMATS:
    decl(f"format.{_name}", [], "kubernetes.NamedFormat", (lambda n: lambda: NamedFormat(n))(_name))
decl("validate", ["kubernetes.NamedFormat", "string"], "optional_type(list(string))", _validate, member=True)
