"""Nodes: matching a node against DRA node selection, and the nodes to search.

``node_matches`` answers what ResourceSlices and per-device node selection
ask (``nodeName``, ``allNodes``, ``nodeSelector``) the way the scheduler's
``nodeaffinity`` helper does: terms are ORed, the requirements of one term
ANDed, an empty term selects nothing, ``matchFields`` only knows
``metadata.name``. ``search_nodes`` lists the nodes a search without
``--node`` tries.
"""

from __future__ import annotations

from collections.abc import Iterable

from allocator.kube import model

_NAME_FIELD = "metadata.name"


class NodeSelectorError(ValueError):
    """A node selector that the scheduler could not parse."""


def node_matches(node: model.Node, node_name: str, all_nodes: bool, selector: model.NodeSelector | None) -> bool:
    """Whether ``node`` is selected; the first of name, all-nodes, selector that is set decides."""
    if node_name:
        return node.metadata.name == node_name
    if all_nodes:
        return True
    if selector is not None:
        return selector_matches(selector, node)
    return False


def selector_matches(selector: model.NodeSelector, node: model.Node) -> bool:
    """Evaluate a v1 NodeSelector; raises NodeSelectorError for requirements the scheduler rejects."""
    terms = [t for t in selector.node_selector_terms if t.match_expressions or t.match_fields]
    for term in terms:  # parse every term first: the scheduler rejects the whole selector
        for req in term.match_expressions:
            _check_label_requirement(req)
        for req in term.match_fields:
            _check_field_requirement(req)
    labels = node.metadata.labels
    name = node.metadata.name
    for term in terms:
        if term.match_expressions and not all(_label_requirement_matches(r, labels) for r in term.match_expressions):
            continue
        # Fields are only compared when the node has any (a node without a name has none).
        if term.match_fields and name and not all(_field_requirement_matches(r, name) for r in term.match_fields):
            continue
        return True
    return False


def _check_label_requirement(req: model.NodeSelectorRequirement) -> None:
    op, values = req.operator, req.values
    if op in ("In", "NotIn"):
        if not values:
            raise NodeSelectorError(f"{req.key}: for 'in', 'notin' operators, values set can't be empty")
    elif op in ("Exists", "DoesNotExist"):
        if values:
            raise NodeSelectorError(f"{req.key}: values set must be empty for exists and does not exist")
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            raise NodeSelectorError(f"{req.key}: for 'Gt', 'Lt' operators, exactly one value is required")
        if _as_int(values[0]) is None:
            raise NodeSelectorError(f"{req.key}: for 'Gt', 'Lt' operators, the value must be an integer")
    else:
        raise NodeSelectorError(f'"{op}" is not a valid node selector operator')


def _check_field_requirement(req: model.NodeSelectorRequirement) -> None:
    if req.operator not in ("In", "NotIn"):
        raise NodeSelectorError(f'"{req.operator}" is not a valid node field selector operator')
    if len(req.values) != 1:
        raise NodeSelectorError(f'unexpected number of value ({len(req.values)}) for node field selector operator "{req.operator}"')


def _as_int(text: str) -> int | None:
    try:
        value = int(text, 10)
    except ValueError:
        return None
    return value if -(2**63) <= value < 2**63 else None


def _label_requirement_matches(req: model.NodeSelectorRequirement, labels: dict[str, str]) -> bool:
    op = req.operator
    present = req.key in labels
    if op == "In":
        return present and labels[req.key] in req.values
    if op == "NotIn":
        return not present or labels[req.key] not in req.values
    if op == "Exists":
        return present
    if op == "DoesNotExist":
        return not present
    # Gt / Lt: the label must hold an integer.
    if not present:
        return False
    have, want = _as_int(labels[req.key]), _as_int(req.values[0])
    if have is None:
        return False
    return have > want if op == "Gt" else have < want


def _field_requirement_matches(req: model.NodeSelectorRequirement, node_name: str) -> bool:
    value = node_name if req.key == _NAME_FIELD else ""
    return (value == req.values[0]) == (req.operator == "In")


def make_node(name: str, nodes: Iterable[model.Node] = ()) -> model.Node:
    """The Node object of that name, or a bare node (no labels) when the input has none."""
    for node in nodes:
        if node.metadata.name == name:
            return node
    return model.Node(metadata=model.ObjectMeta(name=name))


def search_nodes(nodes: list[model.Node], slices: Iterable[model.ResourceSlice]) -> list[model.Node]:
    """The nodes a search tries, sorted by name.

    The Node objects of the input when there are any, otherwise bare nodes
    for every node name that slices (or their devices) mention.
    """
    if nodes:
        by_name = {n.metadata.name: n for n in nodes}
        return [by_name[name] for name in sorted(by_name)]
    names: set[str] = set()
    for s in slices:
        if s.spec.node_name:
            names.add(s.spec.node_name)
        for d in s.spec.devices:
            if d.node_name:
                names.add(d.node_name)
    return [model.Node(metadata=model.ObjectMeta(name=n)) for n in sorted(names)]
