"""Objects in an older release's form, end to end: the 1.33/1.34 ResourceSlice that holds a GPU's counter set
beside the devices that consume it (the nvidia-mig-1-33 sample), allocated, drawn and explained per release."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import summary

pytestmark = pytest.mark.e2e


def group(page: Page, counter_set: str):
    return page.locator("#picture .counter-group").filter(
        has=page.locator(f".counter-group-name code:text-is('{counter_set}')"))


def test_1_33_reads_a_partitions_counters_from_its_own_slice_and_explains_the_refusal(page: Page, samples):
    page.goto("/examples/mig-1-33-counters-held-by-claim")
    expect(page.get_by_label("Kubernetes version")).to_have_value("1.33")
    expect(summary(page)).to_contain_text("Allocated on node dgx-h100-01")
    # Each GPU's slice is one group: the whole GPU and its 13 placements under the counter set beside them.
    expect(page.locator("#picture .counter-group")).to_have_count(2)
    gpu0, gpu1 = group(page, "gpu-0-counter-set"), group(page, "gpu-1-counter-set")
    expect(gpu0.locator(".tile")).to_have_count(14)
    expect(gpu0.locator(".tile.held")).to_contain_text("allocated: training")
    expect(gpu0.locator(".counter-bar[data-counter='gpu-0-counter-set/memory']")).to_contain_text(
        "0 of 81559Mi free · 81559Mi allocated")
    expect(gpu1.locator(".tile.granted")).to_have_count(2)
    expect(gpu1.locator(".counter-bar[data-counter='gpu-1-counter-set/memory-slice-0']")).to_contain_text(
        "0 of 1 free · 1 this grant")
    # gpu-0's partitions are ruled out by the counters of gpu-0's own slice, with the numbers.
    why = page.locator("#requests .why-counter[data-counter='gpu-0-counter-set/memory']").first
    expect(why).to_have_text("gpu-0-counter-set/memory: 0 of 81559Mi left, needs 40320Mi; "
                             "taken by gpu-0 of allocated claim default/training")


def test_1_35_refuses_the_slice_that_1_34_allocated_from(page: Page, samples):
    page.goto("/examples/mig-1-33-full-gpu")
    expect(page.locator("#compare-left .compare-summary")).to_contain_text("Allocated on node dgx-h100-01")
    expect(page.locator("#compare-right .compare-summary")).to_contain_text("Not valid")
    expect(page.locator("#compare-right")).to_contain_text("only one of `sharedCounters` or `devices` is allowed")


def test_1_35_gives_one_request_three_shares_of_one_gpu_and_1_36_does_not(page: Page, samples):
    page.goto("/examples/shares-1-35-one-request")
    expect(page.locator("#id_kubernetes_version")).to_have_value("1.35")
    expect(page.locator("#id_compare_kubernetes_version")).to_have_value("1.36")
    left, right = page.locator("#compare-left"), page.locator("#compare-right")
    expect(left.locator(".compare-summary")).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
    expect(left).to_contain_text("gpu-0")
    expect(left).not_to_contain_text("gpu-1")
    expect(right.locator(".compare-summary")).to_contain_text("Cannot allocate")
