"""ResourceSlice: ``validateResourceSliceSpec`` and the device checks under it."""

from __future__ import annotations

import functools
import re
from collections.abc import Set as AbstractSet

from allocator.kube.model import DeviceAttribute
from allocator.kube.quantity import Quantity
from allocator.reading import diagnostics as dg
from allocator.reading.records import replace
from allocator.validation import names
from allocator.validation.common import (
    DEVICE_MAX_DOMAIN_LENGTH,
    DEVICE_MAX_ID_LENGTH,
    Context,
    _valid_qualified_name,  # the check qualified_name starts with, remembered per name
    each,
    qualified_name,
    taint,
)
from allocator.validation.errors import Errors, FieldError, GoValue, string_slice

POOL_NAME_MAX = 253
MAX_DEVICES = 128
MAX_DEVICES_ADVANCED = 64  # with taints, consumesCounters or list-type attributes
MAX_COUNTER_SETS = 8
MAX_COUNTERS_PER_SET = 32
MAX_CONSUMPTIONS_PER_DEVICE = 2
MAX_COUNTERS_PER_CONSUMPTION = 32
MAX_ATTRIBUTES_AND_CAPACITIES = 32
MAX_ATTRIBUTE_VALUES = 48
MAX_ATTRIBUTE_VALUE_LENGTH = 64
MAX_TAINTS = 16
MAX_BINDING_CONDITIONS = 4
MAX_VALID_VALUES = 10
# Before 1.35 (kubernetes/api v0.33, v0.34): a slice's devices consume counters of that slice's own sets, so both
# may be set; the limits counted counters, not sets and consumptions.
MAX_SHARED_COUNTERS_BEFORE_1_35 = 32  # in all sets of a slice
MAX_COUNTERS_PER_DEVICE_BEFORE_1_35 = 32  # in all consumptions of a device
MAX_DEVICE_COUNTERS_PER_SLICE_BEFORE_1_35 = 1024  # in all devices of a slice
MAX_TAINTS_BEFORE_1_35 = 4
ATTRIBUTE_KEY_MAX = DEVICE_MAX_DOMAIN_LENGTH + 1 + DEVICE_MAX_ID_LENGTH
INT64_MAX = 2**63 - 1

_NUM = r"(0|[1-9]\d*)"
_PRE = r"(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_BUILD = r"[0-9a-zA-Z-]+"


@functools.cache
def _semver_pattern() -> re.Pattern:
    return re.compile(rf"^{_NUM}\.{_NUM}\.{_NUM}(-{_PRE}(\.{_PRE})*)?(\+{_BUILD}(\.{_BUILD})*)?$")


def is_semver(value: str) -> bool:
    """A version as semver.org 2.0.0 writes it. A plain MAJOR.MINOR.PATCH (most drivers' versions) is read
    without the pattern, which is compiled when another form first needs it (start-up)."""
    parts = value.split(".")
    if len(parts) == 3 and all(p.isascii() and p.isdigit() and (p[0] != "0" or p == "0") for p in parts):
        return True
    return _semver_pattern().fullmatch(value) is not None  # (whole, as Go's ^...$: not before a last newline)

