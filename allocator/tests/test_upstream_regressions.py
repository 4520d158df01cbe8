"""Every disagreement the differential run found with the real Kubernetes components, replayed without Go.

Each file under ``data/upstream/`` (``upstream/differential/regressions.py`` describes them) holds a minimal
input, the release and gates, and upstream's recorded answer; the engine must give the same answer. An
``open`` case is one we still answer differently: it is an expected failure, strictly, so that a fix is
noticed (then its status becomes ``fixed``). An ``upstream-bug`` case keeps upstream's answer on purpose and
names the upstream issue.
"""

from __future__ import annotations

import pytest

from upstream.differential import ours, regressions
from upstream.differential.__main__ import HARNESS_RELEASES
from upstream.differential.compare import CATEGORIES, differences
from upstream.differential.run import same_panic

RECORDS = regressions.load_all()


def _params():
    for record in RECORDS:
        marks = []
        if record["status"] == "open":
            marks.append(pytest.mark.xfail(strict=True, reason=f"open: {record.get('reason')}"))
        yield pytest.param(record, id=record["name"], marks=marks)


@pytest.mark.parametrize("record", list(_params()))
def test_the_engine_answers_as_upstream_did(record):
    case = regressions.case_of(record)
    mine = ours.answer(case)
    # Where upstream answered differently from one run to the next, any of its answers will do.
    answers = [record["upstream"], *record["upstream"].get("alternatives", [])]
    # An upstream panic the engine names (it says kube-scheduler crashes there) is the same answer.
    found = [[] if same_panic(mine, theirs) else differences(case, mine, theirs) for theirs in answers]
    assert not all(found), [d.to_dict() for d in found[0]]


@pytest.mark.parametrize("record", RECORDS, ids=[r["name"] for r in RECORDS])
def test_every_case_file_is_complete(record):
    path = regressions.DIRECTORY / f"{record['name']}.yaml"
    assert path.exists(), "a case's name is its file's name"
    assert record["status"] in regressions.STATUSES
    assert str(record["release"]) in HARNESS_RELEASES
    assert "objects" in record or "documents" in record  # empty for a gate set the components refuse
    assert isinstance(record.get("upstream"), dict)
    assert all(d["category"] in CATEGORIES for d in record.get("differences") or [])
    if record["status"] == "upstream-bug":
        assert "github.com/kubernetes" in (record.get("reason") or ""), "an upstream bug names its issue"
