"""Indexing: ``list[i]``, ``map[key]`` and their optional forms ``[?...]``."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    NONE,
    CELError,
    Optional,
    UInt,
    format_key,
    map_lookup,
)


def index_value(container, key):
    if isinstance(container, (list, tuple)):
        tk = type(key)
        if tk is float:
            if not key.is_integer():
                raise CELError(f"unsupported index value {key} in list")
            key = int(key)
        elif tk is not int and tk is not UInt:
            raise CELError("no such overload")
        if key < 0 or key >= len(container):
            raise CELError(f"index out of bounds: {key}")
        return container[key]
    if isinstance(container, dict):
        found, value = map_lookup(container, key)
        if not found:
            default = getattr(container, "default", None)
            if default is not None:
                return default
            raise CELError(f"no such key: {format_key(key)}")
        return value
    raise CELError("no such overload")


def opt_index(container, key):
    if isinstance(container, Optional):
        if not container.present:
            return NONE
        container = container.value
    try:
        if isinstance(container, dict):
            found, value = map_lookup(container, key)
            return Optional(value, True) if found else NONE
        return Optional(index_value(container, key), True)
    except CELError as e:
        if str(e).startswith("index out of bounds"):
            return NONE
        raise


decl("_[_]", ["list(A)", "int"], "A", index_value, oid="index_list")
decl("_[_]", ["map(K, V)", "K"], "V", index_value, oid="index_map")
decl("_[?_]", ["list(A)", "int"], "optional_type(A)", opt_index, oid="opt_index_list")
decl("_[?_]", ["map(K, V)", "K"], "optional_type(V)", opt_index, oid="opt_index_map")
decl("_[?_]", ["optional_type(list(A))", "int"], "optional_type(A)", opt_index, oid="opt_index_opt_list")
decl("_[?_]", ["optional_type(map(K, V))", "K"], "optional_type(V)", opt_index, oid="opt_index_opt_map")
