"""Gate dependencies (1.35 on): the page refuses the combination beside the gate at fault."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import open_gates, summary

pytestmark = pytest.mark.e2e

WORDS = "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]."


def test_device_taints_off_with_the_rules_on_is_refused_beside_the_rules_gate(page: Page, samples):
    page.goto("/")
    open_gates(page)
    page.get_by_label("DRADeviceTaints", exact=True).select_option("off")
    error = page.locator("#id_gate_DRADeviceTaintRules_error")
    expect(error).to_have_text(WORDS)
    expect(page.get_by_label("DRADeviceTaintRules", exact=True)).to_have_attribute("aria-invalid", "true")
    expect(summary(page)).to_contain_text("Nothing was analyzed")
    # Turning the rules off as well is a combination the components accept.
    page.get_by_label("DRADeviceTaintRules", exact=True).select_option("off")
    expect(error).to_have_count(0)
    expect(summary(page)).not_to_contain_text("Nothing was analyzed")
    expect(page.locator("#assumptions")).to_contain_text("DRADeviceTaints: off")
