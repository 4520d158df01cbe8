"""Use my cluster: store a cluster bigger than the text limit, edit a claim against it, share, open the share."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from allocator.synthetic import cluster_yaml
from e2e.helpers import TWO_H200, new_context, replace_text

pytestmark = pytest.mark.e2e

NODES = 200
def test_use_my_cluster_then_edit_the_claim_then_share(page: Page, browser: Browser, samples, tmp_path):
    cluster = cluster_yaml(NODES, seed=7)
    assert len(cluster) > 512 * 1024  # over the site's default text limit: it could not be pasted as an inventory
    path = tmp_path / "cluster.yaml"
    path.write_text(cluster)
    page.goto("/")
    page.locator("#my-cluster summary").click()
    page.get_by_label("Cluster file").set_input_files(path)
    page.get_by_role("button", name="Store and use").click()
    expect(page.locator("#cluster-summary")).to_contain_text(f"{NODES} nodes, {NODES * 8} devices in {NODES} pools")
    expect(page.locator("#cluster-summary")).to_contain_text("gpu.nvidia.com")
    expect(page.get_by_label("Sample inventory")).to_have_value("")
    cluster_id = page.locator("#id_inventory_id").input_value()
    assert re.fullmatch(r"[0-9A-Za-z]{11}", cluster_id)

    # Live edits send the claims and the id, never the cluster.
    sizes = []
    page.on("request", lambda r: sizes.append(len(r.post_data_buffer or b"")) if r.method == "POST" else None)
    replace_text(page, TWO_H200)
    expect(page.locator("#result-summary")).to_contain_text("Allocated on node")
    expect(page.locator("#claims-table")).to_contain_text("two-h200")
    assert sizes and max(sizes) < 32 * 1024, sizes

    page.get_by_role("button", name="Share").click()
    url = page.locator("#share-url").input_value()
    expect(page).to_have_url(url)
    context, problems = new_context(browser, samples.url)
    try:
        other = context.new_page()
        other.goto(url)
        expect(other.locator("#share-banner")).to_contain_text(f"the stored cluster {cluster_id}")
        expect(other.locator("#cluster-summary")).to_contain_text(f"{NODES} nodes")
        expect(other.locator("#claims-table")).to_contain_text("two-h200")
        assert other.locator("#id_inventory").input_value() == ""
        assert "two-h200" in other.locator("#id_documents").input_value()
    finally:
        context.close()
    problems.check()


def test_a_pasted_cluster_is_stored_and_a_broken_one_is_located(page: Page, samples):
    page.goto("/")
    page.locator("#my-cluster summary").click()
    broken = cluster_yaml(3, seed=11).replace("driver: gpu.nvidia.com", "driver: Not A Driver", 1)
    page.get_by_label("Or paste it").fill(broken)
    page.get_by_role("button", name="Store and use").click()
    expect(page.locator("#cluster-error")).to_contain_text("spec.driver")
    expect(page.locator("#cluster-summary")).to_have_count(0)
    page.get_by_label("Or paste it").fill(cluster_yaml(3, seed=11))
    page.get_by_role("button", name="Store and use").click()
    expect(page.locator("#cluster-summary")).to_contain_text("3 nodes, 24 devices in 3 pools")
    # Edits are kept in the tab: a reload comes back to the stored cluster and the edited claim.
    replace_text(page, TWO_H200.replace("count: 2", "count: 1"))
    expect(page.locator("#result-summary")).to_contain_text("Allocated on node gpu-node-00001")  # its H200 node
    page.reload()
    expect(page.locator("#cluster-summary")).to_contain_text("3 nodes, 24 devices in 3 pools")
    expect(page.locator("#restored-status")).to_be_visible()
    assert "count: 1" in page.locator("#id_documents").input_value()
    # Picking a sample again stops using the cluster.
    page.get_by_label("Sample inventory").select_option("gpu-node")
    expect(page.locator("#cluster-summary")).to_have_count(0)
    expect(page.locator("#id_inventory_id")).to_have_value("")


def test_the_gallery_searches_the_sample_gpu_cluster(page: Page, samples):
    page.goto("/examples/")
    page.get_by_role("link", name="Four H200s behind one PCIe root, in a 300-node cluster").click()
    page.set_default_timeout(30_000)  # 300 nodes are read on the first request
    expect(page.locator("#result-summary")).to_contain_text("Allocated on node gpu-node-00003")
    expect(page.get_by_label("Sample inventory")).to_have_value("gpu-cluster")
    expect(page.locator("#cluster-summary")).to_contain_text("300 nodes, 2400 devices in 300 pools")
    # 300 nodes: how many fit, the others grouped by reason, a handful drawn.
    fits = page.locator("#nodes-fit-summary")
    expect(fits).to_contain_text("29 of 300 nodes fit")
    groups = page.locator("#nodes tbody tr.no-fit")
    assert 1 < groups.count() < 10
    expect(groups.first.locator(".reason")).to_contain_text("(productName)")
    expect(page.locator("#picture .node")).to_have_count(12)
    expect(page.locator("#picture-more")).to_contain_text("Not drawn: 288 more nodes")
    # Find nodes by name: the table narrows, live.
    page.get_by_label("Find nodes").fill("gpu-node-0001")
    expect(fits).to_contain_text("whose name contains", timeout=30_000)  # a whole analysis of 300 nodes
    expect(fits).to_contain_text("of 10 nodes fit")
