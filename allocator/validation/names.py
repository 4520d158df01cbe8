"""Name formats of apimachinery and the object metadata checks built on them.

The wording of every message follows ``k8s.io/apimachinery`` (``IsDNS1123Label``,
``IsQualifiedName``, ...) because users compare it with what kubectl prints.
"""

from __future__ import annotations

import functools
import re

from allocator.validation.errors import Errors

DNS1123_LABEL_MAX = 63
DNS1123_SUBDOMAIN_MAX = 253
QUALIFIED_NAME_MAX = 63
LABEL_VALUE_MAX = 63
TOTAL_ANNOTATION_SIZE = 256 * 1024

_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_SUBDOMAIN_FMT = _LABEL_FMT + "(\\." + _LABEL_FMT + ")*"
_QUALIFIED_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_VALUE_FMT = "(" + _QUALIFIED_FMT + ")?"
_CIDENT_FMT = "[A-Za-z_][A-Za-z0-9_]*"

# The formats above, checked whole (as Go's regexp matches ^...$; Python's $ would also match before a last
# newline). The three a command meets on every object are read by their characters, without a pattern to
# compile at start-up; the others are patterns compiled when first needed.
_LOWER_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_LABEL_CHARS = _LOWER_ALNUM | {"-"}
_CIDENT_FIRST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_CIDENT_CHARS = _CIDENT_FIRST | frozenset("0123456789")


def _is_label(value: str) -> bool:
    """``_LABEL_FMT``, whole."""
    return bool(value) and value[0] in _LOWER_ALNUM and value[-1] in _LOWER_ALNUM and _LABEL_CHARS.issuperset(value)


def _is_subdomain(value: str) -> bool:
    """``_SUBDOMAIN_FMT``, whole: labels joined by dots."""
    return all(_is_label(part) for part in value.split("."))


def _is_c_identifier(value: str) -> bool:
    """``_CIDENT_FMT``, whole."""
    return bool(value) and value[0] in _CIDENT_FIRST and _CIDENT_CHARS.issuperset(value)


# Compiled when first needed: a command without labels or qualified names never asks (start-up).
@functools.cache
def _qualified_pattern() -> re.Pattern:
    return re.compile(f"^{_QUALIFIED_FMT}$")


@functools.cache
def _label_value_pattern() -> re.Pattern:
    return re.compile(f"^{_LABEL_VALUE_FMT}$")



