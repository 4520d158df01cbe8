"""The editor's Format button: the same objects, written out cleanly.

``format_yaml(text)`` reads a YAML (or JSON) stream as the engine reads it and
writes it again in one style: two-space indents, block style, lists under
their key as ``kubectl`` prints them, multi-line strings (CEL expressions) as
literal blocks, keys in the order written. Comments are not kept (text with only comments is left as it is). The result
is read back and compared with the input's data; if they differ in anything
the text is refused instead, so formatting never changes what the objects say.
Text that cannot be read raises ``DiagnosticError`` with the location.
"""

from __future__ import annotations

import yaml

from allocator.reading.diagnostics import PARSE, Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.yamlsource import load_yaml_stream

_BaseDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_BaseDumper):
    pass


def _str(dumper, value: str):
    style = "|" if "\n" in value and not value.startswith((" ", "\n")) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _plain(value):
    """The positioned containers of ``yamlsource`` as plain dicts and lists (the dumper wants exact types)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def format_yaml(text: str, limits: Limits = DEFAULT) -> str:
    documents = [_plain(doc.data) for doc in load_yaml_stream(text, limits=limits)]
    if not documents:  # nothing but comments (or nothing): leave the text as it is
        return text
    out = yaml.dump_all(documents, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000,
                        default_flow_style=False, explicit_start=len(documents) > 1)
    if out.startswith("---\n"):  # documents after the first are introduced by ---, the first needs none
        out = out[4:]
    again = [_plain(doc.data) for doc in load_yaml_stream(out, limits=limits)]
    if again != documents:
        raise DiagnosticError([Diagnostic(
            field="", type=PARSE, line=1, column=1,
            detail="cannot format this text without changing a value; it was left as it is")])
    return out
