"""DeviceTaintRule: ``ValidateDeviceTaintRule`` (metadata, the device selector's names, the taint).

The selector's ``deviceClassName`` and CEL ``selectors`` exist in 1.33-1.34
only; in later releases the strict decoder refuses them before validation
(``releases.fields``).
"""

from __future__ import annotations

from allocator.validation import names
from allocator.validation.common import Context, selectors, taint
from allocator.validation.slices import POOL_NAME_MAX


def device_taint_rule(ctx: Context, obj) -> None:
    errs = ctx.errs
    names.object_meta(errs, obj.metadata, namespaced=False)
    chosen = obj.spec.device_selector
    if chosen is not None:
        path = "spec.deviceSelector"
        if chosen.device_class_name is not None:
            names.dns_subdomain(errs, chosen.device_class_name, f"{path}.deviceClassName")
        if chosen.driver is not None:
            names.driver_name(errs, chosen.driver, f"{path}.driver", ctx.gates.release_rules.empty_driver_also_invalid)
        if chosen.pool is not None:
            _pool_name(ctx, chosen.pool, f"{path}.pool")
        if chosen.device is not None:
            names.dns_label(errs, chosen.device, f"{path}.device")
        selectors(ctx, chosen.selectors, f"{path}.selectors")
    taint(ctx, obj.spec.taint, "spec.taint")


def _pool_name(ctx: Context, name: str, path: str) -> None:
    errs = ctx.errs
    if not name:
        errs.required(path)
        return
    if len(name) > POOL_NAME_MAX:
        errs.too_long(path, POOL_NAME_MAX)
    for part in name.split("/"):
        names.dns_subdomain(errs, part, path)
