"""The expression console (issue 26, item 1): pick a device by clicking its tile, type an expression, read
the value, the part tree and the cost; a runtime and a compile error; the console kept over a reload and in
a share. Convert (item 3) from a "not served" error and from the menu; Apply on the has() guard (item 2)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import editor, open_gates, replace_text, summary, type_expression

pytestmark = pytest.mark.e2e

POOL = "dra-example-driver-cluster-worker"
GPU3 = f"gpu.example.com/{POOL}/gpu-3"
MEMORY = 'device.capacity["gpu.example.com"].memory'


def editor_value(page: Page, name: str = "documents") -> str:
    return page.evaluate(f"document.getElementById('id_{name}').cm.getValue()")


def test_the_console_on_a_tile_s_device(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(summary(page)).to_contain_text("Allocated")
    panel = page.locator("#console-panel")
    expect(panel).to_be_visible()
    # Pick gpu-3 by clicking its tile in the picture.
    page.locator(f'#results .tile[data-device="{GPU3}"]').click()
    expect(panel.get_by_label("Device", exact=True)).to_have_value(GPU3)
    type_expression(page, f'{MEMORY}.compareTo(quantity("40Gi")) > 0')
    expect(page.locator("#console-value-text")).to_have_text("true")
    expect(page.locator("#console-type")).to_have_text("bool")
    # The part tree: the memory capacity's own value and type, under the comparison.
    memory = page.locator(".console-part", has=page.locator(":scope > .part-text", has_text=re.compile(
        "^" + re.escape(MEMORY) + "$")))
    expect(memory.locator(":scope > .part-value")).to_have_text("80Gi")
    expect(memory.locator(":scope > .part-type")).to_have_text("kubernetes.Quantity")
    expect(page.locator(".console-tree > .console-part.depth-0 > .part-value")).to_have_text("true")
    # Hovering a part marks its text in the expression.
    memory.locator(":scope > .part-text").hover()
    expect(page.locator("#console-panel .cm-console-part")).to_have_text(MEMORY)
    # The cost against the limit.
    expect(page.locator("#console-cost")).to_contain_text("of the limit 1000000")
    assert int(page.locator("#console-cost-value").text_content()) > 0
    # Any result type: a string.
    type_expression(page, "device.driver")
    expect(page.locator("#console-value-text")).to_have_text('"gpu.example.com"')
    expect(page.locator("#console-type")).to_have_text("string")
    # Another device from the list.
    with page.expect_response("**/console"):
        panel.get_by_label("Device", exact=True).select_option(f"gpu.example.com/{POOL}/gpu-5")
    type_expression(page, 'device.attributes["gpu.example.com"].index')
    expect(page.locator("#console-value-text")).to_have_text("5")


def test_errors_in_the_console(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    page.locator(f'#results .tile[data-device="{GPU3}"]').click()
    type_expression(page, 'device.attributes["gpu.example.com"].nosuch == 1')
    expect(page.locator("#console-runtime-error")).to_contain_text("no such key")
    expect(page.locator("#console-value")).to_have_count(0)
    # The parts say which one failed.
    expect(page.locator(".console-part.error").first).to_contain_text("no such key")
    type_expression(page, "device.driver == ")
    expect(page.locator("#console-compile-error")).to_contain_text("Does not compile")
    expect(page.locator("#console-compile-error .caret-diagram")).to_contain_text("^")


def test_the_console_is_kept_over_a_reload_and_in_a_share(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    page.locator(f'#results .tile[data-device="{GPU3}"]').click()
    type_expression(page, 'device.attributes["gpu.example.com"].index * 10')
    expect(page.locator("#console-value-text")).to_have_text("30")
    page.wait_for_timeout(400)  # the page keeps its work a moment after the last edit
    page.reload()
    expect(page.locator("#console-value-text")).to_have_text("30")
    expect(page.locator("#id_console_device")).to_have_value(GPU3)
    assert page.evaluate("document.getElementById('id_console_expression').cm.getValue()") == \
        'device.attributes["gpu.example.com"].index * 10'
    page.get_by_role("button", name="Share").click()
    url = page.locator("#share-url").input_value()
    page.goto(url)
    expect(page.locator("#console-value-text")).to_have_text("30")
    expect(page.locator("#id_console_device")).to_have_value(GPU3)
    expect(page.locator("#console-type")).to_have_text("int")


V1ALPHA3 = """\
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


def test_rewrite_a_claim_the_release_does_not_serve(page: Page, samples):
    page.goto("/")
    replace_text(page, V1ALPHA3)
    expect(page.locator("#diagnostics")).to_contain_text("Not served")
    rewrite = page.get_by_role("button", name="Rewrite in v1", exact=True)
    expect(rewrite).to_be_visible()
    rewrite.click()
    expect(page.locator("#convert-status")).to_contain_text("Converted to resource.k8s.io/v1")
    text = editor_value(page)
    assert text.startswith("apiVersion: resource.k8s.io/v1\n"), text
    assert "    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n" in text, text
    expect(summary(page)).to_contain_text("Allocated")
    expect(page.get_by_role("button", name="Rewrite in v1", exact=True)).to_have_count(0)
    # One edit: Ctrl-Z in the editor gives the claim back as it was written.
    page.keyboard.press("Control+z")
    assert editor_value(page) == V1ALPHA3
    expect(page.locator("#diagnostics")).to_contain_text("Not served")


