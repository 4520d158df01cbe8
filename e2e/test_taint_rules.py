"""A DeviceTaintRule of the inventory: the page names the rule in the reason of the device it blocks."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import summary

pytestmark = pytest.mark.e2e


def test_the_reason_of_a_device_in_maintenance_names_the_rule(page: Page, samples):
    page.goto("/examples/taint-rule-maintenance")
    expect(summary(page)).to_contain_text("dra-example-driver-cluster-worker")
    rejected = page.locator("#requests .rejected > li", has_text="gpu-maintenance")
    expect(rejected).to_have_count(1)
    expect(rejected.locator(".reason")).to_have_text(
        "taint example.com/maintenance=true:NoSchedule from DeviceTaintRule gpu-maintenance is not tolerated")
    expect(rejected.locator(".device-list")).to_contain_text("gpu-0")
    expect(page.locator("#status-yaml")).to_contain_text("device: gpu-1")
