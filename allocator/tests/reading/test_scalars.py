"""Plain scalars resolved without PyYAML (``reading.scalars``) give what PyYAML's SafeLoader gives."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from allocator.reading import scalars
from allocator.reading.yamlsource import _Loader
from allocator.tests.helpers import ROOT


def _pyyaml(text: str):
    """What the positioned reader's loader makes of a plain scalar: a value, or the refusal's name."""
    loader = _Loader("")
    try:
        for tag, pattern in _Loader.yaml_implicit_resolvers.get(text[:1], []):
            if pattern.match(text):
                if tag in ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"):
                    return "refused"
                try:
                    return loader.construct_object(yaml.ScalarNode(tag, text), deep=False)
                except ValueError:
                    return "unreadable"
        return text
    finally:
        loader.dispose()


def _ours(text: str):
    try:
        return scalars.resolve(text)
    except scalars.NotPlainData:
        return "refused"
    except ValueError:
        return "unreadable"


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


TRICKY = ["yes", "Yes", "YES", "no", "On", "OFF", "y", "n", "true", "False", "~", "null", "Null", "NULL", "",
          "0", "-0", "+0", "00", "0777", "0o17", "0x1F", "0x_1", "0b101", "0b_", "0x", "1_000", "1__0", "_1",
          "1:30", "-1:30", "1:60", "190:20:30", "1:30.5", "1e3", "1.5e3", "1.0e+3", "6.8e-5", ".5", "-.5", "5.",
          "0.", ".inf", "-.Inf", "+.INF", ".NaN", ".nan", "<<", "=", "2026-11-02", "2026-11-02T08:02:16Z",
          "12345678901234567890123", "1.2.3", "4100001", "gpu.nvidia.com", "-", "+", ".", "1,000",
          # starting with a digit but no number (told apart without the patterns), and numbers near them
          "575.57.8", "80Gi", "1Gi", "67a9c378-7c65-41e5-82e2-e662f728b4fa", "1e5e5", "1-2", "12e", "1E+5",
          "1_2.3_4", "0xg", "0b2", "0x1f.5", "10.", "09", "08.5", "1.2.3e4", "9:99", "\u0663", "1\u0663", "1 2"]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_scalars_resolve_as_pyyaml_resolves_them(text):
    assert _same(_ours(text), _pyyaml(text)), text


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.text(alphabet="0123456789_:.+-eEbxoOaAfFinINlLsSyYtTrRuU~<= ", max_size=8))
def test_generated_scalars_resolve_as_pyyaml_resolves_them(text):
    assert _same(_ours(text), _pyyaml(text)), text


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.text(alphabet="0123456789_:.+-eEbxaAfFGiKM", min_size=1, max_size=10).map(lambda t: "1" + t))
def test_generated_scalars_that_start_with_a_digit_resolve_as_pyyaml_resolves_them(text):
    # (a digit first: the shortcuts of resolve, a decimal integer read at once and text told by its characters)
    assert _same(_ours(text), _pyyaml(text)), text


def test_the_first_characters_that_may_resolve_are_pyyamls():
    # PyYAML also lists "!", "&" and "*", for a rule that cannot match a plain scalar.
    assert scalars.RESOLVABLE == {first for first in _Loader.yaml_implicit_resolvers if first} - set("!&*")


def test_reading_block_and_one_line_flow_yaml_does_not_import_pyyaml():
    """Start-up: a command reading kubectl's block style and hand-written one-line flow mappings leaves PyYAML
    unloaded (importing it costs a one-node ``allocate`` about a tenth of its time)."""
    probe = (
        "import sys\n"
        "from allocator.kube.objects import read_documents\n"
        "text = 'apiVersion: resource.k8s.io/v1\\nkind: ResourceClaim\\nmetadata: {name: a}\\n'"
        " + 'spec:\\n  devices:\\n    requests:\\n    - name: r\\n      exactly: {deviceClassName: c, count: 2}\\n'\n"
        "result = read_documents(text)\n"
        "assert len(result.documents) == 1 and not result.errors, result.errors\n"
        "print('yaml' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
