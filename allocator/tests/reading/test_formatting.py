"""The Format button's engine side: the same data, one style, or a located refusal."""

import pytest
import yaml

from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.formatting import format_yaml

MESSY = """\
# a comment, not kept
apiVersion: resource.k8s.io/v1
kind:   ResourceClaim
metadata: {name: x, labels: {enabled: 'on', when: '2024-01-01'}}
spec:
    devices:
        requests:
            - name: gpu
              exactly:
                deviceClassName: gpu.example.com
                count: 2
                selectors:
                - cel:
                    expression: >-
                      device.driver == "gpu.example.com" &&
                      device.attributes["gpu.example.com"].model == "A100"
---
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers: [{name: a, image: "x:1", args: ["--port", "8080"]}]
"""


def test_it_writes_block_style_with_two_space_indents():
    out = format_yaml(MESSY)
    assert out.startswith("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: x\n")
    assert "\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n" in out
    assert "\n---\napiVersion: v1\nkind: Pod\n" in out
    assert "# a comment" not in out
    assert format_yaml(out) == out  # formatting twice changes nothing


def test_it_keeps_every_value_and_type():
    out = format_yaml(MESSY)
    assert list(yaml.safe_load_all(out)) == list(yaml.safe_load_all(MESSY))
    assert "enabled: 'on'" in out and "when: '2024-01-01'" in out and "- '8080'" in out


def test_multi_line_strings_stay_literal_blocks():
    text = "a:\n  expression: |\n    device.driver == \"x\" &&\n      true\n"
    out = format_yaml(text)
    assert out == text
    assert yaml.safe_load(out) == yaml.safe_load(text)


def test_unreadable_text_is_refused_with_its_location():
    with pytest.raises(DiagnosticError) as err:
        format_yaml("a: 1\nb: [\n")
    d = err.value.diagnostics[0]
    assert d.line == 3 and "YAML syntax error" in d.detail
    with pytest.raises(DiagnosticError) as err:
        format_yaml("a: 1\na: 2\n")  # PyYAML would keep the last silently: data would be lost
    assert 'duplicate field "a"' in err.value.diagnostics[0].detail


def test_text_without_objects_is_left_as_it_is():
    assert format_yaml("") == ""
    assert format_yaml("# only a comment\n") == "# only a comment\n"
