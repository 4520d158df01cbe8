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

# threading.Lock is _thread.allocate_lock: the low-level module spares a command importing threading (start-up)
import _thread
import gc
from collections import OrderedDict

from allocator.kube import model
from allocator.kube.convert import RESOURCE_GROUP, SERVED_VERSIONS, Conversion, convert
from allocator.kube.decode import Decoder
from allocator.reading.diagnostics import PARSE, Diagnostic, DiagnosticError
from allocator.reading.limits import DEFAULT, Limits
from allocator.reading.plainyaml import PlainDocument, Span, read_plain, snippet
from allocator.reading.positions import PosDict, Position, position_in
from allocator.reading.records import field, record
from allocator.reading.textcheck import check_text
from allocator.releases import fields as release_fields

_TOP_LEVEL = {"apiVersion", "kind", "metadata", "spec", "status"}
_RESOURCE_KINDS = {"DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate"}
_CORE_KINDS = {"Node", "Pod"}
# Kinds decoded as written in any version (their shape is one across versions); whether the
# release serves that version is ``releases.serving``'s question.
_RULE_KINDS = {"DeviceTaintRule"}
_RULE_VERSIONS = ("v1", "v1beta2", "v1alpha3")
_NAMESPACED = {"ResourceClaim", "ResourceClaimTemplate", "Pod"}


@record
class Document:
    """One typed object and where it came from.

    The positions of its fields are found when first asked for (only a
    diagnostic does): objects read by the fast reader are read again then,
    with positions, alone when possible (see ``_Where``).
    """

    kind: str
    api_version: str  # as written by the user
    obj: object
    index: int = 0  # which object of the input, 0-based
    # Field paths written, e.g. "spec.devices" for "devices: []" (read without positions: only those
    # outside lists and maps).
    present: frozenset[str] = frozenset()
    # classic DRA fields (v1alpha3 in 1.31) set aside by ``convert``: path -> (value, position, removal note)
    classic: dict[str, tuple] = field(default_factory=dict)
    # fields not every release of its version has (``release_fields``): path as written -> (type, field, position)
    versioned: dict[str, tuple] = field(default_factory=dict)
    # metadata.uid or metadata.resourceVersion is set: the object was read from a cluster (as `kubectl get -o yaml`
    # prints it), so it already passed the apiserver and is a stored object (``validation.documents.is_stored``)
    from_cluster: bool = False
    # v1beta1/v1alpha3 devices written without ``basic`` (``convert.Conversion.without_basic``)
    without_basic: tuple[str, ...] = ()
    where: _Where | None = field(default=None, repr=False, compare=False)
    located: tuple[dict[str, Position], Position | None] | None = field(default=None, repr=False, compare=False)

    def _located(self) -> tuple[dict[str, Position], Position | None]:
        if self.located is None:
            # Shared read-only objects: two threads may both compute this; either result is the same.
            self.located = self.where.locate() if self.where is not None else ({}, None)
        return self.located

    @property
    def positions(self) -> dict[str, Position]:
        return self._located()[0]

    def classic_pos(self, path: str) -> Position | None:
        """Where a set-aside classic DRA field (``classic``) was written; a fast read finds it by reading again."""
        return self._noted_pos("classic", path, 1)

    def versioned_pos(self, path: str) -> Position | None:
        """Where a field of ``versioned`` was written (its key); a fast read finds it by reading again."""
        return self._noted_pos("versioned", path, 2)

    def _noted_pos(self, noted: str, path: str, index: int) -> Position | None:
        pos = getattr(self, noted)[path][index]
        if pos is None and self.where is not None:
            again = self.where.positioned()
            if again is not None and path in getattr(again, noted):
                pos = getattr(again, noted)[path][index]
        return pos

    @property
    def pos(self) -> Position | None:
        if self.located is None and self.where is not None and self.where.pos is not None:
            return self.where.pos  # known without reading again
        return self._located()[1]

    @property
    def line(self) -> int | None:
        pos = self.pos
        return pos[0] if pos else None

    @property
    def column(self) -> int | None:
        pos = self.pos
        return pos[1] if pos else None

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


