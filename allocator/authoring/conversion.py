"""Objects rewritten in another served resource.k8s.io version, as ``convert --to`` and the API do it.

``convert_text(text, to, gates)`` reads the documents as the engine reads them
(every served version, Lists, multi-document YAML or JSON), brings each
resource.k8s.io object to the v1 shape (``kube.convert``) and writes it in the
target version (``kube.convert_back``), the way the apiserver converts through
its internal version. Other objects (Pods, Nodes...) are kept as they are.

Nothing is lost silently: a field the target version has no place for (a
request's ``capacity`` in v1alpha3, a capacity's ``requestPolicy``...) is named
in ``dropped`` at the path the user wrote. The output is then read back as the
chosen release reads it, so a target the release does not serve, or a field the
release's types lack, is an error rather than a file its apiserver refuses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from allocator.kube.convert import RESOURCE_GROUP, SERVED_VERSIONS, convert
from allocator.kube.convert_back import from_v1, version_of
from allocator.kube.objects import _flatten, read_documents
from allocator.reading.diagnostics import Diagnostic
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.yamlsource import load_yaml_stream
from allocator.releases.gates import FeatureGates
from allocator.releases.serving import not_served, read_errors


@dataclass(frozen=True)
class Dropped:
    """A field of the input that the target version has no place for."""

    kind: str
    name: str
    field: str  # as the user wrote it
    detail: str

    def as_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "field": self.field, "detail": self.detail}


@dataclass
class ConversionResult:
    api_version: str  # the target, e.g. resource.k8s.io/v1beta1
    objects: list[dict] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)


def target_version(text: str) -> str:
    """``v1beta1`` or ``resource.k8s.io/v1beta1`` -> ``v1beta1``; ValueError naming the served ones otherwise."""
    version = text.strip()
    if "/" in version:
        try:
            return version_of(version)
        except ValueError:
            pass
    elif version in SERVED_VERSIONS:
        return version
    served = ", ".join(f"{RESOURCE_GROUP}/{v}" for v in SERVED_VERSIONS)
    raise ValueError(f"unknown target version {text!r}: the versions of {RESOURCE_GROUP} are {served}")


def convert_text(text: str, to: str, gates: FeatureGates, limits: Limits = DEFAULT) -> ConversionResult:
    """Every object of ``text`` in version ``to`` (see the module's docstring). ``to`` must be valid."""
    version = target_version(to)
    result = ConversionResult(api_version=f"{RESOURCE_GROUP}/{version}")
    # The input is read in whatever version it was written: converting out of a version the release no
    # longer serves is the point. What cannot be read as written cannot be converted either.
    result.errors = list(read_documents(text, limits=limits).errors)
    if result.errors:
        return result
    for raw in load_yaml_stream(text, limits=limits):
        for data, _pos in _flatten([raw]):
            # Plain JSON values: the reader's positioned mappings are of no use in the output.
            result.objects.append(json.loads(json.dumps(_converted(data, version, result.dropped))))
    result.errors = _refusals(result, gates, limits)
    return result


def _converted(data: object, version: str, dropped: list[Dropped]) -> object:
    """``data`` in ``version`` when it is an object of the resource group; anything else as it is."""
    if not isinstance(data, dict):
        return data
    api_version = data.get("apiVersion")
    if not isinstance(api_version, str) or api_version.rpartition("/")[0] != RESOURCE_GROUP:
        return data
    kind = data.get("kind", "")
    source = convert(kind, version_of(api_version), data)
    lost: list[str] = []
    out = from_v1(kind, version, source.data, lost)
    name = _name(data)
    for path, (_value, _pos, note) in source.classic.items():
        dropped.append(Dropped(kind, name, path, f"a field of classic DRA: {note}"))
    for path in lost:
        dropped.append(Dropped(kind, name, source.original_path(path),
                               f"{RESOURCE_GROUP}/{version} has no such field; its value is not in the output"))
    return out


def _name(data: dict) -> str:
    meta = data.get("metadata")
    return meta.get("name", "") if isinstance(meta, dict) and isinstance(meta.get("name"), str) else ""


def _refusals(result: ConversionResult, gates: FeatureGates, limits: Limits) -> list[Diagnostic]:
    """The output read back as the release reads it: what it would refuse (a version it does not serve...)."""
    again = read_documents(json.dumps({"apiVersion": "v1", "kind": "List", "items": result.objects}), limits=limits)
    found = read_errors(again, gates)
    found.extend(d for d in (not_served(doc, gates) for doc in again.documents) if d is not None)
    for diagnostic in found:  # positions point into the output, not into the user's text
        diagnostic.line = diagnostic.column = None
    return found
