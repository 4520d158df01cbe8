"""Kubernetes 1.31 to 1.37 as data: the fields each resource.k8s.io version has in each release.

A field a feature gate guards is dropped on create when the gate is off (see
``validation.defaults``), but only if the release's API types have the field
at all. Where they do not, the apiserver's strict decoder (kubectl's default,
``--validate=strict``) refuses the object: ``unknown field
"spec.devices.requests[0].firstAvailable"``. Gates are no proxy for this:
``adminAccess`` was in v1alpha3 in 1.31, before ``DRAAdminAccess`` existed,
and a gate can be off in a release whose types have the field.

``FIELDS`` says, per API version and per type of that version (upstream's
type names: v1beta1's ``BasicDevice`` and ``DeviceRequest``, v1's ``Device``
and ``ExactDeviceRequest``) and JSON field name, the first release whose
types have the field in that version and, if it went away, the first release
without it. A field absent from the table is in every release that has its
type in that version (``FIRST_RELEASE``); a field below a field the table
lists needs no entry, since the unknown parent is refused whole.

Source (read, not copied): kubernetes/api ``resource/{v1alpha3,v1beta1,
v1beta2,v1}/types.go``, compared field by field (the ``json`` names of every
struct) between the tags v0.31.0 (2df39ffd), v0.32.0 (e622342a), v0.33.0
(82c0029e), v0.34.0 (ae6c3b91), v0.35.0 (9afe7de0), v0.36.0 (545bb975) and
master of 2026-07-24 (10b39a39) for 1.37. Kubernetes 1.34 removed the
v1alpha3 types of the four core kinds (only DeviceTaintRule stays), so the
v1alpha3 rows matter for 1.31 to 1.33.

Known and not checked: the items of a claim's ``status.devices`` (our
decoders do not read them; ``shareID`` there came in 1.34 in v1beta1 and
v1beta2). The 1.36/1.37 fields of features the engine does not simulate
(``nodeAllocatableResourceMappings``, ``nodeAllocatableResources``,
``partitionTypeAttribute``, ``skipNodeOperations``) are kept as written where
the release has them and named in a warning (``validation.not_simulated``).
"""

from __future__ import annotations

import functools
from types import MappingProxyType

from allocator.reading.diagnostics import PARSE, Diagnostic
from allocator.reading.records import record
from allocator.releases.table import GROUP, release_key

# The first release serving the core kinds in each version (``releases.SERVING``).
FIRST_RELEASE = MappingProxyType({"v1alpha3": "1.31", "v1beta1": "1.32", "v1beta2": "1.33", "v1": "1.34"})


@record(frozen=True)
class Span:
    """The releases whose types have a field: from ``since`` on, until ``removed`` (exclusive)."""

    since: str
    removed: str | None = None

    def has(self, release: str) -> bool:
        key = release_key(release)
        return release_key(self.since) <= key and (self.removed is None or key < release_key(self.removed))


def _rows(*groups: tuple) -> MappingProxyType:
    """(span, type, field names...) groups -> {(type, field): span}."""
    out = {}
    for span, type_name, *fields in groups:
        for field_name in fields:
            out[(type_name, field_name)] = span
    return MappingProxyType(out)


_1_32, _1_33, _1_34, _1_36, _1_37 = Span("1.32"), Span("1.33"), Span("1.34"), Span("1.36"), Span("1.37")
_CLASSIC = Span("1.31", "1.32")  # classic DRA, see ``classic``
_ONLY_1_36 = Span("1.36", "1.37")  # renamed to nodeAllocatableResources (a new type) in 1.37
_NEVER = Span("99.0")  # a field the model has for another version, never in this one
# A DeviceTaintRule's selector by class and CEL: v1alpha3 of 1.33 and 1.34 only (v0.35.0 removed them;
# v1beta2 and v1 never had them).
_TAINT_SELECTOR_CLASS_AND_CEL = ("DeviceTaintSelector", "deviceClassName", "selectors")

# Partitionable devices, taints and prioritized lists (1.33), in v1alpha3 and v1beta1 alike.
_ADDED_IN_1_33 = (
    (_1_33, "ResourceSliceSpec", "perDeviceNodeSelection", "sharedCounters"),
    (_1_33, "BasicDevice", "consumesCounters", "nodeName", "nodeSelector", "allNodes", "taints"),
    (_1_33, "DeviceRequest", "firstAvailable", "tolerations"),
    (_1_33, "DeviceRequestAllocationResult", "tolerations"),
)
# Consumable capacity, binding conditions, extended resources, allocation time (1.34), per device type.
_ALLOCATION_1_34 = (
    (_1_34, "DeviceCapacity", "requestPolicy"),
    (_1_34, "DeviceClassSpec", "extendedResourceName"),
    (_1_34, "DeviceConstraint", "distinctAttribute"),
    (_1_34, "DeviceSubRequest", "capacity"),
    (_1_34, "DeviceRequestAllocationResult", "bindingConditions", "bindingFailureConditions", "shareID",
     "consumedCapacity"),
    (_1_34, "AllocationResult", "allocationTimestamp"),
    (_1_34, "AllocatedDeviceStatus", "shareID"),
)
_DEVICE_1_34 = ("bindsToNode", "bindingConditions", "bindingFailureConditions", "allowMultipleAllocations")


