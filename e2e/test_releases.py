"""The release picker's consequences: versions not served, DRA off, locked gates."""

import pytest
import yaml
from playwright.sync_api import Page, expect

from e2e.helpers import ONE_GPU, open_gates, replace_text, summary

pytestmark = pytest.mark.e2e

# One node with one GPU, as a Kubernetes 1.31 cluster serves it (v1alpha3: devices under
# `basic`, capacities as bare quantities), and a claim for it (the request names its class directly).
ALPHA_INVENTORY = """\
apiVersion: v1
kind: Node
metadata:
  name: old-node
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == 'gpu.example.com'
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata:
  name: old-node-gpus
spec:
  driver: gpu.example.com
  nodeName: old-node
  pool:
    name: old-node
    generation: 1
    resourceSliceCount: 1
  devices:
  - name: gpu-0
    basic:
      capacity:
        memory: 40Gi
"""

ALPHA_CLAIM = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
"""


def pick_release(page: Page, name: str) -> None:
    page.get_by_label("Kubernetes version").select_option(name)
    expect(page.locator("#assumes")).to_contain_text(f"Kubernetes {name}")


def test_1_31_says_dra_is_off_and_refuses_v1_objects_with_the_served_version_named(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    pick_release(page, "1.31")
    expect(summary(page)).to_contain_text("Not valid")
    expect(page.locator("#dra-off")).to_contain_text("DRA is off in Kubernetes 1.31")
    expect(page.locator("#dra-off")).to_contain_text("Turn on DynamicResourceAllocation")
    diagnostics = page.locator("#diagnostics")
    expect(diagnostics).to_contain_text('no matches for kind "ResourceClaimTemplate" in version "resource.k8s.io/v1"')
    expect(diagnostics).to_contain_text("with it on, served versions: resource.k8s.io/v1alpha3")
    # With the gate on, the refusal names the one version 1.31 serves, and how to enable it.
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("on")
    expect(page.locator("#dra-off")).to_have_count(0)
    expect(diagnostics).to_contain_text(
        "not served by Kubernetes 1.31, which serves ResourceClaimTemplate in resource.k8s.io/v1alpha3")
    expect(diagnostics).to_contain_text("--runtime-config=resource.k8s.io/v1alpha3=true")
    expect(summary(page)).not_to_contain_text("Allocated")


def test_1_31_with_dra_on_allocates_v1alpha3_objects(page: Page, samples):
    page.goto("/")
    pick_release(page, "1.31")
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("on")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, ALPHA_INVENTORY, name="inventory")
    replace_text(page, ALPHA_CLAIM)
    expect(summary(page)).to_contain_text("Allocated on node old-node")
    expect(page.locator("#assumes")).to_contain_text("DynamicResourceAllocation=true")
    expect(page.locator("#valid-message")).to_have_text("All objects are valid.")
    expect(page.locator("#claims-table")).to_contain_text("old-node/gpu-0")
    # What "Copy YAML" copies is written back in the claim's own version, which a 1.31 apiserver takes.
    copied = yaml.safe_load(page.locator("#status-yaml").inner_text())
    assert copied["apiVersion"] == "resource.k8s.io/v1alpha3"
    assert copied["spec"]["devices"]["requests"] == [{"name": "gpu", "deviceClassName": "gpu.example.com"}]
    assert copied["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-0"


def test_a_locked_gate_cannot_be_changed(page: Page, samples):
    page.goto("/")
    open_gates(page)
    gate = page.get_by_label("DynamicResourceAllocation")
    # GA and locked to on from 1.35: shown, but disabled and saying why.
    expect(gate).to_be_disabled()
    expect(gate).to_have_attribute("title", "GA and locked to on in Kubernetes 1.37")
    expect(page.locator("#assumptions")).to_contain_text("DynamicResourceAllocation: on (locked)")
    # 1.34: GA but not locked yet, so it can be turned off, and DRA is then off.
    pick_release(page, "1.34")
    expect(gate).to_be_enabled()
    gate.select_option("off")
    expect(page.locator("#dra-off")).to_contain_text("DynamicResourceAllocation is set to false")
    # Back on 1.37 the lock refuses the override with featuregate's words, and the control is locked again.
    page.get_by_label("Kubernetes version").select_option("1.37")
    expect(summary(page)).to_contain_text(
        "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true")
    expect(gate).to_be_disabled()
    # The disabled control is not sent: the next edit analyzes 1.37 with its defaults.
    replace_text(page, ONE_GPU)
    expect(summary(page)).to_contain_text("Allocated")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.37")


def test_1_31_classic_dra_claim_is_left_to_its_control_plane_controller(page: Page, samples):
    page.goto("/")
    pick_release(page, "1.31")
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("on")
    page.get_by_label("DRAControlPlaneController").select_option("on")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, ALPHA_INVENTORY, name="inventory")
    replace_text(page, ALPHA_CLAIM.replace("spec:\n", "spec:\n  controller: gpu.example.com\n", 1))
    expect(page.locator("#classic-dra")).to_contain_text(
        "has spec.controller gpu.example.com: in Kubernetes 1.31 with DRAControlPlaneController the control-plane "
        "controller of that driver allocates it")
    expect(page.locator("#valid-message")).to_have_text("All objects are valid.")
    expect(page.locator("#claims-table")).to_have_count(0)
    # Without the gate the apiserver drops the field and the scheduler allocates the claim.
    open_gates(page)  # loading the custom inventory redrew the form, closing the panel
    page.get_by_label("DRAControlPlaneController").select_option("")
    expect(summary(page)).to_contain_text("Allocated on node old-node")
    expect(page.locator("#diagnostics")).to_contain_text("dropped on create")


def test_a_reload_keeps_a_gate_that_the_restored_release_leaves_free(page: Page, samples):
    page.goto("/")
    pick_release(page, "1.34")
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("off")
    expect(page.locator("#dra-off")).to_be_visible()
    page.wait_for_timeout(400)  # the store is written a moment after the last edit
    page.reload()
    expect(page.locator("#restored-status")).to_be_visible()
    expect(page.locator("#dra-off")).to_contain_text("DynamicResourceAllocation is set to false")
    expect(page.get_by_label("DynamicResourceAllocation")).to_be_enabled()


BETA_FIRST_AVAILABLE = """\
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata:
  name: one-of
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - name: big
        deviceClassName: gpu.example.com
