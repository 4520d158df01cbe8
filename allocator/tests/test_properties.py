"""Property-based tests: hostile or random input never crashes the engine.

Whatever text arrives (random YAML-ish documents, or valid DRA objects with
random damage: wrong types, missing fields, huge numbers, unicode, markup,
broken CEL), ``read_documents`` either returns a result or raises the
documented ``DiagnosticError``; ``validate_documents`` and ``analyze``
always return diagnostics, and the report serializes to JSON as the API and
the page need. Anything else raised is a bug.

The runs are bounded (100 examples each, no deadline) to keep the suite
fast; ``PROPERTY_EXAMPLES=2000`` explores further. With ``CI`` set they are
derandomized, so CI stays deterministic; a local run tries new examples
each time.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import yaml
from hypothesis import HealthCheck, example, given
from hypothesis import strategies as st

from allocator.engine import analyze
from allocator.kube.objects import ReadResult, read_documents
from allocator.reading.diagnostics import Diagnostic, DiagnosticError
from allocator.releases.gates import RELEASES, defaults, dependency_errors, exists_in, locked_in
from allocator.releases.table import GATE_REQUIRES
from allocator.releases.table import release as table_release
from allocator.tests.helpers import SAMPLES
from allocator.tests.helpers.strategies import bounded
from allocator.validation import validate_documents

BOUNDED = bounded(HealthCheck.filter_too_much)

# --- values ------------------------------------------------------------------

HUGE_NUMBERS = [2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**40, -(10**400), 1e308, -1e-320,
                float("inf"), float("-inf"), float("nan")]
NASTY_STRINGS = [
    "", " ", "\t", "\n\n", "~", "null", "true", "NaN", ".inf", "0x1F", "0o17", "1e400", "-0", "08",
    "<script>alert(1)</script>", "<b>bold</b>", "{{ 7*7 }}", "{% debug %}", "${HOME}", "$(id)", "`id`",
    "'; DROP TABLE playground_share; --", "\" OR 1=1 --", "../../etc/passwd", "%s%s%s%n", "\\x00", "\\",
    "a" * 300, "x." * 200 + "com", "日本語", "ß", "İ", "🤖" * 20, "\u202eevil", "\ufeffbom", "\u200b", "e\u0301",
    "1Gi", "1.5Ti", "-1", "0.001m", "1e3", "1E", "9223372036854775808", "1Ki1", "100Mi ",
    "gpu.example.com", "Gpu.Example.com", "-bad-", "a/b/c", "dra.example.com/model", "v1.2.3", "1.2.3-rc.1+b",
    "resource.k8s.io/v1", "resource.k8s.io/v1beta1", "resource.k8s.io/v2", "v1", "ResourceClaim",
]
CEL_TOKENS = [
    "device", "device.driver", "device.attributes", "device.capacity", "device.allowMultipleAllocations",
    "['gpu.example.com']", "['dra.example.com']", '["x"]', ".model", ".memory", ".index", ".profile",
    "==", "!=", "<", ">=", "&&", "||", "!", "?", ":", "+", "-", "*", "/", "%", "in", "(", ")", "[", "]", "{", "}",
    ",", ".", "0", "1", "-1", "1.5", "9223372036854775807", "18446744073709551615u", "1e308", "'s'", '"\\u00e9"',
    "b'\\xff'", "true", "false", "null", "quantity('4Gi')", "quantity('bogus')", "semver('1.2.3')",
    "semver('x')", ".compareTo(", ".isGreaterThan(", ".isLessThan(", ".asInteger()", ".asApproximateFloat()",
    ".major()", "size(", "has(", ".exists(x, x > 1)", ".all(k, true)", ".map(x, x)", "[1, 2, 3]", "{'a': 1}",
    "int(", "string(", "double(", "matches(", ".startsWith('a')", "type(", "dyn(", "isQuantity('1')",
    "isSemver('1.0.0')", "1 / 0", "1 % 0", "'a' * 3",
]

cel_expressions = st.lists(st.sampled_from(CEL_TOKENS), max_size=12).map(" ".join)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(NASTY_STRINGS),
    cel_expressions,
)
keys = st.one_of(st.text(max_size=20), st.sampled_from([
    "apiVersion", "kind", "metadata", "name", "namespace", "spec", "status", "devices", "requests", "exactly",
    "firstAvailable", "deviceClassName", "selectors", "cel", "expression", "count", "allocationMode",
    "constraints", "matchAttribute", "config", "opaque", "driver", "parameters", "pool", "generation",
    "resourceSliceCount", "nodeName", "allNodes", "attributes", "capacity", "value", "int", "string", "bool",
    "version", "taints", "tolerations", "consumesCounters", "sharedCounters", "counters", "items", "allocation",
    "results", "request", "device", "adminAccess", "resourceClaims", "containers", "claims",
]))
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(keys, children, max_size=6),
    ),
    max_leaves=30,
)
gate_names = sorted(defaults())


# --- the seeds: every sample inventory and example ----------------------------

def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


INVENTORIES = {p.stem: _load(p)["objects"] for p in sorted((SAMPLES / "inventories").glob("*.yaml"))}
EXAMPLES = [_load(p) for p in sorted((SAMPLES / "examples").glob("*.yaml"))]
SEEDS = [
    (list(yaml.safe_load_all(example["documents"])), INVENTORIES.get(example.get("inventory"), []))
    for example in EXAMPLES
]


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _paths(child, (*prefix, index))


def _mutate(data, root, draw) -> None:
    """Apply one random change somewhere inside ``root`` (a list of objects)."""
    path = draw(st.sampled_from(list(_paths(root))[1:] or [()]))
    if not path:
        return
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    action = draw(st.sampled_from(["replace", "delete", "add", "duplicate", "wrap", "cel"]))
    if action == "replace":
        parent[last] = draw(values)
    elif action == "delete":
        del parent[last]
    elif action == "add" and isinstance(parent[last], dict):
        parent[last][draw(keys)] = draw(values)
    elif action == "add" and isinstance(parent[last], list):
        parent[last].append(draw(values))
    elif action == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif action == "wrap":
        parent[last] = draw(st.sampled_from([[parent[last]], {"value": parent[last]}, str(parent[last])]))
    elif action == "cel" and isinstance(parent[last], str):
        parent[last] = draw(cel_expressions)


def _dump(objects, as_json: bool) -> str:
    if as_json:
        return "\n".join(json.dumps(obj, allow_nan=True) for obj in objects)
    return yaml.safe_dump_all(objects, allow_unicode=True, sort_keys=False)


# --- the properties -------------------------------------------------------------

def _read(text: str) -> ReadResult | None:
    try:
        result = read_documents(text)
    except DiagnosticError as err:
        assert err.diagnostics and all(isinstance(d, Diagnostic) for d in err.diagnostics)
        return None
    assert isinstance(result, ReadResult)
    return result


def _check_engine(documents: str, inventory: str = "", node: str | None = None,
                  gates: dict[str, bool] | None = None, release: str = RELEASES[-1], *, separately: bool = True) -> None:
    """read + validate on their own (default gates), then analyze, which reads and validates again
    with the given gates; ``separately=False`` skips the first part where it costs too much."""
    for text in (documents, inventory) if separately else ():
        result = _read(text)
        if result is not None:
            for diagnostic in validate_documents(result, None, text):
                assert isinstance(diagnostic, Diagnostic)
                str(diagnostic)
    report = analyze(documents, inventory, node=node, feature_gates=gates, kubernetes_version=release)
    json.dumps(report.to_dict(), allow_nan=True)


@BOUNDED
@given(st.text(max_size=400))
def test_random_text_never_crashes(text):
    _check_engine(text)


@BOUNDED
@given(st.lists(values, max_size=4), st.booleans())
def test_random_documents_never_crash(documents, as_json):
    _check_engine(_dump(documents, as_json))


@BOUNDED
@given(st.lists(st.dictionaries(keys, values, max_size=6), min_size=1, max_size=3), st.data())
def test_random_objects_with_a_dra_kind_never_crash(objects, data):
    """Random bodies behind a real apiVersion and kind, so they reach decoding."""
    for obj in objects:
        obj["apiVersion"] = data.draw(st.sampled_from(["resource.k8s.io/v1", "resource.k8s.io/v1beta1",
                                                       "resource.k8s.io/v1beta2", "v1"]))
        obj["kind"] = data.draw(st.sampled_from(["ResourceClaim", "ResourceClaimTemplate", "ResourceSlice",
                                                 "DeviceClass", "Pod", "Node"]))
    _check_engine(_dump(objects, data.draw(st.booleans())))


@BOUNDED
@given(st.sampled_from(range(len(SEEDS))), st.integers(min_value=1, max_value=4), st.booleans(), st.data())
def test_damaged_samples_never_crash(seed, changes, in_inventory, data):
    documents, inventory = copy.deepcopy(SEEDS[seed])
    target = inventory if in_inventory and inventory else documents
    for _ in range(changes):
        _mutate(data, target, data.draw)
    as_json = data.draw(st.booleans())
    _check_engine(_dump(documents, as_json), _dump(inventory, as_json), separately=False)


@BOUNDED
@given(st.sampled_from(range(len(SEEDS))), st.data())
def test_random_cel_in_samples_never_crashes(seed, data):
    """Every CEL expression of an example replaced: reaches compilation and, when valid, evaluation."""
    documents, inventory = copy.deepcopy(SEEDS[seed])
    for root in (documents, inventory):
        for path in list(_paths(root)):
            if path and path[-1] == "expression":
                parent = root
                for step in path[:-1]:
                    parent = parent[step]
                parent["expression"] = data.draw(cel_expressions)
    _check_engine(_dump(documents, False), _dump(inventory, False), separately=False)


@BOUNDED
@given(st.sampled_from(range(len(SEEDS))), st.sampled_from(RELEASES),
       st.dictionaries(st.sampled_from(gate_names), st.booleans(), max_size=4), st.one_of(st.none(), st.text(max_size=20)))
@example(0, "1.31", {"DRAControlPlaneController": True, "DRAAdminAccess": False}, None)  # found in CI: needs DRA on
@example(0, "1.36", {"NodeDeclaredFeatures": False}, None)  # other components' default-on gates need it
def test_samples_under_any_release_gates_and_node_never_crash(seed, release, gates, node):
    documents, inventory = SEEDS[seed]
    # Setting a gate the release does not have (either value: its components do not know it), setting a gate
    # the release locks away from its value, or turning on a gate without the gate it needs, is a caller
    # error (FeatureGateError), not input.
    gates = {gate: value for gate, value in gates.items() if exists_in(gate, release)}
    gates = {gate: value for gate, value in gates.items()
             if not locked_in(gate, release) or value == defaults(release).get(gate)}
    values = {**defaults(release), **gates}
    gates = {gate: value for gate, value in gates.items()
             if not (value and gate in GATE_REQUIRES and not values[GATE_REQUIRES[gate]])}
    # From 1.35 on, an enabled gate whose dependency is off is refused too: drop the overrides involved
    # (the release defaults alone are always a valid combination). A refusal can also name a disabled gate that
    # default-on gates of other components need (1.36's NodeDeclaredFeatures): it has no dependencies itself.
    depends = table_release(release).dependencies()
    while refused := dependency_errors({**defaults(release), **gates}, table_release(release)):
        involved = {gate for gate, _ in refused} | {dep for gate, _ in refused for dep in depends.get(gate, ())}
        gates = {gate: value for gate, value in gates.items() if gate not in involved}
    _check_engine(_dump(documents, False), _dump(inventory, False), node=node, gates=gates, release=release,
                  separately=False)

