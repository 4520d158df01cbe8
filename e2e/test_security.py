"""Security in the browser: no Content-Security-Policy violation on any page, framing rules.

The `page` fixture already fails a test on any CSP violation or JavaScript
error; these tests visit every kind of page and use it, so that a policy
change that breaks something shows up here by name.
"""

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.helpers import new_context

pytestmark = pytest.mark.e2e

# One line (flow style), so that the editor's auto-indent does not change what is typed.
CLAIM = ("{apiVersion: resource.k8s.io/v1, kind: ResourceClaim, metadata: {name: typed-claim}, "
         "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}}")


def csp_of(page: Page, path: str) -> str:
    response = page.goto(path)
    assert response is not None and response.ok, path
    return response.headers["content-security-policy"]


def type_claim(page: Page, text: str) -> None:
    page.locator("#id_documents + .CodeMirror").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    # Typed key by key, as a person would: every keystroke goes through the live-edit listener.
    page.keyboard.type(text, delay=2)


def test_it_types_live_on_the_editor_without_violations(page: Page, samples):
    policy = csp_of(page, "/")
    assert "script-src 'self'" in policy and "unsafe" not in policy, policy
    assert page.evaluate("htmx.config.allowEval") is False
    type_claim(page, CLAIM)
    expect(page.locator("#claims-table")).to_contain_text("typed-claim")
    # The request indicator is styled by our style sheet, not by htmx's inline <style>.
    assert page.locator("head style").count() == 0
    expect(page.locator("#busy")).to_have_css("opacity", "0")
    # Switching the inventory swaps the whole editor (hx-select), still without violations.
    page.get_by_label("Sample inventory").select_option("mixed-cluster")
    expect(page.locator("#node-names option[value=l40s-node-2]")).to_have_count(1)
    type_claim(page, CLAIM.replace("typed-claim", "second-claim"))
    expect(page.locator("#result-summary")).to_contain_text("second-claim")


def test_it_has_no_violations_in_the_gallery_and_an_example(page: Page, samples):
    csp_of(page, "/examples/")
    expect(page.locator("#examples .card").first).to_be_visible()
    page.locator("#examples .card h2 a").first.click()
    expect(page.locator("#example-banner")).to_be_visible()
    expect(page.locator("#result-summary")).to_be_visible()
    page.locator("#gate-picker summary").click()
    page.get_by_label("Kubernetes version").select_option("1.34")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.34")


def test_it_has_no_violations_on_a_share(page: Page, samples):
    csp_of(page, "/examples/count-two-gpus")
    type_claim(page, CLAIM)
    expect(page.locator("#claims-table")).to_contain_text("typed-claim")
    page.get_by_role("button", name="Share").click()
    expect(page).to_have_url(re.compile(r"/s/\w{11}$"))
    page.reload()
    expect(page.locator("#share-banner")).to_be_visible()
    expect(page.locator("#claims-table")).to_contain_text("typed-claim")
    page.get_by_role("button", name="Copy YAML").click()


def test_it_has_no_violations_in_the_api_docs(page: Page, samples):
    policy = csp_of(page, "/api/docs/")
    # Swagger UI's allowance (inline styles) is for the docs only, and scripts stay our own.
    assert "style-src 'self' 'unsafe-inline'" in policy, policy
    assert "script-src 'self';" in policy + ";", policy
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("DRA Playground API")
    operation = page.locator("#operations-Samples-examples_list")
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    expect(operation.locator(".live-responses-table .response .response-col_status")).to_have_text("200")


def share_id(page: Page) -> str:
    page.goto("/examples/count-two-gpus")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    page.get_by_role("button", name="Share").click()
    expect(page).to_have_url(re.compile(r"/s/\w{11}$"))
    return page.url.rsplit("/", 1)[1]


@contextmanager
def framing_site(html: str) -> Iterator[str]:
    """Another origin (its own loopback port) serving one page: ``html``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_only_the_embed_view_can_be_framed_by_another_site(page: Page, browser: Browser, samples):
    sid = share_id(page)
    html = (f'<iframe id="embed" src="{samples.url}/s/{sid}/embed"></iframe>'
            f'<iframe id="page" src="{samples.url}/s/{sid}"></iframe>')
    context, problems = new_context(browser, samples.url)
    try:
        with framing_site(html) as framer:
            other = context.new_page()
            other.goto(framer)
            embed = other.frame_locator("#embed")
            expect(embed.locator("#result-summary")).to_contain_text("Allocated")
            expect(embed.locator("#claims-table")).to_contain_text("two-gpus")
            expect(embed.locator("form, textarea")).to_have_count(0)
            # The share page refuses to be framed: nothing of it is shown.
            other.wait_for_load_state("load")
            expect(other.frame_locator("#page").locator("#share-banner")).to_have_count(0)
    finally:
        context.close()
    assert any("frame-ancestors 'none'" in v for v in problems.csp), problems.csp
    assert not problems.errors, problems.errors


def test_it_says_when_there_are_too_many_requests(browser: Browser, server_with):
    # Opening the editor counts as one analysis, each edit as one more: with the picture on screen the
    # edit's answer draws it (no request of its own follows).
    tight = server_with(PAGE_ANALYSES_PER_MINUTE="3", PAGE_SHARES_PER_MINUTE="1", WEB_CONCURRENCY="1")
    # The limiter counts per calendar minute: start early in one, so that the
    # three requests below fall in the same window.
    if time.time() % 60 > 40:
        time.sleep(61 - time.time() % 60)
    context, problems = new_context(browser, tight.url)
    try:
        page = context.new_page()
        page.goto("/")
        page.locator("#picture").scroll_into_view_if_needed()
        for name in ("first", "second", "third"):
            # One edit, one request (typing key by key on a busy machine may send more).
            page.locator("#id_documents + .CodeMirror").click()
            page.keyboard.press("Control+A")
            page.keyboard.insert_text(CLAIM.replace("typed-claim", name))
            if name != "third":
                expect(page.locator("#claims-table")).to_contain_text(name)
        status = page.locator("#request-status")
        expect(status).to_contain_text("Too many requests")
        expect(status).to_contain_text("more than 3 in a minute")
        # The results stay those of the last answer.
        expect(page.locator("#claims-table")).to_contain_text("second")
    finally:
        context.close()
    problems.check()
