"""Binding conditions: a grant that is not final until the driver says the devices are ready.

A device may list ``bindingConditions`` (and ``bindingFailureConditions``) in
its ResourceSlice (KEP-5007, ``DRADeviceBindingConditions``: alpha and off in
1.34 and 1.35, beta and on from 1.36). With that gate and
``DRAResourceClaimDeviceStatus`` on, the allocator copies both lists into the
claim's allocation result, and the scheduler's DynamicResources plugin,
after writing the allocation (with ``allocationTimestamp``) and the
reservation to the claims in PreBind, waits before binding the pod: every
5 seconds it reads the claims and goes on only when each binding condition
is ``True`` in the claim's ``status.devices`` entry for that device. When a
binding failure condition turns ``True``, or the binding timeout passes
(counted from ``allocationTimestamp``), PreBind fails ("claim X binding
failed: ..." / "claim X binding timeout"), the pod goes back to the
scheduling queue and the allocation is cleared, freeing the devices; the next
attempt may choose the same node or another.

The timeout: 600 seconds, fixed in the plugin in 1.34
(``BindingTimeoutDefaultSeconds``); from 1.35 the ``bindingTimeout`` field of
the plugin's ``DynamicResourcesArgs`` in the KubeSchedulerConfiguration
(upstream pull request 134905), defaulting to 10 minutes, allowed only while
``DRADeviceBindingConditions`` is on. With either gate off the allocator does
not grant devices that have binding conditions at all, so no note is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from allocator.kube import model
from allocator.reading.records import record
from allocator.releases.gates import FeatureGates
from allocator.releases.rules import ReleaseRules, as_rules

DEFAULT_TIMEOUT_SECONDS = 600
POLL_SECONDS = 5
GATES = ("DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus")


def timeout_setting(release: ReleaseRules | str) -> str:
    """Where the binding timeout comes from in this release (its rules, or its name)."""
    rules = as_rules(release)
    if not rules.binding_timeout_in_args:
        return f"fixed at {DEFAULT_TIMEOUT_SECONDS} s in Kubernetes {rules.release}'s scheduler"
    return (f"{DEFAULT_TIMEOUT_SECONDS} s by default: bindingTimeout in the DynamicResources plugin's args "
            f"(KubeSchedulerConfiguration pluginConfig)")


@record(frozen=True)
class WaitingDevice:
    """A granted device with binding conditions (``binding.devices[]`` in the JSON)."""

    claim: str  # namespace/name
    request: str
    driver: str
    pool: str
    device: str
    binding_conditions: tuple[str, ...]
    binding_failure_conditions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"claim": self.claim, "request": self.request, "driver": self.driver, "pool": self.pool,
                "device": self.device, "bindingConditions": list(self.binding_conditions),
                "bindingFailureConditions": list(self.binding_failure_conditions)}


@record(frozen=True)
class BindingNote:
    """What a grant's binding conditions mean (``allocation.binding`` in the JSON)."""

    devices: list[WaitingDevice]
    conditions: list[str]
    failure_conditions: list[str]
    timeout_seconds: int
    timeout_setting: str
    poll_seconds: int
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"devices": [d.to_dict() for d in self.devices], "conditions": self.conditions,
                "failureConditions": self.failure_conditions, "timeoutSeconds": self.timeout_seconds,
                "timeoutSetting": self.timeout_setting, "pollSeconds": self.poll_seconds, "message": self.message}


def binding_note(claims: Sequence[model.ResourceClaim], results: Sequence[model.AllocationResult],
                 gates: FeatureGates) -> BindingNote | None:
    """What the grant's binding conditions mean, or None when no granted device has any (or the gates are off).

    ``devices`` lists each granted device with conditions; ``message`` says in
    words that the allocation is not final and what the scheduler does.
    """
    if not all(gates.values.get(g, False) for g in GATES):
        return None
    devices = []
    for claim, result in zip(claims, results, strict=True):
        name = f"{claim.metadata.namespace}/{claim.metadata.name or claim.metadata.generate_name}"
        for r in result.devices.results:
            if not r.binding_conditions:
                continue
            devices.append(WaitingDevice(claim=name, request=r.request, driver=r.driver, pool=r.pool,
                                         device=r.device, binding_conditions=tuple(r.binding_conditions),
                                         binding_failure_conditions=tuple(r.binding_failure_conditions)))
    if not devices:
        return None
    conditions = list(dict.fromkeys(c for d in devices for c in d.binding_conditions))
    failures = list(dict.fromkeys(c for d in devices for c in d.binding_failure_conditions))
    setting = timeout_setting(gates.release_rules)
    message = (
        "The allocation is not final: the scheduler writes it to the claims, then waits in PreBind (checking "
        f"every {POLL_SECONDS} s) until the driver reports {', '.join(conditions)} as True in each claim's "
        "status.devices before it binds the pod. "
        + (f"If {' or '.join(failures)} turns True, or " if failures else "If ")
        + f"the conditions are not all True within the binding timeout ({setting}), binding fails: the "
          "allocation is cleared, the devices are freed and the pod is scheduled again (maybe elsewhere).")
    return BindingNote(devices=devices, conditions=conditions, failure_conditions=failures,
                       timeout_seconds=DEFAULT_TIMEOUT_SECONDS, timeout_setting=setting, poll_seconds=POLL_SECONDS,
                       message=message)
