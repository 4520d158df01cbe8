"""Inventory warnings, the ``validate`` command line, and every gallery sample validating cleanly."""

from __future__ import annotations

import json

import pytest
import yaml

from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.tests.helpers import SAMPLES, cli, write_files
from allocator.tests.helpers.validation import CLAIM, SLICE, fresh
from allocator.validation import inventory_warnings, validate_documents

CLASS = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "foo"},
         "spec": {"selectors": [{"cel": {"expression": "device.driver == 'dra.example.com'"}}]}}


def inventory(n_without_model=1):
    obj = fresh(SLICE)
    devices = [{"name": "dev-0", "attributes": {"model": {"string": "a100"}}}]
    devices += [{"name": f"bare-{i}"} for i in range(n_without_model)]
    obj["spec"]["devices"] = devices
    return [fresh(CLASS), obj]


def claim(expression=None, class_name="foo"):
    obj = fresh(CLAIM)
    exactly = obj["spec"]["devices"]["requests"][0]["exactly"]
    exactly["deviceClassName"] = class_name
    if expression:
        exactly["selectors"] = [{"cel": {"expression": expression}}]
    return obj


def warn(*objs):
    text = yaml.safe_dump_all(list(objs), sort_keys=False)
    result = read_documents(text)
    return [(d.field, d.detail, d.line, d.column) for d in inventory_warnings(result, gates=make_gates(), text=text)]


def test_missing_class():
    (field, detail, _, _), = warn(claim(class_name="nope"), *inventory())
    assert field == "spec.devices.requests[0].exactly.deviceClassName"
    assert "DeviceClass 'nope' is not in the inventory" in detail


def test_no_inventory_no_warnings():
    assert warn(claim(class_name="nope")) == []


def test_runtime_error_names_the_devices():
    got = warn(claim("device.attributes['dra.example.com'].model == 'a100'"), *inventory(2))
    (field, detail, _, _), = got
    assert field == "spec.devices.requests[0].exactly.selectors[0].cel.expression"
    assert "fails at runtime on 2 device(s)" in detail
    assert "which aborts allocation: no such key: model" in detail
    assert detail.endswith("(on dra.example.com/pool/bare-0, dra.example.com/pool/bare-1)")


def hints(*objs):
    text = yaml.safe_dump_all(list(objs), sort_keys=False)
    return [(d.detail, d.hint) for d in inventory_warnings(read_documents(text), gates=make_gates(), text=text)]


def test_one_warning_per_distinct_runtime_error_with_a_did_you_mean():
    got = hints(claim("device.attributes['dra.example.com'].modle == 'a100'"), *inventory(3))
    runtime = [(d, h) for d, h in got if d.startswith("fails at runtime")]
    assert len(runtime) == 1  # four devices, one error
    detail, hint = runtime[0]
    assert "fails at runtime on 4 device(s)" in detail
    assert hint.startswith('did you mean "model"?')
    # The misspelt name is said once: not again as "no device publishes attribute .../modle" with the same hint.
    assert got == runtime


def test_a_misspelt_name_read_safely_is_said_once_as_unpublished():
    got = hints(claim("device.attributes['dra.example.com'].?modle.orValue('') == 'a100'"), *inventory(3))
    [(detail, hint)] = [(d, h) for d, h in got if "modle" in d]
    assert "publishes attribute dra.example.com/modle" in detail and hint.startswith('did you mean "model"?')


def test_a_domain_nobody_publishes_gets_the_nearest_domain():
    got = hints(claim("device.attributes['dra.exmaple.com'].model == 'a100'"), *inventory())
    # One warning (the read fails at runtime), with the nearest domain.
    [(detail, hint)] = got
    assert "no such key: model" in detail
    assert hint == 'no device publishes anything under dra.exmaple.com; did you mean "dra.example.com"?'
    got = hints(claim("device.attributes['dra.exmaple.com'].?model.orValue('') == 'a100'"), *inventory())
    [hint] = [h for d, h in got if "publishes attribute dra.exmaple.com/model" in d]
    assert hint == 'no device publishes anything under dra.exmaple.com; did you mean "dra.example.com"?'


def test_a_malformed_quantity_literal_says_what_a_quantity_looks_like():
    got = hints(claim("device.driver == 'dra.example.com' && quantity('40GB').isInteger()"), *inventory(0))
    [(detail, hint)] = [(d, h) for d, h in got if d.startswith("fails at runtime")]
    assert "quantities must match the regular expression" in detail
    assert hint.startswith("a quantity is a number with an optional suffix")


def test_guarded_selector_is_fine():
    assert warn(claim("has(device.attributes['dra.example.com'].model) && "
                      "device.attributes['dra.example.com'].model == 'a100'"), *inventory()) == []


def test_attribute_nobody_publishes_is_located_in_the_expression():
    got = warn(claim("device.driver == 'x' && device.attributes['dra.example.com'].speed > 1"), *inventory())
    details = [d for _, d, _, _ in got]
    assert any("publishes attribute dra.example.com/speed" in d for d in details)
    assert any("no device in the inventory matches this request" in d for d in details)
    located = [(line, col) for _, d, line, col in got if "publishes" in d]
    text = yaml.safe_dump_all([claim("device.driver == 'x' && device.attributes['dra.example.com'].speed > 1")],
                              sort_keys=False)
    line, col = located[0]
    assert text.splitlines()[line - 1][col - 1:].startswith("device.attributes")


def test_class_matching_nothing():
    obj = fresh(CLASS)
    obj["spec"]["selectors"][0]["cel"]["expression"] = "device.driver == 'other'"
    details = [d for _, d, _, _ in warn(claim(), obj, inventory()[1])]
    assert details == ["no device in the inventory matches this request (class 'foo')"]


