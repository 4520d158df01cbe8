"""The answer where the eye goes: at a phone's and a laptop's size, the verdict, the first error
(its message, linked to its line) and the allocation are on the first screen after load, before the
tools; the tools' fold is remembered in this browser."""

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.helpers import new_context, replace_text, summary

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1440, "height": 900}}

# The default starter with a typo in a field name: one error, located on its line.
INVALID = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassNam: gpu.example.com
"""


def on_first_screen(page: Page, selector: str) -> None:
    """The element's box lies within the viewport's height, scrolled to the top."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not displayed"
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{selector} at {box}, viewport {height}"


@pytest.fixture(params=list(SIZES))
def sized_page(request, browser: Browser, server):
    context, problems = new_context(browser, server.url, viewport=SIZES[request.param])
    page = context.new_page()
    yield page
    context.close()
    problems.check()


def test_the_verdict_and_the_allocation_come_first(sized_page: Page):
    page = sized_page
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    expect(page.locator("#claims-table")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    on_first_screen(page, "#result-summary")
    on_first_screen(page, "#claims-table tbody tr")
    # The tools come after the answer, not between the verdict and it.
    order = page.evaluate("""() => ['#result-summary', '#diagnostics', '#allocation', '#picture', '#result-tools']
        .map(s => document.querySelector(s).getBoundingClientRect().top)""")
    assert order == sorted(order)


def test_an_error_is_named_in_the_verdict_and_linked_to_its_line(sized_page: Page):
    page = sized_page
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    replace_text(page, INVALID)
    expect(summary(page)).to_contain_text("Not valid")
    first = page.locator("#first-error")
    expect(first).to_contain_text("deviceClassNam")
    page.evaluate("window.scrollTo(0, 0)")
    if page.locator("#results").evaluate("r => r.scrollTop") != 0:
        page.locator("#results").evaluate("r => r.scrollTop = 0")
    on_first_screen(page, "#result-summary")
    on_first_screen(page, "#first-error")
    # The link puts the editor's cursor on the line of the error.
    first.get_by_role("link", name="line 10").click()
    cursor_line = page.evaluate("document.querySelector('#id_documents').cm.getCursor().line")
    assert cursor_line == 9


def test_the_tools_fold_is_remembered(page: Page):
    page.goto("/")
    tools = page.locator("#result-tools")
    expect(tools).to_have_attribute("open", "")
    page.locator("#result-tools-summary").click()
    expect(tools).not_to_have_attribute("open", "")
    # A live update re-renders the results: the tools stay folded, and so after a reload.
    replace_text(page, INVALID)
    expect(summary(page)).to_contain_text("Not valid")
    expect(page.locator("#result-tools")).not_to_have_attribute("open", "")
    page.reload()
    expect(summary(page)).to_be_visible()
    expect(page.locator("#result-tools")).not_to_have_attribute("open", "")
    page.locator("#result-tools-summary").click()
    page.reload()
    expect(page.locator("#result-tools")).to_have_attribute("open", "")


# Every run of letters in the results' tables, and the number of lines it takes (more than one: it broke
# mid-word, "Clai m"). Hyphens, dots and slashes may still break a long name.
WORDS_ON_LINES = """() => {
  const broken = [];
  document.querySelectorAll('#results table').forEach(table => {
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/[A-Za-z]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
  });
  return broken;
}"""


def test_words_in_the_result_tables_break_only_between_words(sized_page: Page):
    page = sized_page
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    expect(page.locator("#containers")).to_be_visible()
    assert page.evaluate(WORDS_ON_LINES) == []
