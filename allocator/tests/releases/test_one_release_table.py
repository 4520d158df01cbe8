"""Release differences live in one table (``releases.rules``): its values per release, and no module outside
``allocator/releases`` that compares or parses release names (``"1.35"``, ``(1, 35)``, ``release.split(".")``).

The values are written out per release (1.31 to 1.37) from the upstream sources ``releases.rules`` cites, so a
change to the table has to change a line here too.
"""

from __future__ import annotations

import ast
import re
from dataclasses import fields

import pytest

from allocator.releases.gates import make_gates
from allocator.releases.rules import CHANGES, OLDEST, ReleaseRules, as_rules, first_release, rules_of
from allocator.releases.table import RELEASES, release_key
from allocator.tests.helpers import ROOT

YES_NO = {  # 1.31 ... 1.37, T for true
    "device_in_cel_errors": "FFFFFFT",
    "clears_config_requests": "FFFFFFT",
    "skips_unusable_pools": "FFFFTTT",
    "taint_rule_class_and_cel": "TTTTFFF",
    "separate_device_status": "FFFTFFF",
    "combinations": "FFFFFTT",
    "admin_devices_in_use": "FFFTTTT",
    "rejected_device_rolls_back": "FFFFFTT",
    "sorts_slices": "FFFFFTT",
    "list_attributes_in_allocator": "FFFFFFT",
    "constraints_per_device": "FFFFFFT",
    "distinct_compares_pointers": "FFFTFFF",
    "subrequest_index_kept": "FFFFFTT",
    "capacity_checked_at_request_index": "FFFTFFF",
    "all_devices_lack_pool": "FFFFTFF",
    "capacity_refusal_names_request": "FFFTFFF",
    "shares_skip_counters": "FFFFTTT",
    "shares_hold_counters": "FFFFFTT",
    "any_share_takes_counters": "FFFFFFT",
    "node_filters_counter_slices": "FFFFFFT",
    "writes_result_tolerations": "FFFFTTT",
    "binding_slices_last": "TTTTTFF",
    "cel_stored_environment": "FFFFFFT",
    "includes_from_lists": "FFFFFFT",
    "scores_nodes": "FFFFTTT",
    "binding_timeout_in_args": "FFFFTTT",
    "implicit_extended_names": "FFFFTTT",
    "newest_class_serves_extended_name": "FFFFTTT",
    "zero_allocatable_left_to_dra": "FFFFTTT",
    "init_containers_reuse_devices": "FFFFTTT",
    "postfilter_still_not_schedulable": "TTTTTTF",
    "counters_in_own_slice": "TTTTFFF",
    "duplicate_on_key_field": "TTTTFFF",
    "drops_claim_tolerations": "FFFFTTT",
    "pod_scheduling_group": "FFFFFTT",
    "empty_driver_also_invalid": "TTTTFFF",
    "all_mode_rolls_back": "FFFTTTT",
    "all_needs_a_device": "FFTTTTT",
    "all_in_use_backtracks": "FFTTTTT",
    "subrequest_checked_under_own_key": "FFFFFTT",
    "exact_requests_nested": "FFTTTTT",
    "device_needs_basic": "TTFFFFF",
    "class_configs_name_requests": "FTTTTTT",
    "all_skips_devices_in_use": "TFFFFFF",
    "stop_is_an_error": "TFFFFFF",
    "all_checks_class_selectors": "FTTTTTT",
    "results_record_admin_access": "FTTTTTT",
}
OTHERS = {
    "taint_rules_gate": ["DRADeviceTaints"] * 4 + ["DRADeviceTaintRules"] * 3,
    "slice_counters": ["", "", "device", "slice", "", "", ""],
    "taint_effects": [("NoExecute", "NoSchedule")] * 4 + [("NoExecute", "NoSchedule", "None")] * 3,
    "admin_access_label": ["resource.k8s.io/admin-access"] * 3 + ["resource.kubernetes.io/admin-access"] * 4,
}


def test_every_rule_is_a_field_with_a_row_and_an_expected_value():
    rules = {f.name for f in fields(ReleaseRules)} - {"release"}
    assert rules == set(CHANGES) == set(YES_NO) | set(OTHERS)


@pytest.mark.parametrize("rule", sorted(CHANGES))
def test_each_rule_has_its_value_in_every_release(rule):
    expected = [letter == "T" for letter in YES_NO[rule]] if rule in YES_NO else OTHERS[rule]
    assert [getattr(rules_of(name), rule) for name in RELEASES] == expected


