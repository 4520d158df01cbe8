"""The review's rough edges on the page (issue 36, item 8): device tiles named briefly for screen readers and
announced as buttons, wrapped editor lines that hang instead of reading like a dedent."""

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.helpers import new_context, replace_text, summary

pytestmark = pytest.mark.e2e


def test_a_tile_is_a_button_named_by_its_device_not_its_attribute_dump(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("nvidia-mig")
    expect(page.locator("#picture")).to_contain_text("dgx-h100-01")
    expect(summary(page)).to_contain_text("Allocated")
    tile = page.locator("#picture .tile[data-device*='mig']").first
    expect(tile).to_have_role("button")
    name = tile.evaluate("t => t.querySelector('.tile-name').textContent")
    # The name is what the tile shows (its device, grant, containers), not every attribute it has.
    full = tile.get_attribute("title") or ""
    assert len(full) > 200, full  # a MIG partition's detail is long
    accessible = page.evaluate("""t => {
        const hidden = [...t.querySelectorAll('[aria-hidden="true"]')];
        return [...t.childNodes].filter(n => !hidden.includes(n)).map(n => n.textContent).join(' ')
            .replace(/\\s+/g, ' ').trim();
    }""", tile.element_handle())
    expect(tile).to_have_accessible_name(accessible)
    assert name in accessible and len(accessible) < 120, accessible
    # A button by role and by keyboard: Enter picks it for the console.
    tile.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#id_console_device")).to_have_value(tile.get_attribute("data-device"))


LONG_LINE = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: gpus\nspec:\n  devices:\n"
             "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n"
             "        selectors:\n        - cel:\n            expression: " + " && ".join(
                 [f'device.attributes["gpu.example.com"].model != "X{i}"' for i in range(6)]) + "\n")


def test_a_wrapped_line_hangs_right_of_its_indentation(browser: Browser, samples):
    context, problems = new_context(browser, samples.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto("/")
    expect(summary(page)).to_be_visible()
    replace_text(page, LONG_LINE)
    line = LONG_LINE.count("\n") - 1  # the expression's line, the last
    geometry = page.evaluate("""line => {
        const cm = document.querySelector('#id_documents').cm;
        const text = cm.getLine(line);
        const indent = text.search(/\\S/);
        const first = cm.charCoords({line, ch: indent}, 'local');
        let next = null;
        for (let ch = indent; ch < text.length; ch++) {
            const at = cm.charCoords({line, ch}, 'local');
            if (at.top > first.top + 2) { next = at; break; }
        }
        const zero = cm.charCoords({line: 0, ch: 0}, 'local');
        return {indentLeft: first.left, nextLeft: next && next.left, lineStart: zero.left};
    }""", line)
    assert geometry["nextLeft"] is not None, "the line did not wrap at 390 px"
    # The continuation starts right of where the line's text starts: it cannot be read as a dedent.
    assert geometry["nextLeft"] > geometry["indentLeft"], geometry
    # The first visual line keeps its place: its text starts at its indentation, as without wrapping.
    assert geometry["lineStart"] < geometry["indentLeft"]
    context.close()
    problems.check()


def completions_after(page: Page, expression: str) -> list[str]:
    """The completion list for the cursor at the end of a selector ``expression`` (Ctrl-Space)."""
    replace_text(page, LONG_LINE.split("expression: ")[0] + "expression: " + expression)
    page.keyboard.press("Control+Space")
    hints = page.locator(".CodeMirror-hints li")
    expect(hints.first).to_be_visible()
    texts = hints.all_inner_texts()
    page.keyboard.press("Escape")
    return texts


def test_completion_after_a_quantity_offers_a_quantity_s_methods_only(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    for quantity in ('device.capacity["gpu.example.com"].memory.', 'quantity("40Gi").'):
        texts = completions_after(page, quantity)
        assert any(t.startswith("isGreaterThan") for t in texts), texts
        assert not any(t.startswith(("includes", "startsWith")) for t in texts), (quantity, texts)
    # includes() is for attributes: still offered on one.
    texts = completions_after(page, 'device.attributes["gpu.example.com"].model.')
    assert any(t.startswith("includes") for t in texts) and any(t.startswith("startsWith") for t in texts), texts


def test_a_share_brings_back_how_many_fit_s_result(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    panel = page.locator("#capacity-panel")
    panel.get_by_label("Copies", exact=True).fill("3")
    with page.expect_response("**/capacity"):
        page.locator("#capacity-button").click()
    expect(page.locator("#capacity-placed")).to_have_text("3")
    page.get_by_role("button", name="Share").click()
    url = page.locator("#share-url").input_value()
    page.goto(url)
    # The result is there on arrival, without pressing Run.
    expect(page.locator("#capacity-placed")).to_have_text("3")
    expect(page.locator("#capacity-summary")).to_contain_text("all the copies asked for fit")
    # A share made without running it shows the settings only, as before.
    page.goto("/examples/count-two-gpus")
    panel.get_by_label("Copies", exact=True).fill("2")
    page.get_by_role("button", name="Share").click()
    expect(page.locator("#share-url")).not_to_have_value(url)
    page.goto(page.locator("#share-url").input_value())
    expect(panel.get_by_label("Copies", exact=True)).to_have_value("2")
    expect(page.locator("#capacity-placed")).to_have_count(0)


def test_the_first_demo_of_how_many_fit_fills_the_node(page: Page, samples):
    """The page's first example gives each pod copy a claim of its own: How many fit? counts what the node
    holds (8 GPUs, two a copy), not the site's maximum of copies sharing one claim."""
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    with page.expect_response("**/capacity"):
        page.locator("#capacity-button").click()
    expect(page.locator("#capacity-placed")).to_have_text("4")
    expect(page.locator("#capacity-summary")).to_contain_text("copy 5 fits on no node")
