"""The editor page's rough edges a new user hits (issue 24), each driven as that user would."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from allocator.synthetic import cluster_yaml
from e2e.helpers import ONE_GPU, editor, new_context, replace_text, summary

pytestmark = pytest.mark.e2e

BIG_CLUSTER = "/examples/gpu-cluster-four-h200"  # the 300-node sample cluster


def loads(page: Page) -> list[str]:
    """Records the sample loads the page sends (the picker's requests swap the whole #playground)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "")
            if r.method == "POST" and r.headers.get("hx-target") == "playground" else None)
    return sent


def test_a_reload_keeps_the_picked_sample_and_its_description(page: Page, samples):
    page.goto("/")
    expect(page.locator("#inventory-description")).to_contain_text("8 simulated GPUs")
    page.get_by_label("Sample inventory").select_option("mixed-cluster")
    expect(page.locator("#inventory-description")).to_contain_text("Four nodes")
    expect(page.locator("#picture")).to_contain_text("l40s-node-2")
    page.reload()
    expect(page.locator("#restored-status")).to_be_visible()
    expect(page.get_by_label("Sample inventory")).to_have_value("mixed-cluster")
    expect(page.locator("#inventory-description")).to_contain_text("Four nodes")
    expect(page.locator("#inventory-stale")).to_be_hidden()
    expect(page.locator("#picture")).to_contain_text("l40s-node-2")


def test_no_template_comment_shows_in_the_gates_or_the_results(page: Page, samples):
    page.goto("/")
    page.locator("#gate-picker summary").click()
    expect(page.locator("#gate-list")).to_be_visible()
    page.get_by_label("Compare", exact=True).check()
    expect(page.locator("#compare")).to_be_visible()
    replace_text(page, ONE_GPU)
    expect(page.locator("#claims-table")).to_contain_text("one-gpu")
    text = page.locator("body").inner_text()
    assert "{#" not in text and "Gate overrides" not in text, text[:2000]


def compare(page: Page) -> None:
    page.goto("/examples/prioritized-list")
    page.get_by_label("Compare", exact=True).check()
    settings = page.locator("#compare-settings")
    settings.get_by_label("Right column: inventory").select_option("gpu-node")
    expect(page.locator("#compare-right .compare-summary")).to_contain_text("would give up")
    expect(page.locator("#compare-left .compare-claims")).to_contain_text("l40s-node-2/gpu-0")


def test_compare_keeps_names_readable_on_a_phone_and_whole_on_a_wide_screen(page: Page, samples):
    page.set_viewport_size({"width": 390, "height": 844})
    compare(page)
    left, right = page.locator("#compare-left").bounding_box(), page.locator("#compare-right").bounding_box()
    assert right["y"] >= left["y"] + left["height"] - 1, (left, right)  # one above the other
    # No cell is squeezed to a letter a line: each is wider than a few letters (the tables in the
    # disclosures too), and no table is wider than its column.
    page.locator("#compare details > summary").evaluate_all("ss => ss.forEach(s => s.click())")
    widths = page.locator("#compare td").evaluate_all("cells => cells.map(c => c.getBoundingClientRect().width)")
    assert widths and min(widths) > 45, widths
    wide = page.locator("#compare table").evaluate_all(
        "ts => ts.filter(t => t.getBoundingClientRect().width > t.parentElement.getBoundingClientRect().width + 1)")
    assert wide == [], wide
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1440, "height": 900})
    expect(page.locator("#compare-left .compare-claims")).to_be_visible()
    # Nothing is clipped: the columns scroll nothing sideways, and each device name is inside its column.
    clipped = page.locator(".compare-column").evaluate_all(
        "cols => cols.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.id)")
    assert clipped == [], clipped
    outside = page.locator(".compare-column td code").evaluate_all("""codes => codes.filter(c => {
        const col = c.closest('.compare-column').getBoundingClientRect(), r = c.getBoundingClientRect();
        return r.right > col.right + 1 || r.left < col.left - 1; }).map(c => c.textContent)""")
    assert outside == [], outside
    # Given the room (the splitter moved left), the columns sit side by side, still whole.
    page.locator("#splitter").focus()
    page.keyboard.press("Home")
    left, right = page.locator("#compare-left").bounding_box(), page.locator("#compare-right").bounding_box()
    assert abs(left["y"] - right["y"]) < 2 and right["x"] >= left["x"] + left["width"], (left, right)
    clipped = page.locator(".compare-column").evaluate_all(
        "cols => cols.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.id)")
    assert clipped == [], clipped


