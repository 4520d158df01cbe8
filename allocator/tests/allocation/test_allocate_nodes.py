"""Node selection as the scheduler's nodeaffinity helper evaluates it, and the nodes a search tries."""

from __future__ import annotations

import pytest

from allocator.allocation.nodes import NodeSelectorError, node_matches, search_nodes, selector_matches
from allocator.kube import model

NODE = model.Node(metadata=model.ObjectMeta(name="node-1", labels={"zone": "a", "gpus": "8"}))


def term(expressions=(), fields=()) -> model.NodeSelectorTerm:
    def reqs(items):
        return [model.NodeSelectorRequirement(key=k, operator=op, values=list(v)) for k, op, v in items]
    return model.NodeSelectorTerm(match_expressions=reqs(expressions), match_fields=reqs(fields))


def sel(*terms) -> model.NodeSelector:
    return model.NodeSelector(node_selector_terms=list(terms))


@pytest.mark.parametrize(("requirement", "matches"), [
    (("zone", "In", ["a", "b"]), True),
    (("zone", "In", ["b"]), False),
    (("zone", "NotIn", ["b"]), True),
    (("missing", "NotIn", ["b"]), True),
    (("zone", "Exists", []), True),
    (("missing", "DoesNotExist", []), True),
    (("gpus", "Gt", ["4"]), True),
    (("gpus", "Lt", ["4"]), False),
    (("zone", "Gt", ["4"]), False),  # not an integer label
])
def test_label_requirements(requirement, matches):
    assert selector_matches(sel(term([requirement])), NODE) is matches


def test_terms_are_ored_requirements_anded_and_empty_terms_select_nothing():
    assert selector_matches(sel(term([("zone", "In", ["b"])]), term([("zone", "In", ["a"])])), NODE)
    assert not selector_matches(sel(term([("zone", "In", ["a"]), ("gpus", "In", ["4"])])), NODE)
    assert not selector_matches(sel(term()), NODE)
    assert not selector_matches(sel(), NODE)


def test_fields_know_the_node_name():
    assert selector_matches(sel(term(fields=[("metadata.name", "In", ["node-1"])])), NODE)
    assert not selector_matches(sel(term(fields=[("metadata.name", "NotIn", ["node-1"])])), NODE)
    nameless = model.Node(metadata=model.ObjectMeta(labels={"zone": "a"}))
    # A node without a name has no fields, so field requirements are not checked.
    assert selector_matches(sel(term(fields=[("metadata.name", "In", ["node-1"])])), nameless)


@pytest.mark.parametrize("requirement", [("zone", "In", []), ("zone", "Exists", ["a"]), ("gpus", "Gt", ["x"]),
                                         ("gpus", "Gt", ["1", "2"]), ("zone", "Like", ["a"])])
def test_invalid_label_requirements_are_errors(requirement):
    with pytest.raises(NodeSelectorError):
        selector_matches(sel(term([requirement])), NODE)


def test_invalid_field_requirements_are_errors():
    with pytest.raises(NodeSelectorError, match='"Exists" is not a valid node field selector operator'):
        selector_matches(sel(term(fields=[("metadata.name", "Exists", [])])), NODE)
    with pytest.raises(NodeSelectorError, match="unexpected number of value"):
        selector_matches(sel(term(fields=[("metadata.name", "In", ["a", "b"])])), NODE)


def test_node_matches_takes_the_first_set_field():
    assert node_matches(NODE, "node-1", False, None)
    assert not node_matches(NODE, "node-2", True, None)  # a name wins over allNodes
    assert node_matches(NODE, "", True, None)
    assert node_matches(NODE, "", False, sel(term([("zone", "In", ["a"])])))
    assert not node_matches(NODE, "", False, None)


def test_search_nodes_prefers_node_objects_else_names_from_slices():
    b = model.Node(metadata=model.ObjectMeta(name="b"))
    a = model.Node(metadata=model.ObjectMeta(name="a"))
    assert [n.metadata.name for n in search_nodes([b, a], [])] == ["a", "b"]
    slices = [
        model.ResourceSlice(spec=model.ResourceSliceSpec(node_name="z")),
        model.ResourceSlice(spec=model.ResourceSliceSpec(per_device_node_selection=True, devices=[
            model.Device(name="d", node_name="m"), model.Device(name="e", all_nodes=True)])),
    ]
    assert [n.metadata.name for n in search_nodes([], slices)] == ["m", "z"]
