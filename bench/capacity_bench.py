"""How-many-fit benchmark (a script, not a test): ``python bench/capacity_bench.py [--nodes 100 1000] [--copies 100]``.

Reads a synthetic cluster (``allocator.synthetic``: N nodes, 8 GPUs a node) and a Pod whose template asks
for one GPU, then times ``allocator.workload.planning.plan`` placing ``--copies`` copies with each strategy,
and once placing copies until the cluster is full (8 per node; only for the smallest cluster, as every copy
is a scheduling pass). Times are CPU seconds of this process; the machine is named in the output, and
figures from a shared machine are best read as ratios.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from allocator.kube.objects import read_documents  # noqa: E402
from allocator.releases.gates import make_gates  # noqa: E402
from allocator.synthetic import cluster_yaml  # noqa: E402
from allocator.workload.cluster import Cluster  # noqa: E402
from allocator.workload.planning import STRATEGIES, PlanOptions, ToPlace, plan  # noqa: E402

POD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}]
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
"""


def _timed(read, strategy: str, copies: int):
    gates = make_gates()
    start = time.process_time()
    report = plan(ToPlace.of(read.documents), Cluster.of(read.documents), gates, PlanOptions(strategy, copies))
    return time.process_time() - start, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 1000], help="cluster sizes")
    parser.add_argument("--copies", type=int, default=100, help="copies to place with each strategy")
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print("| nodes | strategy | copies placed | CPU s | ms per copy |")
    print("|---|---|---|---|---|")
    for nodes in args.nodes:
        read = read_documents(cluster_yaml(nodes) + "---\n" + POD)
        runs = [(strategy, args.copies) for strategy in STRATEGIES]
        if nodes == min(args.nodes):
            runs.append(("first", nodes * 8 + 1))
        for strategy, copies in runs:
            seconds, report = _timed(read, strategy, copies)
            print(f"| {nodes:,} | {strategy} | {report.placed} ({report.stopped_by}) | {seconds:.2f} | "
                  f"{1000 * seconds / max(report.placed, 1):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
