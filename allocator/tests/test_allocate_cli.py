"""``python -m allocator allocate``: the command-line contract of DESIGN.md."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from allocator.tests.helpers import ROOT, cli, write_files
from allocator.tests.helpers.inventory import device_class

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-b}
---
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
""" + device_class('gpu', 'device.driver == "gpu.example.com"', spec='  config: [{opaque: {driver: gpu.example.com, parameters: {mode: shared}}}]\n') + """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-b-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-b, generation: 1, resourceSliceCount: 1}
  nodeName: node-b
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  nodeName: node-a
  devices: [{name: gpu-0}]
"""

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two-gpus}
spec:
  devices:
    requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 2}}]
"""


@pytest.fixture
def files(tmp_path):
    return tuple(write_files(tmp_path, inventory=INVENTORY, claim=CLAIM))


def test_it_prints_the_allocated_claim_and_exits_0(files):
    proc = cli("allocate", "--node", "node-b", *files)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "node-b"
    (claim,) = out["claims"]
    assert claim["apiVersion"] == "resource.k8s.io/v1" and claim["kind"] == "ResourceClaim"
    assert claim["metadata"] == {"name": "two-gpus", "namespace": "default"}
    allocation = claim["status"]["allocation"]
    assert allocation["devices"]["results"] == [
        {"request": "gpus", "driver": "gpu.example.com", "pool": "node-b", "device": "gpu-0"},
        {"request": "gpus", "driver": "gpu.example.com", "pool": "node-b", "device": "gpu-1"},
    ]
    assert allocation["devices"]["config"] == [
        {"source": "FromClass", "opaque": {"driver": "gpu.example.com", "parameters": {"mode": "shared"}}}]
    assert allocation["nodeSelector"] == {"nodeSelectorTerms": [
        {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-b"]}]}]}
    # Defaults the apiserver would store are written out.
    assert claim["spec"]["devices"]["requests"][0]["exactly"]["count"] == 2


def test_it_exits_1_with_the_reason_when_the_node_is_too_small(files):
    proc = cli("allocate", "--node", "node-a", *files)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "cannot allocate the claims on node node-a" in proc.stderr
    assert "request gpus: needs 2 device(s), 1 of 1 in reach match" in proc.stderr


def test_without_node_it_tries_every_node_in_name_order(files):
    proc = cli("allocate", *files)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "node-b"
    assert [n["name"] for n in out["nodes"]] == ["node-a", "node-b"]
    assert out["nodes"][0]["fits"] is False and "needs 2 device(s)" in out["nodes"][0]["reason"]
    assert out["nodes"][1] == {"name": "node-b", "fits": True}
    assert out["claims"][0]["status"]["allocation"]["devices"]["results"][0]["pool"] == "node-b"


def test_no_node_fits_exits_1(files):
    proc = cli("allocate", files[0], "-", stdin=CLAIM.replace("count: 2", "count: 3"))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["node"] is None and out["claims"] == [] and not any(n["fits"] for n in out["nodes"])


def test_stdin_yaml_output_and_lists(files):
    listed = {"apiVersion": "v1", "kind": "List", "items": list(yaml.safe_load_all(INVENTORY + "---" + CLAIM))}
    proc = cli("allocate", "--node=node-b", "-o", "yaml", "-", stdin=json.dumps(listed))
    assert proc.returncode == 0, proc.stderr
    out = yaml.safe_load(proc.stdout)
    assert out["node"] == "node-b" and len(out["claims"][0]["status"]["allocation"]["devices"]["results"]) == 2


# v1alpha3 is served up to 1.32 (with DRA turned on there): the whole input is written for it.
OLD_RELEASE = ("--kubernetes-version", "1.32", "--feature-gates", "DynamicResourceAllocation=true")


@pytest.mark.parametrize("version, release", [("v1beta1", ()), ("v1alpha3", OLD_RELEASE)])
def test_claims_are_printed_in_the_version_they_were_written_in(files, tmp_path, version, release):
    claim = CLAIM.replace("resource.k8s.io/v1", f"resource.k8s.io/{version}").replace(
        "{name: gpus, exactly: {deviceClassName: gpu, count: 2}}", "{name: gpus, deviceClassName: gpu, count: 2}")
    inventory = files[0]
    if release:
        inventory = tmp_path / "inventory.yaml"
        # 1.32's apiserver requires a device's ``basic`` (its one device type then).
        inventory.write_text(INVENTORY.replace("resource.k8s.io/v1\n", f"resource.k8s.io/{version}\n")
                             .replace("{name: gpu-0}", "{name: gpu-0, basic: {}}")
                             .replace("{name: gpu-1}", "{name: gpu-1, basic: {}}"))
    proc = cli("allocate", *release, "--node", "node-b", "-o", "yaml", str(inventory), "-", stdin=claim)
    assert proc.returncode == 0, proc.stderr
    (printed,) = yaml.safe_load(proc.stdout)["claims"]
    assert printed["apiVersion"] == f"resource.k8s.io/{version}"
    assert printed["spec"]["devices"]["requests"] == [{"name": "gpus", "deviceClassName": "gpu", "count": 2}]
    assert [r["device"] for r in printed["status"]["allocation"]["devices"]["results"]] == ["gpu-0", "gpu-1"]
    # What is printed is what that version's apiserver accepts: it reads back without unknown fields.
    again = cli("allocate", *release, "--node", "node-b", str(inventory), "-", stdin=yaml.safe_dump(printed))
    assert again.returncode == 0, again.stderr


def test_errors_exit_2(files, tmp_path):
    assert cli("allocate", "--feature-gates", "NoSuchGate=true", *files).returncode == 2
    broken = tmp_path / "broken.yaml"
    broken.write_text("kind: [")
    proc = cli("allocate", "--node", "node-b", files[0], str(broken))
    assert proc.returncode == 2 and "YAML syntax error" in proc.stderr
    bad_cel = CLAIM.replace("count: 2", "count: 1, selectors: [{cel: {expression: 'device.attributes[\"x\"].y'}}]")
    proc = cli("allocate", "--node", "node-b", files[0], "-", stdin=bad_cel)
    assert proc.returncode == 2
    assert "claim default/two-gpus: selector #0 on device gpu.example.com/node-b/gpu-0: CEL runtime error: no such key: y" \
        in proc.stderr


def test_feature_gates_switch_the_implementation(files):
    sub = CLAIM.replace("requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 2}}]",
                        "requests: [{name: gpus, firstAvailable: [{name: one, deviceClassName: gpu}]}]")
    # Off, the apiserver drops firstAvailable from a claim being created, and the request is left empty.
    proc = cli("allocate", "--node", "node-b", "--feature-gates", "DRAPrioritizedList=false", files[0], "-", stdin=sub)
    assert proc.returncode == 2
    assert "exactly one of `exactly` or `firstAvailable` is required" in proc.stderr
    proc = cli("allocate", "--node", "node-b", files[0], "-", stdin=sub)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["claims"][0]["status"]["allocation"]["devices"]["results"][0]["request"] == "gpus/one"


def test_help_works_without_django():
    proc = subprocess.run([sys.executable, "-c", "import sys\nfrom allocator.__main__ import main\ntry:\n"
                           "    main(['allocate', '--help'])\nexcept SystemExit:\n    pass\n"
                           "print('django' in sys.modules)"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert "Without --node, every node is tried" in proc.stdout
    assert proc.stdout.strip().endswith("False")
    assert cli("--help").returncode == 0


def test_validate_subcommand_is_wired(files):
    proc = cli("validate", "-o", "json", *files)
    assert proc.returncode in (0, 1), proc.stderr
    assert "valid" in json.loads(proc.stdout)


POD_WITH_TEMPLATE = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
---
apiVersion: v1
kind: Pod
metadata: {name: job}
spec:
  resourceClaims: [{name: accel, resourceClaimTemplateName: one-gpu}, {name: pair, resourceClaimName: two-gpus}]
  containers: [{name: main, image: busybox, resources: {claims: [{name: accel}]}}]
"""


