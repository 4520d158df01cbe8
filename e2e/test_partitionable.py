"""Partitionable devices a person can see: partitions under their GPU's counter set, a bar per shared
counter, the placements a partition excludes on hover or focus, and counter failures with numbers."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.helpers import new_context, summary

pytestmark = pytest.mark.e2e


def group(page: Page, counter_set: str):
    return page.locator("#picture .counter-group").filter(has=page.locator(f".counter-group-name code:text-is('{counter_set}')"))


def tile(page: Page, name: str):
    return page.locator(f"#picture .tile[data-name='{name}']")


def test_the_picture_groups_each_gpu_with_its_partitions_and_draws_its_counters(page: Page, samples):
    page.goto("/examples/mig-same-parent")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    expect(page.locator("#picture .counter-group")).to_have_count(2)
    gpu0 = group(page, "gpu-0-counter-set")
    expect(gpu0.locator(".tile")).to_have_count(14)  # the whole GPU and its 13 MIG placements
    expect(gpu0.locator(".tile[data-name='gpu-0']")).to_have_count(1)
    expect(gpu0.locator(".tile[data-name^='gpu-1']")).to_have_count(0)
    expect(gpu0.locator(".counter-bar")).to_have_count(14)
    # The grant took a 3g.40gb (memory slices 0-3) and a 1g.10gb at placement 4: slice 4 is this grant's.
    slice4 = gpu0.locator(".counter-bar[data-counter='gpu-0-counter-set/memory-slice-4']")
    expect(slice4).to_contain_text("0 of 1 free · 1 this grant")
    expect(slice4.locator("svg.bar")).to_have_attribute(
        "aria-label", "memory-slice-4: 1 in total, 0 taken by allocated claims, 1 by this grant, 0 free")
    assert float(slice4.locator("rect.bar-granted").get_attribute("width")) == 100
    expect(gpu0.locator(".counter-bar[data-counter='gpu-0-counter-set/memory-slice-7']")).to_contain_text("1 of 1 free")
    expect(gpu0.locator(".tile.granted")).to_have_count(2)
    expect(group(page, "gpu-1-counter-set").locator(".tile.granted")).to_have_count(0)
    expect(page.locator("#picture .counter-legend")).to_contain_text("taken by allocated claims")


def test_hovering_or_focusing_a_partition_shows_its_counters_and_the_placements_it_excludes(page: Page, samples):
    page.goto("/examples/mig-counters-exhausted")
    partition = tile(page, "gpu-1-mig-1g10gb-19-0")
    gpu1 = group(page, "gpu-1-counter-set")
    partition.hover()
    expect(partition).to_have_class(re.compile(r"\bexcluding\b"))
    excluded = gpu1.locator(".tile.excluded")
    expect(excluded).to_have_count(4)
    assert sorted(excluded.evaluate_all("ts => ts.map(t => t.dataset.name)")) == [
        "gpu-1", "gpu-1-mig-2g20gb-14-0", "gpu-1-mig-3g40gb-9-0", "gpu-1-mig-4g40gb-5-0"]
    expect(gpu1.locator(".counter-bar.needed[data-counter='gpu-1-counter-set/memory-slice-0']")).to_have_count(1)
    expect(gpu1.locator(".counter-bar.needed[data-counter='gpu-1-counter-set/memory-slice-1']")).to_have_count(0)
    expect(group(page, "gpu-0-counter-set").locator(".tile.excluded")).to_have_count(0)
    page.mouse.move(0, 0)
    expect(gpu1.locator(".tile.excluded")).to_have_count(0)
    # The keyboard gets the same, and the tooltip says it in words.
    whole = tile(page, "gpu-0")
    whole.focus()
    expect(group(page, "gpu-0-counter-set").locator(".tile.excluded")).to_have_count(13)
    detail = whole.locator(".tile-detail")
    expect(detail).to_be_visible()
    expect(detail).to_contain_text("consumes gpu-0-counter-set: memory 81559Mi, multiprocessors 132")
    expect(detail).to_contain_text("excludes 13: gpu-0-mig-1g10gb-19-0")
    page.keyboard.press("Tab")
    expect(group(page, "gpu-0-counter-set").locator(".tile.excluded")).to_have_count(4)


def test_mig_counters_exhausted_names_the_counter_with_numbers(page: Page, samples):
    page.goto("/examples/mig-counters-exhausted")
    expect(summary(page)).to_contain_text("Cannot allocate")
    # The sample's counter sets list memory first: that is the first counter a partition runs out of.
    line = "gpu-0-counter-set/memory: 0 of 81559Mi left (taken by gpu-0 of request full), 7 devices need 9984Mi each"
    expect(page.locator("#nodes")).to_contain_text(line)
    expect(page.locator("#nodes")).not_to_contain_text("no combination satisfies")
    why = page.locator("#requests .counter-why")
    expect(why).to_have_count(1)
    expect(why).to_contain_text("request slice: needs 1 device, but of the 14 devices that match it none fits")
    expect(why).to_contain_text(line)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_counter_groups_fit_a_phone_in_both_schemes(browser: Browser, samples, scheme):
    context, problems = new_context(browser, samples.url, color_scheme=scheme, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto("/examples/mig-same-parent")
        expect(page.locator("#picture .counter-group")).to_have_count(2)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
        bar = page.locator("#picture .counter-bar svg.bar").first
        box = bar.bounding_box()
        assert box and box["width"] > 100
        colors = page.evaluate("""() => {
            const get = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
            return [get('#picture rect.bar-granted', 'fill'), get('#picture rect.bar-total', 'fill'),
                    get('#picture .counter-group', 'color')];
        }""")
        assert colors[0] != colors[1]
        # Long counter explanations wrap too.
        for slug in ("mig-counters-exhausted", "mig-overlapping-placement-taken"):
            page.goto(f"/examples/{slug}")
            expect(summary(page)).to_contain_text("Cannot allocate")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{slug}: the page scrolls sideways by {overflow}px"
    finally:
        context.close()
    problems.check()


def test_a_placement_refused_because_an_overlapping_one_is_taken(page: Page, samples):
    page.goto("/examples/mig-overlapping-placement-taken")
    expect(summary(page)).to_contain_text("Cannot allocate")
    why = page.locator("#requests .why-counter[data-counter='gpu-0-counter-set/memory-slice-0']")
    expect(why).to_have_count(1)
    expect(why).to_have_text("gpu-0-counter-set/memory-slice-0: 0 of 1 left, needs 1; "
                             "taken by gpu-0-mig-3g40gb-9-0 of allocated claim default/inference")
    gpu0 = group(page, "gpu-0-counter-set")
    expect(gpu0.locator(".tile.held")).to_have_count(1)
    expect(gpu0.locator(".tile.held")).to_contain_text("allocated: inference")
    expect(gpu0.locator(".counter-bar[data-counter='gpu-0-counter-set/memory-slice-0']")).to_contain_text(
        "0 of 1 free · 1 allocated")
    tile(page, "gpu-0-mig-4g40gb-5-0").hover()
    expect(gpu0.locator(".tile.excluded.held")).to_have_count(1)  # the taken 3g.40gb is among those it excludes


def test_numa_sample_keeps_a_gpu_and_a_partition_on_one_numa_node(page: Page, samples):
    page.goto("/examples/mig-same-numa")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    expect(page.locator("#picture .counter-group")).to_have_count(4)
    gpu4, gpu5 = group(page, "gpu-4-counter-set"), group(page, "gpu-5-counter-set")
    expect(gpu4.locator(".tile.granted")).to_have_text(re.compile(r"^\s*gpu-4\s+gpu-and-slice/full"))
    expect(gpu5.locator(".tile.granted")).to_contain_text("gpu-5-mig-1g10gb-19-0")
    expect(gpu4.locator(".counter-bar[data-counter='gpu-4-counter-set/memory']")).to_contain_text(
        "0 of 81559Mi free · 81559Mi this grant")
    expect(tile(page, "gpu-5-mig-1g10gb-19-0").locator(".tile-detail")).to_contain_text("numaNode: 1")
