"""ResourceClaim and ResourceClaimTemplate: ``validateResourceClaimSpec`` and friends."""

from __future__ import annotations

from allocator.kube import model
from allocator.releases.gates import exists_in
from allocator.validation import names
from allocator.validation.common import (
    CONFIG_MAX,
    Context,
    each,
    fully_qualified_name,
    opaque_config,
    selectors,
    toleration,
)
from allocator.validation.slices import quantity

REQUESTS_MAX = 32
CONSTRAINTS_MAX = 32
FIRST_AVAILABLE_MAX = 8
ALLOCATION_MODES = ["All", "ExactCount"]
REQUEST_REF_MESSAGE = ("must be the name of a request in the claim or the name of a request "
                       "and a subrequest separated by '/'")
FLAT_REQUEST_REF_MESSAGE = "must be the name of a request in the claim"  # up to 1.32: no subrequests
ADMIN_ACCESS_LABEL = "resource.kubernetes.io/admin-access"


class RequestNames:
    """Request names, and for requests with ``firstAvailable`` their subrequest names."""

    def __init__(self, devices):
        self.names: dict[str, set[str] | None] = {}
        for req in devices.requests:
            self.names[req.name] = {sub.name for sub in req.first_available} if req.first_available else None

    def has(self, ref: str) -> bool:
        parts = ref.split("/")
        if len(parts) > 2 or parts[0] not in self.names:
            return False
        if len(parts) == 1:
            return True
        return parts[1] in (self.names[parts[0]] or ())


def claim_spec(ctx: Context, spec, path: str) -> None:
    devices = spec.devices
    base = f"{path}.devices"
    known = RequestNames(devices)
    each(ctx.errs, devices.requests, REQUESTS_MAX, f"{base}.requests",
         lambda req, p: _request(ctx, req, p), key=lambda req: req.name, key_field=ctx.key_field("name"))
    each(ctx.errs, devices.constraints, CONSTRAINTS_MAX, f"{base}.constraints",
         lambda c, p: _constraint(ctx, c, p, known))
    each(ctx.errs, devices.config, CONFIG_MAX, f"{base}.config",
         lambda c, p: _config(ctx, c, p, known))


def _nested(ctx: Context) -> bool:
    """Whether the release's requests hold ``exactly`` (``ReleaseRules.exact_requests_nested``; 1.33 on)."""
    return ctx.gates is None or ctx.gates.release_rules.exact_requests_nested


