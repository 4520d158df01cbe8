"""The editor as a tool: completion, hover help, Format, shortcuts, layouts, themes, keeping the work."""

import itertools
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from e2e.helpers import KUBECTL_LIST, ONE_GPU, editor, new_context, open_gates, replace_text, summary

pytestmark = pytest.mark.e2e

CLAIM_HEAD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: picked
spec:
  devices:
    requests:
    - name: gpu
      exactly:
"""


def hints(page: Page):
    return page.locator(".CodeMirror-hints li")


def offered(page: Page) -> list[str]:
    """The completion list's entries, once it is open (it opens after the engine's data arrives)."""
    expect(hints(page).first).to_be_visible()
    return hints(page).all_inner_texts()


def editor_value(page: Page, name: str = "documents") -> str:
    # After a sample is loaded the form is new: its editors exist once the page script has set them up.
    page.wait_for_function(f"!!document.getElementById('id_{name}').cm")
    return page.evaluate(f"document.getElementById('id_{name}').cm.getValue()")


def type_at_end(page: Page, text: str, name: str = "documents") -> None:
    """Put the cursor at the end of an editor and type there, as a person would."""
    page.evaluate(f"(() => {{ const cm = document.getElementById('id_{name}').cm; cm.focus();"
                  f" cm.setCursor(cm.lineCount(), 0); }})()")
    page.keyboard.insert_text(text)


# ------------------------------------------------------------------ completion and hover


def test_it_completes_a_device_class_name_with_ctrl_space(page: Page, samples):
    page.goto("/")
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu")
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_count(1)
    expect(hints(page).first).to_contain_text("gpu.example.com")
    page.keyboard.press("Enter")
    assert editor_value(page).endswith("deviceClassName: gpu.example.com")
    expect(summary(page)).to_contain_text("Allocated")


def test_it_completes_class_names_of_the_picked_inventory(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("mixed-cluster")
    expect(page.locator("#picture")).to_contain_text("l40s-node-2")
    replace_text(page, CLAIM_HEAD + "        deviceClassName: ")
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_text([re.compile("^gpu.amd.com"), re.compile("^gpu.nvidia.com")])


def test_it_completes_an_attribute_name_with_ctrl_space(page: Page, samples):
    page.goto("/")
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.example.com\n")
    type_at_end(page, '        selectors:\n        - cel:\n            expression: device.attributes["gpu.example.com"].mo')
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_count(1)
    expect(hints(page).first).to_contain_text("model")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(' == "LATEST-GPU-MODEL"')
    assert editor_value(page).endswith('device.attributes["gpu.example.com"].model == "LATEST-GPU-MODEL"')
    expect(summary(page)).to_contain_text("Allocated")
    # Capacity names, domains and the member functions of a quantity come the same way.
    type_at_end(page, ' && device.capacity["gpu.example.com"].')
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_text([re.compile("^memory")])
    page.keyboard.press("Enter")
    page.keyboard.insert_text(".")
    page.keyboard.press("Control+Space")  # a quantity's methods, not a string's
    texts = offered(page)
    assert any(t.startswith("isGreaterThan") for t in texts) and not any(t.startswith("startsWith") for t in texts), texts
    page.keyboard.press("Escape")
    page.keyboard.insert_text("compareT")
    page.keyboard.press("Control+Space")
    expect(hints(page).first).to_contain_text("compareTo")
    expect(hints(page).first).to_contain_text("instead of < and >")


def test_it_completes_field_names_for_the_kind_and_version(page: Page, samples):
    page.goto("/")
    replace_text(page, CLAIM_HEAD + "        ")
    page.keyboard.press("Control+Space")
    texts = offered(page)
    assert any(t.startswith("deviceClassName") for t in texts), texts
    assert any(t.startswith("allocationMode") for t in texts), texts
    page.keyboard.press("Escape")
    # Keys already written in the mapping are not offered again.
    replace_text(page, CLAIM_HEAD.replace("      exactly:\n", "      "))
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_text([re.compile("^exactly"), re.compile("^firstAvailable")])
    page.keyboard.press("Escape")
    # v1beta1 has no `exactly`: the request's own fields are offered one level up.
    replace_text(page, CLAIM_HEAD.replace("resource.k8s.io/v1", "resource.k8s.io/v1beta1").replace("      exactly:\n", "      "))
    page.keyboard.press("Control+Space")
    texts = offered(page)
    assert any(t.startswith("deviceClassName") for t in texts), texts
    assert not any(t.startswith("exactly") for t in texts), texts


def test_it_shows_a_fields_doc_on_hover(page: Page, samples):
    page.goto("/")
    replace_text(page, ONE_GPU)
    line = page.locator("#editor .CodeMirror-line", has_text="deviceClassName")
    box = line.locator("span.cm-atom", has_text="deviceClassName").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] - 30, box["y"] + box["height"] / 2)  # the span starts with the indent
    expect(page.locator("#editor-tip")).to_be_visible()
    expect(page.locator("#editor-tip")).to_contain_text("deviceClassName The DeviceClass")
    # A function in a CEL expression shows its signature and what it does.
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.example.com\n        selectors:\n        - cel:\n"
                 '            expression: device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0\n')
    page.mouse.move(0, 0)
    expect(page.locator("#editor-tip")).to_be_hidden()
    line = page.locator("#editor .CodeMirror-line", has_text="compareTo")
    text_box = line.bounding_box()
    at = page.evaluate("""() => { const cm = document.getElementById('id_documents').cm;
        const n = cm.lineCount() - 2; const ch = cm.getLine(n).indexOf('compareTo') + 3;
        const c = cm.charCoords({line: n, ch: ch}, 'window'); return [c.left, (c.top + c.bottom) / 2]; }""")
    assert text_box["y"] <= at[1] <= text_box["y"] + text_box["height"]
    page.mouse.move(at[0], at[1])
    expect(page.locator("#editor-tip")).to_contain_text("kubernetes.Quantity.compareTo(kubernetes.Quantity) -> int")
    expect(page.locator("#editor-tip")).to_contain_text("instead of < and >")


# ------------------------------------------------------------------ Format and shortcuts


def test_it_formats_the_claims_and_refuses_unreadable_text(page: Page, samples):
    page.goto("/")
    messy = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: one-gpu}\nspec:\n    devices:\n" \
            "        requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]  # a comment\n"
    replace_text(page, messy)
    page.get_by_role("button", name="Format", exact=True).click()
    expect(page.locator("#editor-status")).to_contain_text("formatted")
    assert editor_value(page) == ONE_GPU
    expect(summary(page)).to_contain_text("Allocated")
    replace_text(page, "spec: [\n")
    page.get_by_role("button", name="Format", exact=True).click()
    expect(page.locator("#editor-status")).to_contain_text("Not formatted: line 2, column 1")
    assert editor_value(page) == "spec: [\n"


def test_ctrl_enter_runs_and_ctrl_s_shares(page: Page, samples):
    page.goto("/")
    editor(page).click()
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/")) as answer:
        page.keyboard.press("Control+Enter")
    assert answer.value.status == 200
    assert editor_value(page).count("\n") == page.locator("#id_documents").input_value().count("\n")  # no newline typed
    page.keyboard.press("Control+s")
    expect(page.locator("#share-url")).to_have_value(re.compile(r"/s/[0-9A-Za-z]{11}$"))


# ------------------------------------------------------------------ layout


def no_sideways_scrolling(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"page is {width[0]} px wide in a {width[1]} px window"


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def test_layouts_from_phone_to_desktop(browser: Browser, samples):
    for width, beside in ((390, False), (1024, True), (1440, True)):
        context, problems = new_context(browser, samples.url, viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.goto("/examples/pcie-root-alignment")
            expect(summary(page)).to_contain_text("Allocated")
            page.locator("#gate-picker summary").click()
            no_sideways_scrolling(page)
            claims = box(page, "#editor .CodeMirror")
            if beside:
                results = box(page, "#results")
                assert results["x"] >= claims["x"] + claims["width"], (width, claims, results)
                assert results["y"] < 400, results  # in view beside the editor, not below it
            else:  # one column: the answer above the editor, the picture below it
                verdict, picture = box(page, "#result-summary"), box(page, "#picture")
                assert verdict["y"] + verdict["height"] <= claims["y"], (width, claims, verdict)
                assert picture["y"] >= claims["y"] + claims["height"], (width, claims, picture)
            if width == 390:  # long field paths, device names and node tables wrap too
                for slug in ("selector-missing-attribute", "opaque-config", "pcie-root-too-many-gpus", "admin-access"):
                    page.goto(f"/examples/{slug}")
                    expect(summary(page)).to_be_visible()
                    no_sideways_scrolling(page)
                page.goto("/examples/pcie-root-alignment")
                page.locator("#gate-picker summary").click()
            if width == 1440:
                assert claims["width"] >= max(700, width / 2), claims
                assert box(page, "#inventory")["width"] >= 700
            # Gate names are whole words on one line each.
            for label in page.locator("#gate-picker .gate:not([hidden]) label").all():  # those offered
                lines = label.evaluate("el => el.getClientRects().length")
                overflow = label.evaluate("el => el.scrollWidth > el.clientWidth + 1")
                assert lines == 1 and not overflow, (width, label.inner_text())
            # Long CEL lines wrap instead of scrolling sideways.
            page.evaluate("document.getElementById('id_documents').cm.setCursor(0, 0)")
            type_at_end(page, "# " + "long words " * 40 + "\n")
            no_sideways_scrolling(page)
            assert page.evaluate("(() => { const s = document.querySelector('#editor .CodeMirror-scroll');"
                                 " return s.scrollWidth <= s.clientWidth + 1; })()")
        finally:
            context.close()
        problems.check()


def test_the_splitter_moves_the_border_by_keyboard(page: Page, samples):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto("/")
    before = box(page, "#editor .CodeMirror")["width"]
    page.locator("#splitter").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#splitter")).to_have_attribute("aria-valuenow", "62")
    assert box(page, "#editor .CodeMirror")["width"] > before + 40


# ------------------------------------------------------------------ themes and contrast

CONTRAST = """
() => {
  const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
                       return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const over = (top, bottom) => ({r: top.r * top.a + bottom.r * (1 - top.a), g: top.g * top.a + bottom.g * (1 - top.a),
                                  b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  // The background behind an element: its own and its ancestors', and for editor text the line's layers.
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      layers.push(parse(getComputedStyle(e).backgroundColor));
      const line = e.parentElement && e.parentElement.classList.contains("CodeMirror-code") ? e : null;
      if (line) line.querySelectorAll(".CodeMirror-linebackground, .CodeMirror-activeline-background")
        .forEach((b) => layers.push(parse(getComputedStyle(b).backgroundColor)));
    }
    let color = {r: 255, g: 255, b: 255, a: 1};
    if (matchMedia("(prefers-color-scheme: dark)").matches) color = parse(getComputedStyle(document.body).backgroundColor);
    for (let i = layers.length - 1; i >= 0; i--) if (layers[i].a > 0) color = over(layers[i], color);
    return color;
  };
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    const rect = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (rect.width <= 1 || rect.height <= 1 || style.visibility === "hidden" || el.closest("[hidden], .visually-hidden, .htmx-indicator, option, .CodeMirror-measure")) continue;
    const fg = over(parse(style.color), background(el));
    const bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) bad.push(`${ratio.toFixed(2)} ${el.tagName.toLowerCase()}.${el.className} "${node.textContent.trim().slice(0, 30)}"`);
  }
  return bad;
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_at_least_4_5_to_1(browser: Browser, samples, scheme):
    context, problems = new_context(browser, samples.url, color_scheme=scheme, viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        for path in ("/examples/taints-with-toleration", "/examples/selector-missing-attribute", "/examples/"):
            page.goto(path)
            if path != "/examples/":
                page.locator("#inventory-source summary").click()
                page.locator("#gate-picker summary").click()
                editor(page).click()  # the active line's background too
                expect(summary(page)).to_be_visible()
            assert page.evaluate(CONTRAST) == [], path
        page.goto("/examples/count-two-gpus")
        replace_text(page, ONE_GPU.replace("deviceClassName", "deviceClassNam"))  # an error line
        expect(page.locator("#editor .gutter-error")).to_have_count(1)
        assert page.evaluate(CONTRAST) == []
        replace_text(page, CLAIM_HEAD + "        ")  # the completion list, its active entry and docs
        page.keyboard.press("Control+Space")
        expect(hints(page).first).to_be_visible()
        assert page.evaluate(CONTRAST) == []
    finally:
        context.close()
    problems.check()


def test_it_follows_the_systems_dark_theme(browser: Browser, samples):
    for scheme, dark in (("dark", True), ("light", False)):
        context, problems = new_context(browser, samples.url, color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto("/")
            expect(summary(page)).to_contain_text("Allocated")
            luminance = page.evaluate("""sel => { const c = getComputedStyle(document.querySelector(sel)).backgroundColor
                                          .match(/\\d+/g).map(Number); return (c[0] + c[1] + c[2]) / 3; }""", "html")
            editor_bg = page.evaluate("""() => getComputedStyle(document.querySelector('#editor .CodeMirror'))
                                          .backgroundColor.match(/\\d+/g).map(Number).reduce((a, b) => a + b) / 3""")
            assert (luminance < 60 and editor_bg < 60) if dark else (luminance > 200 and editor_bg > 200), (scheme, luminance, editor_bg)
        finally:
            context.close()
        problems.check()


# ------------------------------------------------------------------ keeping the work


def test_a_reload_keeps_the_edits_until_reset(page: Page, samples):
    page.goto("/")
    replace_text(page, ONE_GPU)
    page.get_by_label("Kubernetes version").select_option("1.35")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.35")
    page.wait_for_timeout(400)  # the store is written a moment after the last edit
    page.reload()
    expect(page.locator("#restored-status")).to_be_visible()
    assert editor_value(page) == ONE_GPU
    expect(page.get_by_label("Kubernetes version")).to_have_value("1.35")
    expect(page.locator("#claims-table")).to_contain_text("one-gpu")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.35")
    # Another tab starts afresh: the store is per tab.
    other = page.context.new_page()
    other.goto("/")
    expect(other.locator("#claims-table")).to_contain_text("trainer-gpus-")
    other.close()
    # Reset asks, then forgets the edits.
    page.once("dialog", lambda d: d.accept())
    page.locator("#reset-button").click()
    expect(page.locator("#claims-table")).to_contain_text("trainer-gpus-")
    expect(page.locator("#restored-status")).to_be_hidden()
    page.reload()
    expect(page.locator("#claims-table")).to_contain_text("trainer-gpus-")
    assert "one-gpu" not in editor_value(page)


def test_it_asks_before_an_upload_replaces_a_custom_inventory(page: Page, samples, tmp_path):
    path = tmp_path / "other.yaml"
    path.write_text(KUBECTL_LIST.replace("pasted-node", "uploaded-node"))
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, KUBECTL_LIST, name="inventory")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_label("Upload an inventory file").set_input_files(str(path))
    expect(page.get_by_label("Sample inventory")).to_have_value("")
    page.wait_for_timeout(300)
    assert asked and "with the file other.yaml" in asked[0], asked
    assert "uploaded-node" not in editor_value(page, "inventory")
    page.once("dialog", lambda d: d.accept())
    page.get_by_label("Upload an inventory file").set_input_files(str(path))
    expect(page.locator("#inventory-objects")).to_contain_text("1 Node")
    assert "uploaded-node" in editor_value(page, "inventory")


def test_it_asks_before_a_custom_inventory_is_replaced(page: Page, samples):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, KUBECTL_LIST, name="inventory")
    replace_text(page, ONE_GPU)
    expect(summary(page)).to_contain_text("Allocated on node pasted-node")
    expect(page.locator("#inventory-stale")).to_be_hidden()  # a custom inventory has no description
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_label("Sample inventory").select_option("mixed-cluster")
    expect(page.get_by_label("Sample inventory")).to_have_value("")
    assert asked and "Replace the inventory in the editor" in asked[0], asked
    assert "pasted-node" in editor_value(page, "inventory")
    expect(summary(page)).to_contain_text("Allocated on node pasted-node")
    page.once("dialog", lambda d: d.accept())
    page.get_by_label("Sample inventory").select_option("mixed-cluster")
    expect(page.locator("#picture")).to_contain_text("l40s-node-2")
    expect(editor(page, "inventory")).to_have_count(1)  # the new form's editors are set up
    assert "pasted-node" not in editor_value(page, "inventory")
    # The edited claims stay; a sample inventory over a sample one is replaced without asking.
    assert editor_value(page) == ONE_GPU
    page.get_by_label("Sample inventory").select_option("gpu-node")
    expect(page.locator("#picture")).to_contain_text("dra-example-driver-cluster-worker")


