"""A counter failure that depends on a choice between devices, explained on the page: every choice of the
gallery's mig-counters-choice with the counter that runs out, what is left and who took it."""

import pytest
from playwright.sync_api import Browser, Page, expect

from allocator.tests.helpers.samples import sample
from e2e.helpers import new_context, replace_text, summary

pytestmark = pytest.mark.e2e

OPENING = "whatever request whole takes (2 choices), request more runs out of shared counters"
GPU0 = ("if it takes gpu-0: request more needs 2 devices, but of the 4 devices that match it only 1 fits the shared "
        "counters left once request whole takes gpu-0 and request big takes gpu-1-mig-4g40gb-5-0: "
        "gpu-0-counter-set/memory: 0 of 81559Mi left (taken by gpu-0 of request whole), 2 devices need 40320Mi each")
# (The page reads the sample as stored, whose counter sets list memory first: the first counter a partition lacks.)


def test_every_choice_is_listed_under_the_request_that_runs_short(page: Page, samples):
    page.goto("/examples/mig-counters-choice")
    expect(summary(page)).to_contain_text("Cannot allocate")
    nodes = page.locator("#nodes")
    expect(nodes).to_contain_text("the requests fit without shared counters (request whole gets gpu-0")
    expect(nodes).to_contain_text(OPENING)
    expect(nodes).to_contain_text(GPU0)
    expect(nodes).not_to_contain_text("no combination satisfies")
    why = page.locator("#requests .counter-choices")
    expect(why).to_have_count(1)
    request = page.locator("#requests details.request").filter(has=page.locator(".counter-choices"))
    expect(request.locator("summary")).to_contain_text("request more")
    expect(why.locator("p").first).to_contain_text("Out of shared counters, whatever the requests choose:")
    expect(why.locator("p").first).to_contain_text(OPENING)
    choices = why.locator("li")
    expect(choices).to_have_count(2)
    expect(choices.nth(0)).to_contain_text(GPU0)
    expect(choices.nth(1)).to_contain_text("if it takes gpu-1: request more needs 2 devices")
    expect(choices.nth(1)).to_contain_text("gpu-0-counter-set/memory-slice-0: 0 of 1 left (taken by "
                                           "gpu-0-mig-4g40gb-5-0 of request big), gpu-0-mig-3g40gb-9-0 needs 1")


def test_one_partition_fewer_fits_and_the_explanation_goes(page: Page, samples):
    page.goto("/examples/mig-counters-choice")
    expect(summary(page)).to_contain_text("Cannot allocate")
    documents = sample("examples", "mig-counters-choice")["documents"]
    assert documents.count("count: 2") == 1
    replace_text(page, documents.replace("count: 2", "count: 1"))
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    expect(page.locator("#requests .counter-choices")).to_have_count(0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_choices_fit_a_phone(browser: Browser, samples, scheme):
    context, problems = new_context(browser, samples.url, color_scheme=scheme, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto("/examples/mig-counters-choice")
        expect(page.locator("#requests .counter-choices li")).to_have_count(2)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    finally:
        context.close()
    problems.check()
