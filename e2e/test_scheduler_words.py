"""Where no node fits, the node table gives kube-scheduler's own words beside our explanation, and the
pod's PodScheduled message as the scheduler writes it."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import summary

pytestmark = pytest.mark.e2e


def test_nodes_show_what_kube_scheduler_says(page: Page, samples):
    page.goto("/examples/extended-resource-beside-claim")
    expect(summary(page)).to_contain_text("Cannot allocate")
    nodes = page.locator("#nodes")
    plugin_node = nodes.locator("tr", has_text="gpu-device-plugin-node")
    # Our explanation stays, with the scheduler's short status below it.
    expect(plugin_node).to_contain_text("Insufficient nvidia.com/gpu: the pod asks for 2")
    expect(plugin_node.locator(".scheduler-says")).to_have_text("kube-scheduler: Insufficient nvidia.com/gpu")
    dra_node = nodes.locator("tr", has_text="gpu-dra-node")
    expect(dra_node).to_contain_text("need 5 devices together")
    expect(dra_node.locator(".scheduler-says")).to_have_text("kube-scheduler: cannot allocate all claims")
    expect(page.locator("#pod-scheduled-message code")).to_have_text(
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 cannot allocate all claims. "
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")


def test_no_scheduler_words_where_the_pod_fits(page: Page, samples):
    page.goto("/examples/extended-resource-gpus")
    expect(summary(page)).to_contain_text("Allocated on node gpu-dra-node")
    plugin_node = page.locator("#nodes tr", has_text="gpu-device-plugin-node")
    expect(plugin_node.locator(".scheduler-says")).to_have_text("kube-scheduler: Insufficient nvidia.com/gpu")
    expect(page.locator("#nodes tr", has_text="gpu-dra-node").locator(".scheduler-says")).to_have_count(0)
    expect(page.locator("#pod-scheduled-message")).to_have_count(0)