SAMPLE_NODES = {
    "gpu-node": "dra-example-driver-cluster-worker", "shared-gpus": "dra-example-driver-cluster-worker",
    "nvidia-mig": "dgx-h100-01", "nvidia-mig-numa": "dgx-h100-01", "gpu-rdma-pcie": "ip-192-168-153-160.ec2.internal", "mixed-cluster": "l40s-node-2",
    "network-attached": "rack1-node-1", "tainted-gpus": "gpu-node-7", "cpu-node": "dra-driver-cpu-worker",
    "tpu-node": "kind-control-plane", "sriov-node": "sriov-worker-1", "gpu-cluster": "gpu-node-00003",
    "gpu-node-v1beta1": "dra-example-driver-cluster-worker", "gpu-node-maintenance": "dra-example-driver-cluster-worker",
    "nvidia-mig-1-33": None,
    "gpu-extended-resources": "gpu-dra-node",
}
# Samples in an older release's form, which the current release refuses (their examples set the release).
OLDER_FORMS = {"nvidia-mig-1-33": "only one of `sharedCounters` or `devices` is allowed"}
# Samples that are stored clusters of hundreds of nodes: their analysis takes seconds.
SLOW_SAMPLES = {"gpu-cluster"}


def test_every_sample_inventory_opens_with_a_claim_that_fits_it(page: Page, samples):
    page.goto("/")
    values = [v for v in page.locator("#id_inventory_slug option").evaluate_all("os => os.map(o => o.value)") if v]
    assert sorted(values) == sorted(SAMPLE_NODES)
    for slug in values:
        page.get_by_label("Sample inventory").select_option(slug)
        expect(page.get_by_label("Sample inventory")).to_have_value(slug)
        if slug in OLDER_FORMS:
            expect(page.locator("#results")).to_contain_text(OLDER_FORMS[slug])
            continue
        wanted = f"Allocated on node {SAMPLE_NODES[slug]}"
        expect(summary(page)).to_contain_text(wanted, timeout=60_000 if slug in SLOW_SAMPLES else None)


