"""Type names in CEL compile errors, as the apiserver's cel-go writes them, for a claim checked as created.

k8s.io/dynamic-resource-allocation's cel/compile.go declares a device attribute as apiserver's AnyType
(cel-go prints it `any`) and, in the environment of DRAListTypeAttributes (1.36 on, alpha, off by
default), as DynType (`dyn`). A pending claim is checked under the release and gates chosen, so the
words follow them, in the engine, on the command line and in the API.
"""

from __future__ import annotations

import pytest

from allocator.engine import analyze
from allocator.tests.helpers import cli, write_files
from allocator.tests.helpers.type_names import INVENTORY, MIXED, claim

BAD_KEY = claim("device.attributes[true] == 1")

# (release, gates, the attribute's type name)
CASES = [("1.34", None, "any"), ("1.35", None, "any"), ("1.36", None, "any"),
         ("1.36", {"DRAListTypeAttributes": True}, "dyn"), ("1.37", None, "any"),
         ("1.37", {"DRAListTypeAttributes": True}, "dyn")]


def errors(documents: str, release: str, gates: dict | None) -> list[str]:
    report = analyze(documents, INVENTORY, kubernetes_version=release, feature_gates=gates).to_dict()
    return [d["detail"] for d in report["diagnostics"] if d["severity"] == "error"]


@pytest.mark.parametrize("release, gates, name", CASES)
def test_the_engine_names_the_attribute_type_as_the_release_and_gates_declare_it(release, gates, name):
    (detail,) = errors(MIXED, release, gates)
    assert detail.startswith(f"compilation failed: ERROR: <input>:1:46: expected type '{name}' but found 'int'")
    (detail,) = errors(BAD_KEY, release, gates)
    assert (f"found no matching overload for '_[_]' applied to '(map(string, map(string, {name})), bool)'"
            in detail)


@pytest.mark.parametrize("args, name", [((), "any"), (("--kubernetes-version", "1.37"), "any"),
                                        (("--feature-gates", "DRAListTypeAttributes=true"), "dyn")])
def test_allocate_on_the_command_line_says_the_same(tmp_path, args, name):
    paths = write_files(tmp_path, inventory=INVENTORY, claim=MIXED)
    p = cli("allocate", *args, *paths)
    assert p.returncode == 2
    assert f"expected type '{name}' but found 'int'" in p.stdout + p.stderr
    other = "dyn" if name == "any" else "any"
    assert f"expected type '{other}'" not in p.stdout + p.stderr
