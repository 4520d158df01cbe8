"""Authoring that teaches: a false selector explained down to the failing part, and hints for the usual
CEL mistakes, read on the page the way a person writing a claim would."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import GPU, claim, replace_text, summary

pytestmark = pytest.mark.e2e

MEMORY = 'device.capacity["gpu.example.com"].memory'


def test_a_two_part_selector_is_explained_down_to_the_failing_part(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{GPU}.model == "LATEST-GPU-MODEL" && {MEMORY}.compareTo(quantity("100Gi")) >= 0'))
    expect(summary(page)).to_contain_text("Cannot allocate")
    group = page.locator("#requests .rejected > li")
    expect(group).to_have_count(1)
    expect(group).to_contain_text("8 devices: request selector #0 is false")
    part = group.locator(".why-part")
    expect(part).to_have_count(1)  # the model matched: only the memory part is shown
    expect(part).to_contain_text('compareTo(quantity("100Gi")) >= 0')
    expect(part).to_contain_text("memory = 80Gi")


def test_comparing_quantities_with_an_operator_gets_a_hint_and_a_caret_diagram(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{MEMORY} >= quantity("40Gi")'))
    expect(summary(page)).to_contain_text("Not valid")
    item = page.locator("#diagnostics .diagnostic-item.error").first
    expect(item).to_contain_text("found no matching overload for '_>=_'")
    expect(item.locator(".hint-text")).to_contain_text("quantities are not ordered with >=")
    expect(item.locator(".hint-text")).to_contain_text("compareTo")
    diagram = item.locator("pre.caret-diagram")
    expect(diagram).to_contain_text("^")
    assert "mono" in diagram.evaluate("e => getComputedStyle(e).fontFamily")
    lines = diagram.inner_text().splitlines()
    assert len(lines) == 2 and lines[1].index("^") > 40  # the caret under the operator, on its own line


def test_comparing_a_version_with_a_string_gets_a_hint(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{GPU}.driverVersion > "0.9.0"'))
    expect(summary(page)).to_contain_text("The scheduler would give up")
    expect(summary(page)).to_contain_text("no such overload")
    expect(page.locator("#allocation-hint")).to_contain_text('wrap the string in semver("...")')


def test_a_misspelt_attribute_gets_a_did_you_mean_and_one_message(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{GPU}.modle == "LATEST-GPU-MODEL"'))
    runtime = page.locator("#diagnostics .diagnostic-item.warning", has_text="fails at runtime on")
    expect(runtime).to_have_count(1)  # one message for the 8 devices it hit
    expect(runtime).to_contain_text("fails at runtime on 8 device(s)")
    expect(runtime.locator(".hint-text")).to_contain_text('did you mean "model"?')
    # Matching devices: one group, not one line per device.
    expect(page.locator("#requests .rejected > li")).to_have_count(1)
    expect(page.locator("#requests .rejected > li")).to_contain_text("8 devices")


def test_a_domain_nobody_publishes_gets_the_nearest_domain(page: Page, samples):
    page.goto("/")
    replace_text(page, claim('device.attributes["gpu.exmaple.com"].model == "x"'))
    hint = page.locator("#diagnostics .hint-text", has_text="no device publishes anything under gpu.exmaple.com")
    expect(hint.first).to_contain_text('did you mean "gpu.example.com"?')


def test_a_malformed_quantity_says_what_a_quantity_looks_like(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{MEMORY}.isGreaterThan(quantity("40GB"))'))
    expect(summary(page)).to_contain_text("quantities must match the regular expression")
    expect(page.locator("#allocation-hint")).to_contain_text("a quantity is a number with an optional suffix")


def test_an_attribute_no_device_has_is_named_not_guarded(page: Page, samples):
    # A name no device publishes is a wrong name first (issue 24): has() would make the selector silently false.
    page.goto("/")
    replace_text(page, claim(f"{GPU}.numa == 0"))
    hint = page.locator("#diagnostics .hint-text", has_text='no device here publishes "numa"')
    expect(hint.first).to_contain_text("check the name and its domain")
    expect(page.locator("#diagnostics .hint-text", has_text="guard optional attributes with has(")).to_have_count(0)


def test_too_many_requests_say_the_numbers(page: Page, samples):
    page.goto("/")
    replace_text(page, claim("", requests=9))
    expect(summary(page)).to_contain_text("Cannot allocate")
    expect(page.locator("#nodes")).to_contain_text("need 9 devices together, but only 8")
    expect(page.locator("#nodes")).not_to_contain_text("no combination satisfies")


def test_the_deciding_part_is_underlined_in_the_editor(page: Page, samples):
    page.goto("/")
    replace_text(page, claim(f'{GPU}.model == "LATEST-GPU-MODEL" && {MEMORY}.compareTo(quantity("100Gi")) >= 0'))
    expect(page.locator("#requests .why-part")).to_have_count(1)
    underlined = page.locator("#id_documents + .CodeMirror .cm-why-part")
    expect(underlined.first).to_be_visible()
    text = "".join(underlined.all_inner_texts())
    assert text == f'{MEMORY}.compareTo(quantity("100Gi")) >= 0'
    assert "memory = 80Gi" in (underlined.first.get_attribute("title") or "")


NIC_SELECTOR = 'has(device.attributes["dra.net"].ifName) && device.attributes["dra.net"].ifName.startsWith("ens")'


def test_a_has_guarded_selector_is_explained_by_its_guard_without_an_error(page: Page, samples):
    """false && error is false in CEL: a NIC without ifName is out because of the has(), not an error (issue 24)."""
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("gpu-rdma-pcie")
    expect(page.locator("#picture")).to_contain_text("ip-192-168-153-160.ec2.internal")
    replace_text(page, "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: nic\nspec:\n"
                       "  devices:\n    requests:\n    - name: nic\n      exactly:\n        deviceClassName: dra.net\n"
                       f"        selectors:\n        - cel:\n            expression: '{NIC_SELECTOR}'\n")
    expect(summary(page)).to_contain_text("Allocated on node ip-192-168-153-160.ec2.internal")
    nics = page.locator("#requests .rejected > li", has_text="request selector #0 is false")
    expect(nics).to_contain_text("4 devices")
    expect(nics.locator(".why-part")).to_have_count(1)
    expect(nics.locator(".why-part")).to_contain_text('has(device.attributes["dra.net"].ifName)')
    expect(nics.locator(".why-part")).to_contain_text("is false")
    expect(page.locator("#results .why-part.verdict-error")).to_have_count(0)
    expect(page.locator("#results .hint-text")).to_have_count(0)
    expect(page.locator("#diagnostics .diagnostic-item")).to_have_count(0)
    # In the editor: nothing is underlined. The selector is correct and filters (other NICs match).
    expect(page.locator("#id_documents + .CodeMirror .cm-why-part")).to_have_count(0)


def underlines(page: Page) -> int:
    return page.locator("#id_documents + .CodeMirror .cm-why-part").count()


@pytest.mark.parametrize("selector", [
    "device.attributes['dra.net'].?ifName.orValue('').startsWith('ens')",
    "'ifName' in device.attributes['dra.net'] && device.attributes['dra.net'].ifName.startsWith('ens')",
])
def test_a_selector_that_filters_is_not_underlined_as_a_warning(page: Page, samples, selector: str):
    """Issue 36, item 4: a correct selector false on some devices of the node only filters (Validation says
    valid, the claim is allocated): no underline. Written so it matches nothing, its deciding part is."""
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("gpu-rdma-pcie")
    expect(page.locator("#picture")).to_contain_text("ip-192-168-153-160.ec2.internal")
    nic = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: nic\nspec:\n"
           "  devices:\n    requests:\n    - name: nic\n      exactly:\n        deviceClassName: dra.net\n"
           "        selectors:\n        - cel:\n            expression: \"{}\"\n")
    replace_text(page, nic.format(selector))
    expect(summary(page)).to_contain_text("Allocated on node ip-192-168-153-160.ec2.internal")
    expect(page.locator("#requests .why-part").first).to_be_attached()
    expect(page.locator("#diagnostics .diagnostic-item")).to_have_count(0)
    assert underlines(page) == 0
    # The same selector made to match nothing: now its false part is why, and it is underlined.
    replace_text(page, nic.format(selector.replace("'ens'", "'nothing-starts-so'")))
    expect(summary(page)).to_contain_text("Cannot allocate")
    expect(page.locator("#id_documents + .CodeMirror .cm-why-part").first).to_be_visible()
    expect(page.locator("#id_documents + .CodeMirror .cm-why-error")).to_have_count(0)


def test_the_mig_starter_is_not_underlined(page: Page, samples):
    """Both selectors of the MIG sample's starter are false on most partitions: they filter, nothing is wrong."""
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("nvidia-mig")
    expect(summary(page)).to_contain_text("Allocated")
    expect(page.locator("#requests .why-part").first).to_be_attached()
    expect(page.locator("#diagnostics .diagnostic-item")).to_have_count(0)
    assert underlines(page) == 0
