import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e


def test_it_shows_title_and_regions(page: Page):
    page.goto("/")
    expect(page).to_have_title("DRA Playground")
    expect(page.get_by_role("heading", level=1)).to_have_text("DRA Playground")
    for region in ("#intro", "#editor", "#results"):
        expect(page.locator(region)).to_be_visible()
    # The vendored htmx loaded, and every htmx request will carry the CSRF token.
    assert page.evaluate("htmx.version") == "2.0.11"
    expect(page.locator("body")).to_have_attribute("hx-headers", re.compile(r'"x-csrftoken": "\w+"'))


def test_it_links_to_api_docs(page: Page):
    page.goto("/")
    page.get_by_role("link", name="API documentation").click()
    expect(page).to_have_url(re.compile(r"/api/docs/$"))


def test_it_renders_swagger_ui_with_schema(page: Page):
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("DRA Playground API")
    expect(page.locator(".swagger-ui .info")).to_contain_text("Dynamic Resource Allocation")
    expect(page.locator(".swagger-ui .errors-wrapper")).to_have_count(0)


def test_the_api_docs_link_back_to_the_editor(page: Page):
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("DRA Playground API")
    page.get_by_role("link", name="← DRA Playground").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("DRA Playground")
