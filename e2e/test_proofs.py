"""A person pastes the three-claim pattern of issue 15 and reads why it cannot fit, at once."""

import pytest
from playwright.sync_api import Page, expect

from allocator.tests.helpers.proofs import ISSUE, MESSAGE
from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e


def test_it_says_which_proof_decided_instead_of_timing_out(page: Page, samples):
    page.goto("/")
    replace_text(page, ISSUE)
    expect(summary(page)).to_contain_text("Cannot")
    expect(page.locator("#results")).to_contain_text(MESSAGE)
    expect(page.locator("#results")).not_to_contain_text("timed out")
