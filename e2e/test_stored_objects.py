"""A claim pasted from `kubectl get -o yaml` is read as stored, and the page says so (issue 33 item 4)."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import ONE_GPU, open_gates, replace_text, summary

pytestmark = pytest.mark.e2e

STORED_GPU = ONE_GPU.replace("  name: one-gpu\n", '  name: one-gpu\n  uid: 6f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f\n  resourceVersion: "812"\n')
STORED_FIRST_AVAILABLE = STORED_GPU.replace(
    "      exactly:\n        deviceClassName: gpu.example.com\n",
    "      firstAvailable:\n      - name: any\n        deviceClassName: gpu.example.com\n")


def test_a_claim_read_from_a_cluster_is_noted_and_meets_the_scheduler_s_refusal(page: Page, samples):
    page.goto("/")
    replace_text(page, STORED_GPU)
    expect(summary(page)).to_contain_text("Allocated")
    note = page.locator("#diagnostics #stored-objects")
    expect(note).to_contain_text("Read as stored: created earlier in the cluster (ResourceClaim default/one-gpu)")
    # On 1.34 with DRAPrioritizedList off, the stored firstAvailable is kept and the allocator refuses it.
    page.get_by_label("Kubernetes version").select_option("1.34")
    open_gates(page)
    page.get_by_label("DRAPrioritizedList").select_option("off")
    replace_text(page, STORED_FIRST_AVAILABLE)
    expect(summary(page)).to_contain_text(
        "claim default/one-gpu, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled")
    expect(note).to_be_visible()
    # Written here instead (no uid, no resourceVersion), the apiserver drops firstAvailable and refuses the claim.
    replace_text(page, STORED_FIRST_AVAILABLE.replace('  uid: 6f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f\n  resourceVersion: "812"\n', ""))
    expect(summary(page)).to_contain_text("Not valid")
    expect(note).to_have_count(0)