def test_show_and_hide_other_grants_keep_the_focus_on_the_toggle(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    page.get_by_role("button", name="Show other grants").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#grant-list .grant")).to_have_count(10)
    expect(page.locator("#hide-grants")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#grant-list .grant")).to_have_count(0)
    expect(page.locator("#show-grants")).to_be_focused()


def test_arrowing_through_the_samples_loads_only_the_one_stopped_at(page: Page, samples):
    page.goto("/")
    sent = loads(page)
    picker = page.get_by_label("Sample inventory")
    picker.focus()
    for _ in range(3):  # gpu-node -> gpu-rdma-pcie -> mixed-cluster -> network-attached
        page.keyboard.press("ArrowDown")
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    assert sent == [], sent  # passing a sample does not load it
    expect(page.locator("#inventory-description")).to_contain_text("Devices not tied to one node", timeout=5000)
    assert len(sent) == 1 and "network-attached" in sent[0], sent
    expect(page.get_by_label("Sample inventory")).to_be_focused()  # the new picker has the focus
    # Enter loads at once; so does a pick with the mouse.
    page.get_by_label("Sample inventory").focus()
    page.keyboard.press("ArrowUp")
    # "At once" is measured by when the request leaves (well before the keys' 1 s pause), not by when a
    # busy machine has answered it.
    page.keyboard.press("Enter")
    page.wait_for_timeout(400)
    assert len(sent) == 2 and "mixed-cluster" in sent[1], sent
    expect(page.locator("#inventory-description")).to_contain_text("Four nodes")
    page.get_by_label("Sample inventory").select_option("gpu-node")
    page.wait_for_timeout(400)
    assert len(sent) == 3, sent
    expect(page.locator("#inventory-description")).to_contain_text("8 simulated GPUs")
    # Arrowing, then leaving with Tab, loads the one left on, and the focus stays where Tab put it.
    page.get_by_label("Sample inventory").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.wait_for_timeout(400)
    assert len(sent) == 4, sent
    expect(page.get_by_label("Sample inventory")).to_have_value("gpu-rdma-pcie")
    expect(page.locator("#inventory-description")).to_contain_text("EFA")
    assert page.evaluate("document.activeElement.closest('#my-cluster') !== null"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 80)")


def test_a_refused_pasted_cluster_comes_back_with_the_error(page: Page, samples):
    page.goto("/")
    page.locator("#my-cluster summary").click()
    broken = cluster_yaml(3, seed=11).replace("driver: gpu.nvidia.com", "driver: Not A Driver", 1)
    page.get_by_label("Or paste it").fill(broken)
    page.get_by_role("button", name="Store and use").click()
    expect(page.locator("#cluster-error")).to_contain_text("spec.driver")
    expect(page.get_by_label("Or paste it")).to_have_value(broken.replace("\r\n", "\n"))
    # Fixed in place, it is stored.
    page.get_by_label("Or paste it").fill(page.get_by_label("Or paste it").input_value().replace(
        "Not A Driver", "gpu.nvidia.com"))
    page.get_by_role("button", name="Store and use").click()
    expect(page.locator("#cluster-summary")).to_contain_text("3 nodes")


def test_a_new_verdict_is_brought_into_view_in_a_scrolled_results_pane(page: Page, samples):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    results = page.locator("#results")
    results.evaluate("r => { r.scrollTop = r.scrollHeight; }")
    assert results.evaluate("r => r.scrollTop") > 300
    replace_text(page, ONE_GPU.replace("deviceClassName", "deviceClassNam"))
    expect(summary(page)).to_contain_text("Not valid")
    page.wait_for_timeout(100)
    pane, verdict = results.bounding_box(), summary(page).bounding_box()
    assert pane["y"] <= verdict["y"] and verdict["y"] + verdict["height"] <= pane["y"] + pane["height"], (pane, verdict)
    # The same verdict again does not pull the pane back while one reads further down.
    results.evaluate("r => { r.scrollTop = r.scrollHeight; }")
    scrolled = results.evaluate("r => r.scrollTop")
    assert scrolled > 50, scrolled
    replace_text(page, ONE_GPU.replace("deviceClassName", "deviceClassNme"))
    expect(page.locator("#diagnostics")).to_contain_text("deviceClassNme")
    page.wait_for_timeout(100)
    assert results.evaluate("r => r.scrollTop") > 50


def test_the_matching_devices_name_the_node_and_every_name_can_be_seen(page: Page, samples):
    page.set_default_timeout(30_000)  # 300 nodes are read on the first request
    page.goto(BIG_CLUSTER)
    expect(summary(page)).to_contain_text("Allocated on node gpu-node-00003")
    first = page.locator("#requests details.request summary").first
    expect(first).to_contain_text(re.compile(r"\d+ of \d+ devices match on node gpu-node-00003"))
    # A group of nodes past the first 40: "and N more", then a disclosure shows them, by keyboard too.
    group = page.locator("#nodes tr.no-fit").first
    group.locator("summary").first.focus()
    page.keyboard.press("Enter")
    more_text = group.locator(".node-list").inner_text()
    more = int(re.search(r"and (\d+) more", more_text).group(1))
    listed = group.locator(".node-list code").count()
    disclosure = group.locator("details.more-list summary")
    expect(disclosure).to_have_text(f"Show the other {more}")
    expect(group.locator(".more-names")).to_be_hidden()
    disclosure.focus()
    page.keyboard.press("Enter")
    expect(group.locator(".more-names")).to_be_visible()
    expect(group.locator(".more-names code")).to_have_count(more)
    shown = group.locator(".node-list code, .more-names code").all_inner_texts()
    assert len(set(shown)) == listed + more, shown
    # The names wrap in the pane: nothing sideways.
    assert page.evaluate("(r => r.scrollWidth <= r.clientWidth + 1)(document.getElementById('results'))")


def test_the_node_picker_is_a_field_that_filters_a_thousand_names(page: Page, samples):
    page.set_default_timeout(30_000)
    page.goto(BIG_CLUSTER)
    expect(summary(page)).to_contain_text("Allocated on node gpu-node-00003")
    node = page.get_by_label("Node", exact=True)
    assert node.evaluate("n => n.tagName + ' ' + n.type + ' ' + n.list.id") == "INPUT search node-names"
    expect(page.locator("#node-names option")).to_have_count(300)
    expect(node).to_have_attribute("placeholder", "Automatic: try every node")
    # Typing a partial name sends nothing; a whole one analyses on that node.
    posts = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    node.click()
    page.keyboard.type("gpu-node-0001", delay=20)
    page.wait_for_timeout(700)
    assert posts == [], [p.post_data for p in posts]
    page.keyboard.type("3")
    expect(summary(page)).to_contain_text(re.compile(r"on node gpu-node-00013"))
    # A name the inventory lacks is said so, on Enter; emptied, every node is tried again.
    node.fill("no-such-node")
    page.keyboard.press("Enter")
    expect(page.locator("#node-missing")).to_contain_text("no-such-node is not in the inventory")
    expect(page).to_have_url(re.compile(r"/examples/gpu-cluster-four-h200$"))  # no page submission
    node.fill("")
    expect(summary(page)).to_contain_text("Allocated on node gpu-node-00003")
    expect(page.locator("#node-missing")).to_be_hidden()
    # The tab keeps the node over a reload, as it keeps the rest of the form.
    node.fill("gpu-node-00013")
    expect(summary(page)).to_contain_text("on node gpu-node-00013")
    page.wait_for_timeout(400)
    page.reload()
    expect(page.get_by_label("Node", exact=True)).to_have_value("gpu-node-00013")
    expect(summary(page)).to_contain_text("on node gpu-node-00013")


def test_without_script_enter_in_the_node_field_analyzes_and_keeps_an_edited_inventory(browser: Browser, samples):
    context, _ = new_context(browser, samples.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/")
        page.locator("#inventory-source summary").click()
        inventory = page.get_by_label("Inventory objects (YAML)")
        inventory.fill(inventory.input_value().replace("name: gpu-7", "name: gpu-77"))
        page.get_by_label("Node", exact=True).fill("dra-example-driver-cluster-worker")
        page.keyboard.press("Enter")
        expect(summary(page)).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
        expect(page.locator("#picture")).to_contain_text("gpu-77")  # analyzed as edited, not loaded again
        expect(page.get_by_label("Node", exact=True)).to_have_value("dra-example-driver-cluster-worker")
    finally:
        context.close()


def test_the_formatted_note_goes_away_on_the_next_edit(page: Page, samples):
    page.goto("/")
    replace_text(page, ONE_GPU.replace("  name: one-gpu", "     name: one-gpu").replace("metadata:\n", "metadata:   \n"))
    page.get_by_role("button", name="Format", exact=True).click()
    status = page.locator("#editor-status")
    expect(status).to_contain_text("The claims were formatted")
    editor(page).click()
    page.keyboard.press("End")
    page.keyboard.type("x")
    expect(status).to_have_text("")
    expect(status).to_be_hidden()


def test_the_editor_and_results_start_near_the_top_at_1440_by_900(page: Page, samples):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")

    def box(selector: str) -> dict:
        return page.locator(selector).first.bounding_box()

    code, results = box("#editor .CodeMirror"), box("#results")
    assert code["y"] < 480, code  # was about 650 px down
    lines = page.locator("#editor .CodeMirror-line").evaluate_all(
        "ls => ls.filter(l => l.getBoundingClientRect().bottom <= innerHeight).length")
    assert lines >= 20, lines  # was 11
    assert results["y"] < 160, results
    # Every picker is in reach without scrolling: the sample, the node and the release.
    for selector in ("#id_inventory_slug", "#id_node", "#id_kubernetes_version", "#run-button"):
        b = box(selector)
        assert 0 <= b["y"] and b["y"] + b["height"] <= 900 and b["x"] + b["width"] <= 1440, (selector, b)
    # The results sit beside the form, not below it.
    assert results["x"] > code["x"] + code["width"] - 1, (code, results)
    # An open disclosure takes the row's width and pushes what follows down, not sideways.
    page.locator("#inventory-source summary").click()
    inventory_editor = box("#id_inventory + .CodeMirror")
    assert inventory_editor["width"] > 600, inventory_editor


def test_the_phone_layout_has_no_sideways_scroll_in_either_theme(page: Page, samples):
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto("/")
        expect(summary(page)).to_contain_text("Allocated")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # The answer first (where the eye goes on arrival), then the form, then the picture below the editor.
        order = [page.locator(s).bounding_box()["y"] for s in ("#result-summary", "#allocation", "#id_inventory_slug",
                                                               "#id_node", "#editor .CodeMirror", "#picture")]
        assert order == sorted(order), order