def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """apimachinery's RegexError (the double space after each example is upstream's)."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def max_len_error(n: int) -> str:
    return f"must be no more than {n} characters"


EMPTY_ERROR = "must be non-empty"


def is_dns1123_label(value: str) -> list[str]:
    errs = []
    if len(value) > DNS1123_LABEL_MAX:
        errs.append(max_len_error(DNS1123_LABEL_MAX))
    if not _is_label(value):
        if _is_subdomain(value):
            errs.append("must not contain dots")
        else:
            errs.append(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                "and must start and end with an alphanumeric character", _LABEL_FMT, "my-name", "123-abc"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    errs = []
    if len(value) > DNS1123_SUBDOMAIN_MAX:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX))
    if not _is_subdomain(value):
        errs.append(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
            "and must start and end with an alphanumeric character", _SUBDOMAIN_FMT, "example.com"))
    return errs


_QUALIFIED_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', "
                  "and must start and end with an alphanumeric character")


def is_qualified_name(value: str) -> list[str]:
    errs = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + EMPTY_ERROR)
        else:
            errs.extend("prefix part " + m for m in is_dns1123_subdomain(prefix))
    else:
        return ["a qualified name " + regex_error(_QUALIFIED_MSG, _QUALIFIED_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part " + EMPTY_ERROR)
    elif len(name) > QUALIFIED_NAME_MAX:
        errs.append("name part " + max_len_error(QUALIFIED_NAME_MAX))
    if not _qualified_pattern().fullmatch(name):
        errs.append("name part " + regex_error(_QUALIFIED_MSG, _QUALIFIED_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    errs = []
    if len(value) > LABEL_VALUE_MAX:
        errs.append(max_len_error(LABEL_VALUE_MAX))
    if not _label_value_pattern().fullmatch(value):
        errs.append(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
            "and must start and end with an alphanumeric character", _LABEL_VALUE_FMT,
            "MyValue", "my_value", "12345"))
    return errs


def is_c_identifier(value: str) -> list[str]:
    if _is_c_identifier(value):
        return []
    return [regex_error("a valid C identifier must start with alphabetic character or '_', "
                        "followed by a string of alphanumeric characters or '_'", _CIDENT_FMT,
                        "my_name", "MY_NAME", "MyName")]


# -- field validators: append to ``errs`` ------------------------------------------------


def dns_label(errs: Errors, value: str, path: str) -> None:
    if value in _GOOD_LABELS:  # a cluster repeats its devices' names (gpu-0, gpu-1...) on every node
        return
    found = is_dns1123_label(value)
    for msg in found:
        errs.invalid(path, value, msg)
    if not found:
        if len(_GOOD_LABELS) >= _GOOD_LABELS_MAX:
            _GOOD_LABELS.clear()
        _GOOD_LABELS.add(value)


_GOOD_LABELS: set[str] = set()  # values dns_label found valid
_GOOD_LABELS_MAX = 10_000


def dns_subdomain(errs: Errors, value: str, path: str) -> None:
    for msg in is_dns1123_subdomain(value):
        errs.invalid(path, value, msg)


def label_name(errs: Errors, value: str, path: str) -> None:
    for msg in is_qualified_name(value):
        errs.invalid(path, value, msg)


def label_value(errs: Errors, value: str, path: str) -> None:
    for msg in is_valid_label_value(value):
        errs.invalid(path, value, msg)


def driver_name(errs: Errors, value: str, path: str, empty_also_invalid: bool = False) -> None:
    """A CSI-style driver name: required, at most 63 bytes, a DNS subdomain ignoring case.

    ``empty_also_invalid``: the release checks an empty name as a subdomain too (``ReleaseRules``)."""
    if not value:
        errs.required(path)
        if not empty_also_invalid:
            return
    if len(value.encode()) > 63:
        errs.too_long(path, 63)
    for msg in is_dns1123_subdomain(value.lower()):
        errs.invalid(path, value, msg)


def node_name(errs: Errors, value: str, path: str) -> None:
    for msg in is_dns1123_subdomain(value):
        errs.invalid(path, value, msg)


# -- object metadata -----------------------------------------------------------------------


def _mask_trailing_dash(name: str) -> str:
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name


def object_meta(errs: Errors, meta, *, namespaced: bool, name_check=is_dns1123_subdomain,
                path: str = "metadata") -> None:
    """``ValidateObjectMeta`` for a create: name/generateName, namespace, labels, annotations."""
    if meta.generate_name:
        for msg in name_check(_mask_trailing_dash(meta.generate_name)):
            errs.invalid(f"{path}.generateName", meta.generate_name, msg)
    if not meta.name:
        if not meta.generate_name:
            errs.required(f"{path}.name", "name or generateName is required")
    else:
        for msg in name_check(meta.name):
            errs.invalid(f"{path}.name", meta.name, msg)
    if namespaced:
        if not meta.namespace:
            errs.required(f"{path}.namespace")
        else:
            for msg in is_dns1123_label(meta.namespace):
                errs.invalid(f"{path}.namespace", meta.namespace, msg)
    elif meta.namespace:
        errs.forbidden(f"{path}.namespace", "not allowed on this type")
    labels_and_annotations(errs, meta, path)


def labels_and_annotations(errs: Errors, meta, path: str = "metadata") -> None:
    for key, value in meta.labels.items():
        for msg in is_qualified_name(key):
            errs.invalid(f"{path}.labels", key, msg, at=f"{path}.labels[{key}]")
        for msg in is_valid_label_value(value):
            errs.invalid(f"{path}.labels", value, msg, at=f"{path}.labels[{key}]")
    total = 0
    for key, value in meta.annotations.items():
        for msg in is_qualified_name(key.lower()):
            errs.invalid(f"{path}.annotations", key, msg, at=f"{path}.annotations[{key}]")
        total += len(key) + len(value)
    if total > TOTAL_ANNOTATION_SIZE:
        errs.too_long(f"{path}.annotations", TOTAL_ANNOTATION_SIZE)


def template_object_meta(errs: Errors, meta, path: str) -> None:
    """``ValidateTemplateObjectMeta``: a template may only carry labels and annotations."""
    labels_and_annotations(errs, meta, path)
    for json_name, value in (("name", meta.name), ("generateName", meta.generate_name),
                             ("namespace", meta.namespace), ("uid", meta.uid)):
        if value:
            errs.forbidden(f"{path}.{json_name}", "cannot be set for a template")
