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


def index_value(c, k):
    if isinstance(c, (list, tuple)):
        tk = type(k)
        if tk is float:
            if not k.is_integer():
                raise CELError(f"unsupported index value {k} in list")
            k = int(k)
        elif tk is not int and tk is not UInt:
            raise CELError("no such overload")
        if k < 0 or k >= len(c):
            raise CELError(f"index out of bounds: {k}")
        return c[k]
    if isinstance(c, dict):
        found, v = map_lookup(c, k)
        if not found:
            default = getattr(c, "default", None)
            if default is not None:
                return default
            raise CELError(f"no such key: {format_key(k)}")
        return v
    raise CELError("no such overload")


def opt_index(c, k):
    if isinstance(c, Optional):
        if not c.present:
            return NONE
        c = c.value
    try:
        if isinstance(c, dict):
            found, v = map_lookup(c, k)
            return Optional(v, True) if found else NONE
        return Optional(index_value(c, k), True)
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
