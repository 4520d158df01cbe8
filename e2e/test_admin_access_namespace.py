"""Admin access and the namespace label: with the Namespace in the input, the apiserver's refusal; without it, a
warning (docs/fidelity.md, "Create: admin access and the namespace label")."""

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import ONE_GPU, replace_text, summary

pytestmark = pytest.mark.e2e

ADMIN_GPU = ONE_GPU.replace("        deviceClassName: gpu.example.com\n",
                            "        deviceClassName: gpu.example.com\n        adminAccess: true\n")
NAMESPACE = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n"
LABELLED = NAMESPACE + "  labels:\n    resource.kubernetes.io/admin-access: \"true\"\n"
REFUSAL = "admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace"


def test_admin_access_follows_the_label_of_the_namespace_in_the_input(page: Page, samples):
    page.goto("/")
    diagnostics = page.locator("#diagnostics")
    replace_text(page, ADMIN_GPU)  # no Namespace: the engine cannot know its labels, and says so
    expect(summary(page)).to_contain_text("Allocated")
    expect(diagnostics).to_contain_text("the apiserver checks the namespace")
    replace_text(page, NAMESPACE + "---\n" + ADMIN_GPU)
    expect(summary(page)).to_contain_text("Not valid")
    expect(diagnostics).to_contain_text(REFUSAL)
    replace_text(page, LABELLED + "---\n" + ADMIN_GPU)
    expect(summary(page)).to_contain_text("Allocated")
    expect(diagnostics).not_to_contain_text(REFUSAL)
    expect(diagnostics).not_to_contain_text("the apiserver checks the namespace")
