"""Quick fixes (issue 26): the Apply button beside a hint makes its edit in the editor, the change runs the
analysis again, and Ctrl-Z in the editor takes the edit back."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import GPU, claim, editor_value, replace_text, summary

pytestmark = pytest.mark.e2e


def test_apply_a_did_you_mean_then_undo_it(page: Page, samples):
    page.goto("/")
    typo = claim(f'{GPU}.modle == "LATEST-GPU-MODEL"')
    replace_text(page, typo)
    expect(summary(page)).to_contain_text("The scheduler would give up")
    apply = page.get_by_role("button", name="Apply: Use model")
    expect(apply.first).to_be_visible()
    apply.first.click()
    fixed = typo.replace(".modle ==", ".model ==")
    assert editor_value(page) == fixed
    # The edit ran the analysis again: the typo's warning and its button are gone.
    expect(page.get_by_role("button", name="Apply: Use model")).to_have_count(0)
    expect(summary(page)).not_to_contain_text("The scheduler would give up")
    # The focus is in the editor: Ctrl-Z restores the text, and the analysis shows the typo again.
    page.keyboard.press("Control+z")
    assert editor_value(page) == typo
    expect(page.get_by_role("button", name="Apply: Use model").first).to_be_visible()
    expect(summary(page)).to_contain_text("The scheduler would give up")


MEMORY = 'device.capacity["gpu.example.com"].memory'
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


@pytest.mark.parametrize(("before", "title", "after"), [
    (claim(f'{MEMORY} >= quantity("40Gi")'), "Use compareTo", claim(f'{MEMORY}.compareTo(quantity("40Gi")) >= 0')),
    (claim(f'{GPU}.driverVersion == "1.0.0"'), "Wrap in semver()", claim(f'{GPU}.driverVersion == semver("1.0.0")')),
    (V1BETA1_SHAPE, "Move under exactly:", V1BETA1_SHAPE.replace(
        "      deviceClassName: gpu.example.com\n      count: 1\n",
        "      exactly:\n        deviceClassName: gpu.example.com\n        count: 1\n")),
], ids=["compareTo", "semver", "exactly"])
def test_apply_each_kind_of_fix(page: Page, samples, before, title, after):
    page.goto("/")
    replace_text(page, before)
    apply = page.get_by_role("button", name=f"Apply: {title}")
    expect(apply.first).to_be_visible()
    apply.first.click()
    assert editor_value(page) == after
    expect(page.get_by_role("button", name=f"Apply: {title}")).to_have_count(0)
    expect(summary(page)).to_contain_text("Allocated")


def test_apply_from_an_explanation_hint(page: Page, samples):
    page.goto("/")
    typo = claim(f'{GPU}.modle == "LATEST-GPU-MODEL"')
    replace_text(page, typo)
    apply = page.locator("#requests .rejected").get_by_role("button", name="Apply: Use model")
    expect(apply.first).to_be_visible()
    apply.first.click()
    assert editor_value(page) == typo.replace(".modle ==", ".model ==")
    expect(summary(page)).to_contain_text("Allocated")
