"""The DRA parts of Pod validation: ``spec.resourceClaims`` and containers' ``resources.claims``.

The first two groups of checks are the apiserver's (core/v1 validation). The
last one, that a container's ``request`` names a request of the referenced
claim, is not checked by the apiserver; the pod would fail later on the node,
so the playground reports it as soon as the claim or template is in the input.
"""

from __future__ import annotations

from allocator.kube.quantity import Quantity
from allocator.validation import names
from allocator.validation.errors import Errors, GoValue, go_quote


def _pod_claim_value(claim) -> GoValue:
    def ptr(value):
        return "(*string)(nil)" if value is None else f"&{go_quote(value)}"

    return GoValue(f"core.PodResourceClaim{{Name:{go_quote(claim.name)}, ResourceClaimName:"
                   f"{ptr(claim.resource_claim_name)}, ResourceClaimTemplateName:{ptr(claim.resource_claim_template_name)}}}")


def pod(errs: Errors, obj, claims_by_name: dict | None = None, templates_by_name: dict | None = None) -> None:
    """``claims_by_name`` / ``templates_by_name``: (namespace, name) -> ResourceClaimSpec, when known."""
    names.object_meta(errs, obj.metadata, namespaced=True)
    pod_claims = _pod_resource_claims(errs, obj)
    known = set(pod_claims)
    for group, containers in (("containers", obj.spec.containers), ("initContainers", obj.spec.init_containers)):
        for i, container in enumerate(containers):
            _extended_resources(errs, container, f"spec.{group}[{i}].resources")
            path = f"spec.{group}[{i}].resources.claims"
            _container_claims(errs, container.claims, known, path)
            _container_requests(errs, container.claims, pod_claims, obj.metadata.namespace, path,
                                claims_by_name or {}, templates_by_name or {})


def _pod_resource_claims(errs: Errors, obj) -> dict:
    seen: dict = {}
    for i, claim in enumerate(obj.spec.resource_claims):
        path = f"spec.resourceClaims[{i}]"
        if not claim.name:
            errs.required(f"{path}.name")
        elif claim.name in seen:
            errs.duplicate(f"{path}.name", claim.name)
        else:
            label_errors = names.is_dns1123_label(claim.name)
            for msg in label_errors:
                errs.invalid(f"{path}.name", claim.name, msg)
            if not label_errors and claim.resource_claim_template_name is not None:
                generated = f"{obj.metadata.name}-{claim.name}"
                for msg in names.is_dns1123_subdomain(generated):
                    errs.invalid(f"{path}.name", generated, "final ResourceClaim name: " + msg)
            seen[claim.name] = claim
        has_name = claim.resource_claim_name is not None
        has_template = claim.resource_claim_template_name is not None
        if has_name and has_template:
            errs.invalid(path, _pod_claim_value(claim),
                         "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified")
        if not has_name and not has_template:
            errs.invalid(path, _pod_claim_value(claim),
                         "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`")
        if has_name:
            for msg in names.is_dns1123_subdomain(claim.resource_claim_name):
                errs.invalid(f"{path}.resourceClaimName", claim.resource_claim_name, msg)
        if has_template:
            for msg in names.is_dns1123_subdomain(claim.resource_claim_template_name):
                errs.invalid(f"{path}.resourceClaimTemplateName", claim.resource_claim_template_name, msg)
    return seen


def _is_extended(name: str) -> bool:
    """An extended resource (core/v1 helper): not native (no ``kubernetes.io/``, has a domain), not ``requests.``."""
    return "/" in name and "kubernetes.io/" not in name and not name.startswith("requests.")


def _extended_resources(errs: Errors, container, path: str) -> None:
    """The apiserver's checks of extended resources in ``resources.limits``/``requests``.

    They are whole numbers, not negative, and not overcommitted: a request
    equals its limit, and a request needs a limit (decoding already copied
    each limit into a missing request, as defaulting does).
    """
    parsed: dict[tuple[str, str], Quantity] = {}
    for key, values in (("limits", container.limits), ("requests", container.requests)):
        for name, text in values.items():
            if not _is_extended(name):
                continue
            try:
                quantity = Quantity.parse(text)
            except ValueError:
                errs.invalid(f"{path}.{key}[{name}]", text, "quantities must match the regular expression "
                             "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
                continue
            parsed[(key, name)] = quantity
            if quantity.sign() < 0:
                errs.invalid(f"{path}.{key}[{name}]", str(quantity), "must be greater than or equal to 0")
            if quantity.milli_value % 1000:
                errs.invalid(f"{path}.{key}[{name}]", str(quantity), "must be an integer")
    for (key, name), request in parsed.items():
        if key != "requests":
            continue
        limit = parsed.get(("limits", name))
        if name not in container.limits:
            errs.required(f"{path}.limits", "Limit must be set for non overcommitable resources")
        elif limit is not None and request.cmp(limit) != 0:
            errs.invalid(f"{path}.requests", str(request), f"must be equal to {name} limit of {limit}")


def _container_claims(errs: Errors, refs, known: set[str], path: str) -> None:
    seen = set()
    for i, ref in enumerate(refs):
        item = f"{path}[{i}]"
        if not ref.name:
            errs.required(item)
            continue
        key = ref.name
        if ref.request:
            names.dns_label(errs, ref.request, f"{item}.request")
            key = f"{ref.name}/{ref.request}"
        if key in seen:
            errs.duplicate(item, key)
        else:
            seen.add(key)
        if ref.name not in known:
            detail = "must be one of the names in pod.spec.resourceClaims"
            detail += " which is empty" if not known else ": " + ", ".join(sorted(known))
            errs.not_found(item, ref.name, detail)


def _container_requests(errs: Errors, refs, pod_claims: dict, namespace: str, path: str,
                        claims_by_name: dict, templates_by_name: dict) -> None:
    for i, ref in enumerate(refs):
        if not ref.request or ref.name not in pod_claims:
            continue
        pod_claim = pod_claims[ref.name]
        if pod_claim.resource_claim_name is not None:
            spec = claims_by_name.get((namespace, pod_claim.resource_claim_name))
            what = f"ResourceClaim {pod_claim.resource_claim_name!r}"
        elif pod_claim.resource_claim_template_name is not None:
            spec = templates_by_name.get((namespace, pod_claim.resource_claim_template_name))
            what = f"ResourceClaimTemplate {pod_claim.resource_claim_template_name!r}"
        else:
            continue
        if spec is None:
            continue
        requests = [r.name for r in spec.devices.requests]
        if ref.request not in requests:
            errs.invalid(f"{path}[{i}].request", ref.request,
                         f"must be the name of a request in {what}: " + (", ".join(requests) or "it has none"))
