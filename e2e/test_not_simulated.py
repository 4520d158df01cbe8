"""A field of a DRA feature the engine does not simulate (1.37's nodeAllocatableResources): accepted, and
named in a warning on the page; on 1.35 it is an unknown field."""

import pytest
from playwright.sync_api import Page, expect

from allocator.tests.helpers.not_simulated import CLAIM, CLASS, NODE, SLICE_1_37
from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e


def test_a_field_not_simulated_is_a_warning_and_the_claim_is_allocated(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")  # a custom inventory: its editor opens
    replace_text(page, NODE + SLICE_1_37 + CLASS, name="inventory")
    replace_text(page, CLAIM)
    expect(summary(page)).to_contain_text("Allocated")
    warnings = page.locator("#diagnostics .diagnostic-item.warning")
    expect(warnings).to_have_count(2)
    expect(warnings.filter(has_text="nodeAllocatableResources")).to_contain_text(
        "DRANodeAllocatableResources (node allocatable resources (cpu, memory) backed by devices) is not simulated")
    expect(warnings.filter(has_text="skipNodeOperations")).to_contain_text("DRAOptionalNodeOperations")
    # Kubernetes 1.35 has neither field: the strict decoder refuses them.
    page.get_by_label("Kubernetes version").select_option("1.35")
    expect(summary(page)).to_contain_text("Not valid")
    expect(page.locator("#diagnostics .diagnostic-item.error")).to_have_count(2)
    expect(page.locator("#diagnostics")).to_contain_text("has no such field (added in 1.37)")
