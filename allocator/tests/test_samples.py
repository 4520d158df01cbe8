"""The sample inventories and the example gallery in playground/samples/.

Every file must parse and carry its keys; every inventory must read and
validate cleanly; every example's expected outcome is checked by running the
real command line (``python -m allocator allocate -o json``) on the
inventory plus the example's documents, as a user would.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter, defaultdict
from pathlib import Path

import pytest
import yaml

from allocator.kube.objects import read_documents
from allocator.releases.gates import CURRENT_RELEASE, make_gates
from allocator.tests.helpers import ROOT, SAMPLES, cli
from allocator.tests.helpers.samples import inventory_text

INVENTORY_DIR = SAMPLES / "inventories"
EXAMPLE_DIR = SAMPLES / "examples"

INVENTORY_KEYS = {"slug", "title", "description", "provenance", "license", "kubernetesVersion", "features", "objects"}
EXAMPLE_KEYS = {"slug", "title", "description", "inventory", "features", "node", "featureGates",
                "kubernetesVersion", "documents", "expect"}
COMPARE_KEYS = {"kubernetesVersion", "featureGates", "node", "inventory"}
INVENTORY_KINDS = {"Node", "DeviceClass", "ResourceSlice", "DeviceTaintRule"}
SLUG = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
DEVICE_REF = re.compile(r"^[^/]+/[^/]+$")  # pool/device

INVENTORY_FILES = sorted(INVENTORY_DIR.glob("*.yaml"))
EXAMPLE_FILES = sorted(EXAMPLE_DIR.glob("*.yaml"))


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def _inventory_text(inventory: dict) -> str:
    return yaml.safe_dump_all(inventory["objects"], sort_keys=False)


def _example_text(example: dict) -> str:
    """What the playground evaluates: the inventory's objects, then the editor's documents."""
    return inventory_text(example["inventory"]) + "---\n" + example["documents"]


def _ids(paths):
    return [p.stem for p in paths]


# --------------------------------------------------------------------------- (a) files and keys


def test_there_are_samples():
    assert len(INVENTORY_FILES) >= 10
    assert len(EXAMPLE_FILES) >= 16


@pytest.mark.parametrize("path", INVENTORY_FILES, ids=_ids(INVENTORY_FILES))
def test_inventory_file_has_the_required_keys(path):
    inv = _load(path)
    assert isinstance(inv, dict)
    assert INVENTORY_KEYS <= set(inv), f"missing keys: {INVENTORY_KEYS - set(inv)}"
    assert inv["slug"] == path.stem
    assert SLUG.match(inv["slug"])
    for key in ("title", "description", "provenance", "license"):
        assert isinstance(inv[key], str) and inv[key].strip(), key
    assert isinstance(inv["kubernetesVersion"], str)
    assert isinstance(inv["features"], list) and inv["features"]
    assert all(isinstance(f, str) and SLUG.match(f) for f in inv["features"])
    assert isinstance(inv["objects"], list) and inv["objects"]
    kinds = Counter(obj.get("kind") for obj in inv["objects"])
    assert set(kinds) <= INVENTORY_KINDS, f"unexpected kinds {set(kinds) - INVENTORY_KINDS}"
    assert kinds["Node"] >= 1 and kinds["DeviceClass"] >= 1 and kinds["ResourceSlice"] >= 1


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=_ids(EXAMPLE_FILES))
def test_example_file_has_the_required_keys(path):
    ex = _load(path)
    assert isinstance(ex, dict)
    assert EXAMPLE_KEYS <= set(ex), f"missing keys: {EXAMPLE_KEYS - set(ex)}"
    assert ex["slug"] == path.stem
    assert SLUG.match(ex["slug"])
    for key in ("title", "description", "documents"):
        assert isinstance(ex[key], str) and ex[key].strip(), key
    assert isinstance(ex["features"], list) and ex["features"]
    assert all(isinstance(f, str) and SLUG.match(f) for f in ex["features"])
    assert ex["node"] is None or isinstance(ex["node"], str)
    assert isinstance(ex["featureGates"], dict)
    make_gates(ex["featureGates"], release=ex["kubernetesVersion"])  # known gates, boolean values
    expect = ex["expect"]
    assert isinstance(expect, dict)
    if "error" in expect:
        assert isinstance(expect["error"], str) and expect["error"]
        assert expect.get("allocated") in (None, False)
    else:
        assert isinstance(expect.get("allocated"), bool)
    if expect.get("allocated"):
        assert isinstance(expect.get("node"), str)
        assert isinstance(expect.get("devices"), dict) and expect["devices"]
        for claim, requests in expect["devices"].items():
            assert isinstance(requests, dict) and requests, claim
            for request, devices in requests.items():
                assert isinstance(devices, list) and devices, (claim, request)
                assert all(DEVICE_REF.match(d) for d in devices), (claim, request, devices)
    for container, devices in (expect.get("containers") or {}).items():
        assert re.match(r"^[^/]+/[^/]+$", container), container  # pod/container
        assert all(DEVICE_REF.match(d) for d in devices), (container, devices)
    # A comparison example: the right column's settings, and its outcome in the shape of `expect`.
    assert ("compare" in ex) == ("expectCompare" in ex)
    if "compare" in ex:
        compare = ex["compare"]
        assert isinstance(compare, dict) and compare
        assert set(compare) <= COMPARE_KEYS, f"unknown compare keys {set(compare) - COMPARE_KEYS}"
        make_gates(compare.get("featureGates") or {}, release=compare.get("kubernetesVersion", ex["kubernetesVersion"]))
        if "inventory" in compare:
            assert (INVENTORY_DIR / f"{compare['inventory']}.yaml").exists(), compare["inventory"]
        assert isinstance(ex["expectCompare"], dict)
    if "alternatives" in ex:
        assert isinstance(ex["alternatives"], int) and 1 <= ex["alternatives"] <= 100
        for grant in ex.get("expectAlternatives") or []:
            assert all(DEVICE_REF.match(d) for d in grant), grant


@pytest.mark.parametrize("path", INVENTORY_FILES, ids=_ids(INVENTORY_FILES))
def test_inventory_opens_with_a_starter_example_that_allocates_on_it(path):
    """Picking the inventory in the editor puts its starter's documents in: they must fit it as they are."""
    inv = _load(path)
    starter = EXAMPLE_DIR / f"{inv.get('starter')}.yaml"
    assert starter.exists(), f"starter {inv.get('starter')!r} is not an example"
    example = _load(starter)
    assert example["inventory"] == inv["slug"]
    # The editor keeps its node, release and gates: the starter must allocate with the defaults. An inventory
    # in an older release's form (nvidia-mig-1-33) is refused by the current release whatever it opens with:
    # its starter carries the gates its own release needs.
    assert example["node"] is None
    assert example["featureGates"] == {} or inv["kubernetesVersion"] != CURRENT_RELEASE
    assert example["kubernetesVersion"] == inv["kubernetesVersion"]
    assert example["expect"].get("allocated") is True  # test_example_outcome checks that it does


