"""Kubernetes documents in, typed DRA objects out.

``read_documents(text)`` accepts what people paste: multi-document YAML,
JSON, ``kind: List`` and typed lists (``ResourceSliceList``) as ``kubectl get
-o yaml`` prints them, in every served API version of resource.k8s.io. Each
object is converted to the v1 model (see ``convert``) and strictly decoded
(see ``decode``). The result keeps, per object, the apiVersion it was written
in and the positions of its fields.

Results are cached by the exact text (a small LRU): the live editor sends
the same inventory with every keystroke and the page reads each text twice.
The typed objects of a cached result are shared between calls, so they are
read-only for everyone (the engine never modifies them: defaulting and
conversion work on copies); the lists of a ``ReadResult`` are fresh per call.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from . import model
from .convert import RESOURCE_GROUP, SERVED_VERSIONS, Conversion, convert
from .decode import Decoder
from .diagnostics import PARSE, Diagnostic, DiagnosticError
from .limits import DEFAULT, Limits
from .yamlsource import PosDict, Position, load_yaml_stream, position_in

_TOP_LEVEL = {"apiVersion", "kind", "metadata", "spec", "status"}
_RESOURCE_KINDS = {"DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate"}
_CORE_KINDS = {"Node", "Pod"}
_NAMESPACED = {"ResourceClaim", "ResourceClaimTemplate", "Pod"}


@dataclass
class Document:
    """One typed object and where it came from."""

    kind: str
    api_version: str  # as written by the user
    obj: object
    positions: dict[str, Position] = field(default_factory=dict)
    index: int = 0  # which object of the input, 0-based
    line: int | None = None
    column: int | None = None

    @property
    def name(self) -> str:
        return self.obj.metadata.name

    @property
    def namespace(self) -> str:
        return self.obj.metadata.namespace

    def position(self, path: str) -> Position | None:
        """Position of a field path, or of its nearest recorded ancestor."""
        while True:
            if path in self.positions:
                return self.positions[path]
            if not path:
                return (self.line, self.column) if self.line else None
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""


@dataclass
class ReadResult:
    documents: list[Document] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    # Objects of other kinds (Deployments, ConfigMaps...), reported as ignored.
    ignored: list[str] = field(default_factory=list)

    def of_kind(self, kind: str) -> list:
        return [d.obj for d in self.documents if d.kind == kind]


def _flatten(raw_docs) -> list[tuple[object, Position | None]]:
    """Expand ``kind: List`` and typed ``*List`` wrappers into their items."""
    out = []
    for raw in raw_docs:
        stack = [(raw.data, raw.pos)]
        while stack:
            data, pos = stack.pop(0)
            kind = data.get("kind") if isinstance(data, dict) else None
            if isinstance(kind, str) and kind.endswith("List") and isinstance(data.get("items"), list):
                items = data["items"]
                stack[0:0] = [(_typed_item(data, item), position_in(items, i)) for i, item in enumerate(items)]
            else:
                out.append((data, pos))
    return out


def _typed_item(wrapper, item):
    """Items of a typed list (``ResourceSliceList``) as the API returns it have no kind/apiVersion: inherit them."""
    kind = wrapper["kind"]
    if kind == "List" or not isinstance(item, dict) or ("kind" in item and "apiVersion" in item):
        return item
    out = PosDict(item, pos=getattr(item, "pos", None))
    out.key_pos = dict(getattr(item, "key_pos", {}))
    out.value_pos = dict(getattr(item, "value_pos", {}))
    out.setdefault("kind", kind[: -len("List")])
    if "apiVersion" in wrapper:
        out.setdefault("apiVersion", wrapper["apiVersion"])
    return out


class _ReadCache:
    """LRU of read results keyed by (text, default namespace, limits), bounded in entries and in characters of text.

    Parsed objects take about 15 bytes per character of YAML, so the default
    bound of 2 Mi characters keeps a worker's cache near 30 MB at most.
    """

    def __init__(self, entries: int = 16, chars: int = 2 * 1024 * 1024):
        self.entries = entries
        self.chars = chars
        self._items: OrderedDict[tuple[str, str, Limits], ReadResult] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, Limits]) -> ReadResult | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str, Limits], result: ReadResult) -> None:
        size = len(key[0])
        if size > self.chars:
            return
        with self._lock:
            if key in self._items:
                return
            self._items[key] = result
            self._size += size
            while len(self._items) > self.entries or self._size > self.chars:
                old, _ = self._items.popitem(last=False)
                self._size -= len(old[0])

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._size = 0


_cache = _ReadCache()


def read_documents(text: str, *, default_namespace: str = "default", limits: Limits = DEFAULT) -> ReadResult:
    """Read a stream of Kubernetes documents. Syntax errors and crossed ``limits`` raise DiagnosticError.

    The same text gives the same (shared, read-only) objects; see the module docstring.
    """
    key = (text, default_namespace, limits)
    result = _cache.get(key)
    if result is None:
        result = _read_uncached(text, default_namespace, limits)
        _cache.put(key, result)
    return ReadResult(documents=list(result.documents), errors=list(result.errors), ignored=list(result.ignored))


def _read_uncached(text: str, default_namespace: str, limits: Limits) -> ReadResult:
    raw_docs = load_yaml_stream(text, limits=limits)
    result = ReadResult()
    for index, (data, pos) in enumerate(_flatten(raw_docs)):
        _read_one(data, pos, index, result, default_namespace)
    return result


def _read_one(data, pos: Position | None, index: int, result: ReadResult, default_namespace: str) -> None:
    line, column = pos if pos else (None, None)

    def fail(field_path: str, detail: str, at: Position | None = None, kind: str = "", name: str = ""):
        at = at or pos
        result.errors.append(Diagnostic(field=field_path, type=PARSE, detail=detail, kind=kind, name=name,
                                        line=at[0] if at else None, column=at[1] if at else None))

    if not isinstance(data, dict):
        fail("", f"object #{index + 1} is not a mapping (got {type(data).__name__})")
        return
    api_version, kind = data.get("apiVersion"), data.get("kind")
    if not isinstance(kind, str) or not kind:
        fail("kind", "Object 'Kind' is missing", position_in(data, "kind"))
        return
    if not isinstance(api_version, str) or not api_version:
        fail("apiVersion", "Object 'apiVersion' is missing", position_in(data, "apiVersion"), kind)
        return
    group, _, version = api_version.rpartition("/")
    if kind in _RESOURCE_KINDS:
        if group != RESOURCE_GROUP or version not in SERVED_VERSIONS:
            fail("apiVersion", f'no matches for kind "{kind}" in version "{api_version}" '
                 f'(served: {", ".join(RESOURCE_GROUP + "/" + v for v in SERVED_VERSIONS)})',
                 position_in(data, "apiVersion"), kind)
            return
    elif kind in _CORE_KINDS:
        if api_version != "v1":
            fail("apiVersion", f'no matches for kind "{kind}" in version "{api_version}"', position_in(data, "apiVersion"), kind)
            return
    else:
        meta = data.get("metadata")
        name = meta.get("name", "") if isinstance(meta, dict) else ""
        result.ignored.append(f"{kind} {name}".strip())
        return

    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name = meta.get("name", "") if isinstance(meta.get("name", ""), str) else ""
    decoder = Decoder(kind=kind, name=name)
    for key in data:
        if key not in _TOP_LEVEL:
            decoder.unknown_field(key, key, sorted(_TOP_LEVEL), getattr(data, "key_pos", {}).get(key) or position_in(data, key))
    conversion = convert(kind, version, data) if kind in _RESOURCE_KINDS else Conversion(data=data)
    decoder.errors.extend(conversion.errors)
    v1_data = conversion.data
    body = {k: v for k, v in v1_data.items() if k in ("metadata", "spec", "status")}
    if kind in ("DeviceClass", "ResourceSlice", "ResourceClaimTemplate") and "status" in body:
        body.pop("status")  # server-populated or absent on these kinds
    before = len(decoder.errors)
    obj = decoder.decode(model.KINDS[kind], _positioned(v1_data, body), "", pos)
    for diagnostic in decoder.errors[before:]:
        conversion.relocate(diagnostic)  # report moved fields at the path the user wrote
    if decoder.errors:
        # In reading order: conversion and decoding find them in separate passes.
        result.errors.extend(sorted(decoder.errors, key=lambda d: (d.line or 0, d.column or 0)))
        return
    if kind in _NAMESPACED and not obj.metadata.namespace:
        obj.metadata.namespace = default_namespace
    if kind == "Pod":
        obj.spec = obj.spec  # containers come flattened from decode
    result.documents.append(Document(kind=kind, api_version=api_version, obj=obj, positions=decoder.positions,
                                     index=index, line=line, column=column))


def _positioned(source, body: dict):
    """A copy of ``body`` that keeps the positions ``source`` has for its keys."""
    out = PosDict(body, pos=getattr(source, "pos", None))
    out.key_pos = {k: v for k, v in getattr(source, "key_pos", {}).items() if k in body}
    out.value_pos = {k: v for k, v in getattr(source, "value_pos", {}).items() if k in body}
    return out


def read_or_raise(text: str, limits: Limits = DEFAULT) -> ReadResult:
    """Read documents, raising DiagnosticError when any object cannot be decoded."""
    result = read_documents(text, limits=limits)
    if result.errors:
        raise DiagnosticError(result.errors)
    return result
