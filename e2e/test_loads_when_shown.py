"""A section that loads itself once shown (the picture's drawing, the comparison with folded tools) says so in
place when its request gets no answer, and Try again asks once more. The test makes the browser's requests
for that route fail (page.route): cut off, or answered with the server's own time budget answer."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from allocator.reading.deadline import BudgetExceeded
from e2e.helpers import editor, summary, swapped_in
from playground import budget

pytestmark = pytest.mark.e2e

LOADED = 30_000  # ms: on a busy machine an answer can take seconds
RAN_OUT = BudgetExceeded(20, {"phase": "searching", "node": "dgx-h100-01"})


def out_of_time(route: Route) -> None:
    """The server's answer when an analysis runs out of its time budget (playground/budget.py)."""
    answer = budget.answer(RAN_OUT)
    route.fulfill(status=answer.status_code, headers={budget.HEADER: answer[budget.HEADER]},
                  content_type="application/json", body=answer.content)


def keystroke(page: Page) -> None:
    """One more character at the end of the claims; returns once the live update's answer is on the page."""
    with swapped_in(page, "results", "/"):
        editor(page).click()
        page.keyboard.press("Control+End")
        page.keyboard.type("#")


def test_a_drawing_that_gets_no_answer_says_so_and_try_again_draws_it(page: Page, samples):
    page.set_viewport_size({"width": 1280, "height": 420})  # the picture starts below the fold
    page.goto("/examples/mig-same-parent")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    keystroke(page)  # with the picture off screen: its outline comes, to be drawn once scrolled to
    picture = page.locator("#picture")
    expect(page.locator("#picture-loading")).to_be_attached()

    # The server cannot be reached: said in place of "Drawing the devices…".
    page.route("**/picture", lambda route: route.abort())
    picture.scroll_into_view_if_needed()
    failed = page.locator("#picture-failed")
    expect(failed).to_have_text("Not loaded: the drawing of the devices: the server cannot be reached. Try again",
                                timeout=LOADED)
    expect(failed).to_have_attribute("role", "alert")
    expect(page.locator("#picture-loading")).to_be_hidden()

    # Again, and this time the server's time budget runs out: its words, and Try again once more.
    page.unroute("**/picture")
    page.route("**/picture", out_of_time)
    failed.get_by_role("button", name="Try again").click()
    expect(failed).to_contain_text(f"Stopped: the {RAN_OUT.message}. Make the selector cheaper", timeout=LOADED)
    expect(failed.get_by_role("button", name="Try again")).to_be_visible()

    # The server answers: the drawing takes the outline's place.
    page.unroute("**/picture")
    with page.expect_response("**/picture", timeout=LOADED):
        failed.get_by_role("button", name="Try again").click()
    expect(picture.locator(".counter-group")).to_have_count(2)
    expect(page.locator("#picture-failed")).to_have_count(0)
    expect(page.locator("#picture-loading")).to_have_count(0)


def test_a_folded_comparison_that_runs_out_of_time_says_so_and_try_again_compares(page: Page, samples):
    page.goto("/examples/prioritized-list")
    expect(summary(page)).to_contain_text("Allocated on node l40s-node-2")
    page.get_by_label("Compare", exact=True).check()
    expect(page.locator("#differences-count")).to_have_text("No difference: both columns give the same outcome.")
    page.locator("#result-tools-summary").click()  # folded: a keystroke leaves the comparison to load when opened
    expect(page.locator("#result-tools")).not_to_have_attribute("open", "")
    keystroke(page)
    expect(page.locator("#compare-loading")).to_have_count(1)

    page.route("**/compare", out_of_time)
    page.locator("#result-tools-summary").click()
    failed = page.locator("#compare-failed")
    expect(failed).to_contain_text(f"Stopped: the {RAN_OUT.message}. Make the selector cheaper", timeout=LOADED)
    expect(page.locator("#compare-loading")).to_be_hidden()

    page.unroute("**/compare")
    with page.expect_response("**/compare", timeout=LOADED):
        failed.get_by_role("button", name="Try again").click()
    expect(page.locator("#compare-left .compare-summary")).to_contain_text("Allocated on node l40s-node-2")
    expect(page.locator("#differences-count")).to_have_text("No difference: both columns give the same outcome.")
    expect(page.locator("#compare-failed")).to_have_count(0)
