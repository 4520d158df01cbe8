"""Real-cluster benchmark (a script, not a test): ``python bench/cluster_bench.py [--nodes 100,1000,5000] [--runs N]
[--formats yaml,json]``.

It writes synthetic clusters (``allocator.synthetic``: N nodes, 8 GPUs a
node, one ResourceSlice and one Node a node, as ``kubectl get -o yaml``
prints them, or ``-o json`` with ``--formats``) and a 4-request claim to a
temporary directory, then times the
command line as a whole process, as a user runs it:

    python -m allocator allocate --node <first node> cluster.yaml claim.yaml   (one node)
    python -m allocator allocate cluster.yaml claim.yaml                       (every node)

Reported per size: the best wall-clock time of ``--runs`` runs, the CPU time
of that run (user + system of the child, steadier than wall time on a busy
machine), the peak memory of the child (``getrusage(RUSAGE_CHILDREN)``
maxrss, taken from a fresh process per measurement), and the growth from the
previous size (time ratio / node ratio: about 1.0 means linear). The machine
and its load are printed first.

Targets (issue 12; the upstream Go allocator's whole-process times on the
same file): 1,000 nodes <= 1.0 s on one node and <= 1.45 s on every node;
5,000 nodes linear and under 1 GiB.

The site's stored inventories (storing, first analysis, claim edits against the
stored id) are measured by ``bench/stored_cluster_bench.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from allocator.synthetic import cluster_json, cluster_yaml, node_name  # noqa: E402

TARGETS = {1000: (1.0, 1.45)}  # nodes -> (one node, every node) seconds
MEMORY_TARGET_MB = 1024

# Four requests, a CEL selector on capacity and one on a version, and a
# constraint across them: the kind of claim people debug.
CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: train}
spec:
  devices:
    requests:
    - name: big
      exactly:
        deviceClassName: gpu-hopper
        count: 2
        selectors:
        - cel: {expression: "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('100Gi')) >= 0"}
    - name: second
      exactly: {deviceClassName: gpu.nvidia.com, count: 2}
    - name: third
      exactly:
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel: {expression: "device.attributes['gpu.nvidia.com'].driverVersion.isGreaterThan(semver('550.0.0'))"}
    - name: fourth
      exactly: {deviceClassName: gpu.nvidia.com}
    constraints:
    - matchAttribute: gpu.nvidia.com/productName
"""


def _measure(args: list[str]) -> dict:
    """One whole-process run in a fresh child that reports its own resource usage."""
    probe = (
        "import json, resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
        "wall = time.perf_counter() - start\n"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "try:\n"
        "    answer = json.loads(done.stdout)\n"
        "except ValueError:\n"
        "    answer = {}\n"
        "table = answer.get('nodes')\n"
        "summary = {'node': answer.get('node'), 'fit': sum(n['fits'] for n in table) if table else None,\n"
        "           'nodes': len(table) if table else None}\n"
        "print(json.dumps({'wall': wall, 'cpu': use.ru_utime + use.ru_stime, 'maxrss_kb': use.ru_maxrss,\n"
        "                  'status': done.returncode, 'answer': summary}))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "allocator", *args],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _best(args: list[str], runs: int) -> dict:
    results = [_measure(args) for _ in range(runs)]
    best = min(results, key=lambda r: r["wall"])
    best["peak_mb"] = max(r["maxrss_kb"] for r in results) / 1024
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="100,1000,5000", help="cluster sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (the best is reported)")
    parser.add_argument("--formats", default="yaml", help="dump formats to time: yaml, json or both (yaml,json)")
    parser.add_argument("--api", action="store_true", help="also time the site's API (not available yet)")
    args = parser.parse_args()
    sizes = [int(n) for n in args.nodes.split(",")]
    if args.api:
        print("--api: not measured by this version of the benchmark", file=sys.stderr)

    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'nodes':>6} {'format':<6} {'MB':>6}  {'mode':<9} {'wall s':>7} {'cpu s':>7} {'peak MB':>8} "
          f"{'growth':>7}  answer")
    previous: dict[tuple[str, str], tuple[int, float]] = {}
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        claim = Path(tmp) / "claim.yaml"
        claim.write_text(CLAIM)
        runs = [(nodes, fmt) for fmt in args.formats.split(",") for nodes in sizes]
        for nodes, fmt in runs:
            cluster = Path(tmp) / f"cluster-{nodes}.{fmt}"
            cluster.write_text(cluster_json(nodes) if fmt == "json" else cluster_yaml(nodes))
            size_mb = cluster.stat().st_size / 1e6
            for mode, extra in (("one node", ["--node", node_name(0)]), ("all nodes", [])):
                result = _best(["allocate", *extra, str(cluster), str(claim)], args.runs)
                answer = result["answer"]
                said = (f"exit {result['status']}, node {answer['node']}"
                        + (f", {answer['fit']} of {answer['nodes']} nodes fit" if answer["nodes"] else ""))
                growth = ""
                if (fmt, mode) in previous:
                    before_nodes, before_cpu = previous[fmt, mode]
                    growth = f"{(result['cpu'] / before_cpu) / (nodes / before_nodes):.2f}"
                previous[fmt, mode] = (nodes, result["cpu"])
                print(f"{nodes:>6} {fmt:<6} {size_mb:>6.1f}  {mode:<9} {result['wall']:>7.2f} {result['cpu']:>7.2f} "
                      f"{result['peak_mb']:>8.0f} {growth:>7}  {said}")
                target = TARGETS.get(nodes)
                if target is not None:
                    limit = target[0] if mode == "one node" else target[1]
                    if result["wall"] > limit:
                        print(f"         above the target of {limit} s")
                        failed = True
                if result["peak_mb"] > MEMORY_TARGET_MB:
                    print(f"         above the memory target of {MEMORY_TARGET_MB} MB")
                    failed = True
    print("growth: CPU time ratio divided by node ratio against the previous size (1.00 = linear)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
