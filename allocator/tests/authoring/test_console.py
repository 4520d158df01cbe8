"""A CEL expression on one device (allocator.authoring.console, ``eval``): values, types, parts, cost."""

from __future__ import annotations

import json

import pytest

from allocator.allocation.inputs import SearchInputs
from allocator.authoring.console import DeviceNotFound, DeviceRef, evaluate, find_device
from allocator.kube import model
from allocator.releases.gates import make_gates
from allocator.tests.data.cel_corpus import CORPUS
from allocator.tests.helpers import cli as run
from allocator.tests.helpers.cel_corpus import DRV, corpus_devices

# The corpus's verdicts assume list-type attributes on (the allocator's 1.37 environment).
GATES = make_gates({"DRAListTypeAttributes": True}, "1.37")


def _device(which: str) -> model.Device:
    attributes, capacity = corpus_devices()[which]
    return model.Device(name=which, attributes=attributes, capacity=capacity)


@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_the_console_gives_the_corpus_verdicts(index):
    which, expression, expected = CORPUS[index]
    answer = evaluate(expression, _device(which), DRV, GATES)
    diagnostics = answer["diagnostics"]
    if isinstance(expected, str) and ("must evaluate to bool" in expected or "converted to bool" in expected):
        # A selector must be a bool; the console shows a value of any type.
        assert diagnostics == [] and answer["type"] != "bool", expression
    elif isinstance(expected, tuple):
        assert answer["cost"]["estimated"] == expected[1]
    elif isinstance(expected, str) and expected.startswith("compile:"):
        assert [d["phase"] for d in diagnostics] == ["compile"]
        assert expected[len("compile:"):] in diagnostics[0]["message"]
    elif isinstance(expected, str):
        assert [d["phase"] for d in diagnostics] == ["runtime"], expression
        assert expected[1:] in diagnostics[0]["message"]
        assert answer["value"] is None and answer["type"] is None
    else:
        assert diagnostics == [], expression
        assert (answer["value"], answer["type"]) == (json.dumps(expected), "bool"), expression


def _parts(part):
    yield part
    for child in part["children"]:
        yield from _parts(child)


@pytest.mark.parametrize("index", range(0, len(CORPUS), 3))
def test_each_part_has_the_value_of_its_own_text_evaluated_alone(index):
    which, expression, _ = CORPUS[index]
    answer = evaluate(expression, _device(which), DRV, GATES)
    if not answer["parts"]:
        return
    [root] = answer["parts"]
    assert expression[:root["start"]].strip("( ") == "" and expression[root["end"]:].strip(") ") == ""
    for part in _parts(root):
        assert part["text"] == expression[part["start"]:part["end"]]
        if part["perElement"]:
            assert part["value"] is None and part["error"] is None
            continue
        alone = evaluate(part["text"], _device(which), DRV, GATES)
        if alone["diagnostics"] and alone["diagnostics"][0]["phase"] == "compile":
            continue  # not an expression on its own (a bound variable's use, a macro's variable)
        if part["error"] is not None:
            assert part["error"] in alone["diagnostics"][0]["message"], part["text"]
        else:
            assert (part["value"], part["type"]) == (alone["value"], alone["type"]), part["text"]


@pytest.mark.parametrize("expression,value,type_", [
    ('device.capacity["x.example.com"].mem', "1Gi", "kubernetes.Quantity"),
    ('device.attributes["x.example.com"].v', "1.2.3 (version)", "kubernetes.Semver"),
    ('device.attributes["x.example.com"].s + "def"', '"abcdef"', "string"),
    ('device.attributes["x.example.com"].ints.map(i, i * 2)', "[2, 4, 6]", "list"),
    ('{"a": 1}', '{"a": 1}', "map"),
    ("1.5 * 2.0", "3.0", "double"),
    ("device.driver.size()", "13", "int"),
])
def test_values_of_any_type_are_written_as_cel_writes_them(expression, value, type_):
    answer = evaluate(expression, _device("full"), DRV, GATES)
    assert answer["diagnostics"] == []
    assert (answer["value"], answer["type"]) == (value, type_)


def test_a_macro_body_is_marked_as_valued_per_element():
    answer = evaluate("[1, 2].exists(x, x > 1)", _device("full"), DRV, GATES)
    [root] = answer["parts"]
    body = next(p for p in _parts(root) if p["text"] == "x > 1")
    assert body["perElement"] and body["staticType"] == "bool"
    assert root["value"] == "true"


def test_the_release_and_gates_decide_the_environment():
    expression = 'device.attributes["x.example.com"].ints.includes(2)'
    assert evaluate(expression, _device("full"), DRV, GATES)["value"] == "true"
    off = evaluate(expression, _device("full"), DRV, make_gates({}, "1.37"))
    assert off["diagnostics"][0]["phase"] == "compile"
    assert "includes" in off["diagnostics"][0]["message"]


