"""A paste over the site's upload limit: the page leads to "Use my cluster" (or the API), names no setting,
and marks the results still on screen as stale."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import summary

pytestmark = pytest.mark.e2e

# Over the default 1 MiB a request may carry: the inventory as loaded, then comment lines.
PADDING = "# " + "x" * 98 + "\n"


def test_an_inventory_over_the_upload_limit_leads_to_use_my_cluster(page: Page):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    if page.locator("#inventory-source").get_attribute("open") is None:
        page.locator("#inventory-source summary").click()
    # Pasted in one piece, as a person's Ctrl-V does.
    page.evaluate("""padding => {
        const cm = document.querySelector('#id_inventory').cm;
        cm.focus();
        cm.execCommand('selectAll');
        cm.replaceSelection(cm.getValue() + padding, null, 'paste');
    }""", PADDING * 11_000)
    status = page.locator("#request-status")
    expect(status).to_contain_text("Use my cluster")
    expect(status).to_contain_text("/api/v1/inventories")
    expect(status).not_to_contain_text("DATA_UPLOAD_MAX_MEMORY_SIZE")
    # The previous answer stays, marked as out of date.
    expect(page.locator("#results")).to_have_class("stale")
    expect(page.locator("#results-stale")).to_contain_text("Out of date")
    # The next answer that arrives is fresh again.
    page.evaluate("""() => {
        const cm = document.querySelector('#id_inventory').cm;
        cm.setValue(cm.getValue().split('\\n# xxxx')[0] + '\\n');
    }""")
    expect(page.locator("#results-stale")).to_have_count(0)
    expect(page.locator("#results")).not_to_have_class("stale")
    expect(summary(page)).to_contain_text("Allocated")
