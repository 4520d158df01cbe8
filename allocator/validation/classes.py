"""DeviceClass: ``ValidateDeviceClass``."""

from __future__ import annotations

from allocator.validation import names
from allocator.validation.common import CONFIG_MAX, Context, each, opaque_config, selectors

_REQUESTS_PREFIX = "requests."


def is_extended_resource_name(name: str) -> bool:
    """``v1helper.IsExtendedResourceName``: domain-prefixed, not kubernetes.io, a qualified name."""
    if "/" not in name or "kubernetes.io/" in name or name.startswith(_REQUESTS_PREFIX):
        return False
    return not names.is_qualified_name(_REQUESTS_PREFIX + name)


def device_class(ctx: Context, obj) -> None:
    names.object_meta(ctx.errs, obj.metadata, namespaced=False)
    spec = obj.spec
    selectors(ctx, spec.selectors, "spec.selectors")
    each(ctx.errs, spec.config, CONFIG_MAX, "spec.config", lambda c, p: opaque_config(ctx, c, p))
    if spec.extended_resource_name is not None and not is_extended_resource_name(spec.extended_resource_name):
        ctx.errs.invalid("spec.extendedResourceName", spec.extended_resource_name,
                         "must be a valid extended resource name")