NODE_FIELDS = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"
DEVICE_NODE_FIELDS = ("exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                      "`perDeviceNodeSelection` is set to true in the ResourceSlice spec")


def truncate_key(key: str, limit: int) -> str:
    """Keys in error paths are shortened in the middle, like upstream's truncateIfTooLong."""
    limit = max(limit, 16)
    if len(key) <= limit:
        return key
    remaining = limit - 3
    return key[: (remaining + 1) // 2] + "..." + key[len(key) - remaining // 2:]


def validate_map(ctx: Context, mapping: dict, limit: int, key_limit: int, path: str, check_key, check_item) -> None:
    if limit >= 0 and len(mapping) > limit:
        ctx.errs.too_many(path, len(mapping), limit)
        return
    for key, item in mapping.items():
        check_key(key, path, f"{path}[{key}]")
        check_item(item, f"{path}[{truncate_key(key, key_limit)}]", f"{path}[{key}]")


def quantity(ctx: Context, text: str | None, path: str) -> Quantity | None:
    """Parse a quantity; a malformed one fails decoding in the apiserver, reported as such."""
    if text is None:
        return None
    try:
        return Quantity.parse(text)
    except (ValueError, TypeError) as exc:
        ctx.errs.add(FieldError(path, dg.PARSE, detail=str(exc)))
        return None


def resource_slice(ctx: Context, obj, present: AbstractSet[str] = frozenset(),
                   without_basic: tuple[str, ...] = ()) -> None:
    """``present``: field paths the user wrote (to tell ``devices: []`` from no devices); ``without_basic``:
    the paths of v1beta1/v1alpha3 devices written without ``basic``."""
    errs = ctx.errs
    if ctx.gates is not None and ctx.gates.release_rules.device_needs_basic and without_basic:
        ctx = replace(ctx, without_basic=frozenset(without_basic))
    names.object_meta(errs, obj.metadata, namespaced=False)
    spec = obj.spec
    names.driver_name(errs, spec.driver, "spec.driver", ctx.gates.release_rules.empty_driver_also_invalid)
    _pool(ctx, spec.pool)

    chosen = []
    if spec.node_name is not None:
        if spec.node_name:
            chosen.append("`nodeName`")
            names.node_name(errs, spec.node_name, "spec.nodeName")
        else:
            errs.invalid("spec.nodeName", "", "must be either unset or set to a non-empty string")
    if spec.node_selector is not None:
        from allocator.validation.nodeselector import node_selector, terms_value  # (most slices name a node)

        chosen.append("`nodeSelector`")
        node_selector(errs, spec.node_selector, "spec.nodeSelector")
        if len(spec.node_selector.node_selector_terms) != 1:
            errs.invalid("spec.nodeSelector.nodeSelectorTerms", terms_value(spec.node_selector.node_selector_terms),
                         "must have exactly one node selector term")
    for json_name, value in (("allNodes", spec.all_nodes), ("perDeviceNodeSelection", spec.per_device_node_selection)):
        if value is True:
            chosen.append(f"`{json_name}`")
        elif value is False:
            errs.invalid(f"spec.{json_name}", False, "must be either unset or set to true")
    if not chosen:
        errs.required("spec", NODE_FIELDS)
    elif len(chosen) > 1:
        errs.invalid("spec", "{" + ", ".join(chosen) + "}", NODE_FIELDS + ", but multiple fields are set")

    if counters_in_own_slice(ctx):
        _devices_and_counters_before_1_35(ctx, spec)
        return
    has_counters = bool(spec.shared_counters) or "spec.sharedCounters" in present
    has_devices = bool(spec.devices) or "spec.devices" in present
    if has_counters and has_devices:
        errs.invalid("spec", "", "only one of `sharedCounters` or `devices` is allowed")

    # Which limit applies matters only past the lower one (a slice of up to 64 devices: no look at them).
    advanced = len(spec.devices) > MAX_DEVICES_ADVANCED and any(
        d.taints or d.consumes_counters or _has_list_attributes(d) for d in spec.devices)
    each(errs, spec.devices, MAX_DEVICES_ADVANCED if advanced else MAX_DEVICES, "spec.devices",
         lambda d, p: _device(ctx, d, p, spec.per_device_node_selection), key=lambda d: d.name, key_field=ctx.key_field("name"))
    each(errs, spec.shared_counters, MAX_COUNTER_SETS, "spec.sharedCounters",
         lambda cs, p: _counter_set(ctx, cs, p), key=lambda cs: cs.name, key_field=ctx.key_field("name"))


def counters_in_own_slice(ctx: Context) -> bool:
    """1.33-1.34: devices consume counters of their own slice's ``sharedCounters``, which may sit beside them."""
    if ctx.gates is None:
        return False
    return ctx.gates.release_rules.counters_in_own_slice


def _devices_and_counters_before_1_35(ctx: Context, spec) -> None:
    """The devices and counter sets as the apiserver of 1.33 and 1.34 checked them."""
    errs = ctx.errs
    own: dict[str, set[str]] = {}
    for cs in spec.shared_counters:
        own.setdefault(cs.name, set()).update(cs.counters)
    each(errs, spec.devices, MAX_DEVICES, "spec.devices",
         lambda d, p: _device(ctx, d, p, spec.per_device_node_selection, own), key=lambda d: d.name, key_field=ctx.key_field("name"))
    in_devices = sum(len(c.counters) for d in spec.devices for c in d.consumes_counters)
    if in_devices > MAX_DEVICE_COUNTERS_PER_SLICE_BEFORE_1_35:
        errs.invalid("spec.devices", in_devices, "the total number of counters in devices must not exceed "
                     f"{MAX_DEVICE_COUNTERS_PER_SLICE_BEFORE_1_35}")
    shared = sum(len(cs.counters) for cs in spec.shared_counters)
    if shared > MAX_SHARED_COUNTERS_BEFORE_1_35:
        errs.invalid("spec.sharedCounters", shared,
                     f"the total number of shared counters must not exceed {MAX_SHARED_COUNTERS_BEFORE_1_35}")
    each(errs, spec.shared_counters, -1, "spec.sharedCounters",
         lambda cs, p: _counter_set(ctx, cs, p, limit=-1), key=lambda cs: cs.name, key_field=ctx.key_field("name"))


def _own_counter_references(ctx: Context, device, path: str, own: dict[str, set[str]]) -> None:
    """1.33-1.34: what a device consumes must be counters of its own slice's sets."""
    total = sum(len(c.counters) for c in device.consumes_counters)
    if total > MAX_COUNTERS_PER_DEVICE_BEFORE_1_35:
        ctx.errs.invalid(path, total,
                         f"the total number of counters must not exceed {MAX_COUNTERS_PER_DEVICE_BEFORE_1_35}")
    for i, consumption in enumerate(device.consumes_counters):
        counters = own.get(consumption.counter_set)
        if counters is None:
            ctx.errs.invalid(f"{path}.consumesCounters[{i}].counterSet", consumption.counter_set,
                             "must reference a counterSet defined in the ResourceSlice sharedCounters")
            continue
        for name in consumption.counters:
            if name not in counters:
                ctx.errs.invalid(f"{path}.consumesCounters[{i}].counters", name,
                                 "must reference a counter defined in the ResourceSlice sharedCounters")


def _pool(ctx: Context, pool) -> None:
    errs = ctx.errs
    path = "spec.pool.name"
    if not pool.name:
        errs.required(path)
    else:
        if len(pool.name) > POOL_NAME_MAX:
            errs.too_long(path, POOL_NAME_MAX)
        for part in pool.name.split("/"):
            names.dns_subdomain(errs, part, path)
    if pool.resource_slice_count <= 0:
        errs.invalid("spec.pool.resourceSliceCount", pool.resource_slice_count, "must be greater than zero")
    if pool.generation < 0:
        errs.invalid("spec.pool.generation", pool.generation, "must be greater than or equal to zero")


def _has_list_attributes(device) -> bool:
    for a in device.attributes.values():
        if a.ints is not None or a.bools is not None or a.strings is not None or a.versions is not None:
            return True
    return False


def _attribute_values(device) -> int:
    """How many values the attributes hold: one a scalar, each item of a list (an empty list counts one)."""
    total = 0
    for a in device.attributes.values():
        if a.ints is None and a.bools is None and a.strings is None and a.versions is None:
            total += 1
            continue
        n = sum(len(v or []) for v in (a.bools, a.ints, a.strings, a.versions))
        total += n if n else 1
    return total


def _counter_name(ctx: Context):
    def check(key, map_path, key_path):
        for msg in names.is_dns1123_label(key):
            ctx.errs.invalid(map_path, key, msg, at=key_path)
    return check


def _counter_value(ctx: Context):
    def check(counter, path, at):
        quantity(ctx, counter.value, f"{at}.value")
    return check


def _counter_set(ctx: Context, counter_set, path: str, limit: int = MAX_COUNTERS_PER_SET) -> None:
    if not counter_set.name:
        ctx.errs.required(f"{path}.name")
    else:
        names.dns_label(ctx.errs, counter_set.name, f"{path}.name")
    if not counter_set.counters:
        ctx.errs.required(f"{path}.counters")
    else:
        validate_map(ctx, counter_set.counters, limit, names.DNS1123_LABEL_MAX, f"{path}.counters",
                     _counter_name(ctx), _counter_value(ctx))


def _consumption(ctx: Context, consumption, path: str, limit: int = MAX_COUNTERS_PER_CONSUMPTION) -> None:
    if not consumption.counter_set:
        ctx.errs.required(f"{path}.counterSet")
    else:
        names.dns_label(ctx.errs, consumption.counter_set, f"{path}.counterSet")
    if not consumption.counters:
        ctx.errs.required(f"{path}.counters")
    else:
        validate_map(ctx, consumption.counters, limit, names.DNS1123_LABEL_MAX,
                     f"{path}.counters", _counter_name(ctx), _counter_value(ctx))


def _qualified_key(ctx: Context):
    def check(key, map_path, key_path):
        qualified_name(ctx.errs, key, map_path, at=key_path)
    return check


def _device(ctx: Context, device, path: str, per_device_node_selection,
            own_counters: dict[str, set[str]] | None = None) -> None:
    """``own_counters`` (1.33-1.34): the counter names of the slice's own sets, which the device must consume."""
    errs = ctx.errs
    names.dns_label(errs, device.name, f"{path}.name")
    if path in ctx.without_basic:  # up to 1.32: the device's one type is required, and nothing else checked
        errs.required(f"{path}.basic")
        return
    count = len(device.attributes) + len(device.capacity)
    if count > MAX_ATTRIBUTES_AND_CAPACITIES:
        errs.invalid(path, count, "the total number of attributes and capacities must not exceed "
                     f"{MAX_ATTRIBUTES_AND_CAPACITIES}")
    plain = _plain_and_valid(device)
    values = len(device.attributes) if plain else _attribute_values(device)  # plain: one value each
    if values > MAX_ATTRIBUTE_VALUES:
        errs.invalid(path, values, f"the total number of attribute values must not exceed {MAX_ATTRIBUTE_VALUES}")

    if not plain:
        validate_map(ctx, device.attributes, -1, ATTRIBUTE_KEY_MAX, f"{path}.attributes", _qualified_key(ctx),
                     lambda a, p, at: _attribute(ctx, a, p, at))
        multi = device.allow_multiple_allocations is True
        validate_map(ctx, device.capacity, -1, ATTRIBUTE_KEY_MAX, f"{path}.capacity", _qualified_key(ctx),
                     lambda c, p, at: _capacity(ctx, c, p, at, multi))
    old = own_counters is not None
    # Empty lists have nothing to check: most devices have no taints, counters or binding conditions.
    if device.taints:
        each(errs, device.taints, MAX_TAINTS_BEFORE_1_35 if old else MAX_TAINTS, f"{path}.taints",
             lambda t, p: taint(ctx, t, p))
    if device.consumes_counters:
        each(errs, device.consumes_counters, -1 if old else MAX_CONSUMPTIONS_PER_DEVICE, f"{path}.consumesCounters",
             lambda c, p: _consumption(ctx, c, p, -1 if old else MAX_COUNTERS_PER_CONSUMPTION),
             key=lambda c: c.counter_set)
    if old:
        _own_counter_references(ctx, device, path, own_counters)
    _device_nodes(ctx, device, path, per_device_node_selection)
    if device.binding_conditions or device.binding_failure_conditions:
        binding_parameters(ctx, device.binding_conditions, device.binding_failure_conditions, path)


def _plain_and_valid(device) -> bool:
    """Whether every attribute (one scalar) and capacity (no request policy) of ``device`` is known valid.

    A cluster's devices repeat the same names and most values, so each
    distinct (name, value) is checked once; anything else, or anything wrong,
    goes through the full checks, which say what is wrong and where.
    """
    for key, attr in device.attributes.items():
        if attr.ints is not None or attr.bools is not None or attr.strings is not None or attr.versions is not None:
            return False
        string = attr.string
        if string is not None and attr.int is None and attr.bool is None and attr.version is None:
            # Text alone, such as a serial number, which every device has its own of: what ``_attribute``
            # checks of it, without remembering each value.
            if (key not in _VALID_NAMES and not _valid_name(key)) or len(string) > MAX_ATTRIBUTE_VALUE_LENGTH or (
                    not string.isascii() and len(string.encode()) > MAX_ATTRIBUTE_VALUE_LENGTH):
                return False  # (ASCII text has as many bytes as characters: no copy to count them)
            continue
        if not _valid_scalar_attribute(key, attr.int, attr.bool, string, attr.version):
            return False
    for key, capacity in device.capacity.items():
        if capacity.request_policy is not None or not _valid_plain_capacity(key, capacity.value):
            return False
    return True


def _valid_name(key: str) -> bool:
    """``_valid_qualified_name``, remembered in a set when true: a set's lookup is a few times cheaper than
    a bounded cache's, and every device of a cluster asks it of the same few names."""
    if not _valid_qualified_name(key):
        return False
    if len(_VALID_NAMES) >= 4096:
        _VALID_NAMES.clear()
    _VALID_NAMES.add(key)
    return True


_VALID_NAMES: set[str] = set()


@functools.lru_cache(maxsize=65_536, typed=True)
def _valid_scalar_attribute(key: str, int_value, bool_value, string: str | None, version: str | None) -> bool:
    ctx = Context(Errors(), gates=None)
    qualified_name(ctx.errs, key, "", None)
    _attribute(ctx, DeviceAttribute(int=int_value, bool=bool_value, string=string, version=version), "", "")
    return not ctx.errs.items


@functools.lru_cache(maxsize=65_536)
def _valid_plain_capacity(key: str, value: str) -> bool:
    ctx = Context(Errors(), gates=None)
    qualified_name(ctx.errs, key, "", None)
    quantity(ctx, value, "")
    return not ctx.errs.items


def _device_nodes(ctx: Context, device, path: str, per_device_node_selection) -> None:
    errs = ctx.errs
    if per_device_node_selection is True:
        chosen = []
        if device.node_name is not None:
            if device.node_name:
                chosen.append("`nodeName`")
                names.node_name(errs, device.node_name, f"{path}.nodeName")
            else:
                errs.invalid(f"{path}.nodeName", "", "must not be empty")
        if device.node_selector is not None:
            from allocator.validation.nodeselector import node_selector

            chosen.append("`nodeSelector`")
            node_selector(errs, device.node_selector, f"{path}.nodeSelector")
        if device.all_nodes is True:
            chosen.append("`allNodes`")
        elif device.all_nodes is False:
            errs.invalid(f"{path}.allNodes", False, "must be either unset or set to true")
        if not chosen:
            errs.required(path, DEVICE_NODE_FIELDS)
        elif len(chosen) > 1:
            errs.invalid(path, "{" + ", ".join(chosen) + "}", DEVICE_NODE_FIELDS)
    elif device.node_name is not None or device.node_selector is not None or device.all_nodes is not None:
        errs.invalid(path, None, "`nodeName`, `nodeSelector` and `allNodes` can only be set if "
                     "`perDeviceNodeSelection` is set to true in the ResourceSlice spec")


def _string_value(ctx: Context, value: str, path: str) -> None:
    if len(value.encode()) > MAX_ATTRIBUTE_VALUE_LENGTH:
        ctx.errs.too_long(path, MAX_ATTRIBUTE_VALUE_LENGTH)


def _version_value(ctx: Context, value: str, path: str) -> None:
    if not is_semver(value):
        ctx.errs.invalid(path, value, "must be a string compatible with semver.org spec 2.0.0")
    _string_value(ctx, value, path)


_LIST_GO_TYPES = {"bools": "bool", "ints": "int64", "strings": "string", "versions": "string"}


def _attribute(ctx: Context, attr, path: str, at: str) -> None:
    errs = ctx.errs
    set_fields = 0
    for name in ("int", "bool"):
        if getattr(attr, name) is not None:
            set_fields += 1
    if attr.string is not None:
        set_fields += 1
        _string_value(ctx, attr.string, f"{path}.string")
    if attr.version is not None:
        set_fields += 1
        _version_value(ctx, attr.version, f"{path}.version")
    for name in ("bools", "ints", "strings", "versions"):
        values = getattr(attr, name)
        if values is None:
            continue
        set_fields += 1
        if not values:
            errs.invalid(f"{path}.{name}", GoValue(f"[]{_LIST_GO_TYPES[name]}{{}}"), "must not be empty if specified")
        for i, item in enumerate(values):
            if name == "strings":
                _string_value(ctx, item, f"{path}.strings[{i}]")
            elif name == "versions":
                _version_value(ctx, item, f"{path}.versions[{i}]")
    if set_fields == 0:
        errs.invalid(path, "", "exactly one value must be specified", at=at)
    elif set_fields > 1:
        errs.invalid(path, GoValue(_attribute_go(attr)), "exactly one value must be specified", at=at)


def _attribute_go(attr) -> str:
    """An approximation of ``%#v`` of a DeviceAttribute (Go prints pointer addresses)."""
    parts = []
    for go, name in (("IntValue", "int"), ("BoolValue", "bool"), ("StringValue", "string"), ("VersionValue", "version")):
        value = getattr(attr, name)
        if value is not None:
            parts.append(f"{go}:&{value!r}".replace("'", '"') if isinstance(value, str)
                         else f"{go}:&{str(value).lower() if isinstance(value, bool) else value}")
    return "resource.DeviceAttribute{" + ", ".join(parts) + "}"


def _capacity(ctx: Context, capacity, path: str, at: str, multi: bool) -> None:
    value = quantity(ctx, capacity.value, f"{at}.value")
    if capacity.request_policy is None:
        return
    if not multi:
        ctx.errs.forbidden(f"{path}.requestPolicy", "allowMultipleAllocations must be true")
        return
    if value is not None:
        _request_policy(ctx, value, capacity.request_policy, f"{path}.requestPolicy", f"{at}.requestPolicy")


def _request_policy(ctx: Context, max_capacity: Quantity, policy, path: str, at: str) -> None:
    errs = ctx.errs
    if policy.valid_values and policy.valid_range is not None:
        errs.forbidden(path, 'exactly one policy can be specified, cannot specify "validValues" and '
                       '"validRange" at the same time')
        return
    if policy.valid_values:
        if policy.default is None:
            errs.required(f"{path}.default", "required when validValues is defined")
            return
        default = quantity(ctx, policy.default, f"{at}.default")
        options = [quantity(ctx, v, f"{at}.validValues[{i}]") for i, v in enumerate(policy.valid_values)]
        if default is None or None in options:
            return
        _valid_values(ctx, default, max_capacity, options, f"{path}.validValues")
    elif policy.valid_range is not None:
        if policy.default is None:
            errs.required(f"{path}.default", "required when validRange is defined")
            return
        default = quantity(ctx, policy.default, f"{at}.default")
        rng = policy.valid_range
        bounds = {name: quantity(ctx, getattr(rng, name), f"{at}.validRange.{name}") for name in ("min", "max", "step")}
        if default is None or any(getattr(rng, n) is not None and bounds[n] is None for n in bounds):
            return
        _valid_range(ctx, default, max_capacity, bounds, f"{path}.validRange")


def _exact_decimal(q: Quantity) -> str:
    from decimal import Decimal  # here: only a capacity's requestPolicy needs it (start-up)

    text = format(Decimal(q.scaled_value(-9)).scaleb(-9).normalize(), "f")
    return text


def _valid_values(ctx: Context, default: Quantity, max_capacity: Quantity, options: list[Quantity], path: str) -> None:
    errs = ctx.errs
    for i in range(len(options) - 1):
        if options[i].cmp(options[i + 1]) > 0:
            errs.invalid(f"{path}[{i + 1}]", str(options[i + 1]), "values must be sorted in ascending order")
    found = False

    def option(q, p):
        nonlocal found
        if q.cmp(max_capacity) > 0:
            errs.invalid(p, str(q), f"option is larger than capacity value: {max_capacity}")
        if q.cmp(default) == 0:
            found = True

    if ctx.enabled("DRAFractionalCapacityRange"):
        key = _exact_decimal
    else:
        def key(q):
            return str(q.value)
    each(errs, options, MAX_VALID_VALUES, path, option, key=key)
    if not found:
        errs.invalid(path, str(default), "default value is not valid according to the requestPolicy")


def _is_fractional(q: Quantity) -> bool:
    return q.scaled_value(-9) % 10**9 != 0


def _valid_range(ctx: Context, default: Quantity, max_capacity: Quantity, bounds: dict, path: str) -> None:
    errs = ctx.errs
    low, high, step = bounds["min"], bounds["max"], bounds["step"]
    if low is None:
        errs.required(f"{path}.min", "required when validRange is defined")
        return
    if low.cmp(max_capacity) > 0:
        errs.invalid(f"{path}.min", str(low), f"min is larger than capacity value: {max_capacity}")
    if default.cmp(low) < 0:
        errs.invalid(f"{path}.default", str(default), f"default is less than min: {low}")
    if high is not None:
        if low.cmp(high) > 0:
            errs.invalid(f"{path}.max", str(low), f"min is larger than max: {high}")
        if high.cmp(max_capacity) > 0:
            errs.invalid(f"{path}.max", str(high), f"max is larger than capacity value: {max_capacity}")
        if default.cmp(high) > 0:
            errs.invalid(f"{path}.default", str(default), f"default is more than max: {high}")
    named = (("default", default), ("min", low), ("max", high), ("step", step))
    use_milli = False
    if ctx.enabled("DRAFractionalCapacityRange"):
        use_milli = any(q is not None and _is_fractional(q) for q in (low, high, step, default))
        if use_milli:
            unsafe = False
            for name, q in named:
                if q is not None and q.cmp(Quantity(q.milli_value, -3)) != 0:
                    errs.invalid(f"{path}.{name}", str(q), "value cannot be represented as a milli value")
                    unsafe = True
            if unsafe:
                return
    if step is None:
        return
    if step.sign() <= 0:
        errs.invalid(f"{path}.step", str(step), "must be greater than zero")
        return
    added = low.add(step)
    if added.cmp(max_capacity) > 0:
        errs.invalid(f"{path}.step", str(step), f"one step {added} is larger than capacity value: {max_capacity}")
    if not use_milli:
        unsafe = False
        for name, q in named:
            if q is None:
                continue
            if q.sign() < 0:
                errs.invalid(f"{path}.{name}", str(q), "must be greater than or equal to 0")
                unsafe = True
            elif q.cmp(Quantity(INT64_MAX, 0)) > 0:
                errs.invalid(f"{path}.{name}", str(q), f"must not be larger than {INT64_MAX}")
                unsafe = True
        if unsafe:
            return
    for value in (default, high):
        if value is None:
            continue
        if use_milli:
            v, lo, st = value.milli_value, low.milli_value, step.milli_value
        else:
            v, lo, st = value.value, low.value, step.value
        if _go_rem(v - lo, st) != 0:
            errs.invalid(f"{path}.step", str(value), f"value is not a multiple of a given step ({step}) from ({low})")


def _go_rem(a: int, b: int) -> int:
    """Go's ``%``: the sign follows the dividend."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def binding_parameters(ctx: Context, conditions: list[str], failure_conditions: list[str], path: str) -> None:
    errs = ctx.errs
    each(errs, conditions, MAX_BINDING_CONDITIONS, f"{path}.bindingConditions",
         lambda c, p: names.label_name(errs, c, p))
    each(errs, failure_conditions, MAX_BINDING_CONDITIONS, f"{path}.bindingFailureConditions",
         lambda c, p: names.label_name(errs, c, p))
    seen = set()
    for i, c in enumerate(conditions):
        if c in seen:
            errs.duplicate(f"{path}.bindingConditions[{i}]", c)
        seen.add(c)
    seen_failure = set()
    for i, c in enumerate(failure_conditions):
        if c in seen_failure:
            errs.duplicate(f"{path}.bindingFailureConditions[{i}]", c)
        seen_failure.add(c)
        if c in conditions:
            errs.invalid(f"{path}.bindingFailureConditions[{i}]", c,
                         "bindingFailureConditions must not overlap with bindingConditions")
    if not conditions and failure_conditions:
        errs.invalid(f"{path}.bindingConditions", string_slice(conditions),
                     "bindingConditions are required to use bindingFailureConditions")
    if not failure_conditions and conditions:
        errs.invalid(f"{path}.bindingFailureConditions", string_slice(failure_conditions),
                     "bindingFailureConditions are required to use bindingConditions")