def test_pods_and_templates_give_the_pods_claims_in_pod_order(files):
    proc = cli("allocate", "--node", "node-b", "-o", "json", files[0], files[1], "-", stdin=POD_WITH_TEMPLATE)
    assert proc.returncode == 1, proc.stderr  # three GPUs wanted, node-b has two
    fewer = POD_WITH_TEMPLATE.replace(", {name: pair, resourceClaimName: two-gpus}", "")
    proc = cli("allocate", "--node", "node-b", "-o", "json", files[0], "-", stdin=fewer)
    assert proc.returncode == 0, proc.stderr
    (claim,) = json.loads(proc.stdout)["claims"]
    assert claim["metadata"]["name"].startswith("job-accel-")
    assert claim["metadata"]["annotations"] == {"resource.kubernetes.io/pod-claim-name": "accel"}
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == ["gpu-0"]


def test_a_pod_with_a_missing_template_exits_2(files):
    proc = cli("allocate", "--node", "node-b", files[0], "-", stdin=POD_WITH_TEMPLATE.split("---")[1])
    assert proc.returncode == 2 and 'resource claim template "one-gpu" not found' in proc.stderr


def test_objects_the_apiserver_would_reject_exit_2(files):
    invalid = CLAIM.replace("count: 2", "count: -1")
    proc = cli("allocate", "--node", "node-b", files[0], "-", stdin=invalid)
    assert proc.returncode == 2
    assert "spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero" in proc.stderr