# -- CLI -----------------------------------------------------------------------------------

def _cli(args, stdin=None):
    proc = cli("validate", *args, stdin=stdin)
    return proc.returncode, proc.stdout, proc.stderr


def test_cli_valid_json(tmp_path):
    paths = write_files(tmp_path, inv=yaml.safe_dump_all(inventory(0)), claim=yaml.safe_dump(claim()))
    rc, out, _ = _cli(["-o", "json", *paths])
    assert rc == 0
    assert json.loads(out) == {"valid": True, "errors": [], "warnings": []}


def test_cli_invalid_json_shape(tmp_path):
    bad = claim()
    bad["spec"]["devices"]["requests"][0]["exactly"]["count"] = -1
    (path,) = write_files(tmp_path, claim=yaml.safe_dump(bad))
    rc, out, _ = _cli(["-o", "json", path])
    report = json.loads(out)
    assert rc == 1 and report["valid"] is False
    (entry,) = report["errors"]
    assert list(entry) == ["kind", "name", "field", "type", "detail", "line", "column"]
    assert entry["field"] == "spec.devices.requests[0].exactly.count"
    assert entry["type"] == "Invalid value" and entry["detail"] == "must be greater than zero"
    assert (entry["kind"], entry["name"]) == ("ResourceClaim", "foo")
    assert isinstance(entry["line"], int) and isinstance(entry["column"], int)


def test_cli_text(tmp_path):
    bad = claim()
    bad["spec"]["devices"]["requests"][0]["exactly"]["count"] = -1
    (path,) = write_files(tmp_path, claim=yaml.safe_dump(bad, sort_keys=False))
    rc, out, _ = _cli(["-o", "text", path])
    assert rc == 1
    line = out.splitlines()[0]
    assert line.startswith(f"{path}:")
    assert line.endswith('ResourceClaim "foo": spec.devices.requests[0].exactly.count: Invalid value: -1: '
                         "must be greater than zero")


def test_cli_strict_decoding_errors_are_invalid_not_unreadable(tmp_path):
    bad = claim()
    bad["spec"]["devices"]["requests"][0]["exactly"]["cuont"] = 1
    (path,) = write_files(tmp_path, claim=yaml.safe_dump(bad))
    rc, out, _ = _cli([path])
    assert rc == 1
    assert json.loads(out)["errors"][0]["type"] == "Parse error"


def test_cli_unreadable(tmp_path):
    (path,) = write_files(tmp_path, broken="a: [\n")
    rc, out, _ = _cli([path])
    assert rc == 2 and json.loads(out)["valid"] is False
    rc, _, _ = _cli([str(tmp_path / "missing.yaml")])
    assert rc == 2
    rc, _, err = _cli(["--feature-gates=NoSuchGate=true", path])
    assert rc == 2 and "NoSuchGate" in err


def test_cli_stdin_and_gates(tmp_path):
    text = yaml.safe_dump({**claim(), "spec": {"devices": {"requests": [
        {"name": "r", "firstAvailable": [{"name": "a", "deviceClassName": "foo"}]}]}}})
    rc, out, _ = _cli(["-"], stdin=text)
    assert rc == 0, out
    (path,) = write_files(tmp_path, claim=text)
    rc, out, _ = _cli(["--feature-gates=DRAPrioritizedList=false", path])
    assert rc == 1
    assert json.loads(out)["warnings"][0]["type"] == "Warning"


# -- the gallery ---------------------------------------------------------------------------

SAMPLE_EXAMPLES = sorted((SAMPLES / "examples").glob("*.yaml"))


@pytest.mark.parametrize("sample", SAMPLE_EXAMPLES, ids=lambda p: p.stem)
def test_gallery_samples_are_valid(sample):
    example = yaml.safe_load(sample.read_text())
    gates = make_gates(example.get("featureGates") or {}, str(example.get("kubernetesVersion", "1.37")))
    texts = [example["documents"]]
    if example.get("inventory"):
        inv = yaml.safe_load((sample.parent.parent / "inventories" / f"{example['inventory']}.yaml").read_text())
        texts.append(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": inv["objects"]}))
    # An example may show an invalid claim on purpose (the 1.33 side of an upgrade): only that error is allowed.
    shown = (example.get("expect") or {}).get("error")
    for text in texts:
        result = read_documents(text)
        problems = [d.message() for d in validate_documents(result, gates, text) if d.severity == "error"]
        assert [p for p in problems if not (shown and shown in p)] == []


def test_runtime_errors_of_several_selectors_come_in_the_order_a_device_by_device_walk_meets_them():
    """Selector #1 fails on the first device, selector #0 only on a later one: #1's warning comes first,
    as when each device is tried with its selectors in turn."""
    slice_ = fresh(SLICE)
    slice_["spec"]["devices"] = [{"name": "dev-0", "attributes": {"a": {"int": 1}}},
                                 {"name": "dev-1", "attributes": {"b": {"int": 1}}}]
    obj = claim()
    obj["spec"]["devices"]["requests"][0]["exactly"]["selectors"] = [
        {"cel": {"expression": "device.attributes['dra.example.com'].a == 1"}},
        {"cel": {"expression": "device.attributes['dra.example.com'].b == 1"}}]
    runtime = [(field, detail) for field, detail, _, _ in warn(obj, fresh(CLASS), slice_)
               if "fails at runtime" in detail]
    assert [field[-len("selectors[0].cel.expression"):] for field, _ in runtime] == [
        "selectors[1].cel.expression", "selectors[0].cel.expression"]
    assert "no such key: b" in runtime[0][1] and "(on dra.example.com/pool/dev-0)" in runtime[0][1]
    assert "no such key: a" in runtime[1][1] and "(on dra.example.com/pool/dev-1)" in runtime[1][1]
