"""YAML slips with a hint and an Apply on the page: a CEL expression starting with a quote, "expression:" in
the column of "cel", "name:" in column 1 under "metadata:", a tab in the indentation. Each Apply makes the
document valid again."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import editor_value, replace_text, summary

pytestmark = pytest.mark.e2e

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpus
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: device.driver == 'gpu.example.com'
"""
SLIPS = [
    ("            expression: device.driver == 'gpu.example.com'",
     "            expression: 'gpu.example.com' == device.driver",
     'the value of "expression" starts with a quote', "Quote the whole value"),
    ("            expression:", "          expression:", '"expression" belongs under "cel:"', "Indent under cel:"),
    ("  name: gpus", "name: gpus", '"name" is a field of metadata', "Indent under metadata:"),
    ("  name: gpus", "\tname: gpus", "line 4 is indented with a tab", "Replace the tab with spaces"),
]


@pytest.mark.parametrize(("good", "slip", "hint", "button"), SLIPS)
def test_a_yaml_slip_gets_its_hint_and_an_apply_that_makes_it_valid(page: Page, samples, good, slip, hint, button):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    replace_text(page, CLAIM.replace(good, slip))
    expect(summary(page)).to_contain_text("Not valid")
    item = page.locator("#diagnostics .diagnostic-item.error")
    expect(item.locator(".hint-text")).to_contain_text(hint)
    item.get_by_role("button", name=f"Apply: {button}").click()
    expect(summary(page)).to_contain_text("Allocated")
    assert "Not valid" not in summary(page).text_content()
    assert "\n" + slip not in editor_value(page)  # the slipped line is gone