def test_slugs_are_unique_and_match_file_names():
    for files in (INVENTORY_FILES, EXAMPLE_FILES):
        slugs = [_load(p)["slug"] for p in files]
        assert len(slugs) == len(set(slugs))
        assert slugs == [p.stem for p in files]


def test_every_example_uses_an_existing_inventory():
    inventories = {p.stem for p in INVENTORY_FILES}
    for path in EXAMPLE_FILES:
        assert _load(path)["inventory"] in inventories, path.name


def test_the_gallery_covers_every_dra_feature():
    features = set()
    for path in EXAMPLE_FILES:
        features.update(_load(path)["features"])
    wanted = {"count", "all", "cel-quantity", "cel-semver", "match-attribute", "config", "admin-access",
              "prioritized-list", "partitionable-devices", "device-taints", "tolerations", "consumable-capacity",
              "network-attached", "resource-claim-template", "per-container", "unsatisfiable", "cel-runtime-error"}
    assert wanted <= features, f"no example for {wanted - features}"


# --------------------------------------------------------------------------- (b) inventories read cleanly


@pytest.mark.parametrize("path", INVENTORY_FILES, ids=_ids(INVENTORY_FILES))
def test_inventory_objects_read_without_errors(path):
    inv = _load(path)
    result = read_documents(_inventory_text(inv))
    assert result.errors == []
    assert result.ignored == []
    assert len(result.documents) == len(inv["objects"])


