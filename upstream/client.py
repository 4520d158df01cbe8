"""Build and drive the upstream harness (stdlib only).

The Go program is built on demand, per release, into a cache folder outside
the project and reused while its sources and module file stay the same. One
process per release and gate set answers cases as JSON lines; `Harness`
restarts it when a case asks for other gates, because the components set
their feature gates once, at start-up.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODFILES = HERE / "modfiles"
CURRENT_RELEASE = "1.37"
ALL_MODES = ("gates", "create", "schedule", "allocate")
# Releases whose harness builds only some modes (README.md, "What runs and what does not").
BUILT_MODES: dict[str, tuple[str, ...]] = {}


class HarnessError(RuntimeError):
    """The harness could not be built or stopped answering."""


def available_releases() -> list[str]:
    """The releases with a module file, oldest first ("1.33", ..., "1.37")."""
    names = [path.stem for path in MODFILES.glob("*.mod")]
    return sorted(names, key=lambda name: tuple(int(part) for part in name.split(".")))


def built_modes(release: str) -> tuple[str, ...]:
    """The run modes the release's harness is built with."""
    return BUILT_MODES.get(release, ALL_MODES)


def module_version(release: str) -> str:
    """The k8s.io/kubernetes version a release's module file requires."""
    for line in _modfile(release).read_text().splitlines():
        words = line.split()
        if words[:1] == ["require"]:
            words = words[1:]
        if len(words) >= 2 and words[0] == "k8s.io/kubernetes" and "=>" not in words:
            return words[1]
    raise HarnessError(f"{_modfile(release).name} requires no k8s.io/kubernetes")


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dra-playground" / "upstream"


def source_hash(release: str) -> str:
    """A hash of everything the binary is built from: Go sources and module files."""
    digest = hashlib.sha256()
    files = sorted(p for p in HERE.glob("*.go") if not p.name.endswith("_test.go"))
    files += [_modfile(release), _modfile(release).with_suffix(".sum")]
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def binary_path(release: str) -> Path:
    return cache_root() / f"{release}-{source_hash(release)}" / "harness"


def build(release: str = CURRENT_RELEASE, *, quiet: bool = False) -> Path:
    """Build the harness of a release unless an up-to-date binary is cached."""
    target = binary_path(release)
    if target.exists():
        return target
    go = shutil.which("go")
    if go is None:
        raise HarnessError("the upstream harness needs the Go toolchain (`go` is not on PATH)")
    target.parent.mkdir(parents=True, exist_ok=True)
    if not quiet:
        print(f"building the upstream harness for {release} ({module_version(release)}), "
              f"once; later runs reuse {target.parent}", file=sys.stderr, flush=True)
    env = dict(os.environ)
    env["GOFLAGS"] = (env.get("GOFLAGS", "") + " -buildvcs=false").strip()
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        built = Path(scratch) / "harness"
        command = [go, "build", f"-modfile={_modfile(release)}", f"-tags={release_tag(release)}",
                   "-o", str(built), "."]
        done = subprocess.run(command, cwd=HERE, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise HarnessError(f"building the {release} harness failed:\n{done.stderr}")
        os.replace(built, target)
    return target


class Harness:
    """One release's harness process, kept while the gate set stays the same.

        with Harness("1.37") as harness:
            answer = harness.run({"id": "a", "objects": [...], "run": ["allocate"]})
    """

    def __init__(self, release: str = CURRENT_RELEASE, gates: dict[str, bool] | None = None):
        if release not in available_releases():
            raise HarnessError(f"no harness for release {release}; available: {', '.join(available_releases())}")
        self.release = release
        self.gates = dict(gates or {})
        self._process: subprocess.Popen | None = None
        self._process_gates: dict[str, bool] | None = None
        self._count = 0

    def __enter__(self) -> Harness:
        build(self.release)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(self, case: dict) -> dict:
        """Send one case (the request of README.md) and return the answer."""
        request = dict(case)
        gates = dict(self.gates)
        gates.update(request.get("gates") or {})
        request["gates"] = gates
        self._count += 1
        request.setdefault("id", str(self._count))
        request.setdefault("run", ["create", "allocate"])
        process = self._process_for(gates)
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.close()
            raise HarnessError(f"the {self.release} harness stopped answering")
        return json.loads(line)

    def close(self) -> None:
        if self._process is not None:
            self._process.stdin.close()
            self._process.wait()
            self._process = None

    def _process_for(self, gates: dict[str, bool]) -> subprocess.Popen:
        if self._process is not None and self._process_gates == gates:
            return self._process
        self.close()
        binary = build(self.release)
        self._process = subprocess.Popen(
            [str(binary), "-gates", json.dumps(gates, sort_keys=True)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._process_gates = gates
        return self._process


def release_tag(release: str) -> str:
    """The Go build tag of a release's files (release_136.go: k8s136)."""
    return "k8s" + release.replace(".", "")


def _modfile(release: str) -> Path:
    return MODFILES / f"{release}.mod"