def test_an_expression_over_the_cost_limit_is_refused_with_the_estimate_explained():
    items = "[" + ", ".join(["1"] * 100) + "]"
    expression = f"{items}.all(a, {items}.all(b, {items}.all(c, true)))"
    answer = evaluate(expression, _device("full"), DRV, GATES)
    assert [d["phase"] for d in answer["diagnostics"]] == ["compile"]
    assert "cost limit" in answer["diagnostics"][0]["message"]
    assert answer["diagnostics"][0]["hint"]


def test_a_compile_error_carries_the_caret_diagram():
    answer = evaluate("device.driver ==", _device("full"), DRV, GATES)
    message = answer["diagnostics"][0]["message"]
    assert message.startswith("ERROR: <input>:1:")
    assert "\n | device.driver ==\n | " in message
    assert answer["parts"] == [] and answer["cost"]["estimated"] is None


def test_a_huge_tree_is_cut():
    expression = "[" + ", ".join(["1"] * 400) + "].size()"
    answer = evaluate(expression, _device("full"), DRV, GATES)
    assert answer["value"] == "400" and answer["truncated"]
    assert sum(1 for _ in _parts(answer["parts"][0])) <= 200


SLICES = [model.ResourceSlice(metadata=model.ObjectMeta(name="s"), spec=model.ResourceSliceSpec(
    driver="gpu.example.com", pool=model.ResourcePool(name="node/a", resource_slice_count=1),
    devices=[model.Device(name="gpu-0"), model.Device(name="gpu-1")]))]


def test_a_device_is_driver_pool_device_and_the_pool_may_hold_slashes():
    ref = DeviceRef.parse("gpu.example.com/node/a/gpu-1")
    assert ref == DeviceRef("gpu.example.com", "node/a", "gpu-1")
    assert find_device(SLICES, ref).name == "gpu-1"
    with pytest.raises(ValueError, match="DRIVER/POOL/DEVICE"):
        DeviceRef.parse("gpu-0")


@pytest.mark.parametrize("ref,message", [
    ("gpu.example.com/node/a/gpu-9", "has no device 'gpu-9'; it has gpu-0, gpu-1"),
    ("gpu.example.com/other/gpu-0", "has no pool 'other'; its pools are node/a"),
    ("nic.example.com/node/a/gpu-0", "no ResourceSlice of driver 'nic.example.com'"),
])
def test_a_device_not_there_says_what_is(ref, message):
    with pytest.raises(DeviceNotFound, match=message):
        find_device(SLICES, DeviceRef.parse(ref))


# --------------------------------------------------------------------------- command line

INVENTORY = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: H100}
    capacity:
      memory: {value: 80Gi}
"""


@pytest.fixture
def inventory(tmp_path):
    path = tmp_path / "inventory.yaml"
    path.write_text(INVENTORY)
    return str(path)


def test_cli_prints_the_value_and_exits_0(inventory):
    proc = run("eval", "--device", "gpu.example.com/node-1/gpu-0", 'device.capacity["gpu.example.com"].memory',
               inventory)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["value"], out["type"]) == ("80Gi", "kubernetes.Quantity")
    assert out["device"] == {"driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"}
    assert out["cost"]["limit"] == 1_000_000 and out["parts"][0]["text"] == out["expression"]


def test_cli_exits_1_with_the_runtime_error(inventory):
    proc = run("eval", "--device", "gpu.example.com/node-1/gpu-0", 'device.attributes["gpu.example.com"].uuid',
               inventory)
    assert proc.returncode == 1
    assert "no such key: uuid" in json.loads(proc.stdout)["diagnostics"][0]["message"]


@pytest.mark.parametrize("device,message", [
    ("gpu.example.com/node-1/gpu-7", "has no device 'gpu-7'"),
    ("gpu-0", "DRIVER/POOL/DEVICE"),
])
def test_cli_exits_2_when_there_is_no_such_device(inventory, device, message):
    proc = run("eval", "--device", device, "true", inventory)
    assert proc.returncode == 2 and message in proc.stderr and proc.stdout == ""


def test_the_class_environment_is_the_one_the_allocator_compiles_class_selectors_in():
    from allocator.allocation.allocator import Allocator
    from allocator.authoring.console import class_environment
    from allocator.releases.gates import make_gates

    for release, expected in (("1.36", False), ("1.37", True)):
        gates = make_gates({"DRAConsumableCapacity": False}, release)
        env = class_environment(gates)
        assert env.values["DRAConsumableCapacity"] is expected
        assert env.release == release
        allocator = Allocator(SearchInputs(), gates)
        assert ("DRAConsumableCapacity" in allocator.selectors.gates) is expected
