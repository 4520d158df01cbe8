"""Generated CEL expressions over the DRA ``device`` variable, in the part of CEL that both our
implementation and cel-python implement; shared by the differential test against cel-python
(``test_cel_differential``) and the property test of explanations (``test_cel_explain_property``).

Where celpy departs from the CEL specification (``DEPARTURES`` in the differential test), the
generator avoids the case; the comments below name it.
"""

from __future__ import annotations

from hypothesis import strategies as st

ATTR = 'device.attributes["gpu.example.com"]'
TYPES = ("int", "double", "string", "bool", "list_int", "list_string", "map")
# The type of the whole expression; scalars more often (what selectors compute).
TOP_TYPES = st.sampled_from(("int",) * 3 + ("double",) * 2 + ("bool",) * 3 + TYPES)
ELEMENT = {"list_int": "int", "list_string": "string"}

INT_LITERALS = st.one_of(st.integers(-20, 20), st.sampled_from([9223372036854775807, 4611686018427387904]))
NONZERO_DOUBLES = st.sampled_from(["0.5", "2.0", "-1.25", "1e10", "3.0"])
DOUBLE_LITERALS = st.one_of(st.just("0.0"), NONZERO_DOUBLES)
STRING_LITERALS = st.sampled_from(['""', '"a"', '"ab"', '"a100"', '"amp"', '"ampere"', '"é"', '"gpu"'])


@st.composite
def expr(draw, t: str, depth: int = 3, scope: tuple[tuple[str, str], ...] = ()):
    """A CEL expression of type ``t`` (well typed, as far as the grammar goes), at most ``depth`` deep."""
    names = [n for n, nt in scope if nt == t]
    leaves = _leaves(t, names)
    if depth <= 0 or (not scope and depth < 3 and draw(st.integers(0, 3)) == 0):
        return draw(leaves)
    sub = depth - 1

    def e(tt, sc=scope):
        return draw(expr(tt, sub, sc))

    choice = draw(st.sampled_from(_FORMS[t]))
    if choice == "leaf":
        return draw(leaves)
    if choice == "cond":
        return f"({e('bool')} ? {e(t)} : {e(t)})"
    if choice == "arith":
        ops = ["+", "-", "*", "/", "%"] if t == "int" else ["+", "-", "*"]
        return f"({e(t)} {draw(st.sampled_from(ops))} {e(t)})"
    if choice == "divide":  # by a non-zero constant: see DEPARTURES for division by zero
        return f"({e(t)} / {draw(NONZERO_DOUBLES)})"
    if choice == "neg":
        return f"-({e(t)})"
    if choice == "concat":
        return f"({e(t)} + {e(t)})"
    if choice == "size":
        return f"size({e(draw(st.sampled_from(['string', 'list_int', 'list_string', 'map'])))})"
    if choice == "index":
        if t == "int" and draw(st.booleans()):
            return f"{e('map')}[{e('string')}]"
        # Indexes that cannot be negative: see DEPARTURES for negative ones.
        index = draw(st.one_of(st.integers(0, 3).map(str), st.just(f"size({e('list_int')})")))
        return f"{e('list_' + t)}[{index}]"
    if choice == "convert":
        source = {"int": "double", "double": "int", "string": "int"}[t]
        return f"{t}({e(source)})"
    if choice == "compare":
        operand = draw(st.sampled_from(["int", "double", "string", "bool"]))
        ops = ["==", "!="] if operand == "bool" else ["==", "!=", "<", "<=", ">", ">="]
        return f"({e(operand)} {draw(st.sampled_from(ops))} {e(operand)})"
    if choice == "logic":
        return f"({e('bool')} {draw(st.sampled_from(['&&', '||']))} {e('bool')})"
    if choice == "not":
        return f"!({e('bool')})"
    if choice == "in":
        where = draw(st.sampled_from(["list_int", "list_string", "map"]))
        return f"({e(ELEMENT.get(where, 'string'))} in {e(where)})"
    if choice == "string_test":  # string(...) around the receiver: see DEPARTURES, concatenated-receiver
        return f"string({e('string')}).{draw(st.sampled_from(['startsWith', 'endsWith', 'contains']))}({e('string')})"
    if choice == "has":
        return f"has({ATTR}.{draw(st.sampled_from(['model', 'index', 'missing']))})"
    if choice == "quantifier":
        source = draw(st.sampled_from(["list_int", "list_string"]))
        var = f"v{depth}"
        body = e("bool", scope + ((var, ELEMENT[source]),))
        return f"{e(source)}.{draw(st.sampled_from(['all', 'exists', 'exists_one']))}({var}, {body})"
    if choice == "map_macro":
        source = draw(st.sampled_from(["list_int", "list_string"]))
        var = f"v{depth}"
        return f"{e(source)}.map({var}, {e(ELEMENT[t], scope + ((var, ELEMENT[source]),))})"
    if choice == "filter":
        var = f"v{depth}"
        return f"{e(t)}.filter({var}, {e('bool', scope + ((var, ELEMENT[t]),))})"
    if choice == "list":
        items = draw(st.lists(st.just(None), max_size=3))
        return "[" + ", ".join(e(ELEMENT[t]) for _ in items) + "]"
    if choice == "map_literal":  # values that cannot fail: see DEPARTURES, error-in-map-literal
        keys = draw(st.lists(STRING_LITERALS, max_size=3))
        return "{" + ", ".join(f"{k}: {draw(_leaves('int', []))}" for k in keys) + "}"
    raise AssertionError(choice)


def _leaves(t: str, names: list[str]):
    own = {
        # Attribute values are dyn in the DRA environment: converted here, so that list and map literals
        # stay homogeneous (Kubernetes refuses mixed aggregate literals at compile time, celpy does not).
        "int": [INT_LITERALS.map(str), st.just(f"int({ATTR}.index)")],
        "double": [DOUBLE_LITERALS],
        "string": [STRING_LITERALS, st.just("device.driver"),
                   st.sampled_from([f"string({ATTR}.model)", f"string({ATTR}.family)"])],
        "bool": [st.sampled_from(["true", "false", f"({ATTR}.healthy == true)"])],
        "list_int": [st.lists(INT_LITERALS.map(str), max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")],
        "list_string": [st.lists(STRING_LITERALS, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")],
        "map": [st.just('{"a": 1, "b": 2}'), st.just("{}")],
    }[t]
    return st.one_of(*own, *([st.sampled_from(names)] if names else []))


# Forms per type; repeated ones are drawn more often (arithmetic and comparisons are where
# implementations differ most: overflow, truncation, signs).
_FORMS = {
    "int": ["leaf", "cond", "arith", "arith", "arith", "arith", "neg", "size", "index", "convert"],
    "double": ["leaf", "cond", "arith", "arith", "divide", "divide", "neg", "convert"],
    "string": ["leaf", "cond", "concat", "index", "convert"],
    "bool": ["leaf", "cond", "compare", "compare", "compare", "logic", "logic", "not", "in", "string_test", "has",
             "quantifier", "quantifier"],
    "list_int": ["leaf", "cond", "concat", "list", "map_macro", "filter"],
    "list_string": ["leaf", "cond", "concat", "list", "map_macro", "filter"],
    "map": ["leaf", "map_literal"],
}
