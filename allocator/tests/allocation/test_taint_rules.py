"""DeviceTaintRules: their taints added to the devices they select, as the scheduler's ResourceSlice
tracker adds them, per release (k8s.io/dynamic-resource-allocation resourceslice/tracker at v0.33-v0.36)."""

import pytest

from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import SearchInputs
from allocator.allocation.taint_rules import taint_source
from allocator.engine import analyze
from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.tests.helpers.taint_rules import BY_CEL, GPU_0, INVENTORY, claim, rule


def devices(report: dict) -> dict[str, str | None]:
    """device name -> its reason (None: it matches)."""
    return {d["device"]: d["reason"] for d in report["requests"][0]["devices"]}


def granted(report: dict) -> list[str]:
    return [r["device"] for c in report["allocation"]["claims"]
            for r in c["status"]["allocation"]["devices"]["results"]]


def run(documents: str, inventory: str, release: str = "1.37", gates: dict | None = None) -> dict:
    if release == "1.33":  # resource.k8s.io/v1 came in 1.34; v1beta2 has its shape
        documents, inventory = (text.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta2\n")
                                for text in (documents, inventory))
        gates = {"DynamicResourceAllocation": True, **(gates or {})}  # beta but off in 1.33
    report = analyze(documents, inventory, kubernetes_version=release, feature_gates=gates).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return report


TAINTED = "taint maintenance=true:NoSchedule from DeviceTaintRule gpu-maintenance is not tolerated"

# Where the rules are applied by default, or with the gate they need turned on.
APPLIED = [("1.37", None, "v1"), ("1.36", {"DRADeviceTaintRules": True}, "v1beta2"),
           ("1.35", {"DRADeviceTaints": True, "DRADeviceTaintRules": True}, "v1alpha3"),
           ("1.34", {"DRADeviceTaints": True}, "v1alpha3"), ("1.33", {"DRADeviceTaints": True}, "v1alpha3")]


@pytest.mark.parametrize(("release", "gates", "version"), APPLIED)
def test_a_rule_taints_the_device_it_names_and_the_reason_names_the_rule(release, gates, version):
    report = run(claim(count=2), INVENTORY + rule(GPU_0, version=version), release, gates)
    assert report["allocation"]["status"] == "unsatisfiable"
    assert devices(report) == {"gpu-0": TAINTED, "gpu-1": None}
    assert TAINTED in report["allocation"]["reasons"][0]
    assert granted(run(claim(), INVENTORY + rule(GPU_0, version=version), release, gates)) == ["gpu-1"]


def test_without_a_rule_gpu_0_is_granted():
    assert granted(run(claim(), INVENTORY)) == ["gpu-0"]


@pytest.mark.parametrize(("release", "gates"), [
    ("1.36", None),  # DRADeviceTaintRules beta but off
    ("1.35", {"DRADeviceTaints": True}),  # the rules have their own gate from 1.35 on
    ("1.34", None),  # DRADeviceTaints alpha, off
])
def test_while_their_gate_is_off_the_rules_are_not_served(release, gates):
    for version in ("v1alpha3", "v1beta2", "v1"):
        report = analyze(claim(), INVENTORY + rule(GPU_0, version=version), kubernetes_version=release,
                         feature_gates=gates).to_dict()
        refused = [d for d in report["diagnostics"] if d["kind"] == "DeviceTaintRule"]
        assert refused and refused[0]["type"] == "Not served"


def test_a_tolerated_rule_taint_does_not_block():
    assert granted(run(claim(count=2, tolerate=True), INVENTORY + rule(GPU_0))) == ["gpu-0", "gpu-1"]


@pytest.mark.parametrize("effect", ["NoSchedule", "NoExecute"])
def test_no_schedule_and_no_execute_block(effect):
    report = run(claim(count=2), INVENTORY + rule(GPU_0, effect=effect))
    assert devices(report)["gpu-0"] == TAINTED.replace("NoSchedule", effect)


@pytest.mark.parametrize("release", ["1.35", "1.37"])
def test_effect_none_does_not_block(release):
    gates = {"DRADeviceTaints": True, "DRADeviceTaintRules": True} if release == "1.35" else None
    version = "v1alpha3" if release == "1.35" else "v1"
    report = run(claim(count=2), INVENTORY + rule(GPU_0, effect="None", version=version), release, gates)
    assert granted(report) == ["gpu-0", "gpu-1"]


def test_a_rule_without_a_selector_taints_every_device():
    # Upstream's tracker applies a rule without deviceSelector to every device (issue 141620), up to 1.37.0.
    report = run(claim(), INVENTORY + rule(""))
    assert report["allocation"]["status"] == "unsatisfiable"
    assert devices(report) == {"gpu-0": TAINTED, "gpu-1": TAINTED}


@pytest.mark.parametrize(("selector", "tainted"), [
    ("  deviceSelector: {driver: other.example.com}", []),
    ("  deviceSelector: {pool: node-b}", []),
    ("  deviceSelector: {driver: gpu.example.com}", ["gpu-0", "gpu-1"]),
    ("  deviceSelector: {device: gpu-1}", ["gpu-1"]),
])
def test_driver_pool_and_device_must_all_match(selector, tainted):
    report = run(claim(count=2), INVENTORY + rule(selector))
    assert [name for name, reason in devices(report).items() if reason] == tainted


