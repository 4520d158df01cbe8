"""DRA's ``includes()`` on list-type attributes (behind DRAListTypeAttributes)."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    CELError,
    cel_equal,
)


def _includes(target, arg):
    if isinstance(target, (list, tuple)):
        for index, item in enumerate(target):
            if index >= 48:
                raise CELError("'includes' function cannot be applied to lists longer than 48 values")
            try:
                if cel_equal(item, arg):
                    return True
            except CELError:
                pass
        return False
    try:
        return cel_equal(target, arg)
    except CELError:
        return False


decl("includes", ["dyn", "dyn"], "bool", _includes, member=True, oid="dra_includes_dyn_dyn",
     gate="DRAListTypeAttributes")
