"""Compare (two columns over the same documents, differences marked) and "Show other grants" (the
allocations the scheduler's search reaches after its own, shown in the inventory picture)."""

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e


def test_the_compare_toggle_shows_two_columns_and_marks_the_difference(page: Page, samples):
    page.goto("/examples/prioritized-list")
    expect(summary(page)).to_contain_text("Allocated on node l40s-node-2")
    expect(page.locator("#compare")).to_have_count(0)
    page.get_by_label("Compare", exact=True).check()
    settings = page.locator("#compare-settings")
    expect(settings).to_be_visible()
    # Same settings on both sides at first: no difference.
    expect(page.locator("#differences-count")).to_have_text("No difference: both columns give the same outcome.")
    # 1.37 locks DRAPrioritizedList on: the right column's control says so, and the right column goes
    # back to 1.36 to turn it off.
    settings.locator("#compare-gate-picker summary").click()
    right_gate = settings.get_by_label("DRAPrioritizedList")
    expect(right_gate).to_be_disabled()
    expect(right_gate).to_have_attribute("title", "GA and locked to on in Kubernetes 1.37")
    settings.get_by_label("Right column: Kubernetes version").select_option("1.36")
    expect(right_gate).to_be_enabled()
    right_gate.select_option("off")
    right = page.locator("#compare-right")
    expect(right.locator(".compare-summary")).to_contain_text("Not valid")
    expect(right.locator(".compare-summary")).to_have_class(re.compile(r"\bdiffers\b"))
    expect(page.locator("#compare-left .compare-summary")).to_contain_text("Allocated on node l40s-node-2")
    expect(right).to_contain_text("DRAPrioritizedList=false")
    expect(page.locator("#compare-left .compare-claims tr.differs")).to_have_count(2)  # accel/l40s, viz: left only
    # A marked outcome stands out: its background is not the page's.
    background = right.locator(".compare-summary").evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")
    # Both columns are part of the share link.
    page.get_by_role("button", name="Share").click()
    link = page.locator("#share-url")
    expect(link).to_have_value(re.compile(r"/s/\w+$"))
    page.goto(link.input_value())
    expect(page.locator("#compare-right .compare-summary")).to_contain_text("Not valid")
    expect(page.get_by_label("Compare", exact=True)).to_be_checked()
    # Unticked: one column again.
    page.get_by_label("Compare", exact=True).uncheck()
    expect(page.locator("#compare")).to_have_count(0)
    expect(page.locator("#compare-settings")).to_be_hidden()


def test_show_other_grants_lists_them_and_hovering_one_shows_its_devices(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
    page.get_by_role("button", name="Show other grants").click()
    grants = page.locator("#grant-list .grant")
    expect(grants).to_have_count(10)
    expect(grants.first.locator(".badge")).to_have_text("the scheduler's")
    expect(page.locator("#alternatives-status")).to_contain_text("The first 10; there may be more")
    # The picture draws itself once in view (a live update sends it as an outline); then the first grant,
    # the scheduler's, highlights the granted devices.
    page.locator("#picture").scroll_into_view_if_needed()
    granted = page.locator("#picture .tile.granted")
    expect(granted).to_have_count(2)
    grants.first.hover()
    expect(page.locator("#picture .tile.alternative")).to_have_count(granted.count())
    assert page.locator("#picture .tile.alternative:not(.granted)").count() == 0
    # Another grant highlights other devices, each as the list says.
    second = grants.nth(1)
    second.hover()
    devices = second.get_attribute("data-devices").split()
    highlighted = page.locator("#picture .tile.alternative")
    expect(highlighted).to_have_count(len(devices))
    assert sorted(highlighted.evaluate_all("ts => ts.map(t => t.dataset.device)")) == sorted(devices)
    assert page.locator("#picture .tile.alternative:not(.granted)").count() >= 1
    page.locator("#results-heading").hover()
    expect(highlighted).to_have_count(0)
    # The list stays through edits, until hidden.
    replace_text(page, page.locator("#id_documents").input_value().replace("trainer", "learner"))
    expect(page.locator("#containers")).to_contain_text("learner/")
    expect(grants).to_have_count(10)
    page.get_by_role("button", name="Hide other grants").click()
    expect(grants).to_have_count(0)
    expect(page.get_by_role("button", name="Show other grants")).to_be_visible()
