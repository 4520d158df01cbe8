"""Shared helpers for the validation tests, and the name-format messages of apimachinery."""

from __future__ import annotations

import copy

import pytest
import yaml

from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.validation import names, validate_documents

LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
             "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
             "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                 "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                 "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
CIDENT_MSG = ("a valid C identifier must start with alphabetic character or '_', followed by a string of "
              "alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
              "validation is '[A-Za-z_][A-Za-z0-9_]*')")
LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                   "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                   "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")
QUALIFIED_NAME_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                      "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
                      "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")
BAD_NAME = "!@#$%^"

CLAIM = {
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
    "metadata": {"name": "foo", "namespace": "ns"},
    "spec": {"devices": {"requests": [{"name": "foo", "exactly": {"deviceClassName": "foo"}}]}},
}
CLASS = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "foo"}, "spec": {}}
SLICE = {
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "foo"},
    "spec": {"driver": "dra.example.com", "nodeName": "worker", "pool": {"name": "pool", "resourceSliceCount": 1},
             "devices": [{"name": "dev-0", "attributes": {"model": {"string": "a100"}},
                          "capacity": {"memory": {"value": "80Gi"}}}]},
}


def fresh(obj: dict) -> dict:
    return copy.deepcopy(obj)


def diagnostics(*objs, gates=None, text=None):
    text = text if text is not None else yaml.safe_dump_all(list(objs), sort_keys=False)
    result = read_documents(text)
    assert not result.errors, [str(e) for e in result.errors]
    return validate_documents(result, gates or make_gates(), text)


def errors(*objs, gates=None, text=None) -> list[str]:
    return [d.message() for d in diagnostics(*objs, gates=gates, text=text) if d.severity == "error"]


def warnings(*objs, gates=None, text=None) -> list[str]:
    return [d.message() for d in diagnostics(*objs, gates=gates, text=text) if d.severity == "warning"]


def gates(**values):
    # The validation of a gate that is off, whatever release locks it on.
    return make_gates(values, locks=False)


@pytest.mark.parametrize(("value", "expected"), [
    ("my-name", []),
    ("a" * 63, []),
    ("a" * 64, ["must be no more than 63 characters"]),
    ("a.b", ["must not contain dots"]),
    ("", [LABEL_MSG]),
    ("Foo", [LABEL_MSG]),
])
def test_dns_label(value, expected):
    assert names.is_dns1123_label(value) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("example.com", []),
    ("a" * 253, []),
    ("a" * 254, ["must be no more than 253 characters"]),
    ("-x", [SUBDOMAIN_MSG]),
])
def test_dns_subdomain(value, expected):
    assert names.is_dns1123_subdomain(value) == expected


def test_qualified_name_messages():
    assert names.is_qualified_name("example.com/MyName") == []
    assert names.is_qualified_name("/x") == ["prefix part must be non-empty"]
    assert names.is_qualified_name("x/") == ["name part must be non-empty", QUALIFIED_NAME_MSG]
    assert names.is_qualified_name("a/b/c")[0].startswith("a qualified name must consist of")
    assert names.is_qualified_name("a" * 64) == ["name part must be no more than 63 characters"]


def test_label_value_and_c_identifier():
    assert names.is_valid_label_value("") == []
    assert names.is_valid_label_value("spaces not allowed") == [LABEL_VALUE_MSG]
    assert names.is_c_identifier("my_name") == []
    assert names.is_c_identifier("my-name") == [CIDENT_MSG]


def test_metadata_checks():
    claim = fresh(CLAIM)
    claim["metadata"] = {"namespace": "ns"}
    assert errors(claim) == ["metadata.name: Required value: name or generateName is required"]
    claim["metadata"] = {"generateName": "pvc-", "namespace": "ns"}
    assert errors(claim) == []
    claim["metadata"] = {"name": BAD_NAME, "namespace": "ns"}
    assert errors(claim) == [f'metadata.name: Invalid value: "{BAD_NAME}": {SUBDOMAIN_MSG}']
    claim["metadata"] = {"name": "foo", "namespace": "ns", "labels": {"hello-world": "spaces not allowed"},
                         "annotations": {BAD_NAME: "hello world"}}
    assert errors(claim) == [
        f'metadata.labels: Invalid value: "spaces not allowed": {LABEL_VALUE_MSG}',
        f'metadata.annotations: Invalid value: "{BAD_NAME}": {QUALIFIED_NAME_MSG}',
    ]
    klass = fresh(CLASS)
    klass["metadata"]["namespace"] = "ns"
    assert errors(klass) == ["metadata.namespace: Forbidden: not allowed on this type"]
    klass["metadata"] = {"name": "foo", "annotations": {"a": "x" * (256 * 1024)}}
    assert errors(klass) == ["metadata.annotations: Too long: may not be more than 262144 bytes"]


def test_a_namespaced_object_without_namespace_is_in_default():
    claim = fresh(CLAIM)
    del claim["metadata"]["namespace"]
    assert errors(claim) == []