def _request(ctx: Context, req, path: str) -> None:
    errs = ctx.errs
    names.dns_label(errs, req.name, f"{path}.name")
    if not _nested(ctx):
        # Up to 1.32 the request is the exact request: its fields and errors sit on it, defaulted as
        # the apiserver defaults an exact request when none of them is written.
        _exact(ctx, req.exactly or model.ExactDeviceRequest(allocation_mode="ExactCount", count=1), path)
        return
    has_first = len(req.first_available) > 0
    has_exactly = req.exactly is not None
    if not has_first and not has_exactly:
        errs.required(path, "exactly one of `exactly` or `firstAvailable` is required")
    elif has_first and has_exactly:
        errs.invalid(path, None, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set")
    elif has_first:
        each(errs, req.first_available, FIRST_AVAILABLE_MAX, f"{path}.firstAvailable",
             lambda sub, p: _subrequest(ctx, sub, p), key=lambda sub: sub.name, key_field=ctx.key_field("name"))
    else:
        _exact(ctx, req.exactly, f"{path}.exactly")


def _subrequest(ctx: Context, sub, path: str) -> None:
    names.dns_label(ctx.errs, sub.name, f"{path}.name")
    _device_class_name(ctx, sub.device_class_name, f"{path}.deviceClassName")
    selectors(ctx, sub.selectors, f"{path}.selectors")
    _allocation_mode(ctx, sub.allocation_mode, sub.count, path)
    for i, tol in enumerate(sub.tolerations):
        toleration(ctx, tol, f"{path}.tolerations[{i}]")
    _capacity_requests(ctx, sub.capacity, f"{path}.capacity")


def _capacity_requests(ctx: Context, capacity, path: str) -> None:
    """Requested amounts are quantities: the apiserver cannot even decode a malformed one."""
    if capacity is None:
        return
    for name, text in capacity.requests.items():
        quantity(ctx, text, f"{path}.requests[{name}]")


def _exact(ctx: Context, req, path: str) -> None:
    _device_class_name(ctx, req.device_class_name, f"{path}.deviceClassName")
    selectors(ctx, req.selectors, f"{path}.selectors")
    _allocation_mode(ctx, req.allocation_mode, req.count, path)
    for i, tol in enumerate(req.tolerations):
        toleration(ctx, tol, f"{path}.tolerations[{i}]")
    _capacity_requests(ctx, req.capacity, f"{path}.capacity")
    if req.admin_access and exists_in("DRAAdminAccess", ctx.gates.release) and ctx.namespaces is None:
        # Without the Namespace in the input, the engine cannot know its labels (``admin_access_namespace``).
        ctx.errs.warn(f"{path}.adminAccess", f"allowed only in a namespace labelled "
                      f"{admin_access_label(ctx)}: \"true\" (the apiserver checks the namespace)")


def admin_access_label(ctx: Context) -> str:
    """The release's Namespace label for admin access (``ReleaseRules.admin_access_label``)."""
    return ctx.gates.release_rules.admin_access_label if ctx.gates is not None else ADMIN_ACCESS_LABEL


def admin_access_namespace(ctx: Context, spec, namespace: str, base: str) -> None:
    """The registry strategy's namespace check on create (``AuthorizedForAdmin``, before validation): the first
    request with ``exactly.adminAccess: true`` needs the claim's namespace labelled
    ``resource.kubernetes.io/admin-access: "true"``, else one Forbidden error, on the internal type's path
    (``spec.devices.requests[i].adminAccess``, for a template too). The labels come from a Namespace object in
    the input; without one the engine cannot know them, so it only warns on each such request (``_exact``)
    and ``ctx.namespaces`` is set to None for the rest of the object."""
    requested = next((i for i, req in enumerate(spec.devices.requests)
                      if req.exactly is not None and req.exactly.admin_access), None)
    if requested is None or ctx.namespaces is None:
        return
    labels = ctx.namespaces.get(namespace)
    if labels is None:
        ctx.namespaces = None
        return
    label = admin_access_label(ctx)
    if labels.get(label) != "true":
        ctx.errs.forbidden(f"spec.devices.requests[{requested}].adminAccess",
                           f"admin access to devices requires the `{label}: true` label on the "
                           "containing namespace",
                           at=f"{base}.devices.requests[{requested}].exactly.adminAccess")


def _device_class_name(ctx: Context, value: str, path: str) -> None:
    if not value:
        ctx.errs.required(path)
    else:
        names.dns_subdomain(ctx.errs, value, path)


def _allocation_mode(ctx: Context, mode: str, count: int, path: str) -> None:
    if mode == "All":
        if count != 0:
            ctx.errs.invalid(f"{path}.count", count, "must not be specified when allocationMode is 'All'")
    elif mode == "ExactCount":
        if count <= 0:
            ctx.errs.invalid(f"{path}.count", count, "must be greater than zero")
    else:
        ctx.errs.not_supported(f"{path}.allocationMode", mode, ALLOCATION_MODES)


def _request_refs(ctx: Context, refs: list[str], path: str, known: RequestNames) -> None:
    def one(ref, p):
        ref = ref or ""  # null in a string list decodes to "" in the apiserver
        if not _nested(ctx):  # up to 1.32 a reference is a request name
            names.dns_label(ctx.errs, ref, p)
            if not known.has(ref) or "/" in ref:
                ctx.errs.invalid(p, ref, FLAT_REQUEST_REF_MESSAGE)
            return
        if len(ref.split("/")) > 2:
            ctx.errs.invalid(p, ref, REQUEST_REF_MESSAGE)
            return
        for part in ref.split("/"):
            names.dns_label(ctx.errs, part, p)
        if not known.has(ref):
            ctx.errs.invalid(p, ref, REQUEST_REF_MESSAGE)

    each(ctx.errs, refs, REQUESTS_MAX, path, one, key=lambda ref: ref)


def _constraint(ctx: Context, constraint, path: str, known: RequestNames) -> None:
    _request_refs(ctx, constraint.requests, f"{path}.requests", known)
    if constraint.match_attribute is not None:
        fully_qualified_name(ctx.errs, constraint.match_attribute, f"{path}.matchAttribute")
    elif constraint.distinct_attribute is not None:
        fully_qualified_name(ctx.errs, constraint.distinct_attribute, f"{path}.distinctAttribute")
    elif ctx.enabled("DRAConsumableCapacity"):
        # Upstream's wording, although the case is "none set".
        ctx.errs.required(path, 'exactly one of "matchAttribute" or "distinctAttribute" is required, '
                          "but multiple fields are set")
    else:
        ctx.errs.required(f"{path}.matchAttribute")


def _config(ctx: Context, config, path: str, known: RequestNames) -> None:
    _request_refs(ctx, config.requests, f"{path}.requests", known)
    opaque_config(ctx, config, path)


def resource_claim(ctx: Context, claim) -> None:
    admin_access_namespace(ctx, claim.spec, claim.metadata.namespace, "spec")
    names.object_meta(ctx.errs, claim.metadata, namespaced=True)
    claim_spec(ctx, claim.spec, "spec")
    allocation = claim.status.allocation if claim.status is not None else None
    if allocation is not None:
        for i, result in enumerate(allocation.devices.results):
            for name, text in result.consumed_capacity.items():
                quantity(ctx, text, f"status.allocation.devices.results[{i}].consumedCapacity[{name}]")


def resource_claim_template(ctx: Context, template) -> None:
    admin_access_namespace(ctx, template.spec.spec, template.metadata.namespace, "spec.spec")
    names.object_meta(ctx.errs, template.metadata, namespaced=True)
    names.template_object_meta(ctx.errs, template.spec.metadata, "spec.metadata")
    claim_spec(ctx, template.spec.spec, "spec.spec")
