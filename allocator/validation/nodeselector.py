"""core/v1 NodeSelector validation as ResourceSlices use it (``ValidateNodeSelector``)."""

from __future__ import annotations

from allocator.validation import names
from allocator.validation.errors import Errors, GoValue, go_quote


def node_selector(errs: Errors, selector, path: str) -> None:
    terms_path = f"{path}.nodeSelectorTerms"
    if not selector.node_selector_terms:
        errs.required(terms_path, "must have at least one node selector term")
        return
    for i, term in enumerate(selector.node_selector_terms):
        term_path = f"{terms_path}[{i}]"
        for j, req in enumerate(term.match_expressions):
            _expression(errs, req, f"{term_path}.matchExpressions[{j}]")
        for j, req in enumerate(term.match_fields):
            _field(errs, req, f"{term_path}.matchFields[{j}]")


def _expression(errs: Errors, req, path: str) -> None:
    op = req.operator
    if op in ("In", "NotIn"):
        if not req.values:
            errs.required(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'")
    elif op in ("Exists", "DoesNotExist"):
        if req.values:
            errs.forbidden(f"{path}.values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
    elif op in ("Gt", "Lt"):
        if len(req.values) != 1:
            errs.required(f"{path}.values", "must be specified single value when `operator` is 'Lt' or 'Gt'")
    else:
        errs.invalid(f"{path}.operator", op, "not a valid selector operator")
    names.label_name(errs, req.key, f"{path}.key")
    for i, value in enumerate(req.values):
        names.label_value(errs, value, f"{path}.values[{i}]")


def _field(errs: Errors, req, path: str) -> None:
    if req.operator in ("In", "NotIn"):
        if len(req.values) != 1:
            errs.required(f"{path}.values",
                          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
    else:
        errs.invalid(f"{path}.operator", req.operator, "not a valid selector operator")
    if req.key != "metadata.name":
        errs.invalid(f"{path}.key", req.key, "not a valid field selector key")
    else:
        for i, value in enumerate(req.values):
            names.node_name(errs, value, f"{path}.values[{i}]")


def _requirements(reqs) -> str:
    if not reqs:
        return "[]core.NodeSelectorRequirement(nil)"
    items = []
    for r in reqs:
        values = "[]string{" + ", ".join(go_quote(v) for v in r.values) + "}" if r.values else "[]string(nil)"
        items.append(f"core.NodeSelectorRequirement{{Key:{go_quote(r.key)}, Operator:{go_quote(r.operator)}, "
                     f"Values:{values}}}")
    return "[]core.NodeSelectorRequirement{" + ", ".join(items) + "}"


def terms_value(terms) -> GoValue:
    """``%#v`` of ``[]core.NodeSelectorTerm``, as the apiserver prints it in an error."""
    if not terms:
        return GoValue("[]core.NodeSelectorTerm(nil)")
    items = [f"core.NodeSelectorTerm{{MatchExpressions:{_requirements(t.match_expressions)}, "
             f"MatchFields:{_requirements(t.match_fields)}}}" for t in terms]
    return GoValue("[]core.NodeSelectorTerm{" + ", ".join(items) + "}")