# --------------------------------------------------------------------------- input limits


def test_limit_flags_lower_the_limits_and_refusals_name_the_flag(files):
    proc = cli("allocate", "--node", "node-b", "--max-values", "20", *files)
    assert proc.returncode == 2
    assert f"error: {files[0]}:" in proc.stderr
    assert "document too large: more than 20 values; change it with --max-values" in proc.stderr
    proc = cli("allocate", "--node", "node-b", "--max-depth", "3", *files)
    assert proc.returncode == 2 and "more than 3 levels deep; change it with --max-depth" in proc.stderr
    proc = cli("validate", "-o", "text", "--max-input-bytes", "100", *files)
    assert proc.returncode == 2
    size = len(INVENTORY.encode())
    assert f"cannot read {files[0]}: input too large: {size} bytes, more than 100; " \
           "change it with --max-input-bytes" in proc.stdout
    proc = cli("allocate", "--max-input-bytes", "100", files[0], "-", stdin=CLAIM)
    assert proc.returncode == 2 and "<stdin>: input too large: more bytes, more than 100;" in proc.stderr


def test_limit_flags_raise_the_limits(files):
    assert cli("allocate", "--node", "node-b", "--max-values", "100000000000", *files).returncode == 0
    proc = cli("allocate", "--max-values", "0", *files)
    assert proc.returncode == 2 and "--max-values: must be at least 1" in proc.stderr
    assert cli("allocate", "--max-depth", "2k", *files).returncode == 2


def test_hostile_input_is_refused_with_the_default_limits(tmp_path, files):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]) + "\n")
    proc = cli("allocate", files[0], str(bomb))
    assert proc.returncode == 2
    assert "YAML aliases expand to more than 1000000 values (an alias bomb)" in proc.stderr
    assert "; change it with --max-alias-values" in proc.stderr
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"kind: X\nname: \xff\xfe\n")
    proc = cli("validate", str(binary))
    assert proc.returncode == 2 and "not UTF-8 text" in json.loads(proc.stdout)["errors"][0]["detail"]
    binary.write_bytes(b"kind: X\nname: a\x00b\n")
    proc = cli("allocate", str(binary))
    assert proc.returncode == 2 and "binary.yaml:2:8: Parse error: input contains NUL bytes" in proc.stderr


def test_crlf_files_keep_their_positions(tmp_path, files):
    crlf = tmp_path / "crlf.yaml"
    crlf.write_bytes(CLAIM.replace("count: 2", "count: -1").replace("\n", "\r\n").encode())
    proc = cli("validate", "-o", "json", files[0], str(crlf))
    lf = tmp_path / "lf.yaml"
    lf.write_text(CLAIM.replace("count: 2", "count: -1"))
    again = cli("validate", "-o", "json", files[0], str(lf))
    assert proc.returncode == again.returncode == 1
    assert json.loads(proc.stdout) == json.loads(again.stdout)


# A pod's allocated claims pin its node (issue 28, item 3): allocator.tests.helpers.pinning.

def _pinned(tmp_path, **kwargs) -> str:
    from allocator.tests.helpers import pinning
    path = tmp_path / "pinned.yaml"
    path.write_text(pinning.everything(**kwargs))
    return str(path)


