"""Security in the browser: no Content-Security-Policy violation on any page, framing rules.

The `page` fixture already fails a test on any CSP violation or JavaScript
error; these tests visit every kind of page and use it, so that a policy
change that breaks something shows up here by name.
"""

import re

import pytest
from playwright.sync_api import Page, expect

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
    expect(page.get_by_label("Node", exact=True).locator("option[value=l40s-node-2]")).to_have_count(1)
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
