"""A pod asking for nvidia.com/gpu: the page shows the claim the scheduler generates and its container mapping."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import replace_text, summary

pytestmark = pytest.mark.e2e

POD = """apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  containers:
  - name: main
    resources:
      limits:
        nvidia.com/gpu: {count}
"""


def test_an_extended_resource_pod_gets_a_generated_claim(page: Page, samples):
    page.goto("/examples/extended-resource-gpus")
    expect(summary(page)).to_contain_text("Allocated on node gpu-dra-node")
    section = page.locator("#extended-resources")
    expect(section).to_contain_text("nvidia.com/gpu: 2 by DRA")
    expect(section.locator(".extended-claim")).to_contain_text("generateName trainer-extended-resources-")
    row = section.locator(".extended-mappings tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_have_text("mainnvidia.com/gpucontainer-0-request-0")
    expect(section.locator(".extended-status")).to_contain_text("resourceClaimName: trainer-extended-resources-")
    expect(page.locator("#nodes")).to_contain_text("Insufficient nvidia.com/gpu: the pod asks for 2")
    expect(page.locator("#containers")).to_contain_text("gpu-dra-node/gpu-1")
    expect(page.locator("#status-yaml")).to_contain_text("resource.kubernetes.io/extended-resource-claim")

    # One GPU is what the device plugin node has: it is first by name and serves it without a claim.
    replace_text(page, POD.format(count=1))
    expect(summary(page)).to_contain_text("Allocated on node gpu-device-plugin-node")
    expect(section).to_contain_text("nvidia.com/gpu: 1 by the node's device plugin")
    expect(section).to_contain_text("No claim")


def test_init_containers_reuse_devices_since_135(page: Page, samples):
    page.goto("/examples/extended-resource-init-containers")
    expect(summary(page)).to_contain_text("Allocated on node gpu-dra-node")
    rows = page.locator("#extended-resources .extended-mappings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.filter(has_text="warmup")).to_have_count(2)
