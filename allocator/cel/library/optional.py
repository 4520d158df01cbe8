"""cel-go's optional types: ``optional.of``, ``.hasValue()``, ``.orValue()``, ..."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    NONE,
    CELError,
    Optional,
    UInt,
)

decl("optional.of", ["A"], "optional_type(A)", lambda v: Optional(v, True))
decl("optional.none", [], "optional_type(T)", lambda: NONE)


def _is_zero(value):
    if value is None or value is False:
        return True
    kind = type(value)
    if kind in (int, UInt, float):
        return value == 0
    if kind in (str, bytes, list, dict):
        return len(value) == 0
    return False


decl("optional.ofNonZeroValue", ["A"], "optional_type(A)", lambda v: NONE if _is_zero(v) else Optional(v, True))


def _opt_value(optional):
    if not optional.present:
        raise CELError("optional.none() dereference")
    return optional.value


decl("hasValue", ["optional_type(A)"], "bool", lambda o: o.present, member=True)
decl("value", ["optional_type(A)"], "A", _opt_value, member=True)
decl("orValue", ["optional_type(A)", "A"], "A", lambda o, v: o.value if o.present else v, member=True)
decl("or", ["optional_type(A)", "optional_type(A)"], "optional_type(A)", lambda o, p: o if o.present else p,
     member=True)
