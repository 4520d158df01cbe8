"""The name formats of apimachinery and the metadata checks every kind shares."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from allocator.tests.helpers.validation import (
    BAD_NAME,
    CIDENT_MSG,
    CLAIM,
    CLASS,
    LABEL_MSG,
    LABEL_VALUE_MSG,
    QUALIFIED_NAME_MSG,
    SUBDOMAIN_MSG,
    errors,
    fresh,
)
from allocator.validation import names


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


@pytest.mark.parametrize("check", [names.is_dns1123_label, names.is_dns1123_subdomain, names.is_qualified_name,
                                   names.is_valid_label_value, names.is_c_identifier])
def test_a_value_ending_in_a_newline_is_refused_as_gos_regexp_refuses_it(check):
    # apimachinery's ^...$ is Go's: $ is the end of the text. Python's $ also matches before a last newline.
    assert check("name") == []
    assert check("name\n") != []


def test_a_claim_named_with_a_last_newline_is_refused():
    claim = fresh(CLAIM)
    claim["metadata"] = {"name": "train\n", "namespace": "ns"}
    assert errors(claim) == [f'metadata.name: Invalid value: "train\\n": {SUBDOMAIN_MSG}']


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.text(alphabet="az09-._AZ/\n é", max_size=12))
def test_the_name_checks_read_by_characters_match_their_formats_whole(text):
    # apimachinery's regular expressions, matched whole (Go's ^...$), against the checks that read characters
    for check, fmt in ((names._is_label, names._LABEL_FMT), (names._is_subdomain, names._SUBDOMAIN_FMT),
                       (names._is_c_identifier, names._CIDENT_FMT)):
        assert check(text) == (re.fullmatch(fmt, text) is not None), (fmt, text)