def test_descriptions_say_when_they_no_longer_describe_the_screen(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    expect(page.locator("#example-stale")).to_be_hidden()
    expect(page.locator("#inventory-stale")).to_be_hidden()
    replace_text(page, ONE_GPU)
    expect(page.locator("#example-stale")).to_be_visible()
    expect(page.locator("#example-stale")).to_contain_text("You have changed the example")
    expect(page.locator("#inventory-stale")).to_be_hidden()
    page.locator("#inventory-source summary").click()
    type_at_end(page, "# my own note\n", name="inventory")
    expect(page.locator("#inventory-stale")).to_be_visible()
    expect(page.locator("#inventory-stale")).to_contain_text("not of the inventory in the editor")


# ------------------------------------------------------------------ accessibility


def test_focus_stays_where_it_was_when_results_refresh(page: Page, samples):
    page.goto("/examples/count-two-gpus")
    tile = page.locator('#picture .tile[data-device$="/gpu-3"]')
    tile.focus()
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.press("Control+Enter")
    expect(page.locator("#result-summary")).to_contain_text("Allocated")
    # The answer draws the picture again (it is on screen); the tile that had the focus gets it back.
    expect(tile).to_be_focused()
    assert page.evaluate("document.activeElement.dataset.device || ''").endswith("/gpu-3")
    # A select that refreshes the results keeps the focus too, also the node picker the answer replaces.
    for label, value in (("Kubernetes version", "1.36"), ("Node", "dra-example-driver-cluster-worker")):
        control = page.get_by_label(label, exact=True)
        control.focus()
        if label == "Node":
            control.fill(value)  # a field the node names complete
        else:
            control.select_option(value)
        expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.36")
        page.wait_for_timeout(600)
        assert page.evaluate("document.activeElement.id") == control.get_attribute("id")


def test_tab_order_follows_the_screen(page: Page, samples):
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto("/")
    page.get_by_label("Sample inventory").focus()
    seen = []
    for _ in range(40):
        info = page.evaluate("""() => { const el = document.activeElement; const r = el.getBoundingClientRect();
            return {id: el.id || el.textContent.trim().slice(0, 20), x: r.left + window.scrollX, y: r.top + window.scrollY,
                    form: !!el.closest('#playground-form'), results: !!el.closest('#results')}; }""")
        seen.append(info)
        if info["results"]:
            break
        page.keyboard.press("Escape")  # so that Tab leaves an editor
        page.keyboard.press("Tab")
    assert seen[-1]["results"], seen
    # Within the form: left to right along a row, then down.
    in_form = [s for s in seen if s["form"]]
    for a, b in itertools.pairwise(in_form):
        same_row = abs(b["y"] - a["y"]) <= 4
        assert (b["x"] > a["x"]) if same_row else (b["y"] > a["y"]), (a, b)
    ids = [s["id"] for s in seen]
    assert ids.index("id_inventory_slug") < ids.index("id_node") < ids.index("run-button") < ids.index("splitter"), ids


# ------------------------------------------------------------------ completion that follows the release, gates and class


def test_includes_is_marked_as_needing_its_gate_and_follows_the_release(page: Page, samples):
    page.goto("/")
    expect(summary(page)).to_contain_text("Allocated")
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.example.com\n")
    type_at_end(page, '        selectors:\n        - cel:\n            expression: device.attributes["gpu.example.com"].model.inc')
    page.keyboard.press("Control+Space")
    offered = hints(page).filter(has_text=re.compile("^includes"))
    expect(offered).to_have_count(1)  # 1.37 with DRAListTypeAttributes off by default
    expect(offered).to_contain_text("needs DRAListTypeAttributes")
    expect(offered).to_contain_text("Needs the feature gate DRAListTypeAttributes, off here (Kubernetes 1.37)")
    page.keyboard.press("Escape")
    # With the gate on it is offered plainly.
    open_gates(page)
    page.get_by_label("DRAListTypeAttributes").select_option("on")
    expect(page.locator("#assumes")).to_contain_text("DRAListTypeAttributes=true")
    editor(page).click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Control+Space")
    expect(offered).to_have_count(1)
    expect(offered).not_to_contain_text("Needs the feature gate")
    page.keyboard.press("Escape")
    # A release without the gate does not offer it at all.
    page.get_by_label("Kubernetes version").select_option("1.35")
    expect(page.locator("#assumes")).to_contain_text("Kubernetes 1.35")
    editor(page).click()
    page.keyboard.press("Control+End")
    for _ in "inc":
        page.keyboard.press("Backspace")
    page.keyboard.press("Control+Space")  # every method of a string
    expect(hints(page).filter(has_text=re.compile("^startsWith"))).to_have_count(1)
    expect(offered).to_have_count(0)


def pick_pcie_sample(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("gpu-rdma-pcie")
    expect(page.locator("#picture")).to_contain_text("ip-192-168-153-160")


def test_attribute_domains_come_class_first_and_are_closed(page: Page, samples):
    pick_pcie_sample(page)
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.nvidia.com\n")
    type_at_end(page, '        selectors:\n        - cel:\n            expression: device.attributes["')
    page.keyboard.press("Control+Space")
    # The class's driver first, then the other domain its devices publish, then the rest.
    expect(hints(page)).to_have_text([re.compile(r"^gpu\.nvidia\.com.*class gpu\.nvidia\.com"),
                                      re.compile(r"^resource\.kubernetes\.io.*class gpu\.nvidia\.com"),
                                      re.compile(r"^dra\.net(?!.*class)")])
    page.keyboard.press("Enter")
    assert editor_value(page).endswith('expression: device.attributes["gpu.nvidia.com"]')
    page.keyboard.insert_text(".productN")
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_count(1)
    page.keyboard.press("Enter")
    page.keyboard.insert_text(' == "NVIDIA A100-SXM4-40GB"')
    expect(summary(page)).to_contain_text("Allocated")
    # Another request of class dra.net: its driver comes first; a closing quote and bracket already
    # there are not doubled; the keyboard picks the second entry.
    type_at_end(page, '\n    - name: nic\n      exactly:\n        deviceClassName: dra.net\n        selectors:\n'
                      '        - cel:\n            expression: device.attributes[""]')
    page.evaluate("""() => { const cm = document.getElementById('id_documents').cm;
        const n = cm.lineCount() - 1; cm.setCursor(n, cm.getLine(n).length - 2); }""")
    page.keyboard.press("Control+Space")
    expect(hints(page).first).to_contain_text("dra.net")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert editor_value(page).endswith('expression: device.attributes["resource.kubernetes.io"]')


def test_match_attribute_offers_qualified_names_of_the_requests_classes_first(page: Page, samples):
    pick_pcie_sample(page)
    claim = CLAIM_HEAD.replace("    - name: gpu\n      exactly:\n", "") + """\
    - name: nic
      exactly:
        deviceClassName: dra.net
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
    constraints:
    - requests: [gpu]
      matchAttribute: """
    replace_text(page, claim)
    page.keyboard.press("Control+Space")
    texts = offered(page)
    # The gpu request's class publishes gpu.nvidia.com and resource.kubernetes.io names: those first.
    assert texts[0].startswith("gpu.nvidia.com/"), texts
    first_other = next(i for i, t in enumerate(texts) if t.startswith("dra.net/"))
    assert all(not t.startswith("dra.net/") for t in texts[:first_other]), texts
    assert any(t.startswith("resource.kubernetes.io/pcieRoot") for t in texts[:first_other]), texts
    page.keyboard.press("Escape")
    page.keyboard.insert_text("pcie")
    page.keyboard.press("Control+Space")
    expect(hints(page)).to_have_count(1)
    expect(hints(page).first).to_contain_text("resource.kubernetes.io/pcieRoot")
    page.keyboard.press("Enter")
    assert editor_value(page).endswith("matchAttribute: resource.kubernetes.io/pcieRoot")
    expect(page.locator("#valid-message")).to_have_text("All objects are valid.")
    # Hovering the name says what the devices of the constraint's requests publish.
    hover_word(page, "pcieRoot")
    expect(page.locator("#editor-tip")).to_contain_text(
        "resource.kubernetes.io/pcieRoot string; the 8 devices of class gpu.nvidia.com all publish it")
    # distinctAttribute too; without `requests` every request's classes come first.
    replace_text(page, claim.replace("    - requests: [gpu]\n      matchAttribute: ", "    - distinctAttribute: "))
    page.keyboard.press("Control+Space")
    texts = offered(page)
    assert texts[0].startswith("dra.net/"), texts  # the nic request's class is written first


def hover_word(page: Page, word: str, line_from_end: int = 1) -> None:
    at = page.evaluate("""([word, back]) => { const cm = document.getElementById('id_documents').cm;
        const n = cm.lineCount() - back; const ch = cm.getLine(n).indexOf(word) + 2;
        const c = cm.charCoords({line: n, ch: ch}, 'window'); return [c.left, (c.top + c.bottom) / 2]; }""",
                       [word, line_from_end])
    page.mouse.move(0, 0)
    page.mouse.move(at[0], at[1])


def test_hovering_an_attribute_name_shows_its_type_and_values(page: Page, samples):
    pick_pcie_sample(page)
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.nvidia.com\n        selectors:\n        - cel:\n"
                 '            expression: device.attributes["gpu.nvidia.com"].productName == "x"\n')
    tip = page.locator("#editor-tip")
    hover_word(page, "productName", 2)
    expect(tip).to_be_visible()
    expect(tip).to_contain_text('gpu.nvidia.com/productName string; the 8 devices of class gpu.nvidia.com all '
                                'publish it: "NVIDIA A100-SXM4-40GB" ×8.')
    # A capacity name, and an attribute some devices of the class lack.
    replace_text(page, CLAIM_HEAD + "        deviceClassName: dra.net\n        selectors:\n        - cel:\n"
                 '            expression: has(device.attributes["dra.net"].ifName)\n')
    hover_word(page, "ifName", 2)
    expect(tip).to_contain_text("of the 7 devices of class dra.net, 3 publish it")
    expect(tip).to_contain_text("4 lack it.")
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.nvidia.com\n        selectors:\n        - cel:\n"
                 '            expression: device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("1Gi")) > 0\n')
    hover_word(page, "memory", 2)
    expect(tip).to_contain_text("gpu.nvidia.com/memory kubernetes.Quantity; the 8 devices of class gpu.nvidia.com")
    # A name the class's devices do not publish, and one no device publishes.
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.nvidia.com\n        selectors:\n        - cel:\n"
                 '            expression: device.attributes["dra.net"].ifName == device.attributes["dra.net"].nope\n')
    hover_word(page, "ifName", 2)
    expect(tip).to_contain_text("dra.net/ifName No device of class gpu.nvidia.com publishes it (8 devices). "
                                "string; of the 15 devices in the inventory, 3 publish it")
    hover_word(page, "nope", 2)
    expect(tip).to_contain_text("dra.net/nope No device in the inventory publishes it.")
    replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.nvidia.com\n        selectors:\n        - cel:\n"
                 '            expression: device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("1Gi")) > 0\n')
    # From the keyboard: Ctrl-I shows the help of the name at the cursor, and describes the editor with it.
    page.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    page.evaluate("""() => { const cm = document.getElementById('id_documents').cm; cm.focus();
        const n = cm.lineCount() - 2; cm.setCursor(n, cm.getLine(n).indexOf('memory') + 1); }""")
    page.keyboard.press("Control+i")
    expect(tip).to_contain_text("kubernetes.Quantity; the 8 devices of class gpu.nvidia.com")
    expect(page.locator("#editor .CodeMirror textarea")).to_have_attribute("aria-describedby", "editor-tip")
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_gate_badges_and_attribute_tips_are_legible_in_both_themes(browser: Browser, samples, scheme):
    context, problems = new_context(browser, samples.url, color_scheme=scheme, viewport={"width": 1440, "height": 900})
    try:
        page = context.new_page()
        page.goto("/")
        replace_text(page, CLAIM_HEAD + "        deviceClassName: gpu.example.com\n        selectors:\n        - cel:\n"
                     '            expression: device.attributes["gpu.example.com"].model.i\n')
        page.evaluate("""() => { const cm = document.getElementById('id_documents').cm;
            const n = cm.lineCount() - 2; cm.setCursor(n, cm.getLine(n).length); }""")
        page.keyboard.press("Control+Space")
        # includes() comes first, so its badge is on the active entry; then on an inactive one.
        badge = page.locator(".CodeMirror-hints li.CodeMirror-hint-active .hint-badge")
        expect(badge).to_have_text("needs DRAListTypeAttributes")
        assert page.evaluate(CONTRAST) == []
        page.keyboard.press("ArrowDown")
        expect(badge).to_have_count(0)
        expect(page.locator(".CodeMirror-hints .hint-badge")).to_have_count(1)
        assert page.evaluate(CONTRAST) == []
        page.keyboard.press("Escape")
        hover_word(page, "model", 2)
        expect(page.locator("#editor-tip")).to_contain_text("gpu.example.com/model string")
        assert page.evaluate(CONTRAST) == []
    finally:
        context.close()
    problems.check()
