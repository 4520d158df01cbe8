"""Take the screenshots of the README and docs/features.md with Playwright.

    .venv/bin/python docs/screenshot.py            # docs/screenshot.png (README): a grant, the completion list open
    .venv/bin/python docs/screenshot.py compare    # docs/compare.png (features.md): two columns and the other grants
    .venv/bin/python docs/screenshot.py partitionable  # docs/partitionable.png (features.md): a GPU's counters and partitions

Starts the site as the e2e tests do (gunicorn on a temporary SQLite database
with the samples loaded) and drives Debian's Chromium with Playwright.
"""

import base64
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from e2e.helpers import start_server  # noqa: E402


def editor(page, url: str) -> None:
    page.goto(url + "/")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    # The cursor just after the first `deviceClassName: `, then Ctrl-Space.
    page.evaluate("""() => { const cm = document.getElementById('id_documents').cm;
        for (let i = 0; i < cm.lineCount(); i++) {
          const at = cm.getLine(i).indexOf('deviceClassName: ');
          if (at >= 0) { cm.focus(); cm.setCursor(i, at + 'deviceClassName: '.length); return; }
        } }""")
    page.keyboard.press("Control+Space")
    expect(page.locator(".CodeMirror-hints")).to_be_visible()
    page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))


def compare(page, url: str) -> None:
    """The DRAPrioritizedList on/off example's columns, beside the PCIe example's other grants, hovered."""
    page.goto(url + "/examples/prioritized-list-off-on")
    expect(page.locator("#compare-right .compare-summary")).to_contain_text("Not valid")
    page.locator("#splitter").focus()
    page.keyboard.press("Home")  # the results as wide as they go
    columns = page.locator("#compare").screenshot()
    page.goto(url + "/examples/pcie-root-other-grants")
    page.locator("#splitter").focus()
    page.keyboard.press("Home")
    grants = page.locator("#grant-list .grant")
    expect(grants).to_have_count(4)
    page.mouse.move(0, 0)
    grants.nth(1).focus()  # as hovering does, and it stays while the screenshots scroll
    expect(page.locator("#picture .tile.alternative")).to_have_count(2)
    page.locator("#picture").scroll_into_view_if_needed()
    # One picture: the columns above, the picture with the hovered grant's GPUs and the list below.
    picture = page.locator("#picture").screenshot()
    listing = page.locator("#alternatives").screenshot()
    page.set_content("<body style='margin:0;background:#fff'>" + "".join(
        f"<img style='display:block;max-width:100%' src='data:image/png;base64,{base64.b64encode(shot).decode()}'>"
        for shot in (columns, picture, listing)) + "</body>")
    page.locator("body").screenshot(path=str(ROOT / "docs" / "compare.png"))


def partitionable(page, url: str) -> None:
    """The nvidia-mig sample with two partitions of gpu-0 granted: its counter set's bars, and a partition
    hovered: the counters it needs outlined, the placements it excludes struck through."""
    page.goto(url + "/examples/mig-same-parent")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    page.locator("#splitter").focus()
    page.keyboard.press("Home")
    group = page.locator("#picture .counter-group").first
    group.scroll_into_view_if_needed()
    page.locator("#picture .tile[data-name='gpu-0-mig-1g10gb-19-4']").hover()
    expect(page.locator("#picture .tile.excluded")).to_have_count(3)
    page.screenshot(path=str(ROOT / "docs" / "partitionable.png"), clip=group.bounding_box())


SHOTS = {"editor": editor, "compare": compare, "partitionable": partitionable}


def main(which: str = "editor") -> None:
    with tempfile.TemporaryDirectory(prefix="dra-screenshot-") as tmp, sync_playwright() as p:
        server = start_server(Path(tmp))
        try:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1500, "height": 1000}, color_scheme="light")
            SHOTS[which](page, server.url)
            browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(*sys.argv[1:2])
