"""The validation tests' objects and checks, and the name-format messages of apimachinery."""

from __future__ import annotations

import copy

import yaml

from allocator.kube.objects import read_documents
from allocator.releases.gates import make_gates
from allocator.validation import validate_documents

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
