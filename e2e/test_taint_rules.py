"""A DeviceTaintRule of the inventory: the page names the rule in the reason of the device it blocks."""

import re

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


def test_the_picture_shows_the_rule_on_the_device_it_taints(page: Page, samples):
    page.goto("/examples/taint-rule-maintenance")
    expect(summary(page)).to_contain_text("dra-example-driver-cluster-worker")
    tainted = page.locator('[data-taint-rules="gpu-maintenance"]')
    expect(tainted).to_have_count(1)
    expect(tainted).to_have_attribute("data-device", "gpu.example.com/dra-example-driver-cluster-worker/gpu-0")
    expect(tainted).to_have_class(re.compile(r"\btainted\b"))
    expect(tainted.locator(".tile-taint-rule")).to_have_text("tainted by gpu-maintenance")
    tainted.focus()
    expect(tainted.locator(".tile-detail")).to_contain_text(
        "taint example.com/maintenance=true:NoSchedule from DeviceTaintRule gpu-maintenance")
    # The granted device is the other one, and it carries no rule.
    granted = page.locator('[data-device="gpu.example.com/dra-example-driver-cluster-worker/gpu-1"]')
    expect(granted).to_have_class(re.compile(r"\bgranted\b"))
    expect(granted.locator(".tile-taint-rule")).to_have_count(0)
    # On 1.36 the rules' gate is off by default: the rule is not served, and no device is drawn tainted by it.
    page.get_by_label("Kubernetes version").select_option("1.36")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.36")
    expect(page.locator("[data-taint-rules]")).to_have_count(0)
