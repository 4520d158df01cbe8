"""Hints that fit the mistake, as a person writing a claim reads them on the page (issue 24): a typo's
summary hint is the did-you-mean, a v1beta1-shaped request under v1 is told to use exactly:, and a
YAML indentation error names the key that is out of line."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import GPU, claim, replace_text, summary

pytestmark = pytest.mark.e2e

V1BETA1_SHAPE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpus
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
      count: 1
"""

MISALIGNED = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpus
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
       count: 2
"""


def test_the_summary_hint_of_a_typo_is_the_did_you_mean(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{GPU}.modle == "LATEST-GPU-MODEL"'))
    expect(summary(page)).to_contain_text("The scheduler would give up")
    hint = page.locator("#allocation-hint")
    expect(hint).to_contain_text('did you mean "model"?')
    expect(hint).not_to_contain_text("has(")
    # every hint of the explanation says the same: no "guard with has()" for a name no device publishes
    expect(page.locator("#requests .hint-text", has_text="has(")).to_have_count(0)


def test_a_v1beta1_shaped_request_under_v1_is_told_to_use_exactly(page: Page, samples):
    page.goto("/")
    replace_text(page, V1BETA1_SHAPE)
    expect(summary(page)).to_contain_text("Not valid")
    item = page.locator("#diagnostics .diagnostic-item.error", has_text="spec.devices.requests[0].deviceClassName")
    expect(item).to_contain_text('unknown field "spec.devices.requests[0].deviceClassName"')
    expect(item.locator(".hint-text")).to_contain_text(
        "in resource.k8s.io/v1 (and v1beta2) this field goes under exactly: "
        "spec.devices.requests[0].exactly.deviceClassName")
    count = page.locator("#diagnostics .diagnostic-item.error", has_text="spec.devices.requests[0].count")
    expect(count.locator(".hint-text")).to_contain_text("spec.devices.requests[0].exactly.count")


def test_a_yaml_indentation_error_names_the_key_out_of_line(page: Page, samples):
    page.goto("/")
    replace_text(page, MISALIGNED)
    expect(summary(page)).to_contain_text("Not valid")
    item = page.locator("#diagnostics .diagnostic-item.error").first
    expect(item).to_contain_text("line 11")
    expect(item).to_contain_text('the key "count" (line 11, column 8) lines up with no key above it')
    expect(item).to_contain_text('"deviceClassName" (line 10, column 9)')
    expect(item.locator(".hint-text")).to_contain_text('move "count" to column 9')


def test_the_missing_attribute_example_advises_a_guard_not_the_name_written(page: Page, samples):
    page.goto("/examples/selector-missing-attribute")
    expect(summary(page)).to_contain_text("The scheduler would give up")
    expect(page.locator("#allocation-hint")).to_contain_text('some devices here publish "ifName" and others do not')
    expect(page.locator(".hint-text", has_text='did you mean "ifName"')).to_have_count(0)
