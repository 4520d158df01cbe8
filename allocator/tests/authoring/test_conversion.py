"""Objects rewritten in another resource.k8s.io version (allocator.authoring.conversion, ``convert``)."""

from __future__ import annotations

import json

import pytest
import yaml

from allocator.authoring.conversion import convert_text, target_version
from allocator.kube.convert import SERVED_VERSIONS
from allocator.kube.objects import read_documents
from allocator.reading.diagnostics import NOT_SERVED
from allocator.releases.gates import make_gates
from allocator.tests.helpers import SAMPLES as ALL_SAMPLES
from allocator.tests.helpers import cli as run

SAMPLES = ALL_SAMPLES / "inventories"
LATEST = make_gates({}, "1.37")
# A release serving every version: 1.33 with DRA on (v1alpha3, v1beta1, v1beta2); v1 from 1.34.
ALL_BETAS = make_gates({"DynamicResourceAllocation": True}, "1.33")

CLAIM_V1 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-gpus
  labels: {team: ml}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
        capacity:
          requests:
            memory: 10Gi
    constraints:
    - distinctAttribute: gpu.example.com/uuid
      requests: [gpus]
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers: [{name: c, image: registry.example/trainer}]
"""


def _sample_texts():
    for path in sorted(SAMPLES.glob("*.yaml")):
        sample = yaml.safe_load(path.read_text())
        yield path.stem, yaml.safe_dump_all(sample["objects"])


def _typed(text: str) -> list:
    result = read_documents(text)
    assert not result.errors, [str(e) for e in result.errors]
    return [(d.kind, d.obj) for d in result.documents]


@pytest.mark.parametrize("target", SERVED_VERSIONS)
@pytest.mark.parametrize("name,text", list(_sample_texts()))
def test_every_sample_read_in_any_version_is_the_same_objects_unless_a_field_is_named_dropped(name, text, target):
    result = convert_text(text, target, LATEST)
    # The only refusals: a version the release does not serve, or a kind that has no such version at all
    # (DeviceTaintRule has no v1beta1).
    assert all(d.type == NOT_SERVED or "no matches for kind" in d.detail for d in result.errors)
    if any(d.type != NOT_SERVED for d in result.errors):
        return  # such an object cannot be read back in that version at all
    converted = json.dumps({"apiVersion": "v1", "kind": "List", "items": result.objects})
    dropped = {(d.kind, d.name) for d in result.dropped}
    for (kind, before), (kind_after, after) in zip(_typed(text), _typed(converted), strict=True):
        assert kind == kind_after
        if (kind, before.metadata.name) not in dropped:
            assert before == after, f"{name}: {kind} {before.metadata.name} changed in {target}"
    for obj in result.objects:
        if obj["apiVersion"].startswith("resource.k8s.io/"):
            assert obj["apiVersion"] == f"resource.k8s.io/{target}"


@pytest.mark.parametrize("there", SERVED_VERSIONS)
@pytest.mark.parametrize("start", ["v1", "v1beta2", "v1beta1"])
def test_a_round_trip_through_any_version_comes_back_unchanged_when_nothing_is_dropped(start, there):
    text = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: nics, namespace: team-a}
spec:
  devices:
    requests:
    - name: nic
      exactly:
        deviceClassName: nic.example.com
        allocationMode: All
        selectors:
        - cel: {expression: 'device.attributes["nic.example.com"].rdma'}
    - name: gpu
      firstAvailable:
      - {name: big, deviceClassName: gpu.example.com, count: 2}
      - {name: small, deviceClassName: gpu.example.com}
    constraints:
    - matchAttribute: resource.kubernetes.io/pcieRoot
      requests: [nic, gpu]
    config:
    - requests: [nic]
      opaque: {driver: nic.example.com, parameters: {mtu: 9000}}
"""
    first = convert_text(text, start, LATEST)
    assert not first.dropped and not first.errors
    away = convert_text(json.dumps(first.objects[0]), there, LATEST)
    assert not away.dropped
    back = convert_text(json.dumps(away.objects[0]), start, LATEST)
    assert back.objects == first.objects


def test_fields_the_target_lacks_are_named_where_the_user_wrote_them():
    result = convert_text(CLAIM_V1, "v1alpha3", ALL_BETAS)
    assert not result.errors
    assert [(d.kind, d.name, d.field) for d in result.dropped] == [
        ("ResourceClaim", "two-gpus", "spec.devices.requests[0].exactly.capacity"),
        ("ResourceClaim", "two-gpus", "spec.devices.constraints[0].distinctAttribute"),
    ]
    claim = result.objects[0]
    assert claim["spec"]["devices"]["requests"] == [{"name": "gpus", "deviceClassName": "gpu.example.com",
                                                     "count": 2}]
    assert claim["metadata"] == {"name": "two-gpus", "labels": {"team": "ml"}}


def test_a_v1beta1_device_capacity_policy_is_named_at_its_v1beta1_path():
    text = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: gpu-0
    basic:
      capacity:
        memory:
          value: 80Gi
          requestPolicy: {default: 10Gi}
