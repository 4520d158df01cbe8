"""A ResourceClaimTemplate and a Deployment with replicas: 5 pasted into the editor: one pod of the Deployment is
analysed (its claim allocated, named after the pod), the replicas point to How many fit?, which places them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import TWO_GPU_TEMPLATE, copies_placed, replace_text, run_capacity, workload_controller

pytestmark = pytest.mark.e2e


def test_a_pasted_deployment_is_analysed_as_one_pod_with_its_replicas_left_to_how_many_fit(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    replace_text(page, TWO_GPU_TEMPLATE + workload_controller("Deployment", "trainer", 5))
    note = page.locator("#workloads")
    expect(note).to_contain_text(re.compile(r"Deployment trainer: one pod analysed, trainer-\w+-\w{5}\. ×5 replicas: see How many fit\?"))
    expect(page.locator("#result-summary")).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
    expect(page.locator("#ignored")).to_have_count(0)
    expect(page.locator("#document-objects")).to_contain_text("Deployment trainer (its pod template)")
    pod = re.search(r"trainer-\w+-\w{5}", note.text_content()).group(0)
    # The pod's claim from the template is named after it, as the resource-claim controller names it.
    expect(page.locator("#allocation")).to_contain_text(pod + "-gpu-")
    # The pointer leads to the panel that answers for the five: two GPUs a copy on eight, four fit.
    note.get_by_role("link", name="How many fit?").click()
    expect(page.locator("#capacity-panel")).to_be_in_viewport()
    run_capacity(page)
    assert copies_placed(page) == 4
