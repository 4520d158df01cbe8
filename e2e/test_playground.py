"""The editor page, driven like a person would: pick, type, read, share, switch versions."""

import re

import pytest
import yaml
from playwright.sync_api import Browser, Page, expect

from e2e.helpers import KUBECTL_LIST, ONE_GPU, editor, new_context, replace_text, summary

pytestmark = pytest.mark.e2e

def test_it_shows_a_grant_per_container_on_first_load(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
    expect(page.locator("#containers")).to_contain_text("trainer/exporter")
    expect(page.locator("#picture .tile.granted")).to_have_count(2)
    expect(page.locator("#legend")).to_contain_text("trainer-gpus-")  # the claim made from the template gpu-pair
    expect(page.locator("#legend")).to_contain_text("/ trainer-gpu")
    expect(page.locator("#status-yaml")).to_contain_text("status:\n  allocation:")


def test_it_switches_the_sample_inventory(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("mixed-cluster")
    expect(page.locator("#picture")).to_contain_text("l40s-node-2")
    expect(page.locator("#inventory-description")).to_contain_text("Four nodes")
    # The node picker now offers the mixed cluster's nodes, and the inventory editor holds its objects.
    expect(page.locator("#node-names option[value=h200-node-3]")).to_have_count(1)
    assert "l40s-node-2" in page.locator("#id_inventory").input_value()
    expect(page.locator("#inventory-objects")).to_contain_text("4 Nodes")


def test_it_locates_an_error_and_shows_the_grant_once_fixed(page: Page, samples):
    page.goto("/")
    replace_text(page, ONE_GPU.replace("deviceClassName", "deviceClassNam"))
    expect(summary(page)).to_contain_text("Not valid")
    link = page.locator("#diagnostics a.diagnostic").first
    expect(link).to_have_text(re.compile(r"line 10, column \d+"))
    expect(page.locator("#diagnostics")).to_contain_text("deviceClassNam")
    # The gutter marks the line, and the link moves the cursor there.
    expect(page.locator("#editor .gutter-error")).to_have_count(1)
    link.click()
    cursor = page.evaluate("document.getElementById('id_documents').cm.getCursor()")
    assert cursor["line"] == 9
    # Fix it by typing the missing letter where the cursor is.
    page.keyboard.press("End")
    page.keyboard.press("Home")
    line = page.evaluate("document.getElementById('id_documents').cm.getLine(9)")
    col = line.index("deviceClassNam") + len("deviceClassNam")
    page.evaluate(f"document.getElementById('id_documents').cm.setCursor({{line: 9, ch: {col}}})")
    page.keyboard.type("e")
    expect(summary(page)).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
    expect(page.locator("#claims-table")).to_contain_text("dra-example-driver-cluster-worker/gpu-0")
    expect(page.locator("#editor .gutter-error")).to_have_count(0)


def test_the_copied_status_yaml_is_in_the_claims_own_version(browser: Browser, server):
    context, problems = new_context(browser, server.url, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/")
    beta = ONE_GPU.replace("resource.k8s.io/v1", "resource.k8s.io/v1beta1").replace(
        "      exactly:\n        deviceClassName", "      deviceClassName")
    replace_text(page, beta)
    expect(summary(page)).to_contain_text("Allocated on node dra-example-driver-cluster-worker")
    expect(page.locator("#status-yaml")).to_contain_text("apiVersion: resource.k8s.io/v1beta1")
    page.get_by_role("button", name="Copy YAML").click()
    expect(page.locator(".copy-status").last).to_have_text("Copied.")
    copied = yaml.safe_load(page.evaluate("navigator.clipboard.readText()"))
    assert copied["apiVersion"] == "resource.k8s.io/v1beta1"
    # v1beta1 has no `exactly`: the request's fields are on the request itself.
    assert copied["spec"]["devices"]["requests"] == [{"name": "gpu", "deviceClassName": "gpu.example.com"}]
    assert copied["status"]["allocation"]["devices"]["results"][0]["device"] == "gpu-0"
    context.close()
    problems.check()


INVALID_POOL = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: broken
spec:
  selectors:
  - cel:
      expression: device.driver == "broken.example.com"
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: broken-1
spec:
  driver: broken.example.com
  nodeName: dra-example-driver-cluster-worker
  pool: {name: broken, generation: 1, resourceSliceCount: 2}
  devices: [{name: device-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: broken-2
spec:
  driver: broken.example.com
  nodeName: dra-example-driver-cluster-worker
  pool: {name: broken, generation: 1, resourceSliceCount: 2}
  devices: [{name: device-1}]
---
""" + ONE_GPU.replace("gpu.example.com", "broken")


def test_an_invalid_pool_is_an_error_not_a_claim_that_does_not_fit(page: Page, samples):
    page.goto("/")
    replace_text(page, INVALID_POOL)
    expect(summary(page)).to_contain_text(
        "The scheduler would give up: invalid resource pools were encountered (node dra-example-driver-cluster-worker)")
    expect(summary(page)).not_to_contain_text("Cannot allocate")
    row = page.locator("#nodes tr", has_text="dra-example-driver-cluster-worker")
    expect(row.locator(".badge-error")).to_have_text("error")
    expect(page.locator("#status-yaml")).to_have_count(0)


def test_it_maps_devices_to_containers(page: Page, samples):
    page.goto("/examples/per-container-requests")
    rows = page.locator("#containers tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("trainer/trainer")
    expect(rows.nth(0)).to_contain_text("gpu-0")
    expect(rows.nth(1)).to_contain_text("trainer/exporter")
    expect(rows.nth(1)).to_contain_text("gpu-1")
    tile = page.locator('#picture .tile[data-device$="/gpu-1"]')
    expect(tile).to_contain_text("trainer/exporter")


def test_it_opens_an_example_by_deep_link(page: Page, samples):
    page.goto("/examples/")
    page.get_by_role("link", name="prioritized-list").first.click()
    expect(page).to_have_url(re.compile(r"/examples/\?tag=prioritized-list$"))
    page.get_by_role("link", name="Prioritized alternatives (firstAvailable)").click()
    expect(page).to_have_url(re.compile(r"/examples/prioritized-list$"))
    expect(page.locator("#example-banner")).to_contain_text("Prioritized alternatives")
    expect(summary(page)).to_contain_text("Allocated on node l40s-node-2")
    expect(page.locator("#claims-table")).to_contain_text("accel/l40s")
    expect(page.get_by_label("Sample inventory")).to_have_value("mixed-cluster")


def test_it_rejects_first_available_with_prioritized_list_off(page: Page, samples):
    page.goto("/examples/prioritized-list")
    expect(summary(page)).to_contain_text("Allocated")
    # DRAPrioritizedList is GA in 1.36 but locked only from 1.37: 1.36 can still turn it off.
    page.get_by_label("Kubernetes version").select_option("1.36")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.36")
    page.locator("#gate-picker summary").click()
    page.get_by_label("DRAPrioritizedList").select_option("off")
    expect(summary(page)).to_contain_text("Not valid")
    expect(page.locator("#assumes")).to_contain_text("DRAPrioritizedList=false")
    expect(page.locator("#diagnostics")).to_contain_text("firstAvailable")
    expect(page.locator("#diagnostics")).to_contain_text("DRAPrioritizedList is disabled")
    page.get_by_label("DRAPrioritizedList").select_option("")
    expect(summary(page)).to_contain_text("Allocated on node l40s-node-2")
    # 1.32 predates resource.k8s.io/v1 and has DRA off by default: nothing of it is served.
    page.get_by_label("Kubernetes version").select_option("1.32")
    expect(summary(page)).to_contain_text("Not valid")
    expect(page.locator("#dra-off")).to_contain_text("DRA is off in Kubernetes 1.32")


def test_it_shares_a_link_that_restores_everything(page: Page, browser: Browser, samples):
    page.goto("/examples/count-two-gpus")
    page.get_by_label("Node", exact=True).fill("dra-example-driver-cluster-worker")
    page.get_by_label("Kubernetes version").select_option("1.35")
    page.locator("#gate-picker summary").click()
    page.get_by_label("DRAAdminAccess").select_option("off")
    replace_text(page, ONE_GPU)
    expect(page.locator("#assumes")).to_contain_text("DRAAdminAccess=false")
    expect(summary(page)).to_contain_text("Allocated")
    page.get_by_role("button", name="Share").click()
    url = page.locator("#share-url").input_value()
    assert re.fullmatch(rf"{re.escape(samples.url)}/s/[0-9A-Za-z]{{11}}", url), url
    expect(page).to_have_url(url)

    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        other.goto(url)
        expect(other.locator("#share-banner")).to_be_visible()
        expect(other.get_by_label("Node", exact=True)).to_have_value("dra-example-driver-cluster-worker")
        expect(other.get_by_label("Kubernetes version")).to_have_value("1.35")
        expect(other.locator("#id_gate_DRAAdminAccess")).to_have_value("off")
        assert other.locator("#id_documents").input_value().strip() == ONE_GPU.strip()
        expect(other.locator("#assumes")).to_contain_text("Kubernetes 1.35")
        expect(other.locator("#claims-table")).to_contain_text("one-gpu")
        # Sharing the same state again gives the same link; an edit gives a new one.
        other.get_by_role("button", name="Share").click()
        expect(other.locator("#share-url")).to_have_value(url)
        replace_text(other, ONE_GPU.replace("one-gpu", "another-gpu"))
        expect(other.locator("#claims-table")).to_contain_text("another-gpu")
        other.get_by_role("button", name="Share").click()
        expect(other.locator("#share-url")).not_to_have_value(url)
    finally:
        fresh.close()


def test_it_imports_a_pasted_kubectl_list(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    expect(page.locator("#inventory-source")).to_have_attribute("open", "")
    replace_text(page, KUBECTL_LIST, name="inventory")
    replace_text(page, ONE_GPU)
    expect(page.locator("#inventory-objects")).to_contain_text("1 Node (v1)")
    expect(page.locator("#inventory-objects")).to_contain_text("1 ResourceSlice (resource.k8s.io/v1beta1, read as resource.k8s.io/v1)")
    expect(page.locator("#not-analysed")).to_contain_text("Deployment web")
    expect(summary(page)).to_contain_text("Allocated on node pasted-node")
    expect(page.locator('#picture .tile.granted[data-device$="/pasted-gpu-0"]')).to_have_count(1)
    expect(page.get_by_label("Sample inventory")).to_have_value("")


def test_it_uploads_an_inventory_file(page: Page, samples, tmp_path):
    path = tmp_path / "cluster.yaml"
    path.write_text(KUBECTL_LIST)
    page.goto("/")
    page.locator("#inventory-source summary").click()
    page.get_by_label("Upload an inventory file").set_input_files(str(path))
    expect(page.locator("#inventory-objects")).to_contain_text("resource.k8s.io/v1beta1")
    expect(page.get_by_label("Sample inventory")).to_have_value("")


def test_it_exports_and_imports_the_state(page: Page, samples, tmp_path):
    page.goto("/examples/count-two-gpus")
    page.get_by_label("Kubernetes version").select_option("1.36")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.36")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export YAML").click()
    path = tmp_path / "state.yaml"
    download.value.save_as(path)
    assert "kind: DRAPlaygroundState" in path.read_text()

    page.goto("/")
    page.locator("#import-panel summary").click()
    page.get_by_label("Exported state (YAML)").set_input_files(str(path))
    page.get_by_role("button", name="Import", exact=True).last.click()
    expect(page.locator("#import-status")).to_contain_text("Imported")
    expect(page.get_by_label("Kubernetes version")).to_have_value("1.36")
    expect(page.locator("#claims-table")).to_contain_text("two-gpus")


def test_it_works_without_javascript(browser: Browser, samples):
    context, _ = new_context(browser, samples.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator("#result-summary")).to_contain_text("Allocated")
        page.get_by_label("Claims, templates and pods (YAML)").fill(ONE_GPU.replace("deviceClassName", "deviceClassNam"))
        page.locator("#run-button").click()
        expect(page.locator("#result-summary")).to_contain_text("Not valid")
        expect(page.locator("#diagnostics")).to_contain_text("line 10")
        page.get_by_label("Claims, templates and pods (YAML)").fill(ONE_GPU)
        page.locator("#run-button").click()
        expect(page.locator("#claims-table")).to_contain_text("one-gpu")
        page.get_by_label("Sample inventory").select_option("mixed-cluster")
        page.get_by_role("button", name="Load").click()
        expect(page.locator("#picture")).to_contain_text("l40s-node-2")
        page.get_by_role("button", name="Share").click()
        expect(page).to_have_url(re.compile(r"/s/[0-9A-Za-z]{11}$"))
        expect(page.locator("#share-banner")).to_be_visible()
    finally:
        context.close()


def test_it_says_when_a_request_is_too_large(browser: Browser, server_with):
    small = server_with(DATA_UPLOAD_MAX_MEMORY_SIZE="60000")
    context, problems = new_context(browser, small.url)
    try:
        page = context.new_page()
        page.goto("/")
        expect(summary(page)).to_contain_text("Allocated")
        replace_text(page, ONE_GPU + "# " + "x" * 70_000 + "\n")
        expect(page.locator("#request-status")).to_contain_text("Too large")
        expect(page.locator("#request-status")).to_contain_text("over the site's limit of 58.6")
        expect(page.locator("#request-status")).to_contain_text("Use my cluster")
        expect(page.locator("#request-status")).not_to_contain_text("DATA_UPLOAD_MAX_MEMORY_SIZE")
    finally:
        context.close()
    problems.check()


def test_it_can_be_used_with_the_keyboard(page: Page, samples):
    page.goto("/")
    editor(page).click()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    # Leaving the editor with Esc, Tab reaches the next control instead of indenting.
    focused = page.evaluate("document.activeElement.id")
    assert focused == "splitter", focused  # the claims come last in the form, the splitter next
    # Every form control has a label, and the editors' input fields carry theirs.
    unlabelled = page.evaluate(
        """Array.from(document.querySelectorAll('#playground-form select, #playground-form textarea[name],'
                + ' #playground-form input:not([type=hidden])'))
             .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
             .map(el => el.name || el.outerHTML.slice(0, 80))"""
    )
    assert unlabelled == [], unlabelled
    for control in ("Sample inventory", "Node", "Kubernetes version", "DRADeviceTaints"):
        expect(page.get_by_label(control, exact=True)).to_have_count(1)
    expect(editor(page).locator("textarea")).to_have_attribute("aria-label", "Claims, templates and pods (YAML)")
    # Device tiles take focus and show their attributes.
    tile = page.locator("#picture .tile").first
    tile.focus()
    expect(tile.locator(".tile-detail")).to_be_visible()
    expect(tile.locator(".tile-detail")).to_contain_text("model: LATEST-GPU-MODEL")


def test_it_shows_the_inventory_picture_with_attributes(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    tiles = page.locator("#picture .tile")
    expect(tiles).to_have_count(8)
    expect(tiles.first).to_have_attribute("title", re.compile(r"uuid: gpu-"))
    expect(page.locator("#picture .tile.granted")).to_have_count(2)
    expect(page.locator("#legend li")).to_have_count(1)


def test_it_survives_back_and_forward_after_sharing(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    replace_text(page, ONE_GPU)
    expect(page.locator("#claims-table")).to_contain_text("one-gpu")
    page.get_by_role("button", name="Share").click()
    expect(page).to_have_url(re.compile(r"/s/\w+$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"/examples/count-two-gpus$"))
    expect(page.locator("#claims-table")).to_contain_text("two-gpus")
    page.go_forward()
    expect(page.locator("#share-banner")).to_be_visible()
    expect(page.locator("#claims-table")).to_contain_text("one-gpu")
    # The editor still works after the history round trip.
    replace_text(page, ONE_GPU.replace("one-gpu", "third-gpu"))
    expect(page.locator("#claims-table")).to_contain_text("third-gpu")


def test_it_shows_the_inventory_editor_when_opened(page: Page, samples):
    page.goto("/")
    page.locator("#inventory-source summary").click()
    expect(editor(page, "inventory").locator(".CodeMirror-line").first).to_contain_text("apiVersion")


def test_it_tries_every_node_automatically(page: Page, samples):
    page.goto("/examples/prioritized-list")
    rows = page.locator("#nodes tbody tr")
    expect(rows).to_have_count(4)
    expect(page.locator("#nodes tr.fits")).to_contain_text("l40s-node-2")
    expect(page.locator("#nodes tr.fits .badge")).to_have_text("chosen")
    expect(page.locator("#picture .node.chosen")).to_contain_text("l40s-node-2")


def test_it_explains_why_devices_do_not_match(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    expect(page.locator("#requests")).to_contain_text("8 of 8 devices match")
    text = page.locator("#id_documents").input_value().replace("== 'LATEST-GPU-MODEL'", "== 'OLD-MODEL'")
    replace_text(page, text)
    expect(summary(page)).to_contain_text("Cannot allocate on any node")
    expect(page.locator("#requests")).to_contain_text("0 of 8 devices match")
    expect(page.locator("#requests .rejected")).to_contain_text("8 devices: request selector #0 is false")
    expect(page.locator("#requests .why-part")).to_contain_text('model = "LATEST-GPU-MODEL"')
    expect(page.locator("#nodes tr.no-fit")).to_contain_text("dra-example-driver-cluster-worker")
    expect(page.locator("#picture .tile.granted")).to_have_count(0)


def test_a_malformed_requested_capacity_is_a_located_parse_error_not_a_crash(page: Page, samples):
    page.goto("/")
    claim = ONE_GPU.replace("        deviceClassName: gpu.example.com\n",
                            "        deviceClassName: gpu.example.com\n"
                            "        capacity:\n          requests:\n            memory: ''\n", 1)
    assert claim != ONE_GPU
    replace_text(page, claim)
    expect(summary(page)).to_contain_text("Not valid")
    diagnostics = page.locator("#diagnostics")
    expect(diagnostics).to_contain_text("capacity.requests[memory]")
    expect(diagnostics).to_contain_text("quantities must match the regular expression")
    expect(diagnostics.locator("a.diagnostic").first).to_have_text(re.compile(r"line 13, column \d+"))