def test_convert_to_from_the_menu(page: Page, samples):
    page.goto("/")
    replace_text(page, V1ALPHA3.replace("v1alpha3", "v1beta1"))
    expect(summary(page)).to_contain_text("Allocated")
    page.locator("#convert-to").select_option("v1beta2")
    expect(page.locator("#convert-status")).to_contain_text("Converted to resource.k8s.io/v1beta2")
    assert editor_value(page).startswith("apiVersion: resource.k8s.io/v1beta2\n")
    expect(page.locator("#convert-to")).to_have_value("")
    # A version the release does not serve: said, and the text is left alone.
    before = editor_value(page)
    page.locator("#convert-to").select_option("v1alpha3")
    expect(page.locator("#convert-status")).to_contain_text("Not served")
    assert editor_value(page) == before


def test_apply_the_has_guard(page: Page, samples):
    page.goto("/examples/selector-missing-attribute")
    expect(summary(page)).to_contain_text("The scheduler would give up")
    title = "Guard with has(device.attributes['dra.net'].ifName)"
    before = editor_value(page)
    apply = page.get_by_role("button", name=f"Apply: {title}")
    expect(apply.first).to_be_visible()
    apply.first.click()
    guarded = ("has(device.attributes['dra.net'].ifName) && "
               "device.attributes['dra.net'].ifName.startsWith('ens')")
    assert editor_value(page) == before.replace(
        "expression: device.attributes['dra.net'].ifName.startsWith('ens')", f"expression: {guarded}")
    # The analysis ran again: no runtime error, no guard to offer.
    expect(summary(page)).not_to_contain_text("The scheduler would give up")
    expect(page.get_by_role("button", name=f"Apply: {title}")).to_have_count(0)
    page.keyboard.press("Control+z")
    assert editor_value(page) == before
    expect(summary(page)).to_contain_text("The scheduler would give up")


def test_completion_and_hover_in_the_console(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    page.locator(f'#results .tile[data-device="{GPU3}"]').click()
    editor(page, "console_expression").click()
    page.keyboard.type('device.attributes["gpu.example.com"].mo')
    page.keyboard.press("Control+Space")
    hints = page.locator(".CodeMirror-hints li")
    expect(hints).to_have_count(1)
    expect(hints.first).to_contain_text("model")
    with page.expect_response("**/console"):
        page.keyboard.press("Enter")  # picks the completion; the pause after it evaluates
    expect(page.locator("#console-value-text")).to_have_text('"LATEST-GPU-MODEL"')
    # Hovering the name: its type and what the devices publish, as in the claims editor.
    at = page.evaluate("""() => { const cm = document.getElementById('id_console_expression').cm;
        const ch = cm.getLine(0).indexOf('model') + 2; const c = cm.charCoords({line: 0, ch: ch}, 'window');
        return [c.left, (c.top + c.bottom) / 2]; }""")
    page.mouse.move(0, 0)
    page.mouse.move(at[0], at[1])
    expect(page.locator("#editor-tip")).to_contain_text("gpu.example.com/model")
    expect(page.locator("#editor-tip")).to_contain_text("LATEST-GPU-MODEL")


V1_TWO = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-gpus
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
    constraints:
    - distinctAttribute: gpu.example.com/uuid
      requests: [gpus]
"""


def test_convert_names_the_fields_the_target_lacks(page: Page, samples):
    page.goto("/")
    page.get_by_label("Kubernetes version").select_option("1.33")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.33")
    open_gates(page)
    page.get_by_label("DynamicResourceAllocation").select_option("on")
    expect(page.locator("#assumes")).to_contain_text("DynamicResourceAllocation=true")
    replace_text(page, V1_TWO)
    expect(page.get_by_role("button", name="Rewrite in v1beta1", exact=True)).to_be_visible()
    page.locator("#convert-to").select_option("v1alpha3")
    status = page.locator("#convert-status")
    expect(status).to_contain_text("1 field has no place in resource.k8s.io/v1alpha3")
    expect(page.locator("#convert-dropped")).to_contain_text(
        "ResourceClaim two-gpus: spec.devices.constraints[0].distinctAttribute")
    text = editor_value(page)
    assert text.startswith("apiVersion: resource.k8s.io/v1alpha3\n") and "distinctAttribute" not in text, text


def test_the_console_fits_a_phone(page: Page, samples):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/examples/count-two-gpus")
    page.locator(f'#results .tile[data-device="{GPU3}"]').click()
    type_expression(page, f'{MEMORY}.compareTo(quantity("40Gi")) > 0 && device.driver == "gpu.example.com"')
    expect(page.locator("#console-value-text")).to_have_text("true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # A deep tree is indented a dozen levels at most.
    type_expression(page, "1" + " + 1" * 40)
    expect(page.locator("#console-value-text")).to_have_text("41")
    expect(page.locator('.console-part[data-depth="40"]')).to_have_count(2)  # the innermost 1 + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
