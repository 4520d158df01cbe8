"""A pending claim the pod does not name is not the pod's: kube-scheduler binds the pod by its own claims
(issue 33: schedule-1.32-verdict-223c0ce5, the same on every release)."""

import pytest
from playwright.sync_api import Page, expect

from allocator.tests.workload.test_unnamed_claims import CLAIMS, INVENTORY, pod
from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e


def _custom_inventory(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, INVENTORY, name="inventory")


def test_a_claim_the_pod_does_not_name_does_not_keep_it_pending(page: Page, samples):
    _custom_inventory(page)
    replace_text(page, CLAIMS + pod("mine"))  # "other" asks for five devices of the node's one
    expect(summary(page)).to_contain_text("Allocated on node node-a")
    expect(page.locator("#claims-table")).to_contain_text("mine")
    expect(page.locator("#claims-table")).not_to_contain_text("other")


def test_a_pod_naming_no_claim_says_the_scheduler_leaves_the_claims_pending(page: Page, samples):
    _custom_inventory(page)
    replace_text(page, CLAIMS + pod())
    expect(summary(page)).to_contain_text("Nothing to allocate.")
    expect(summary(page)).to_contain_text("leaves default/mine, default/other pending")
