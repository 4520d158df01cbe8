"""The synthetic cluster generator: deterministic, valid for our validator, the counts asked for."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import yaml

from allocator.kube.objects import read_documents
from allocator.releases.gates import stored_object_gates
from allocator.synthetic import DEVICE_CLASS, cluster_json, cluster_yaml, node_name, synthetic_cluster
from allocator.validation import validate_documents


def test_the_same_arguments_give_the_same_text_and_another_seed_another():
    assert cluster_yaml(3) == cluster_yaml(3)
    assert cluster_json(3, seed=7) == cluster_json(3, seed=7)
    assert cluster_yaml(3, seed=1) != cluster_yaml(3, seed=2)


def test_yaml_and_json_hold_the_same_list():
    assert yaml.safe_load(cluster_yaml(4)) == json.loads(cluster_json(4)) == synthetic_cluster(4)


def test_counts_one_slice_and_one_node_per_node_and_the_gpus_asked_for():
    data = synthetic_cluster(12, gpus_per_node=3)
    assert (data["apiVersion"], data["kind"]) == ("v1", "List")
    kinds = Counter(item["kind"] for item in data["items"])
    assert kinds["Node"] == 12 and kinds["ResourceSlice"] == 12 and kinds["DeviceClass"] >= 1
    slices = [i for i in data["items"] if i["kind"] == "ResourceSlice"]
    assert sorted(s["spec"]["nodeName"] for s in slices) == [node_name(i) for i in range(12)]
    assert all(len(s["spec"]["devices"]) == 3 for s in slices)
    assert all(s["spec"]["pool"] == {"generation": 1, "name": s["spec"]["nodeName"], "resourceSliceCount": 1}
               for s in slices)
    assert len({i["metadata"]["uid"] for i in data["items"]}) == len(data["items"])


def test_gpus_carry_the_driver_attributes_and_memory():
    [gpu, *_] = next(i for i in synthetic_cluster(1)["items"] if i["kind"] == "ResourceSlice")["spec"]["devices"]
    assert {"productName", "architecture", "driverVersion", "uuid", "index"} <= set(gpu["attributes"])
    assert gpu["capacity"]["memory"]["value"].endswith("Mi")
    assert "version" in gpu["attributes"]["driverVersion"]


def test_the_cluster_reads_and_validates_cleanly():
    text = cluster_yaml(6)
    result = read_documents(text)
    assert result.errors == [] and result.ignored == []
    assert Counter(d.kind for d in result.documents)["ResourceSlice"] == 6
    problems = validate_documents(result, stored_object_gates("1.37"), text)
    assert [str(p) for p in problems] == []
    assert DEVICE_CLASS in {d.name for d in result.documents if d.kind == "DeviceClass"}


def test_the_json_form_reads_the_same_objects():
    from_yaml, from_json = read_documents(cluster_yaml(2)), read_documents(cluster_json(2))
    assert [d.obj for d in from_yaml.documents] == [d.obj for d in from_json.documents]


def test_negative_sizes_are_refused():
    with pytest.raises(ValueError):
        synthetic_cluster(-1)
