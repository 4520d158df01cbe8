"""The shared conformance cases: expectations produced by the real upstream allocator.

Runs ``shared/conformance/run.py`` (beside the repository, as ``../shared``)
against this checkout's command line and requires every case to match. The
cases and their runner are not part of the project: a clone with nothing
beside it skips this test (``.ci/run`` runs it in the development checkout).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT.parent / "shared" / "conformance"


@pytest.mark.skipif(not (CONFORMANCE / "run.py").exists(),
                    reason="needs the conformance cases recorded from the upstream allocator, which live "
                           "beside the development checkout (../shared/conformance), not in the project")
def test_all_conformance_cases_match_upstream():
    proc = subprocess.run(
        [sys.executable, str(CONFORMANCE / "run.py"), str(CONFORMANCE / "cases"), "--project", str(ROOT), "--verbose"],
        capture_output=True, text=True, timeout=1800,
    )
    lines = proc.stdout.strip().splitlines()
    summary = re.match(r"(\d+)/(\d+) cases match upstream", lines[-1] if lines else "")
    assert summary, proc.stdout + proc.stderr
    matched, total = int(summary.group(1)), int(summary.group(2))
    assert total > 0 and matched == total, "\n".join(lines)
    assert proc.returncode == 0, proc.stdout + proc.stderr
