"""The allocator beside upstream's (a script, not a test):
``python bench/vs_go.py [--nodes 1,100,1000,5000] [--runs 5] [--formats yaml,json]``.

Builds ``bench/vs_go/`` (a small Go program of ours: upstream's structured
allocator from k8s.io/dynamic-resource-allocation of the current release,
with the release's default feature gates, reading the same files) and times
it beside ``python -m allocator allocate``, each as a whole process, on the
same synthetic clusters (``allocator.synthetic``: 8 GPUs a node, as
``kubectl get -o yaml`` / ``-o json`` prints them) and the 4-request claim of
``bench/cluster_bench.py``, on one node (``--node``) and on every node.

The two commands alternate (which goes first alternates too), so a change
in the host's load hits both; each row is the median of ``--runs`` pairs,
wall clock and CPU (user + system of the child). The ratio is ours over
Go's. Each pair's answers are compared: the node chosen, which nodes fit
(every node) and the devices allocated to each request; a difference is
printed and makes the exit status 1.

The project's bytecode is compiled first (``compileall``), as an installed
package has it, and ours runs once before each row's pairs, writing its
start-up cache (``allocator.startup``), as a second command has it. Both sides run under whatever ``nice`` the script runs under;
on a shared host give CPU times as the headline (wall time there is mostly
waiting). The host's load average is printed after each row.
Needs ``go`` on PATH and the Go module proxy (or a warm module cache); the
binary is cached under ``${XDG_CACHE_HOME:-~/.cache}/dra-playground/vs_go/``
by a hash of the Go sources.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GO_SOURCE = ROOT / "bench" / "vs_go"
sys.path.insert(0, str(ROOT))

from allocator.synthetic import cluster_json, cluster_yaml, node_name  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from cluster_bench import CLAIM  # noqa: E402

# The environment of the run that may write our start-up cache.
WRITING = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

# Done when (issue 37): ours over Go's, whole process.
TARGETS = {(1, "one node"): 3.0, (1000, "one node"): 1.0, (1000, "every node"): 1.0}


def build_go() -> Path:
    """The Go side's binary, built once per version of its sources."""
    digest = hashlib.sha256()
    for name in ("main.go", "go.mod", "go.sum"):
        digest.update((GO_SOURCE / name).read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    binary = cache / "dra-playground" / "vs_go" / digest.hexdigest()[:16] / "allocate"
    if not binary.exists():
        binary.parent.mkdir(parents=True, exist_ok=True)
        print(f"building the Go side ({GO_SOURCE.relative_to(ROOT)}) ...", file=sys.stderr)
        subprocess.run(["go", "build", "-o", str(binary), "."], cwd=GO_SOURCE, check=True)
    return binary


def run(command: list[str]) -> tuple[float, float, dict]:
    """One whole process: wall seconds, CPU seconds, its JSON answer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        answer = {"unreadable": (done.stdout + done.stderr)[-500:]}
    return wall, cpu, answer


def _devices(claims: list[dict] | None, *, ours: bool) -> list[list[tuple]]:
    out = []
    for claim in claims or []:
        results = (claim.get("status", {}).get("allocation", {}).get("devices", {}).get("results", [])
                   if ours else claim.get("devices") or [])
        out.append([(r["request"], r["driver"], r["pool"], r["device"]) for r in results])
    return out


def summary(answer: dict, *, ours: bool) -> dict:
    """What both sides say, in one shape: node, fitting nodes, devices."""
    if "unreadable" in answer:
        return answer
    fits = answer["fits"] if not ours else answer.get("node") is not None
    nodes = answer.get("nodes")
    return {
        "node": answer.get("node") if fits else None,
        "fitting": None if not nodes else [n["name"] for n in nodes if n["fits"]],
        "devices": _devices(answer.get("claims"), ours=ours) if fits else [],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="1,100,1000,5000", help="cluster sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=5, help="pairs per row (the median is reported)")
    parser.add_argument("--formats", default="yaml,json", help="yaml, json or both")
    parser.add_argument("--modes", default="one node,every node", help="one node, every node or both")
    args = parser.parse_args()
    go = build_go()
    # Ours as an installed package runs: from compiled bytecode. Written here once, so that a source changed
    # since (or PYTHONDONTWRITEBYTECODE in the environment) does not time the compiler on every run.
    compileall.compile_dir(ROOT / "allocator", quiet=1)
    sizes = [int(n) for n in args.nodes.split(",")]
    modes = args.modes.split(",")

    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"{go.parent.name} Go build; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'nodes':>6} {'format':<6} {'mode':<10} {'ours wall':>9} {'Go wall':>8} {'ratio':>6}"
          f" {'ours CPU':>8} {'Go CPU':>7} {'ratio':>6}  {'load':>5}  same answer")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        claim = Path(tmp) / "claim.yaml"
        claim.write_text(CLAIM)
        for fmt in args.formats.split(","):
            for nodes in sizes:
                cluster = Path(tmp) / f"cluster-{nodes}.{fmt}"
                cluster.write_text(cluster_json(nodes) if fmt == "json" else cluster_yaml(nodes))
                for mode in modes:
                    extra = ["--node", node_name(0)] if mode == "one node" else []
                    ours_cmd = [sys.executable, "-m", "allocator", "allocate", *extra, str(cluster), str(claim)]
                    go_cmd = [str(go), *extra, str(cluster), str(claim)]
                    # Ours as a second command runs: from its start-up cache (allocator.startup), which the
                    # first writes (PYTHONDONTWRITEBYTECODE in the environment would keep it from doing so).
                    subprocess.run(ours_cmd, cwd=ROOT, capture_output=True, env=WRITING)
                    timings: dict[str, list[tuple[float, float]]] = {"ours": [], "go": []}
                    same = True
                    for i in range(args.runs):
                        order = [("ours", ours_cmd), ("go", go_cmd)]
                        answers = {}
                        for side, command in (order if i % 2 == 0 else order[::-1]):
                            wall, cpu, answer = run(command)
                            timings[side].append((wall, cpu))
                            answers[side] = summary(answer, ours=side == "ours")
                        if answers["ours"] != answers["go"]:
                            if same:
                                print(f"  different answers: ours {json.dumps(answers['ours'])[:400]}\n"
                                      f"                     Go   {json.dumps(answers['go'])[:400]}")
                            same = False
                    wall = {s: statistics.median(w for w, _ in t) for s, t in timings.items()}
                    cpu = {s: statistics.median(c for _, c in t) for s, t in timings.items()}
                    ratio = wall["ours"] / wall["go"]
                    print(f"{nodes:>6} {fmt:<6} {mode:<10} {wall['ours']:>9.3f} {wall['go']:>8.3f} {ratio:>5.2f}x"
                          f" {cpu['ours']:>8.3f} {cpu['go']:>7.3f} {cpu['ours'] / cpu['go']:>5.2f}x"
                          f"  {os.getloadavg()[0]:>5.2f}  {'yes' if same else 'NO'}", flush=True)
                    target = TARGETS.get((nodes, mode))
                    cpu_ratio = cpu["ours"] / cpu["go"]
                    if target is not None:
                        for what, value in (("CPU", cpu_ratio), ("wall", ratio)):
                            print(f"         {what} {'within' if value <= target else 'above'} the target of "
                                  f"{target}x Go's")
                    failed |= not same
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
