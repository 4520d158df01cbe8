"""From the devices a search picked to one ``AllocationResult`` per claim.

Device results keep the order in which devices were picked. Config lists
class config first (each class once, for every request that used it, in
request order), then the claim's own config entries that apply to an
allocated request or subrequest; an entry that names every request ends up
with an empty request list ("all"). The node selector pins the claim to
the node as soon as one device is node-local (or binds to its node),
otherwise it joins the selectors of network-attached devices.
"""

from __future__ import annotations

from allocator.allocation.errors import AllocatorError
from allocator.allocation.search import PickedDevice, Search
from allocator.kube import model
from allocator.reading.records import copy_of, deep_copy_of


def build_results(search: Search) -> list[model.AllocationResult]:
    return [_claim_result(search, ci, claim) for ci, claim in enumerate(search.claims)]


def _claim_result(search: Search, ci: int, claim: model.ResourceClaim) -> model.AllocationResult:
    binding = search.features.device_binding_and_status
    # 1.34's allocator never filled a result's tolerations (``ReleaseRules.writes_result_tolerations``).
    tolerations = search.allocator.rules.writes_result_tolerations
    results = []
    for picked in search.results[ci]:
        cand = picked.candidate
        results.append(model.DeviceRequestAllocationResult(
            request=picked.request.full_name,
            driver=cand.id.driver,
            pool=cand.id.pool,
            device=cand.id.device,
            admin_access=True if picked.admin_access and search.allocator.rules.results_record_admin_access else None,
            tolerations=[copy_of(t) for t in picked.request.tolerations] if tolerations else [],
            binding_conditions=list(cand.device.binding_conditions) if binding else [],
            binding_failure_conditions=list(cand.device.binding_failure_conditions) if binding else [],
            share_id=picked.share_id,
            consumed_capacity={name: str(q) for name, q in picked.consumed.items()},
        ))
    try:
        node_selector = _node_selector(search, search.results[ci])
    except ValueError as err:
        raise AllocatorError(f"create NodeSelector for claim {claim.metadata.name}: {err}") from err
    return model.AllocationResult(
        devices=model.DeviceAllocationResult(results=results, config=_configs(search, ci, claim)),
        node_selector=node_selector,
    )


def _chosen_subrequest_name(search: Search, ci: int, ri: int, request: model.DeviceRequest) -> str | None:
    data = search.request_data[(ci, ri, 0)]
    if data.parent is None:
        return None
    return f"{request.name}/{request.first_available[data.selected_sub].name}"


def _configs(search: Search, ci: int, claim: model.ResourceClaim) -> list[model.DeviceAllocationConfiguration]:
    requests = claim.spec.devices.requests
    out: list[model.DeviceAllocationConfiguration] = []
    class_entries: dict[str, range] = {}
    for ri in range(len(requests)):
        data = search.request_data[(ci, ri, 0)]
        if data.parent is not None:
            data = search.request_data[(ci, ri, data.selected_sub)]
        device_class = data.device_class
        if device_class is None:
            continue
        if not search.allocator.rules.class_configs_name_requests:
            # 1.31: every request adds its class's configs again, for all requests (none named).
            out += [model.DeviceAllocationConfiguration(source="FromClass", requests=[], opaque=deep_copy_of(c.opaque))
                    for c in device_class.spec.config]
            continue
        name = data.request.full_name
        known = class_entries.get(device_class.metadata.name)
        if known is not None:
            for i in known:
                out[i].requests.append(name)
            continue
        start = len(out)
        for c in device_class.spec.config:
            out.append(model.DeviceAllocationConfiguration(source="FromClass", requests=[name],
                                                           opaque=deep_copy_of(c.opaque)))
        class_entries[device_class.metadata.name] = range(start, len(out))

    chosen = [_chosen_subrequest_name(search, ci, ri, r) for ri, r in enumerate(requests)]
    for c in claim.spec.devices.config:
        applies = not c.requests or any(
            r.name in c.requests or (chosen[ri] is not None and chosen[ri] in c.requests)
            for ri, r in enumerate(requests))
        if applies:
            out.append(model.DeviceAllocationConfiguration(source="FromClaim", requests=list(c.requests),
                                                           opaque=deep_copy_of(c.opaque)))

    if not search.allocator.rules.clears_config_requests:
        return out
    for entry in out:
        if entry.requests and all(r.name in entry.requests or (chosen[ri] is not None and chosen[ri] in entry.requests)
                                  for ri, r in enumerate(requests)):
            entry.requests = []  # empty means "all requests"
    return out


def _node_selector(search: Search, picked: list[PickedDevice]) -> model.NodeSelector | None:
    stable = search.variant.is_stable
    fields: list[model.NodeSelectorRequirement] = []
    expressions: list[model.NodeSelectorRequirement] = []
    for p in picked:
        s, device = p.candidate.slice, p.candidate.device
        if s.spec.per_device_node_selection:
            node_name, selector = device.node_name, device.node_selector
        else:
            node_name, selector = s.spec.node_name, s.spec.node_selector
        binds = not stable and bool(device.binds_to_node)
        if node_name is not None or binds:
            value = node_name if stable else search.node.metadata.name
            return model.NodeSelector(node_selector_terms=[model.NodeSelectorTerm(match_fields=[
                model.NodeSelectorRequirement(key="metadata.name", operator="In", values=[value])])])
        if selector is None:
            continue
        terms = selector.node_selector_terms
        if len(terms) == 1:
            _add_new(terms[0].match_fields, fields)
            _add_new(terms[0].match_expressions, expressions)
        elif len(terms) > 1:
            raise ValueError(f"unsupported ResourceSlice.NodeSelector with {len(terms)} terms")
    if fields or expressions:
        return model.NodeSelector(node_selector_terms=[
            model.NodeSelectorTerm(match_expressions=expressions, match_fields=fields)])
    return None


def _add_new(source: list[model.NodeSelectorRequirement], target: list[model.NodeSelectorRequirement]) -> None:
    for req in source:
        if not any(t.key == req.key and t.operator == req.operator and set(t.values) == set(req.values)
                   for t in target):
            target.append(deep_copy_of(req))