@pytest.mark.parametrize("path", INVENTORY_FILES, ids=_ids(INVENTORY_FILES))
def test_inventory_pools_are_complete_and_consistent(path):
    result = read_documents(_inventory_text(_load(path)))
    nodes = {n.metadata.name for n in result.of_kind("Node")}
    classes = result.of_kind("DeviceClass")
    pools = defaultdict(list)
    for s in result.of_kind("ResourceSlice"):
        pools[(s.spec.driver, s.spec.pool.name)].append(s)
        if s.spec.node_name is not None:
            assert s.spec.node_name in nodes, f"slice {s.metadata.name}: no Node {s.spec.node_name}"
    for (driver, pool), members in pools.items():
        assert {s.spec.pool.generation for s in members} == {members[0].spec.pool.generation}, pool
        assert {s.spec.pool.resource_slice_count for s in members} == {len(members)}, pool
        names = [d.name for s in members for d in s.spec.devices]
        assert len(names) == len(set(names)), f"duplicate device names in pool {pool}"
        # every driver has a class that names it
        assert any(driver in sel.cel.expression for c in classes for sel in c.spec.selectors if sel.cel), driver


# --------------------------------------------------------------------------- (d) inventories and examples validate


def _validation_errors(text: str, gates) -> list:
    from allocator.validation import validate_documents

    result = read_documents(text)
    return [d for d in validate_documents(result, gates, text) if getattr(d, "severity", "error") != "warning"]


@pytest.mark.parametrize("path", INVENTORY_FILES, ids=_ids(INVENTORY_FILES))
def test_inventory_objects_are_valid(path):
    inv = _load(path)
    errors = _validation_errors(_inventory_text(inv), make_gates(release=inv["kubernetesVersion"]))
    assert errors == []


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=_ids(EXAMPLE_FILES))
def test_example_documents_are_valid(path):
    ex = _load(path)
    errors = _validation_errors(_example_text(ex), make_gates(ex["featureGates"], release=ex["kubernetesVersion"]))
    if errors and "error" in ex["expect"]:  # an example of what the apiserver refuses (an upgrade's old side)
        assert any(ex["expect"]["error"] in str(e) for e in errors), errors
        return
    assert errors == []


# --------------------------------------------------------------------------- (c) expected outcomes, via the CLI


def _cli_available() -> bool:
    return (ROOT / "allocator" / "__main__.py").exists()


def _run_allocate(example: dict, tmp_path: Path) -> subprocess.CompletedProcess:
    file = tmp_path / f"{example['slug']}.yaml"
    file.write_text(_example_text(example), encoding="utf-8")
    cmd = ["allocate", "-o", "json"]
    if example["node"]:
        cmd += ["--node", example["node"]]
    if example["featureGates"]:
        gates = ",".join(f"{k}={str(v).lower()}" for k, v in example["featureGates"].items())
        cmd += ["--feature-gates", gates]
    cmd.append(str(file))
    return cli(*cmd)


def _find_claim(claims: list[dict], key: str) -> dict:
    """A claim by name, or (for claims generated from templates) by generateName."""
    for claim in claims:
        meta = claim.get("metadata", {})
        if meta.get("name") == key or meta.get("generateName") == key:
            return claim
    names = [c.get("metadata", {}).get("name") for c in claims]
    raise AssertionError(f"claim {key!r} not in the output (claims: {names})")


def _devices_by_request(claim: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for result in claim["status"]["allocation"]["devices"]["results"]:
        out[result["request"]].append(f"{result['pool']}/{result['device']}")
    return dict(out)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=_ids(EXAMPLE_FILES))
def test_example_outcome(path, tmp_path):
    if not _cli_available():
        pytest.skip("allocator CLI not available yet")
    example = _load(path)
    if example["kubernetesVersion"] != CURRENT_RELEASE:
        pytest.skip("the command line allocates as the current release; "
                    "playground/tests/test_samples_outcomes.py checks this example on the engine")
    expect = example["expect"]
    proc = _run_allocate(example, tmp_path)
    report = f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"

    if "error" in expect:
        assert proc.returncode == 2, report
        assert expect["error"] in proc.stdout + proc.stderr, report
        return
    if not expect["allocated"]:
        assert proc.returncode == 1, report
        return

    assert proc.returncode == 0, report
    out = json.loads(proc.stdout)
    assert out["node"] == expect["node"], report
    for claim_key, requests in expect["devices"].items():
        claim = _find_claim(out["claims"], claim_key)
        assert _devices_by_request(claim) == requests, f"claim {claim_key}\n{report}"
    for claim_key, configs in (expect.get("config") or {}).items():
        claim = _find_claim(out["claims"], claim_key)
        got = [{"source": c["source"], "requests": c.get("requests", [])}
               for c in claim["status"]["allocation"]["devices"].get("config", [])]
        assert got == configs, f"claim {claim_key}\n{report}"