"""
    result = convert_text(text, "v1alpha3", ALL_BETAS)
    assert [d.field for d in result.dropped] == ["spec.devices[0].basic.capacity[memory].requestPolicy"]
    assert result.objects[0]["spec"]["devices"][0]["basic"]["capacity"] == {"memory": "80Gi"}


def test_objects_of_other_groups_are_kept_as_they_are():
    result = convert_text(CLAIM_V1, "v1beta1", LATEST)
    assert result.objects[1] == yaml.safe_load(CLAIM_V1.split("---")[1])
    assert result.objects[0]["apiVersion"] == "resource.k8s.io/v1beta1"
    assert result.objects[0]["spec"]["devices"]["requests"][0]["capacity"] == {"requests": {"memory": "10Gi"}}


def test_a_version_the_release_does_not_serve_is_refused_naming_the_served_ones():
    result = convert_text(CLAIM_V1, "v1alpha3", LATEST)
    assert [d.type for d in result.errors] == [NOT_SERVED]
    assert "resource.k8s.io/v1, resource.k8s.io/v1beta2, resource.k8s.io/v1beta1" in result.errors[0].detail


def test_a_claim_of_a_release_that_no_longer_serves_it_is_converted_out_of_it():
    old = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: two-gpus}
spec:
  devices:
    requests:
    - name: gpus
      deviceClassName: gpu.example.com
      count: 2
"""
    result = convert_text(old, "v1", LATEST)
    assert not result.errors and not result.dropped
    assert result.objects[0]["spec"]["devices"]["requests"] == [
        {"name": "gpus", "exactly": {"deviceClassName": "gpu.example.com", "count": 2}}]


def test_classic_dra_fields_of_1_31_are_named_not_silently_lost():
    text = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: classic}
spec:
  controller: gpu.example.com
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
"""
    result = convert_text(text, "v1", LATEST)
    assert [(d.field, "classic DRA" in d.detail) for d in result.dropped] == [("spec.controller", True)]


def test_unreadable_input_is_an_error_and_nothing_is_converted():
    result = convert_text(CLAIM_V1.replace("count: 2", "count: two"), "v1beta1", LATEST)
    assert result.errors and not result.objects


@pytest.mark.parametrize("given,expected", [("v1beta1", "v1beta1"), ("resource.k8s.io/v1", "v1")])
def test_the_target_is_a_version_or_a_full_api_version(given, expected):
    assert target_version(given) == expected


@pytest.mark.parametrize("given", ["v2", "apps/v1", "resource.k8s.io/v9", ""])
def test_an_unknown_target_names_the_versions(given):
    with pytest.raises(ValueError, match="resource.k8s.io/v1alpha3"):
        target_version(given)


# --------------------------------------------------------------------------- command line


@pytest.fixture
def claim_file(tmp_path):
    path = tmp_path / "claim.yaml"
    path.write_text(CLAIM_V1)
    return str(path)


def test_cli_prints_the_objects_and_exits_0_when_nothing_is_lost(claim_file):
    proc = run("convert", "--to", "v1beta1", claim_file)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["apiVersion"] == "resource.k8s.io/v1beta1" and out["dropped"] == []
    assert [o["kind"] for o in out["items"]] == ["ResourceClaim", "Pod"]


def test_cli_exits_1_and_names_what_the_target_lacks(claim_file):
    proc = run("convert", "--to", "resource.k8s.io/v1alpha3", "--kubernetes-version", "1.33",
               "--feature-gates", "DynamicResourceAllocation=true", claim_file)
    assert proc.returncode == 1, proc.stderr
    out = json.loads(proc.stdout)
    assert [d["field"] for d in out["dropped"]] == ["spec.devices.requests[0].exactly.capacity",
                                                    "spec.devices.constraints[0].distinctAttribute"]


def test_cli_yaml_output_is_documents_to_apply_and_warns_on_stderr(claim_file):
    proc = run("convert", "--to", "v1alpha3", "--kubernetes-version", "1.33",
               "--feature-gates", "DynamicResourceAllocation=true", "-o", "yaml", claim_file)
    assert proc.returncode == 1
    assert [d["kind"] for d in yaml.safe_load_all(proc.stdout)] == ["ResourceClaim", "Pod"]
    assert "warning: ResourceClaim 'two-gpus': spec.devices.constraints[0].distinctAttribute" in proc.stderr
    assert not read_documents(proc.stdout).errors


@pytest.mark.parametrize("args,message", [
    (["--to", "v1alpha3"], "not served by Kubernetes 1.37"),
    (["--to", "v7"], "unknown target version"),
    (["--to", "v1", "--feature-gates", "DRANoSuchGate=true"], "DRANoSuchGate"),
])
def test_cli_exits_2_on_what_cannot_be_done(claim_file, args, message):
    proc = run("convert", *args, claim_file)
    assert proc.returncode == 2
    assert message in proc.stderr and proc.stdout == ""


def test_cli_reads_stdin_and_locates_unreadable_input():
    proc = run("convert", "--to", "v1", "-", stdin="kind: [\n")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: <stdin>:")


LONG_SELECTOR = ("device.attributes['gpu.example.com'].model == 'A100' && "
                 "device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0")
CLAIM_LONG_SELECTOR = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: long
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: {LONG_SELECTOR}
"""


def test_cli_yaml_output_keeps_a_long_expression_on_its_line(tmp_path):
    """A 120-character selector is printed on one line, not folded onto a continuation (issue 36)."""
    path = tmp_path / "long.yaml"
    path.write_text(CLAIM_LONG_SELECTOR)
    proc = run("convert", "--to", "v1beta2", "-o", "yaml", str(path))
    assert proc.returncode == 0, proc.stderr
    assert f"expression: {LONG_SELECTOR}\n" in proc.stdout
