"""Validation of DRA objects with the apiserver's rules, limits and messages.

``validate_documents(read_result, gates, text=None)`` returns a ``Diagnostic``
per error (and per warning, ``severity == "warning"``), each with the field
path, the apiserver's error type and text, and the line and column in the
YAML. ``inventory_warnings`` looks at claims against a device inventory.
``cli.run`` is the ``validate`` subcommand. ``classic`` decides what classic DRA's
fields mean in a release; ``clusters`` inspects a cluster snapshot before it is stored.
"""

from allocator.validation.documents import validate_document, validate_documents

__all__ = ["inventory_warnings", "validate_document", "validate_documents"]


def __getattr__(name: str):
    # The warnings (with CEL's hints and quick fixes) load when first asked for: a command line allocation
    # validates but gives no warnings (start-up, docs/performance.md).
    if name == "inventory_warnings":
        from allocator.validation.warnings import inventory_warnings

        return inventory_warnings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
