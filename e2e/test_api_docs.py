"""Swagger UI at /api/docs/: expand an endpoint, "Try it out", execute, see the answer."""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


@pytest.fixture
def inventory(samples) -> str:
    """The sample inventory gpu-node's YAML, as the API serves it."""
    with urllib.request.urlopen(samples.url + "/api/v1/inventories/gpu-node") as r:
        return json.load(r)["documents"]


def test_it_executes_a_request_from_the_docs(page: Page, inventory):
    page.goto("/api/docs/")
    operation = page.locator("#operations-Samples-inventories_retrieve")
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.locator("input[placeholder='slug']").fill("gpu-node")
    operation.get_by_role("button", name="Execute").click()
    response = operation.locator(".responses-table.live-responses-table .response")
    expect(response.locator(".response-col_status")).to_have_text("200")
    body = response.locator(".response-col_description .microlight").first
    expect(body).to_contain_text('"slug": "gpu-node"')
    assert json.loads(body.inner_text())["documents"] == inventory


def test_it_posts_yaml_from_the_docs(page: Page, inventory):
    page.goto("/api/docs/")
    operation = page.locator("#operations-Engine-validate")
    operation.locator(".opblock-summary").click()
    # The YAML body, with no inventory: the claim alone is valid.
    operation.locator(".opblock-section-request-body select.content-type").select_option("application/yaml")
    operation.get_by_role("button", name="Try it out").click()
    expect(operation.locator("textarea.body-param__text")).to_have_value(re.compile(r"^apiVersion: resource.k8s.io/v1"))
    operation.get_by_role("button", name="Execute").click()
    response = operation.locator(".responses-table.live-responses-table .response")
    expect(response.locator(".response-col_status")).to_have_text("200")
    expect(response.locator(".response-col_description .microlight").first).to_contain_text('"valid": true')
    expect(operation.locator(".curl-command")).to_contain_text("Content-Type: application/yaml")
