"""Saved work is never silently lost: the tab keeps the edits for a reload, or says at once that it
cannot, and never brings back an older state as if it were the edits."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from e2e.helpers import editor

EXAMPLE = "/examples/count-two-gpus"


def paste_at_end(page: Page, text: str) -> None:
    """Paste text at the end of the claims editor, as Ctrl-V would (one change of the editor)."""
    page.evaluate("""text => {
        const cm = document.getElementById('id_documents').cm;
        cm.focus();
        cm.setCursor({line: cm.lastLine(), ch: cm.getLine(cm.lastLine()).length});
        cm.replaceSelection(text, 'end', 'paste');
    }""", text)


def stored_work(page: Page) -> str:
    return page.evaluate("sessionStorage.getItem('dra-playground:' + location.pathname) || ''")


def wait_until_stored(page: Page, text: str) -> None:
    """Wait (on the condition, up to 10 s) until the tab's stored work holds text."""
    deadline = time.monotonic() + 10
    while text not in stored_work(page):
        assert time.monotonic() < deadline, f"{text!r} never stored"
        page.wait_for_timeout(50)


def claims(page: Page) -> str:
    return page.evaluate("document.getElementById('id_documents').cm.getValue()")


def test_a_small_edit_comes_back_after_a_reload(page: Page, samples):
    page.goto(EXAMPLE)
    expect(editor(page)).to_be_visible()
    paste_at_end(page, "\n# my note\n")
    wait_until_stored(page, "my note")
    expect(page.locator("#keep-status")).to_be_empty()
    page.reload()
    expect(page.locator("#restored-status")).to_be_visible()
    assert "# my note" in claims(page)


def test_a_5_mb_paste_is_said_not_kept_and_no_older_state_comes_back(page: Page, samples):
    page.goto(EXAMPLE)
    expect(editor(page)).to_be_visible()
    served = claims(page)
    # An earlier edit, kept: the paste after it must not bring it back as "restored".
    paste_at_end(page, "\n# an earlier edit\n")
    wait_until_stored(page, "an earlier edit")
    line = "# " + "x" * 97 + "\n"  # 100 characters
    paste_at_end(page, line * (5 * 1024 * 1024 // len(line)))
    note = page.locator("#keep-status")
    expect(note).to_contain_text("too large for this browser tab to keep")
    expect(note).to_have_attribute("role", "status")
    assert stored_work(page) == ""
    page.reload()
    expect(editor(page)).to_be_visible()
    expect(page.locator("#keep-status")).to_contain_text("were too large to keep")
    expect(page.locator("#restored-status")).to_be_hidden()
    assert claims(page) == served  # the page as served, not the earlier edit
    # The next edit that fits is kept again, and the note goes.
    paste_at_end(page, "\n# a new edit\n")
    expect(page.locator("#keep-status")).to_be_empty()
    page.reload()
    expect(page.locator("#restored-status")).to_be_visible()
    assert "# a new edit" in claims(page)
