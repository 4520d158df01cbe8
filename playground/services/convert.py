"""Documents rewritten in another resource.k8s.io version (``allocator.authoring.conversion``)."""

from __future__ import annotations

from allocator.authoring.conversion import ConversionResult, convert_text
from allocator.reading.diagnostics import Diagnostic, DiagnosticError
from allocator.releases.gates import FeatureGates
from playground.limits import engine_limits


class NotConverted(Exception):
    """The documents cannot be converted: unreadable, or refused by the release in the target version."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(diagnostics[0].message() if diagnostics else "not converted")
        self.diagnostics = diagnostics


def convert(documents: str, to: str, gates: FeatureGates) -> ConversionResult:
    """Every object of ``documents`` in version ``to`` (``v1`` or ``resource.k8s.io/v1``, valid), under the
    site's limits for sent text; raises ``NotConverted``."""
    try:
        result = convert_text(documents, to, gates, engine_limits())
    except DiagnosticError as err:
        raise NotConverted(list(err.diagnostics)) from None
    if result.errors:
        raise NotConverted(list(result.errors))
    return result
