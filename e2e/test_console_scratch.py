"""The console's scratch device (issue 36, item 9): evaluate on a device typed as YAML, besides the inventory's;
a bad device gets located errors; the scratch device comes back after a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import summary, type_expression

pytestmark = pytest.mark.e2e

SCRATCH = "driver: gpu.example.com\nattributes:\n  model: {string: H200}\ncapacity:\n  memory: {value: 141Gi}\n"


def test_an_expression_on_a_scratch_device(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    panel = page.locator("#console-panel")
    panel.get_by_label("Device", exact=True).select_option("scratch")
    scratch = page.locator("#id_console_scratch")
    expect(scratch).to_be_visible()  # picking it opens its YAML
    scratch.fill(SCRATCH)
    type_expression(page, 'device.attributes["gpu.example.com"].model == "H200" && '
                          'device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("100Gi"))')
    expect(page.locator("#console-value-text")).to_have_text("true")
    type_expression(page, 'device.attributes["gpu.example.com"].model')
    expect(page.locator("#console-value-text")).to_have_text('"H200"')
    # A device the apiserver would refuse: the errors say where, in the scratch text.
    with page.expect_response("**/console"):
        scratch.fill("attributes:\n  model: {string: H200, int: 3}\n")
    errors = page.locator("#console-scratch-errors")
    expect(errors).to_contain_text("line 2, column 10")
    expect(errors).to_contain_text("exactly one value must be specified")
    expect(page.locator("#console-value-text")).to_have_count(0)
    # Kept over a reload, with the work of the tab.
    with page.expect_response("**/console"):
        scratch.fill(SCRATCH)
    expect(page.locator("#console-value-text")).to_have_text('"H200"')
    page.reload()
    expect(page.locator("#id_console_scratch")).to_have_value(SCRATCH)
    expect(page.locator("#id_console_device")).to_have_value("scratch")
