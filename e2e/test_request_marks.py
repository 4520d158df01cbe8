"""A selector that filters is shown as such in the picture: pressing a request marks the devices that match
it and dims those its selectors filter out (static/request-marks.js), one request at a time."""

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import GPU, claim, replace_text, summary

pytestmark = pytest.mark.e2e


def button(page: Page, label: str):
    return page.locator("#request-marks .request-mark").filter(has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))


def test_pressing_a_request_marks_its_matching_devices_and_dims_the_filtered_ones(page: Page, samples):
    page.goto("/examples/mig-same-parent")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    marks = page.locator("#request-marks")
    expect(marks).to_contain_text("seen from node dgx-h100-01")
    small, large = button(page, "mig-pair / small"), button(page, "mig-pair / large")
    expect(small).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#picture .tile.request-match")).to_have_count(0)

    small.click()
    expect(small).to_have_attribute("aria-pressed", "true")
    matched = page.locator("#picture .tile.request-match")
    expect(matched).to_have_count(14)
    expect(page.locator("#picture .tile.request-filtered")).to_have_count(14)
    # Every marked tile is a 1g.10gb placement; the granted one among them.
    names = matched.evaluate_all("ts => ts.map(t => t.dataset.name)")
    assert all("-mig-1g10gb-" in name for name in names), names
    expect(page.locator("#picture .tile.request-match.granted")).to_have_count(1)
    expect(page.locator("#request-mark-status")).to_have_text(
        "Marked 14 matching devices of mig-pair / small; 14 filtered out by a selector.")

    large.click()  # one request at a time
    expect(small).to_have_attribute("aria-pressed", "false")
    expect(large).to_have_attribute("aria-pressed", "true")
    expect(matched).to_have_count(4)
    expect(page.locator("#picture .tile.request-filtered")).to_have_count(24)

    large.focus()
    page.keyboard.press("Enter")  # pressed again, from the keyboard: the marks go
    expect(large).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#picture .tile.request-match, #picture .tile.request-filtered")).to_have_count(0)
    expect(page.locator("#request-mark-status")).to_have_text("No request marked.")


def test_a_selector_typed_in_the_editor_is_shown_filtering_in_the_picture(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    button(page, "two-gpus / gpu").click()
    expect(page.locator("#picture .tile.request-match")).to_have_count(8)  # every GPU is the latest model
    # A selector true on two GPUs only: after the live update, the picture's new request says it filters.
    replace_text(page, claim(f"{GPU}.index >= 6"))
    marks = page.locator("#request-marks")
    expect(marks).to_contain_text("gpus / gpu-0")
    expect(marks).to_contain_text("2 of 8 match, 6 filtered out by a selector")
    expect(page.locator("#picture .tile.request-match")).to_have_count(0)  # new results, nothing pressed yet
    button(page, "gpus / gpu-0").click()
    matched = page.locator("#picture .tile.request-match")
    expect(matched).to_have_count(2)
    assert sorted(matched.evaluate_all("ts => ts.map(t => t.dataset.device.split('/').pop())")) == ["gpu-6", "gpu-7"]
    expect(page.locator("#picture .tile.request-filtered")).to_have_count(6)
