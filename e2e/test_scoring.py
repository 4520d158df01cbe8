"""The node table's Score column and the binding-conditions note, driven in the browser (issue 28, items 4 and 8)."""

import pytest
from playwright.sync_api import Page, expect

from allocator.tests.helpers import ROOT
from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e

FABRIC = (ROOT / "allocator/tests/data/scoring/fabric.yaml").read_text()
TWO_ACCELERATORS = """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two}
spec:
  devices:
    requests: [{name: accel, exactly: {deviceClassName: accel, count: 2}}]
"""


def test_the_gallery_example_shows_scores_and_the_best_node(page: Page, samples):
    page.goto("/examples/node-scoring")
    expect(summary(page)).to_contain_text("Allocated on node h200-node-3")
    nodes = page.locator("#results #nodes")
    expect(nodes.locator("th", has_text="Score")).to_be_visible()
    row = nodes.locator("tr", has=page.locator("code", has_text="h200-node-3"))
    expect(row.locator(".node-score")).to_have_text("100 (raw 8)")
    expect(row).to_contain_text("chosen")
    a100 = nodes.locator("tr", has=page.locator("code", has_text="a100-node-1"))
    expect(a100.locator(".node-score")).to_have_text("75 (raw 6)")
    expect(page.locator("#results #node-scoring")).to_contain_text("h200-node-3 has the best DRA score (100)")
    # 1.34 had no DRA score: the first node by name, no column, and the note says so.
    page.locator("#id_kubernetes_version").select_option("1.34")
    expect(summary(page)).to_contain_text("Allocated on node a100-node-1")
    expect(page.locator("#results #nodes .node-score")).to_have_count(0)
    expect(page.locator("#results #node-scoring")).to_contain_text("Kubernetes 1.34 does not score nodes for DRA")


def test_a_tie_is_said_to_be_random(page: Page, samples):
    page.goto("/examples/node-scoring")
    expect(summary(page)).to_contain_text("Allocated on node h200-node-3")
    replace_text(page, """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: any}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}]
""")
    expect(summary(page)).to_contain_text("Allocated on node a100-node-1")
    expect(page.locator("#results #node-scoring")).to_contain_text(
        "3 nodes share the best DRA score 0: the scheduler picks one of them at random")


def test_a_grant_with_binding_conditions_is_not_final(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, FABRIC, name="inventory")
    replace_text(page, TWO_ACCELERATORS)
    page.locator("#id_kubernetes_version").select_option("1.36")
    expect(summary(page)).to_contain_text("Allocated on node node-1")
    note = page.locator("#binding-note")
    expect(note).to_contain_text("Not final yet: The allocation is not final")
    expect(note).to_contain_text("binding timeout (600 s by default")
    expect(note).to_contain_text("a-fabric/fabric-0")
    expect(page.locator("#claims-table")).to_contain_text("waits for binding conditions")
    # 1.35: the gate is alpha and off, so the device is not granted and there is no note.
    page.locator("#id_kubernetes_version").select_option("1.35")
    expect(summary(page)).to_contain_text("Cannot allocate")
    expect(page.locator("#binding-note")).to_have_count(0)
