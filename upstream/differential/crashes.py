"""Upstream's crashes, read the same way whether the harness recovered the panic or the process died of it.

The allocator-only and create modes run upstream's code on the harness's own goroutine, which recovers a
panic into the answer's error ("harness panic: runtime error: ..."). In the schedule mode the panic happens
in kube-scheduler's goroutine, which repanics (client-go's HandleCrash), so the process dies and the client
only learns that it "stopped answering". ``CrashReadingHarness`` keeps the process's stderr in a file and,
when the process dies, reads the panic Go printed there, so that both read as the same kind of answer.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile

from upstream.client import Harness, HarnessError, build

PANIC = "harness panic: runtime error: "
TAIL = 256 * 1024  # characters of a dead process's stderr searched for its panic
# Go's last words on an unrecovered panic; "[recovered, repanicked]" (Go 1.25 on) or "[recovered]" when a
# deferred handler logged it and panicked again.
_GO_PANIC = re.compile(r"^panic: (runtime error: .*?)(?: \[recovered(?:, repanicked)?\])?$", re.MULTILINE)


def panic_words(error: str | None) -> str | None:
    """The runtime error of a harness panic ("index out of range [1] with length 1"), or None."""
    if not error or not error.startswith(PANIC):
        return None
    return error.removeprefix(PANIC).split("\n", 1)[0].strip()


def died_of(stderr: str) -> str | None:
    """The runtime error a Go process died of, from its stderr, as a harness panic, or None."""
    found = _GO_PANIC.findall(stderr)
    if not found:
        return None
    return f"harness panic: {found[-1]}\n(the process died of it: kube-scheduler crashed)"


class CrashReadingHarness(Harness):
    """``upstream.client.Harness`` whose process writes its stderr to a file, read when the process dies."""

    _stderr = None

    def run(self, case: dict) -> dict:
        try:
            return super().run(case)
        except HarnessError:
            panic = died_of(self._read_stderr())
            if panic is None:
                raise
            return {"id": case.get("id"), "release": self.release, "error": panic}

    def _read_stderr(self) -> str:
        if self._stderr is None:
            return ""
        size = self._stderr.seek(0, 2)
        self._stderr.seek(max(0, size - TAIL))  # Go prints the panic and one goroutine's stack last
        text = self._stderr.read()
        self._stderr.close()
        self._stderr = None
        return text

    def _process_for(self, gates: dict[str, bool]) -> subprocess.Popen:
        # As the client starts it, but with stderr kept in a file (a pipe nobody reads would fill and block).
        if self._process is not None and self._process_gates == gates:
            return self._process
        self.close()
        if self._stderr is not None:
            self._stderr.close()
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._process = subprocess.Popen(
            [str(build(self.release)), "-gates", json.dumps(gates, sort_keys=True)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True, bufsize=1)
        self._process_gates = gates
        return self._process
