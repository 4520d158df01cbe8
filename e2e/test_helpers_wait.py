"""The helpers that run something on the page return once its answer is on the page, not when its response
arrives: htmx swaps an answer in a moment after the response, so a test reading the page at once could see
the previous one. Here htmx is made to swap late (htmx.config.defaultSwapDelay), and the page is read at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import run_capacity, summary, type_expression

pytestmark = pytest.mark.e2e

LATE_SWAP = "htmx.config.defaultSwapDelay = 1000"  # ms between the response and its swap


def text_now(page: Page, element_id: str) -> str | None:
    """The element's text as the page has it at this moment (a locator would wait for the element)."""
    return page.evaluate("id => document.getElementById(id)?.textContent ?? null", element_id)


def test_run_capacity_returns_once_its_answer_is_on_the_page(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    page.evaluate(LATE_SWAP)
    run_capacity(page)
    assert text_now(page, "capacity-placed") == "4"


def test_type_expression_returns_once_its_answer_is_on_the_page(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    page.locator('#results .tile[data-device="gpu.example.com/dra-example-driver-cluster-worker/gpu-3"]').click()
    page.evaluate(LATE_SWAP)
    type_expression(page, 'device.attributes["gpu.example.com"].index + 10')
    assert text_now(page, "console-value-text") == "13"
