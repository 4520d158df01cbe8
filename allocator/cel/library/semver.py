"""The Kubernetes semver library: ``semver()``, ``isSemver()`` and the methods of a version."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    CELError,
)
from allocator.kube.semver import Version


def _semver(text, normalize=False):
    try:
        return Version.parse(text, normalize)
    except ValueError as e:
        raise CELError(str(e)) from None


decl("semver", ["string"], "kubernetes.Semver", _semver, oid="string_to_semver")
decl("semver", ["string", "bool"], "kubernetes.Semver", _semver, oid="string_bool_to_semver")
decl("isSemver", ["string"], "bool", lambda s: Version.is_valid(s), oid="is_semver_string")
decl("isSemver", ["string", "bool"], "bool", lambda s, n: Version.is_valid(s, n), oid="is_semver_string_bool")
decl("isGreaterThan", ["kubernetes.Semver", "kubernetes.Semver"], "bool", lambda a, b: a.compare(b) == 1,
     member=True, oid="semver_is_greater_than")
decl("isLessThan", ["kubernetes.Semver", "kubernetes.Semver"], "bool", lambda a, b: a.compare(b) == -1,
     member=True, oid="semver_is_less_than")
decl("compareTo", ["kubernetes.Semver", "kubernetes.Semver"], "int", lambda a, b: a.compare(b), member=True,
     oid="semver_compare_to")
decl("major", ["kubernetes.Semver"], "int", lambda v: v.major, member=True)
decl("minor", ["kubernetes.Semver"], "int", lambda v: v.minor, member=True)
decl("patch", ["kubernetes.Semver"], "int", lambda v: v.patch, member=True)
