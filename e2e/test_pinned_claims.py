"""A pod's allocated claim pins it to a node; the page shows the pin and the scheduler's retry (issue 28, item 3)."""

import pytest
from playwright.sync_api import Page, expect

from allocator.tests.helpers import pinning
from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e

PIN_REASON = "claim default/a is allocated on devices this node cannot use (resourceclaim not available on the node)"


def _custom_inventory(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, pinning.INVENTORY, name="inventory")


def test_the_page_shows_the_pin_and_the_retry(page: Page, samples):
    _custom_inventory(page)
    replace_text(page, pinning.documents())
    expect(summary(page)).to_contain_text("Allocated on node n2")
    retry = page.locator("#retry")
    expect(retry).to_contain_text("Attempt 1 found no node")
    expect(retry.locator(".retry-reasons")).to_contain_text(f"n2: {PIN_REASON}")
    expect(retry).to_contain_text("PostFilter freed claim a")
    expect(retry).to_contain_text("Attempt 2 placed the pod on n2")
    expect(page.locator("#claims-table")).to_contain_text("n2/gpu-0")
    expect(page.locator("#claims-table")).to_contain_text("n2/gpu-1")


def test_the_node_table_names_the_claim_that_pins_the_pod(page: Page, samples):
    _custom_inventory(page)
    replace_text(page, pinning.documents(reserved_for="22222222-2222-2222-2222-222222222222"))
    expect(summary(page)).to_contain_text("Cannot allocate")
    expect(page.locator("#nodes")).to_contain_text(PIN_REASON)
    expect(page.locator("#not-freed")).to_contain_text("PostFilter frees no claim (still not schedulable): claim a is reserved")
    expect(page.locator("#retry")).to_have_count(0)
