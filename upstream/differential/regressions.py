"""Regression cases: minimal disagreements with upstream's recorded answer, one YAML file each.

A file under ``allocator/tests/data/upstream/`` holds::

    name: allocate-1.37-devices-3f2a9c01      # the file's name without .yaml
    release: "1.37"
    gates: {DRAConsumableCapacity: false}     # overrides of the release's defaults
    node: node-0                              # or null
    run: [allocate]                           # the parts compared
    status: open                              # open | upstream-bug | fixed
    reason: what differs (open), the upstream issue's link (upstream-bug), or how it was fixed
    differences: [{category, where, ours, upstream}]   # as found when it was recorded
    found: [3f2a9c01, ...]                    # fingerprints of generated cases that shrank to this one
    objects: [...]                            # the minimal input
    upstream: {...}                           # upstream's answer, as the harness gave it

``allocator/tests/test_upstream_regressions.py`` replays each one against the engine, without Go.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DIRECTORY = ROOT / "allocator" / "tests" / "data" / "upstream"
STATUSES = ("open", "upstream-bug", "fixed")
CASE_KEYS = ("release", "gates", "node", "run", "objects", "documents")


def fingerprint(case: dict) -> str:
    """A short hash of what makes the case: the same minimal input always gets the same name."""
    body = {key: case.get(key) for key in CASE_KEYS}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:8]


def case_of(record: dict) -> dict:
    """The case a recorded file describes, as the harness and ``ours.answer`` read it."""
    case = {"id": record["name"], "release": str(record["release"]), "gates": record.get("gates") or {},
            "node": record.get("node"), "run": record.get("run") or ["allocate"]}
    if record.get("documents") is not None:
        case["documents"] = record["documents"]
    else:
        case["objects"] = record.get("objects") or []
    return case


def load_all(directory: Path = DIRECTORY) -> list[dict]:
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(directory.glob("*.yaml"))]


def known_fingerprints(directory: Path = DIRECTORY) -> set[str]:
    """Every recorded case's fingerprint, and those of the cases as found that shrank to one of them: a
    disagreement that is not shrunk in a run is known only when the case as found is listed."""
    return set(recorded(directory))


def recorded(directory: Path = DIRECTORY) -> dict[str, Path]:
    """The file that records each known fingerprint (a minimal case's own, or one of its ``found``)."""
    out: dict[str, Path] = {}
    for path in sorted(directory.glob("*.yaml")):
        record = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[fingerprint(case_of(record))] = path
        for found in record.get("found") or []:
            out.setdefault(str(found), path)
    return out


def add_found(path: Path, found: str) -> None:
    """List the fingerprint of a case as found in the record of the minimal case it shrank to, so that a
    later run that does not shrink it still knows it. Only the ``found`` block changes: the rest of the
    file (edited by hand once its cause is known) stays as it is."""
    text = path.read_text(encoding="utf-8")
    record = yaml.safe_load(text)
    listed = [str(f) for f in record.get("found") or []]
    if found in listed or found == fingerprint(case_of(record)):
        return
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith("found:")), len(lines))
    end = start + 1
    while end < len(lines) and (lines[end].startswith(("- ", " ")) or not lines[end].strip()):
        end += 1
    block = yaml.safe_dump({"found": sorted({*listed, found})}, default_flow_style=False)
    path.write_text("".join(lines[:start]) + block + "".join(lines[end:]), encoding="utf-8")


def write(case: dict, upstream: dict, differences: list[dict], directory: Path = DIRECTORY,
          found: str | None = None) -> Path:
    """Record a minimal disagreement as an ``open`` case; an existing file for the same input is kept.
    ``found`` is the fingerprint of the case as generated, when it was shrunk to ``case``."""
    category = differences[0]["category"].replace(" ", "-") if differences else "none"
    what = (case.get("run") or ["allocate"])[-1]
    name = f"{what}-{case['release']}-{category}-{fingerprint(case)}"
    path = directory / f"{name}.yaml"
    if path.exists():
        if found:
            add_found(path, found)
        return path
    record = {"name": name, "release": case["release"], "gates": case.get("gates") or {},
              "node": case.get("node"), "run": case.get("run") or ["allocate"], "status": "open",
              "reason": "; ".join(f"{d['category']} ({d['where']})" for d in differences),
              "differences": differences}
    if case.get("example"):
        record["example"] = case["example"]  # a gallery example, recorded as it is (playground/samples/examples)
    if case.get("documents") is not None:
        record["documents"] = case["documents"]
    else:
        record["objects"] = case.get("objects") or []
    record["upstream"] = upstream
    if found and found != fingerprint(case):
        record["found"] = [found]  # last, where ``add_found`` extends it
    directory.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    return path