@record
class Unreadable:
    """An object that could not be decoded: enough to tell whether its apiVersion is served at all.

    The apiserver refuses an unserved version before decoding, so that
    refusal replaces the object's ``errors`` (see ``serving``).
    """

    kind: str
    api_version: str
    name: str
    errors: list[Diagnostic]
    line: int | None = None
    column: int | None = None
    versioned: dict[str, tuple] = field(default_factory=dict)  # as ``Document.versioned``, with positions

    def versioned_pos(self, path: str) -> Position | None:
        return self.versioned[path][2]

    def position(self, path: str) -> Position | None:
        return (self.line, self.column) if self.line else None


@record
class ReadResult:
    documents: list[Document] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    # Objects of other kinds (Deployments, ConfigMaps...), reported as ignored.
    ignored: list[str] = field(default_factory=list)
    # DRA objects whose decoding failed (their errors are in ``errors`` too).
    unreadable: list[Unreadable] = field(default_factory=list)
    # The labels of each v1 Namespace in the input, by name (listed in ``ignored`` too): the apiserver reads
    # a namespace's labels when a claim in it asks for admin access.
    namespaces: dict[str, dict[str, str]] = field(default_factory=dict)

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

    Read objects take about 10 bytes per character of YAML (measured on a
    1,000-node kubectl dump: 4.8 M characters, 48 MB), so the default bound of
    8 Mi characters holds one such cluster and keeps a worker's cache near
    80 MB at most; ``configure_read_cache`` changes it.
    """

    def __init__(self, entries: int = 16, chars: int = 8 * 1024 * 1024):
        self.entries = entries
        self.chars = chars
        self._items: OrderedDict[tuple[str, str, Limits], ReadResult] = OrderedDict()
        self._size = 0
        self._lock = _thread.allocate_lock()

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
            self.clear_unlocked()

    def clear_unlocked(self) -> None:
        self._items.clear()
        self._size = 0


_cache = _ReadCache()


def configure_read_cache(entries: int, chars: int) -> None:
    """Bound the cache of read texts: at most ``entries`` texts and ``chars`` characters in all."""
    with _cache._lock:
        _cache.entries, _cache.chars = entries, chars
        _cache.clear_unlocked()


def read_documents(text: str, *, default_namespace: str = "default", limits: Limits = DEFAULT) -> ReadResult:
    """Read a stream of Kubernetes documents. Syntax errors and crossed ``limits`` raise DiagnosticError.

    The same text gives the same (shared, read-only) objects; see the module docstring.
    """
    key = (text, default_namespace, limits)
    # A text too big to be kept is never there: not hashed for nothing (about 2.5 ms for 12 MB).
    result = _cache.get(key) if len(text) <= _cache.chars else None
    if result is None:
        result = _read_uncached(text, default_namespace, limits)
        _cache.put(key, result)
    return ReadResult(documents=list(result.documents), errors=list(result.errors), ignored=list(result.ignored),
                      unreadable=list(result.unreadable), namespaces=dict(result.namespaces))


def _read_uncached(text: str, default_namespace: str, limits: Limits) -> ReadResult:
    """Read with Python's cyclic GC paused: reading makes many objects and no cycles, and each collection
    would walk all objects made so far again (3.6 s instead of 1.2 s to decode 5,000 nodes' objects)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        result = _read_text(text, default_namespace, limits)
    finally:
        if paused:
            gc.enable()
    if result.errors:  # (their quick fixes: imported for texts that have errors)
        from allocator.kube.text_fixes import add_text_fixes

        add_text_fixes(text, result.errors)
    if len(text) >= FREEZE_MIN_CHARS:
        # A big inventory lives on (in this cache, for the rest of a command) and holds almost no cycles
        # (a few dozen objects a text, which a freeze would keep after eviction):
        # without this, every full collection walks its millions of objects again (about a quarter of
        # a second per collection for 1,000 nodes, on a claim edit that takes less than that otherwise).
        gc.freeze()
    return result


# Texts from this size on (a cluster of about 200 nodes) are frozen out of the cyclic GC after reading.
FREEZE_MIN_CHARS = 1_000_000


def _read_text(text: str, default_namespace: str, limits: Limits) -> ReadResult:
    check_text(text, limits)
    plain = read_plain(text, limits) if FAST_READER else None
    if plain is not None:
        result = _read_fast(text, plain, default_namespace, limits)
        if result is not None:
            return result
    return _read_positioned(text, default_namespace, limits)


# Tests turn it off to compare both readers' answers.
FAST_READER = True


def _read_positioned(text: str, default_namespace: str, limits: Limits) -> ReadResult:
    from allocator.reading.yamlsource import load_yaml_stream  # PyYAML: only when positions are needed

    raw_docs = load_yaml_stream(text, limits=limits)
    result = ReadResult()
    for index, (data, pos) in enumerate(_flatten(raw_docs)):
        _read_one(data, pos, index, result, default_namespace)
    return result


def _read_fast(text: str, plain: list[PlainDocument], default_namespace: str, limits: Limits) -> ReadResult | None:
    """The objects of fast-read ``plain``.

    An object that cannot be read is read again alone with positions, for
    located errors; None when that cannot be done, for the positioned reader
    to read the whole text.
    """
    result = ReadResult()
    whole = _Whole(text, default_namespace, limits)
    documents, errors, ignored, unreadable = result.documents, result.errors, result.ignored, result.unreadable
    for index, (data, span, wrapper) in enumerate(_flatten_plain(plain)):
        where = _Where(whole, span, wrapper, index)
        # Read into the result straight away (thousands of objects), taken back if the object has errors.
        before = len(documents), len(errors), len(ignored), len(unreadable)
        _read_one(data, None, index, result, default_namespace, where)
        if len(errors) == before[1]:
            continue
        del documents[before[0]:], errors[before[1]:], ignored[before[2]:], unreadable[before[3]:]
        one = where.read_alone()
        if one is None or not one.errors:
            return None
        result.documents.extend(one.documents)
        result.errors.extend(one.errors)
        result.ignored.extend(one.ignored)
        result.unreadable.extend(one.unreadable)
        result.namespaces.update(one.namespaces)
    return result


def _flatten_plain(plain: list[PlainDocument]) -> list[tuple[object, Span | None, dict | None]]:
    """``_flatten`` for plain documents: (object, its span if known, the typed list it came from)."""
    out = []
    for doc in plain:
        stack = [(doc.data, doc.span, doc.item_spans, None)]
        while stack:
            data, span, item_spans, wrapper = stack.pop(0)
            kind = data.get("kind") if isinstance(data, dict) else None
            if isinstance(kind, str) and kind.endswith("List") and isinstance(data.get("items"), list):
                items = data["items"]
                spans = item_spans if len(item_spans) == len(items) else [None] * len(items)
                outer = {k: data[k] for k in ("kind", "apiVersion") if k in data}
                stack[0:0] = [(_typed_item(data, item), s, [], outer) for item, s in zip(items, spans, strict=True)]
            else:
                out.append((data, span, wrapper))
    return out


class _Whole:
    """The positioned reading of a whole text, made once when an object cannot be read again alone."""

    def __init__(self, text: str, default_namespace: str, limits: Limits):
        self.text = text
        self.default_namespace = default_namespace
        self.limits = limits
        self._by_index: dict[int, Document] | None = None

    def document(self, index: int) -> Document | None:
        if self._by_index is None:
            try:
                result = _read_positioned(self.text, self.default_namespace, self.limits)
            except DiagnosticError:
                result = ReadResult()
            self._by_index = {d.index: d for d in result.documents}
        return self._by_index.get(index)


class _Where:
    """Where a fast-read object is: its span in the text, read again with positions when a message needs them."""

    __slots__ = ("whole", "span", "wrapper", "index")

    def __init__(self, whole: _Whole, span: Span | None, wrapper: dict | None, index: int):
        self.whole = whole
        self.span = span
        self.wrapper = wrapper
        self.index = index

    @property
    def pos(self) -> Position | None:
        return self.span.position if self.span is not None else None

    def positioned(self) -> Document | None:
        """The object read again with positions: alone when it can be, else within the whole text."""
        found = self._alone()
        return found if found is not None else self.whole.document(self.index)

    def locate(self) -> tuple[dict[str, Position], Position | None]:
        found = self.positioned()
        return (found.positions, found.pos) if found is not None else ({}, self.pos)

    def _alone(self) -> Document | None:
        found = self.read_alone()
        if found is None or len(found.documents) != 1 or found.errors:
            return None
        return found.documents[0]

    def read_alone(self) -> ReadResult | None:
        """The object read again by itself, with positions: the text of its span, at the same lines and columns.

        None when it cannot be read alone (no span, flow style, not one document there).
        """
        text = snippet(self.whole.text, self.span) if self.span is not None else None
        if text is None:
            return None
        from allocator.reading.yamlsource import load_yaml_stream

        try:
            (raw,) = load_yaml_stream(text, limits=self.whole.limits)
        except (DiagnosticError, ValueError):
            return None
        if raw.pos != self.pos:
            return None
        data = _typed_item(self.wrapper, raw.data) if self.wrapper else raw.data
        found = ReadResult()
        _read_one(data, raw.pos, self.index, found, self.whole.default_namespace)
        return found


def _read_one(data, pos: Position | None, index: int, result: ReadResult, default_namespace: str,
              where: _Where | None = None) -> None:
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
    elif kind in _RULE_KINDS:
        if group != RESOURCE_GROUP or version not in _RULE_VERSIONS:
            fail("apiVersion", f'no matches for kind "{kind}" in version "{api_version}" '
                 f'(served: {", ".join(RESOURCE_GROUP + "/" + v for v in _RULE_VERSIONS)})',
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
        if kind == "Namespace" and api_version == "v1" and isinstance(name, str) and name:
            labels = meta.get("labels") if isinstance(meta, dict) else None
            result.namespaces[name] = {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}
        return

    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name = meta.get("name", "") if isinstance(meta.get("name", ""), str) else ""
    # v1 and v1beta2 have the model's shape and type names: the decoder notes their versioned fields;
    # ``convert`` notes those of the older versions under the paths the user wrote.
    tracked = (release_fields.tracked(version) if (kind in _RESOURCE_KINDS and version in ("v1", "v1beta2"))
               or kind in _RULE_KINDS else None)
    decoder = Decoder(kind=kind, name=name, tracked=tracked)
    for key in data:
        if key not in _TOP_LEVEL:
            decoder.unknown_field(key, key, sorted(_TOP_LEVEL), getattr(data, "key_pos", {}).get(key) or position_in(data, key))
    conversion = convert(kind, version, data) if kind in _RESOURCE_KINDS else Conversion(data=data)
    decoder.errors.extend(conversion.errors)
    v1_data = conversion.data
    body = {k: v for k, v in v1_data.items() if k in ("metadata", "spec", "status")}
    if kind in ("DeviceClass", "ResourceSlice", "ResourceClaimTemplate", "DeviceTaintRule") and "status" in body:
        body.pop("status")  # server-populated or absent on these kinds
    before = len(decoder.errors)
    obj = decoder.decode(model.KINDS[kind], _positioned(v1_data, body), "", pos)
    for diagnostic in decoder.errors[before:]:
        conversion.relocate(diagnostic)  # report moved fields at the path the user wrote
    if decoder.errors:
        # In reading order: conversion and decoding find them in separate passes.
        found = sorted(decoder.errors, key=lambda d: (d.line or 0, d.column or 0))
        result.errors.extend(found)
        if kind in _RESOURCE_KINDS:
            result.unreadable.append(Unreadable(kind=kind, api_version=api_version, name=name, errors=found,
                                                line=line, column=column,
                                                versioned={**conversion.versioned, **decoder.versioned}))
        return
    if kind in _NAMESPACED and not obj.metadata.namespace:
        obj.metadata.namespace = default_namespace
    if kind == "Pod":
        obj.spec = obj.spec  # containers come flattened from decode
    present = frozenset(decoder.positions).union(decoder.present)
    located = None if where is not None else (decoder.positions, pos)
    result.documents.append(Document(kind=kind, api_version=api_version, obj=obj, index=index, present=present,
                                     where=where, located=located, classic=conversion.classic,
                                     without_basic=conversion.without_basic,
                                     versioned={**conversion.versioned, **decoder.versioned},
                                     from_cluster=bool(meta.get("uid") or meta.get("resourceVersion"))))


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
