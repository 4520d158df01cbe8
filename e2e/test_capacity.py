"""The "How many fit?" panel: run it on a sample and on the sample GPU cluster, read the count and the tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from allocator.synthetic import cluster_yaml
from e2e.helpers import TWO_H200, capacity_table, copies_placed, new_context, replace_text, run_capacity

pytestmark = pytest.mark.e2e


def test_the_panel_on_a_sample_counts_copies_and_keeps_its_settings(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    panel = page.locator("#capacity-panel")
    expect(panel).to_contain_text("breaks ties at random")
    run_capacity(page)
    # As many as fit: a claim of two GPUs, on the sample's one node of eight.
    count = copies_placed(page)
    assert count == 4
    expect(page.locator("#capacity-summary")).to_contain_text(f"copy {count + 1} fits on no node")
    nodes = capacity_table(page, "capacity-nodes")
    assert nodes == [["dra-example-driver-cluster-worker", "4", "8", "8"]], nodes
    pools = capacity_table(page, "capacity-pools")
    assert [row[3:] for row in pools] == [["8", "8"]], pools
    # The chart is drawn from the same rows, and says what it shows.
    chart = page.locator("#capacity-chart svg.capacity-svg-wide")  # a laptop's: the narrow one is a phone's
    expect(chart).to_have_attribute("role", "img")
    expect(chart.locator("title")).to_contain_text(f"after {count} cop")
    expect(chart.locator("rect.chart-node")).to_have_count(len(nodes))
    expect(page.locator("#capacity-next")).to_contain_text(f"Why copy {count + 1} does not fit")
    # Fewer than fit: all placed, nothing to explain.
    panel.get_by_label("Node choice", exact=True).select_option("pack")
    with page.expect_response("**/capacity"):  # Enter in the count runs the panel
        panel.get_by_label("Copies", exact=True).fill("1")
        panel.get_by_label("Copies", exact=True).press("Enter")
    expect(page.locator("#capacity-summary")).to_contain_text("(pack, 1 asked)")
    expect(page.locator("#capacity-summary")).to_contain_text("all the copies asked for fit")
    assert copies_placed(page) == 1
    expect(page.locator("#capacity-next")).to_have_count(0)
    # A count over the site's maximum is refused in the panel, and can be put right there.
    with page.expect_response("**/capacity"):
        panel.get_by_label("Copies", exact=True).fill("9999")
        page.locator("#capacity-button").click()
    expect(page.locator("#capacity-errors")).to_contain_text("less than or equal to 1000")
    run_capacity(page, "1", "pack")
    assert copies_placed(page) == 1
    # The count and the node choice are part of the page's state: a reload keeps them.
    page.reload()
    expect(panel.get_by_label("Copies", exact=True)).to_have_value("1")
    expect(panel.get_by_label("Node choice", exact=True)).to_have_value("pack")
    # ... and so does a share.
    page.get_by_role("button", name="Share").click()
    url = page.locator("#share-url").input_value()
    page.goto(url)
    expect(panel.get_by_label("Copies", exact=True)).to_have_value("1")
    expect(panel.get_by_label("Node choice", exact=True)).to_have_value("pack")


def test_the_panel_fits_a_phone(page: Page, samples):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/examples/count-two-gpus")
    run_capacity(page)
    assert copies_placed(page) == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    chart = page.locator("#capacity-chart svg.capacity-svg-narrow")
    expect(chart).to_be_visible()
    expect(page.locator("#capacity-chart svg.capacity-svg-wide")).to_be_hidden()
    box = chart.bounding_box()
    assert box and box["width"] <= 390, box
    # Its text is readable: 12 px text drawn at 11 px or more on the screen (the wide chart drew it at 7).
    heights = chart.locator("text").evaluate_all(
        "texts => texts.map(t => 12 * t.ownerSVGElement.getScreenCTM().a)")
    assert heights and min(heights) >= 11, heights
    expect(page.locator("#capacity-nodes")).to_be_visible()


def test_the_panel_on_the_sample_gpu_cluster(page: Page, samples):
    page.set_default_timeout(30_000)  # 300 nodes are read on the first request
    page.goto("/examples/gpu-cluster-four-h200")
    expect(page.locator("#cluster-summary")).to_contain_text("300 nodes")
    run_capacity(page, "5", "spread")
    assert copies_placed(page) == 5
    # 600 rows: the tables wait behind their summary, the chart draws the nodes in use first.
    data = page.locator("#capacity-data")
    expect(data).not_to_have_attribute("open", "")
    data.locator("summary").click()
    expect(page.locator("#capacity-nodes")).to_be_visible()
    expect(page.locator("#capacity-chart svg.capacity-svg-wide rect.chart-node")).to_have_count(24)
    nodes = capacity_table(page, "capacity-nodes")
    used = [row for row in nodes if int(row[1])]
    # Spread: five copies on five nodes, four GPUs each.
    assert len(used) == 5 and all(row[1:3] == ["1", "4"] for row in used), used
    run_capacity(page, "", "pack")
    expect(page.locator("#capacity-next")).to_be_visible()  # the new answer is in (its response came first)
    count = copies_placed(page)
    assert sum(int(row[1]) for row in capacity_table(page, "capacity-nodes")) == count


def test_the_panel_on_a_pasted_cluster(page: Page, samples):
    page.goto("/")
    page.locator("#my-cluster summary").click()
    page.get_by_label("Or paste it").fill(cluster_yaml(3, seed=11))
    page.get_by_role("button", name="Store and use").click()
    expect(page.locator("#cluster-summary")).to_contain_text("3 nodes, 24 devices in 3 pools")
    replace_text(page, TWO_H200.replace("count: 2", "count: 1"))
    expect(page.locator("#result-summary")).to_contain_text("Allocated on node gpu-node-00001")  # its H200 node
    run_capacity(page)
    count = copies_placed(page)
    nodes = capacity_table(page, "capacity-nodes")
    # Only the H200 node takes copies, one GPU each, until its GPUs are used up.
    assert [row[0] for row in nodes] == ["gpu-node-00000", "gpu-node-00001", "gpu-node-00002"], nodes
    assert [row[1] for row in nodes] == ["0", str(count), "0"] and nodes[1][2] == nodes[1][3] == str(count), nodes
    expect(page.locator("#capacity-next")).to_contain_text(f"Why copy {count + 1} does not fit")


def test_without_script_the_panel_posts_the_page(browser, samples):
    context, problems = new_context(browser, samples.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_label("Copies", exact=True).fill("1")
        page.locator("#capacity-button").click()
        expect(page.locator("#result-summary")).to_contain_text("Allocated")
        expect(page.locator("#capacity-placed")).to_have_text("1")
        expect(page.get_by_label("Copies", exact=True)).to_have_value("1")
    finally:
        context.close()
    problems.check()
