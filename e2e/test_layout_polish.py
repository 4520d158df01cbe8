"""Layout edges of the review: the capacity chart's labels inside the chart, the compare settings inside
their panel, and the compared columns side by side on a laptop's screen."""

import pytest
from playwright.sync_api import Browser, expect

from e2e.helpers import new_context, summary

pytestmark = pytest.mark.e2e


@pytest.fixture
def laptop(browser: Browser, samples):
    context, problems = new_context(browser, samples.url, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    yield page
    context.close()
    problems.check()


def test_the_capacity_chart_labels_start_inside_the_chart(laptop):
    page = laptop
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    page.get_by_label("Copies").fill("2")
    page.locator("#capacity-button").click()
    labels = page.locator("#capacity-chart svg.capacity-svg:visible text.chart-label")
    expect(labels.first).to_be_visible()
    # The node's long name is cut to fit the label column, never clipped at the chart's left edge.
    lefts = labels.evaluate_all("texts => texts.map(t => t.getBBox().x)")
    assert lefts and min(lefts) >= 0, lefts


def test_compare_settings_fit_their_panel_and_the_columns_stand_side_by_side(laptop):
    page = laptop
    page.goto("/examples/prioritized-list")
    expect(summary(page)).to_be_visible()
    page.get_by_label("Compare", exact=True).check()
    expect(page.locator("#compare")).to_be_visible()
    fieldset = page.locator("#compare-settings").bounding_box()
    panel = page.locator("#settings").bounding_box()
    assert fieldset["x"] + fieldset["width"] <= panel["x"] + panel["width"], (fieldset, panel)
    columns = page.locator(".compare-column")
    expect(columns).to_have_count(2)
    left, right = columns.nth(0).bounding_box(), columns.nth(1).bounding_box()
    assert left["y"] == right["y"] and left["x"] + left["width"] <= right["x"], (left, right)


def test_per_container_devices_keep_their_names_whole_on_a_laptop(laptop):
    # The review saw "gp u-0": the claim column kept to one line and squeezed the devices column. Now the
    # claim column wraps, the table stays inside its section, and a device's name is never split inside.
    page = laptop
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    section = page.locator("#containers")
    expect(section).to_be_attached()
    fits = section.evaluate("s => s.querySelector('table').scrollWidth <= s.clientWidth + 1")
    assert fits
    # Each device name (the text after the pool's slash) lies on one line: one client rect per name.
    lines = section.evaluate("""s => [...s.querySelectorAll('td:last-child code')].map(code => {
        const text = code.lastChild;  // the device name, after <wbr>
        const range = document.createRange();
        range.selectNodeContents(text);
        return [text.textContent, range.getClientRects().length];
    })""")
    assert lines and all(count == 1 for _, count in lines), lines
