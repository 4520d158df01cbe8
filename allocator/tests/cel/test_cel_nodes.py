"""The syntax tree: named fields per node kind and children() in source order."""

import pytest

from allocator.cel import types as T
from allocator.cel.parser import parse


def _texts(source, nodes):
    return [source[node.start:node.end] for node in nodes]


@pytest.mark.parametrize(("source", "kind", "children"), [
    ("a.b", "select", ["a"]),
    ("f(x, y)", "call", ["x", "y"]),
    ("t.m(x)", "call", ["t", "x"]),
    ("a < b", "call", ["a", "b"]),
    ("[1, ?x]", "list", ["1", "x"]),
    ('{"k": v, ?"o": w}', "map", ['"k"', "v", '"o"', "w"]),
    ("Msg{f: 1}", "struct", ["1"]),
    ("l.exists(e, e > 1)", "comp", ["l", "e > 1"]),
    ("l.map(e, e > 0, e * 2)", "comp", ["l", "e > 0", "e * 2"]),
    ("cel.bind(v, 1, v + 1)", "bind", ["1", "v + 1"]),
    ("x", "ident", []),
    ("1", "lit", []),
])
def test_children_are_the_sub_expressions_in_source_order(source, kind, children):
    root = parse(source)
    assert root.kind == kind
    assert _texts(source, root.children()) == children


def test_each_kind_names_its_parts():
    call = parse('device.attributes["d"].model.matches("^a")')
    assert (call.function, len(call.args)) == ("matches", 1)
    assert call.args[0].value == "^a"
    select = call.target
    assert (select.field, select.mode) == ("model", "")
    index = select.operand
    assert index.function == "_[_]" and index.target is None
    assert index.args[1].value == "d" and index.args[0].operand.name == "device"

    has = parse("has(a.b)")
    assert (has.kind, has.mode, has.field) == ("select", "has", "b")

    comp = parse("m.transformMap(k, v, v + 1)")
    assert (comp.macro, comp.variables, comp.written) == ("transformMap", ("k", "v"), "transformMap")
    assert comp.range.name == "m" and len(comp.bodies) == 1

    filtered = parse("l.map(e, e > 0, e)")
    assert (filtered.macro, filtered.written) == ("map_filter", "map")

    bind = parse("cel.bind(v, 1, v)")
    assert (bind.name, bind.init.value, bind.body.name) == ("v", 1, "v")

    listed = parse("[a, ?b]")
    assert listed.optional_indexes == frozenset({1})
    mapped = parse("{?1: x}")
    assert [(entry.key.value, entry.value.name, entry.optional) for entry in mapped.entries] == [(1, "x", True)]


def test_static_types_have_named_parts():
    parsed = T.parse_type("map(string, list(optional_type(kubernetes.Quantity)))")
    assert parsed == T.map_of(T.STRING, T.list_of(T.opt_of(T.QUANTITY)))
    assert (parsed.kind, parsed.key, parsed.value.elem.elem.name) == ("map", T.STRING, "kubernetes.Quantity")
    assert T.fmt(parsed) == "map(string, list(optional_type(kubernetes.Quantity)))"
    assert T.parse_type("A") == T.CelType("param", name="A")
    assert T.FREE != T.DYN and T.is_dyn(T.FREE) and T.fmt(T.FREE) == "dyn"