BY_CLASS = "  deviceSelector: {deviceClassName: a100}"


@pytest.mark.parametrize("release", ["1.33", "1.34"])
@pytest.mark.parametrize("selector", [BY_CLASS, BY_CEL])
def test_before_1_35_a_class_and_cel_selectors_choose_the_devices(release, selector):
    # gpu-1 has no slot: the CEL runtime error means "no match".
    report = run(claim(count=2), INVENTORY + rule(selector, version="v1alpha3"), release, {"DRADeviceTaints": True})
    assert devices(report) == {"gpu-0": TAINTED, "gpu-1": None}


def test_before_1_35_a_missing_class_matches_nothing():
    report = run(claim(count=2), INVENTORY + rule("  deviceSelector: {deviceClassName: missing}", version="v1alpha3"),
                 "1.34", {"DRADeviceTaints": True})
    assert granted(report) == ["gpu-0", "gpu-1"]


def test_before_1_35_a_compile_error_keeps_the_slice_from_the_scheduler():
    # The apiserver refuses such an expression on create; a rule stored by a newer apiserver (a downgrade)
    # can still have one. The tracker then fails to patch the slice and keeps no copy of it.
    bad = "  deviceSelector: {selectors: [{cel: {expression: \"device.nosuchfield == 1\"}}]}"
    inventory = read_documents(INVENTORY + rule(bad, version="v1alpha3"))
    allocator = Allocator(SearchInputs(inventory.of_kind("DeviceClass"), inventory.of_kind("ResourceSlice"),
                                       taint_rules=inventory.of_kind("DeviceTaintRule")),
                          make_gates({"DRADeviceTaints": True}, "1.34"))
    assert allocator.slices == []
    [error] = allocator.taint_rule_errors
    assert error.startswith("DeviceTaintRule gpu-maintenance: selector #0: CEL compile error: ")


def test_a_rule_with_a_bad_expression_is_refused_on_create():
    bad = "  deviceSelector: {selectors: [{cel: {expression: \"device.nosuchfield == 1\"}}]}"
    report = analyze(claim(), INVENTORY + rule(bad, version="v1alpha3"), kubernetes_version="1.34",
                     feature_gates={"DRADeviceTaints": True}).to_dict()
    [error] = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert (error["kind"], error["field"]) == ("DeviceTaintRule", "spec.deviceSelector.selectors[0].cel.expression")


@pytest.mark.parametrize(("release", "gates", "version", "supported"), [
    ("1.34", {"DRADeviceTaints": True}, "v1alpha3", 'supported values: "NoExecute", "NoSchedule"'),
    ("1.37", None, "v1", 'supported values: "NoExecute", "NoSchedule", "None"'),
])
def test_the_rules_taint_and_names_are_validated(release, gates, version, supported):
    selector = "  deviceSelector: {driver: Bad_Driver, pool: node-a, device: GPU-0}"
    report = analyze(claim(), INVENTORY + rule(selector, effect="Sometimes", version=version),
                     kubernetes_version=release, feature_gates=gates).to_dict()
    errors = {d["field"]: d["detail"] for d in report["diagnostics"] if d["severity"] == "error"}
    assert sorted(errors) == ["spec.deviceSelector.device", "spec.deviceSelector.driver", "spec.taint.effect"]
    assert errors["spec.taint.effect"] == supported


def test_effect_none_is_refused_before_1_35():
    report = analyze(claim(), INVENTORY + rule(GPU_0, effect="None", version="v1alpha3"), kubernetes_version="1.34",
                     feature_gates={"DRADeviceTaints": True}).to_dict()
    [error] = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert error["field"] == "spec.taint.effect"


@pytest.mark.parametrize(("release", "gates", "version"), APPLIED[:3])
@pytest.mark.parametrize(("selector", "field"), [(BY_CLASS, "deviceClassName"), (BY_CEL, "selectors")])
def test_from_1_35_the_apiserver_refuses_class_and_cel_in_a_rule(release, gates, version, selector, field):
    report = analyze(claim(), INVENTORY + rule(selector, version=version), kubernetes_version=release,
                     feature_gates=gates).to_dict()
    [error] = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert error["detail"].startswith(f'unknown field "spec.deviceSelector.{field}": resource.k8s.io/{version}')


@pytest.mark.parametrize("selector", [BY_CLASS, BY_CEL])
def test_from_1_35_the_tracker_matches_by_driver_pool_and_device_only(selector):
    # v0.35's tracker reads neither deviceClassName nor selectors (the types lost them): a rule that had
    # only those (stored before an upgrade) selects every device.
    inventory = read_documents(INVENTORY + rule(selector, version="v1alpha3"))
    gates = make_gates({"DRADeviceTaints": True, "DRADeviceTaintRules": True}, "1.35")
    allocator = Allocator(SearchInputs(inventory.of_kind("DeviceClass"), inventory.of_kind("ResourceSlice"),
                                       taint_rules=inventory.of_kind("DeviceTaintRule")), gates)
    [patched] = allocator.slices
    assert [[(t.key, taint_source(t)) for t in d.taints] for d in patched.spec.devices] == [
        [("maintenance", "gpu-maintenance")], [("maintenance", "gpu-maintenance")]]
