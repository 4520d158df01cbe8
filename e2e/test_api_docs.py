"""Swagger UI at /api/docs/: expand an endpoint, "Try it out", execute, see the answer."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from playground.models import SampleInventory

pytestmark = pytest.mark.e2e

INVENTORY = """\
apiVersion: v1
kind: Node
metadata:
  name: worker-1
"""


@pytest.fixture
def inventory(transactional_db):
    return SampleInventory.objects.create(slug="one-node", title="One node", objects_yaml=INVENTORY)


def test_it_executes_a_request_from_the_docs(page: Page, inventory):
    page.goto("/api/docs/")
    operation = page.locator("#operations-Samples-inventories_retrieve")
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.locator("input[placeholder='slug']").fill("one-node")
    operation.get_by_role("button", name="Execute").click()
    response = operation.locator(".responses-table.live-responses-table .response")
    expect(response.locator(".response-col_status")).to_have_text("200")
    body = response.locator(".response-col_description .microlight").first
    expect(body).to_contain_text('"slug": "one-node"')
    assert json.loads(body.inner_text())["documents"] == INVENTORY


def test_it_posts_yaml_from_the_docs(page: Page, inventory):
    page.goto("/api/docs/")
    operation = page.locator("#operations-Engine-validate")
    operation.locator(".opblock-summary").click()
    # The JSON example is the default body; it names the gpu-node sample, absent here.
    operation.locator(".opblock-section-request-body select.content-type").select_option("application/yaml")
    operation.get_by_role("button", name="Try it out").click()
    expect(operation.locator("textarea.body-param__text")).to_have_value(re.compile(r"^apiVersion: resource.k8s.io/v1"))
    operation.get_by_role("button", name="Execute").click()
    response = operation.locator(".responses-table.live-responses-table .response")
    expect(response.locator(".response-col_status")).to_have_text("200")
    expect(response.locator(".response-col_description .microlight").first).to_contain_text('"valid": true')
    expect(operation.locator(".curl-command")).to_contain_text("Content-Type: application/yaml")