"""


def test_a_field_the_chosen_release_lacks_is_an_unknown_field_naming_the_release_that_added_it(page: Page, samples):
    page.goto("/")
    pick_release(page, "1.32")
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("on")
    replace_text(page, BETA_FIRST_AVAILABLE)
    diagnostics = page.locator("#diagnostics")
    expect(diagnostics).to_contain_text(
        'unknown field "spec.devices.requests[0].firstAvailable": resource.k8s.io/v1beta1 in Kubernetes 1.32 '
        "has no such field (added in 1.33)")
    # In 1.34 (DRAPrioritizedList on by default) the field exists: no longer unknown.
    pick_release(page, "1.34")
    expect(diagnostics).not_to_contain_text("has no such field")
    expect(diagnostics).not_to_contain_text('unknown field "spec.devices.requests[0].firstAvailable"')
    expect(summary(page)).to_contain_text("Allocated")


def test_the_gate_panel_offers_only_the_gates_of_the_chosen_release(page: Page, samples):
    page.goto("/")
    open_gates(page)
    classic, list_types = page.get_by_label("DRAControlPlaneController"), page.get_by_label("DRAListTypeAttributes")
    expect(classic).to_be_hidden()  # classic DRA: removed in 1.32
    expect(list_types).to_be_visible()
    pick_release(page, "1.31")
    expect(classic).to_be_visible()
    expect(list_types).to_be_hidden()  # from 1.36
    page.get_by_label("DynamicResourceAllocation").select_option("on")
    classic.select_option("on")
    expect(page.locator("#assumes")).to_contain_text("DRAControlPlaneController=true")
    # Back to 1.37 the gate is gone from the panel, and the override set for 1.31 no longer applies: no refusal.
    pick_release(page, "1.37")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.37")
    expect(classic).to_be_hidden()
    expect(page.locator("#assumes")).not_to_contain_text("DRAControlPlaneController")
    expect(summary(page)).to_contain_text("Allocated")


def test_1_34_with_dra_set_off_still_serves_v1_and_says_nothing_is_allocated(page: Page, samples):
    # kube-apiserver installs the resource.k8s.io storage whatever the gate says: the v1 objects stay valid,
    # only the scheduler leaves the claims alone.
    page.goto("/")
    pick_release(page, "1.34")
    expect(summary(page)).to_contain_text("Allocated")
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("off")
    expect(page.locator("#dra-off")).to_contain_text("DRA is off in Kubernetes 1.34")
    expect(page.locator("#dra-off")).to_contain_text("still serves resource.k8s.io/v1")
    expect(page.locator("#valid-message")).to_have_text("All objects are valid.")
    expect(summary(page)).not_to_contain_text("Allocated")
