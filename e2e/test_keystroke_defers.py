"""A keystroke computes only what the page shows (issue 37, item 5): after a live update the expression
console's answer loads by itself when the console is in view, and when folded tools are opened; with the
tools folded the comparison waits too, and loads when they are opened; the picture comes with the keystroke
when it is on screen, and as an outline drawn when scrolled to when it is not."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import editor, summary, swapped_in

pytestmark = pytest.mark.e2e

LOADED = 30_000  # ms: on a busy machine an answer can take seconds
GPU3 = "gpu.example.com/dra-example-driver-cluster-worker/gpu-3"


def keystroke(page: Page) -> None:
    """Type one more character at the end of the claims, as a person editing them; wait until the live
    update's answer is on the page."""
    with swapped_in(page, "results", "/"):
        editor(page).click()
        page.keyboard.press("Control+End")
        page.keyboard.type("#")


def into_view(page: Page, selector: str) -> None:
    """Scroll an element into view in one step in the page (the live update may be replacing it meanwhile)."""
    page.locator(selector).evaluate("e => e.scrollIntoView({block: 'center'})")


def test_the_console_answer_loads_after_a_keystroke(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    page.locator(f'#results .tile[data-device="{GPU3}"]').click()
    with page.expect_response("**/console", timeout=LOADED):
        editor(page, "console_expression").click()
        page.keyboard.type('device.attributes["gpu.example.com"].index')
    expect(page.locator("#console-value-text")).to_have_text("3")

    # A keystroke in the claims: the console's answer comes from its own request, once in view.
    with page.expect_response("**/console", timeout=LOADED):
        keystroke(page)
        into_view(page, "#console-result")
    expect(page.locator("#console-value-text")).to_have_text("3")
    expect(page.locator("#console-loading")).to_have_count(0)

    # Folded tools: nothing loads until they are opened.
    page.locator("#result-tools-summary").click()
    expect(page.locator("#result-tools")).not_to_have_attribute("open", "")
    keystroke(page)
    expect(page.locator("#console-loading")).to_have_count(1)
    with page.expect_response("**/console", timeout=LOADED):
        page.locator("#result-tools-summary").click()
        into_view(page, "#console-result")
    expect(page.locator("#console-value-text")).to_have_text("3")


def test_the_comparison_loads_when_folded_tools_are_opened(page: Page, samples):
    page.goto("/examples/prioritized-list")
    expect(summary(page)).to_contain_text("Allocated on node l40s-node-2")
    page.get_by_label("Compare", exact=True).check()
    expect(page.locator("#differences-count")).to_have_text("No difference: both columns give the same outcome.")

    # Folded tools: a keystroke leaves the comparison out, with a loader in its place.
    page.locator("#result-tools-summary").click()
    expect(page.locator("#result-tools")).not_to_have_attribute("open", "")
    keystroke(page)
    expect(page.locator("#compare-loading")).to_have_count(1)
    expect(page.locator("#compare-left")).to_have_count(0)
    expect(page.locator("#result-tools-summary")).to_contain_text("the comparison")

    # Opening them asks for it: both columns, as before.
    with page.expect_response("**/compare"):
        page.locator("#result-tools-summary").click()
    expect(page.locator("#compare-left .compare-summary")).to_contain_text("Allocated on node l40s-node-2")
    expect(page.locator("#compare-right .compare-summary")).to_contain_text("Allocated on node l40s-node-2")
    expect(page.locator("#differences-count")).to_have_text("No difference: both columns give the same outcome.")
    expect(page.locator("#compare-loading")).to_have_count(0)


def test_the_picture_is_drawn_when_it_comes_into_view(page: Page, samples):
    page.set_viewport_size({"width": 1280, "height": 420})  # the picture starts below the fold
    page.goto("/examples/mig-same-parent")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    picture = page.locator("#picture")
    expect(picture.locator(".counter-group")).to_have_count(2)
    drawn = picture.inner_html()  # the page's own drawing, made with the page
    assert not picture.evaluate("p => p.getBoundingClientRect().top < window.innerHeight")

    # A keystroke with the picture off screen: its answer has an outline, and nothing fetches the drawing.
    drawings = []
    page.on("request", lambda r: drawings.append(r) if r.url.endswith("/picture") else None)
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "results") as live:
        editor(page).click()
        page.keyboard.press("Control+End")
        page.keyboard.type("#")
    assert "picture_in_view=0" in (live.value.request.post_data or "")
    body = live.value.text()
    assert 'id="picture-loading"' in body
    assert 'class="tile' not in body and "counter-group" not in body
    expect(page.locator("#picture-loading")).to_have_count(1)
    page.wait_for_timeout(300)  # an observer that fired would have asked by now
    assert drawings == []

    # Scrolled into view, it is drawn: the same picture as the page had.
    with page.expect_response("**/picture"):
        page.locator("#picture").scroll_into_view_if_needed()
    expect(page.locator("#picture-loading")).to_have_count(0)
    expect(picture.locator(".counter-group")).to_have_count(2)
    assert picture.inner_html() == drawn
    assert len(drawings) == 1

    # Now on screen: the next keystroke's answer draws it, without a request of its own.
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "results") as live:
        editor(page).click()
        page.keyboard.press("Control+End")
        page.keyboard.type("#")
    assert "picture_in_view=1" in (live.value.request.post_data or "")
    expect(picture.locator(".counter-group")).to_have_count(2)
    page.wait_for_timeout(300)
    assert len(drawings) == 1


def test_a_picture_on_screen_comes_with_the_keystroke(page: Page, samples):
    page.goto("/examples/mig-same-parent")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    picture = page.locator("#picture")
    picture.locator(".counter-group").first.scroll_into_view_if_needed()
    drawn = picture.inner_html()

    # A keystroke with the picture on screen: the page says so, and the answer draws it; no second request.
    drawings = []
    page.on("request", lambda r: drawings.append(r) if r.url.endswith("/picture") else None)
    with page.expect_response(lambda r: r.request.headers.get("hx-target") == "results") as live:
        editor(page).click()
        page.keyboard.press("Control+End")
        page.keyboard.type("#")
    assert "picture_in_view=1" in (live.value.request.post_data or "")
    body = live.value.text()
    assert 'class="tile' in body and "counter-group" in body
    assert 'id="picture-loading"' not in body
    expect(picture.locator(".counter-group")).to_have_count(2)
    assert picture.inner_html() == drawn
    page.wait_for_timeout(300)  # a request for the drawing would have gone out by now
    assert drawings == []
