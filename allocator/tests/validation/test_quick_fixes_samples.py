"""Quick fixes over the gallery (a property over real claims): misspell a name a selector reads, and the
did-you-mean's edit gives back the very text; any fix the analysis offers, applied, leaves a document that
reads, and does not come back."""

from __future__ import annotations

import re

import pytest

from allocator.engine import analyze
from allocator.tests.helpers import SAMPLES
from allocator.tests.helpers.fixes import apply
from allocator.tests.helpers.samples import inventory_text, sample

EXAMPLES = sorted(p.stem for p in (SAMPLES / "examples").glob("*.yaml"))
_READ = re.compile(r"""device\.(?:attributes|capacity)\[\s*["']([^"']+)["']\s*\]\.([A-Za-z_][A-Za-z0-9_]*)""")


def _report(example: dict, documents: str) -> dict:
    return analyze(documents, inventory_text(example["inventory"]), node=example.get("node"),
                   feature_gates=example.get("featureGates") or None,
                   kubernetes_version=str(example.get("kubernetesVersion") or "1.37")).to_dict()


def _reads(documents: str) -> list[re.Match]:
    """The reads of names in selectors (not in comments)."""
    return [m for m in _READ.finditer(documents)
            if "#" not in documents[documents.rfind("\n", 0, m.start()) + 1:m.start()]]


def _misspelt(name: str) -> str:
    return name[:-2] + name[-1] + name[-2] if len(name) > 3 and name[-1] != name[-2] else name + "x"


@pytest.mark.parametrize("slug", EXAMPLES)
def test_a_misspelt_name_is_given_back_by_its_fix(slug):
    example = sample("examples", slug)
    if "inventory" not in example:
        pytest.skip("no sample inventory")
    documents = example["documents"]
    reads = list(dict.fromkeys(m.group(2) for m in _reads(documents)))
    if not reads:
        pytest.skip("no attribute or capacity read in a selector")
    for name in reads[:2]:
        m = next(m for m in _reads(documents) if m.group(2) == name)
        wrong = documents[:m.start(2)] + _misspelt(name) + documents[m.end(2):]
        fixes = [f for d in _report(example, wrong)["diagnostics"] for f in d["fixes"] if f["title"] == f"Use {name}"]
        assert fixes, (slug, name)
        assert apply(wrong, fixes[0]) == documents


@pytest.mark.parametrize("slug", EXAMPLES)
def test_every_fix_offered_leaves_a_readable_document_and_goes_away(slug):
    example = sample("examples", slug)
    if "inventory" not in example:
        pytest.skip("no sample inventory")
    documents = example["documents"]
    texts = [documents] + [documents[:m.start(2)] + _misspelt(m.group(2)) + documents[m.end(2):]
                           for m in _reads(documents)[:2]]
    for text in texts:
        report = _report(example, text)["diagnostics"]
        before = {d["message"] for d in report}
        for diagnostic in report:
            for fix in diagnostic["fixes"]:
                if fix["document"] != "documents":
                    continue
                after = _report(example, apply(text, fix))["diagnostics"]
                # no new parse error: the edit kept the YAML and the object readable
                assert not [d for d in after if d["type"] == "Parse error" and d["message"] not in before], (slug, fix)
                # and the same advice with the same edit is not offered again
                assert not [d for d in after if d["field"] == diagnostic["field"] and d["hint"] == diagnostic["hint"]
                            and fix in d["fixes"]], (slug, fix)