def _later(device_type: str) -> tuple:
    """What 1.36 and 1.37 added to every version still served then."""
    return (
        (_1_36, "DeviceAttribute", "ints", "bools", "strings", "versions"),
        (_ONLY_1_36, device_type, "nodeAllocatableResourceMappings"),
        (_1_37, device_type, "nodeAllocatableResources"),
        (_1_37, "ResourceSliceSpec", "partitionTypeAttribute", "skipNodeOperations"),
        (_1_37, "DeviceRequestAllocationResult", "skipNodeOperations"),
    )


FIELDS: MappingProxyType = MappingProxyType({
    "v1alpha3": _rows(
        (_1_32, "ResourceClaimStatus", "devices"),
        (_1_32, "DeviceRequestAllocationResult", "adminAccess"),
        *_ADDED_IN_1_33,
        (_CLASSIC, "ResourceClaimSpec", "controller"),
        (_CLASSIC, "AllocationResult", "controller"),
        (_CLASSIC, "DeviceClassSpec", "suitableNodes"),
        (_CLASSIC, "ResourceClaimStatus", "deallocationRequested"),
        (Span("1.33", "1.35"), *_TAINT_SELECTOR_CLASS_AND_CEL),
    ),
    "v1beta1": _rows(
        *_ADDED_IN_1_33,
        (_1_34, "BasicDevice", *_DEVICE_1_34),
        (_1_34, "DeviceRequest", "capacity"),
        *_ALLOCATION_1_34,
        *_later("BasicDevice"),
    ),
    "v1beta2": _rows(
        (_1_34, "Device", *_DEVICE_1_34),
        (_1_34, "ExactDeviceRequest", "capacity"),
        *_ALLOCATION_1_34,
        *_later("Device"),
        (_NEVER, *_TAINT_SELECTOR_CLASS_AND_CEL),
    ),
    "v1": _rows(*_later("Device"), (_NEVER, *_TAINT_SELECTOR_CLASS_AND_CEL)),
})


def span(version: str, type_name: str, field_name: str) -> Span:
    """The releases whose ``version`` types have ``type_name.field_name`` (the field being one of that type)."""
    return FIELDS[version].get((type_name, field_name)) or Span(FIRST_RELEASE[version])


@functools.cache
def tracked(version: str) -> MappingProxyType:
    """Type -> the fields of it that some release of ``version`` lacks: what the readers note down."""
    out: dict[str, set[str]] = {}
    for type_name, field_name in FIELDS.get(version, {}):
        out.setdefault(type_name, set()).add(field_name)
    return MappingProxyType({t: frozenset(f) for t, f in out.items()})


def missing(version: str, type_name: str, field_name: str, release: str) -> str | None:
    """Why ``release``'s types have no such field in ``version`` (the words after ``unknown field``), or None."""
    fields_span = span(version, type_name, field_name)
    if fields_span.has(release):
        return None
    if fields_span is _NEVER:
        return f"{GROUP}/{version} has no such field"
    if release_key(release) < release_key(fields_span.since):
        when = f"added in {fields_span.since}"
    else:
        when = f"removed in {fields_span.removed}"
    return f"{GROUP}/{version} in Kubernetes {release} has no such field ({when})"


def unknown_fields(document, release: str) -> list[Diagnostic]:
    """The strict decoder's ``unknown field`` errors for the fields of ``document`` that ``release`` lacks.

    ``document`` is an ``objects.Document`` or ``Unreadable``: its ``versioned``
    fields were noted when it was read, whatever the release.
    """
    version = document.api_version.rpartition("/")[2]
    out = []
    for path, (type_name, field_name, _) in document.versioned.items():
        why = missing(version, type_name, field_name, release)
        if why is not None:
            line, column = document.versioned_pos(path) or (document.line, document.column)
            out.append(Diagnostic(field=path, type=PARSE, detail=f'unknown field "{path}": {why}',
                                  kind=document.kind, name=document.name, line=line, column=column))
    return out
