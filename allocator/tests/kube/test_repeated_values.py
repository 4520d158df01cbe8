"""Attribute and capacity values repeated across devices are decoded and checked once, with the same answers.

A cluster's devices repeat the same names and values, so the decoder shares
one object per distinct flat value (``decode._shared_values``) and the
validation checks each distinct (name, value) once
(``validation.slices._plain_and_valid``). Neither may hide an error, confuse
values JSON tells apart (1, 1.0, true, "1"), or change what is reported where.
"""

from __future__ import annotations

import json

import pytest

from allocator.kube import decode
from allocator.tests.helpers import read_uncached
from allocator.tests.helpers.validation import SLICE, errors, fresh


def _slice(devices: list[dict]) -> dict:
    obj = fresh(SLICE)
    obj["spec"]["devices"] = devices
    return obj


def _read(obj: dict, fast: bool = True):
    return read_uncached(json.dumps(obj), fast)


def _device(name: str, attributes: dict, capacity: dict | None = None) -> dict:
    return {"name": name, "attributes": attributes, "capacity": capacity or {"memory": {"value": "80Gi"}}}


def test_equal_values_are_one_shared_object_and_decode_as_before():
    devices = [_device(f"dev-{i}", {"model": {"string": "a100"}, "index": {"int": i % 2}}) for i in range(4)]
    result = _read(_slice(devices))
    assert not result.errors
    decoded = result.documents[0].obj.spec.devices
    assert decoded[0].attributes["model"] is decoded[3].attributes["model"]
    assert decoded[0].capacity["memory"] is decoded[1].capacity["memory"]
    assert [d.attributes["index"].int for d in decoded] == [0, 1, 0, 1]
    positioned = _read(_slice(devices), fast=False).documents[0].obj
    assert positioned == result.documents[0].obj


@pytest.mark.parametrize("first, second, error", [
    ({"int": 1}, {"int": True}, "cannot decode boolean into field spec.devices[1].attributes[a].int of type integer"),
    ({"string": "1"}, {"string": 1}, "cannot decode number into field spec.devices[1].attributes[a].string"),
    ({"int": 1}, {"int": 2**63}, "out of range for a 64-bit integer"),
])
def test_a_value_that_equals_a_decoded_one_but_is_of_another_type_still_fails(first, second, error):
    result = _read(_slice([_device("dev-0", {"a": first}), _device("dev-1", {"a": second})]))
    assert [e.field for e in result.errors] == [f"spec.devices[1].attributes[a].{next(iter(second))}"]
    assert error in result.errors[0].detail


def test_the_same_bad_value_on_every_device_is_reported_on_every_device():
    result = _read(_slice([_device(f"dev-{i}", {"a": {"int": "x"}}) for i in range(3)]))
    assert [e.field for e in result.errors] == [f"spec.devices[{i}].attributes[a].int" for i in range(3)]


def test_an_int_written_as_a_whole_float_decodes_to_the_int_either_way():
    result = _read(_slice([_device("dev-0", {"a": {"int": 1.0}}), _device("dev-1", {"a": {"int": 1}})]))
    assert not result.errors
    assert [type(d.attributes["a"].int) for d in result.documents[0].obj.spec.devices] == [int, int]


def test_the_memory_of_shared_values_is_bounded(monkeypatch):
    monkeypatch.setattr(decode, "_SHARED_VALUES_MAX", 3)
    decode._SHARED_VALUES.clear()
    _read(_slice([_device(f"dev-{i}", {"a": {"int": i}}) for i in range(10)]))
    assert len(decode._SHARED_VALUES) <= 3


@pytest.mark.parametrize("bad, message", [
    ({"version": "1.2"}, "spec.devices[1].attributes[v].version: Invalid value: \"1.2\": must be a string "
                         "compatible with semver.org spec 2.0.0"),
    ({"string": "x" * 65}, "spec.devices[1].attributes[v].string: Too long: may not be more than 64 bytes"),
    ({}, "spec.devices[1].attributes[v]: Invalid value: \"\": exactly one value must be specified"),
])
def test_validation_reports_a_bad_attribute_after_good_ones_of_the_same_name(bad, message):
    good = {"version": "1.2.3"} if "version" in bad else {"string": "fine"}
    obj = _slice([_device("dev-0", {"v": good}), _device("dev-1", {"v": bad}), _device("dev-2", {"v": good})])
    assert errors(obj) == [message]


def test_validation_reports_the_same_bad_value_on_every_device():
    obj = _slice([_device(f"dev-{i}", {"Bad Name": {"string": "x"}}) for i in range(2)])
    found = errors(obj)
    assert len(found) == 2
    assert [f.split(":")[0] for f in found] == ["spec.devices[0].attributes", "spec.devices[1].attributes"]


def test_validation_reports_a_bad_capacity_and_a_policy_without_multiple_allocations():
    obj = _slice([_device("dev-0", {}, {"mem": {"value": "80Gi"}}), _device("dev-1", {}, {"mem": {"value": "80 Gi"}}),
                  _device("dev-2", {}, {"mem": {"value": "80Gi", "requestPolicy": {"default": "1Gi"}}})])
    found = errors(obj)
    assert len(found) == 2
    assert found[0].startswith("spec.devices[1].capacity[mem].value")
    assert found[1].startswith("spec.devices[2].capacity[mem].requestPolicy: Forbidden")


def test_validation_checks_each_distinct_value_once():
    from allocator.validation import slices

    slices._valid_scalar_attribute.cache_clear()
    obj = _slice([_device(f"dev-{i}", {"driverVersion": {"version": "1.2.3"}, "index": {"int": i}}) for i in range(6)])
    assert errors(obj) == []
    info = slices._valid_scalar_attribute.cache_info()
    assert (info.misses, info.hits) == (7, 5)  # "1.2.3" once, each index once (text is checked without this memory)
