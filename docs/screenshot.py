"""Take docs/screenshot.png: the editor page with a grant and the completion list open.

    .venv/bin/python docs/screenshot.py

Starts the site as the e2e tests do (gunicorn on a temporary SQLite database
with the samples loaded) and drives Debian's Chromium with Playwright.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from e2e.conftest import CHROMIUM, CHROMIUM_ARGS, start_server  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="dra-screenshot-") as tmp, sync_playwright() as p:
        server = start_server(Path(tmp))
        try:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1500, "height": 1000}, color_scheme="light")
            page.goto(server.url + "/")
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
            browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