@pytest.mark.parametrize("node", [None, "n2"])
def test_allocate_frees_the_pinning_claim_and_retries(tmp_path, node):
    proc = cli("allocate", *(["--node", node] if node else []), _pinned(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "n2"
    assert [(c["metadata"]["name"], [r["device"] for r in c["status"]["allocation"]["devices"]["results"]])
            for c in out["claims"]] == [("a", ["gpu-0"]), ("b", ["gpu-1"])]
    assert out["deallocated"] == ["a"]
    [first] = out["attempts"]
    assert (first["attempt"], first["deallocated"], first["deallocatable"]) == (1, "a", ["a"])
    n2 = next(n for n in first["nodes"] if n["name"] == "n2")
    assert n2 == {"name": "n2", "fits": False, "pinnedBy": ["a"],
                  "reason": "claim default/a is allocated on devices this node cannot use "
                            "(resourceclaim not available on the node)",
                  "schedulerReason": "resourceclaim not available on the node"}
    if node is None:
        assert [n["name"] for n in first["nodes"]] == ["n1", "n2"]
        assert {n["name"]: n["fits"] for n in out["nodes"]} == {"n1": False, "n2": True}


def test_allocate_keeps_a_claim_reserved_for_another_pod(tmp_path):
    path = _pinned(tmp_path, reserved_for="22222222-2222-2222-2222-222222222222")
    proc = cli("allocate", path)
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["node"] is None and "attempts" not in out and "deallocated" not in out
    assert out["nodes"][1]["pinnedBy"] == ["a"]
    assert out["notFreed"] == ["a"]
    assert "n2: claim default/a is allocated on devices this node cannot use" in proc.stderr
    assert "PostFilter frees no claim (still not schedulable): claim a is reserved for another pod" in proc.stderr
    proc = cli("allocate", "--node", "n2", path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("cannot allocate the claims on node n2: claim default/a is allocated on devices")


def test_allocate_without_a_pod_pins_nothing(tmp_path):
    proc = cli("allocate", _pinned(tmp_path, pod=False))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["node"] == "n2" and [c["metadata"]["name"] for c in out["claims"]] == ["b"]
    assert "attempts" not in out and all("pinnedBy" not in n for n in out["nodes"])


MAINTENANCE_RULE = """
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: gpu-maintenance}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-b, device: gpu-1}
  taint: {key: maintenance, value: "true", effect: NoSchedule}
"""


def test_a_device_taint_rule_blocks_its_device_and_the_reason_names_it(tmp_path, files):
    (rule,) = write_files(tmp_path, rule=MAINTENANCE_RULE)
    proc = cli("allocate", "--node", "node-b", *files, rule)
    assert proc.returncode == 1, proc.stderr
    assert ("taint maintenance=true:NoSchedule from DeviceTaintRule gpu-maintenance is not tolerated"
            in proc.stderr)
    # Tolerated, the rule's taint no longer blocks.
    tolerant = CLAIM.replace("count: 2}", "count: 2, tolerations: [{key: maintenance, operator: Exists}]}")
    proc = cli("allocate", "--node", "node-b", files[0], rule, "-", stdin=tolerant)
    assert proc.returncode == 0, proc.stderr


def test_capacity_counts_without_the_device_a_rule_takes_out(tmp_path, files):
    (rule,) = write_files(tmp_path, rule=MAINTENANCE_RULE)
    one = CLAIM.replace("count: 2", "count: 1")
    placed = [json.loads(cli("capacity", files[0], *extra, "-", stdin=one).stdout)["placed"]
              for extra in ((), (rule,))]
    assert placed == [3, 2]  # node-b's gpu-1 is in maintenance


def test_yaml_output_keeps_a_long_selector_on_its_line(files):
    """-o yaml prints a long CEL expression on one line, never folded onto a continuation line (issue 36)."""
    long = 'device.driver == "gpu.example.com" && ' * 4 + "true"
    claim = CLAIM.replace("count: 2}", f"count: 2, selectors: [{{cel: {{expression: '{long}'}}}}]}}")
    proc = cli("allocate", "--node", "node-b", "-o", "yaml", files[0], "-", stdin=claim)
    assert proc.returncode == 0, proc.stderr
    (line,) = [text for text in proc.stdout.splitlines() if "expression:" in text]
    assert yaml.safe_load(line.strip())["expression"] == long