@pytest.mark.parametrize("rule", sorted(CHANGES))
def test_each_rule_starts_at_the_oldest_release_and_steps_forward(rule):
    steps = [since for since, _ in CHANGES[rule]]
    assert steps[0] == OLDEST and all(since in RELEASES for since in steps)
    assert steps == sorted(steps, key=release_key) and len(set(steps)) == len(steps)


def test_the_gates_give_their_release_s_rules():
    assert make_gates(release="1.34").release_rules is rules_of("1.34")
    assert rules_of("1.34").release == "1.34"
    assert as_rules("1.35") is rules_of("1.35") and as_rules(rules_of("1.35")) is rules_of("1.35")


def test_messages_name_the_first_release_of_a_rule():
    assert first_release("scores_nodes") == "1.35"
    assert first_release("pod_scheduling_group") == "1.36"


def test_a_release_we_do_not_model_is_refused():
    with pytest.raises(ValueError, match="unsupported Kubernetes release '1.30'"):
        rules_of("1.30")


# --- no release name is compared or parsed outside allocator/releases ---

RELEASE_NAME = re.compile(r"^\d+\.\d+$")
VERSION_WORDS = re.compile(r"release|version", re.IGNORECASE)
SPLITTERS = {"split", "rsplit", "partition", "rpartition"}


def _sources() -> list:
    """The project's Python modules outside the release table and the tests."""
    found = []
    for folder in ("allocator", "playground", "api"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "tests" in parts or "migrations" in parts or parts[:2] == ("allocator", "releases"):
                continue
            found.append(path)
    return found


SOURCES = _sources()


def _is_release_name(node: ast.AST) -> bool:
    """A release name written out: ``"1.35"``, or ``(1, 35)`` as a parsed one compares."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(RELEASE_NAME.match(node.value))
    if isinstance(node, ast.Tuple) and len(node.elts) == 2:
        values = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
        return values[0] == 1 and type(values[1]) is int and 10 <= values[1] < 100  # Kubernetes 1.minor
    return False


def _is_dot(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == "."


def _release_parsing(path, root=ROOT) -> list[str]:
    """Where the module compares a release name, splits a release or version string, or ranks releases."""
    text = path.read_text()
    in_engine = path.relative_to(root).parts[0] == "allocator"
    found = []
    for node in ast.walk(ast.parse(text)):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_release_name(n) for operand in operands for n in ast.walk(operand)):
                found.append(f"{where}: compares with a release name")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in SPLITTERS and node.args and _is_dot(node.args[0]):
                receiver = ast.get_source_segment(text, node.func.value) or ""
                if VERSION_WORDS.search(receiver):
                    found.append(f"{where}: splits {receiver}")
            if node.func.attr == "index" and (ast.get_source_segment(text, node.func.value) or "").endswith("RELEASES"):
                found.append(f"{where}: ranks releases by position")
        elif isinstance(node, ast.Name | ast.alias):
            name = node.id if isinstance(node, ast.Name) else node.name
            if name.lstrip("_") == "release_key":
                found.append(f"{where}: uses release_key")
        elif in_engine and isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and RELEASE_NAME.match(node.value):
            # The site and the API may show a release as an example; the engine's thresholds are rules.
            found.append(f"{where}: names release {node.value}")
    return found


def test_the_checks_see_the_modules():
    assert any(p.parts[-2:] == ("allocation", "allocator.py") for p in SOURCES)
    assert any(p.parts[-2:] == ("playground", "state.py") for p in SOURCES)
    assert not any("releases" in p.relative_to(ROOT).parts[:2] for p in SOURCES)


def test_the_checks_catch_each_way_of_parsing_a_release(tmp_path):
    samples = {
        'if gates.release >= "1.35": pass': "compares with a release name",
        "if key < (1, 35): pass": "compares with a release name",
        'major, minor = gates.release.split(".")': "splits gates.release",
        'minor = kubernetes_version.partition(".")[2]': "splits kubernetes_version",
        "i = RELEASES.index(name)": "ranks releases by position",
        "from allocator.releases.table import release_key": "uses release_key",
        'FIRST = "1.35"': "names release 1.35",
    }
    path = tmp_path / "allocator" / "sample.py"
    path.parent.mkdir()
    for source, finding in samples.items():
        path.write_text(source + "\n")
        assert any(finding in line for line in _release_parsing(path, tmp_path)), source
    # The site may show a release (an example value), not compare with one.
    path = tmp_path / "api" / "docs.py"
    path.parent.mkdir()
    path.write_text('EXAMPLE = {"kubernetesVersion": "1.37"}\n')
    assert _release_parsing(path, tmp_path) == []


def test_no_module_outside_the_release_table_parses_a_release_name():
    found = [line for path in SOURCES for line in _release_parsing(path)]
    assert found == []
