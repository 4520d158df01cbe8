"""How many fit? with workloads that carry a count: a Deployment's replicas and a StatefulSet's, the copies
listed in placing order, a long list behind "Show all"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import (
    TWO_GPU_TEMPLATE,
    capacity_table,
    copies_placed,
    replace_text,
    run_capacity,
    workload_controller,
)

pytestmark = pytest.mark.e2e

def test_a_deployment_s_replicas_then_a_statefulset_s_until_the_gpus_run_out(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    replace_text(page, TWO_GPU_TEMPLATE + workload_controller("Deployment", "web", 3) + workload_controller("StatefulSet", "db", 2))
    run_capacity(page)
    # Two GPUs a copy on eight: the Deployment's three, then one of the StatefulSet's two.
    assert copies_placed(page) == 4
    summary = page.locator("#capacity-summary")
    expect(summary).to_contain_text("5 asked by 2 workloads")
    expect(summary).to_contain_text("copy 5 (of StatefulSet/db) fits on no node")
    assert capacity_table(page, "capacity-workloads") == [["Deployment/web", "3", "3"],
                                                 ["StatefulSet/db ran out", "2", "1 (1 short)"]]
    steps = capacity_table(page, "capacity-steps-first")
    assert [row[0] for row in steps] == ["1", "2", "3", "4"]
    assert [row[1] for row in steps] == ["Deployment/web"] * 3 + ["StatefulSet/db"]
    assert all(row[2].startswith("web-") for row in steps[:3]) and steps[3][2] == "db-0", steps
    assert {row[3] for row in steps} == {"dra-example-driver-cluster-worker"}
    assert steps[0][4].endswith("gpu.example.com/dra-example-driver-cluster-worker/gpu-0, "
                                "gpu.example.com/dra-example-driver-cluster-worker/gpu-1"), steps[0]
    expect(page.locator("#capacity-steps-more")).to_have_count(0)
    expect(page.locator("#capacity-next h4")).to_contain_text("Why copy 5 does not fit (StatefulSet/db, pod db-1)")
    # One replica fewer in the Deployment: both workloads get every copy they ask for.
    replace_text(page, TWO_GPU_TEMPLATE + workload_controller("Deployment", "web", 2) + workload_controller("StatefulSet", "db", 2))
    run_capacity(page, "", "spread")
    assert copies_placed(page) == 4
    expect(summary).to_contain_text("every workload has the copies it asks for")
    expect(page.locator("#capacity-next")).to_have_count(0)


def test_a_long_list_of_copies_opens_with_show_all_from_the_keyboard(page: Page, samples):
    claim = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: shared}\nspec:\n  devices:\n"
             "    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]\n")
    page.goto("/examples/count-two-gpus")
    replace_text(page, claim + workload_controller("Deployment", "web", 14, "[{name: gpu, resourceClaimName: shared}]"))
    run_capacity(page)
    assert copies_placed(page) == 14
    expect(page.locator("#capacity-steps-first caption")).to_contain_text("copies 1 to 10 of 14")
    expect(page.locator("#capacity-steps-first tbody tr")).to_have_count(10)
    rest = page.locator("#capacity-steps-rest")
    expect(rest).to_be_hidden()
    show = page.get_by_text("Show all 14 copies (4 more)")
    show.focus()
    page.keyboard.press("Enter")
    expect(rest).to_be_visible()
    assert [row[0] for row in capacity_table(page, "capacity-steps-rest")] == ["11", "12", "13", "14"]
    # Every copy shares the one claim: only the first allocates it.
    assert capacity_table(page, "capacity-steps-rest")[0][4] == "none new (shared claims only)"
