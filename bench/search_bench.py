"""Every-node search benchmark (a script, not a test): ``python bench/search_bench.py [--nodes 1000] [--runs 3]``.

Reads a synthetic cluster (``allocator.synthetic``: N nodes, 8 GPUs a node)
and the 4-request claim of ``cluster_bench`` once, then times
``allocator.allocation.allocator.search_nodes`` over every node in one process: first
cold (nothing remembered yet: CEL values, selector answers, explanations),
then warm (the process's selector memory already holds the answers, as for
the site's next request on a stored cluster). Most nodes do not fit, so each
of them is explained, which is most of the work.

Times are CPU seconds of this process (steadier than wall time on a busy
machine); warm is the best of ``--runs``.
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
sys.path.insert(0, str(ROOT / "bench"))

from cluster_bench import CLAIM  # noqa: E402

from allocator.allocation.allocator import search_nodes  # noqa: E402
from allocator.allocation.inputs import SearchInputs  # noqa: E402
from allocator.kube.objects import read_documents  # noqa: E402
from allocator.releases.gates import make_gates  # noqa: E402
from allocator.synthetic import cluster_yaml  # noqa: E402
from allocator.workload.claims import build_workload  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000, help="nodes in the synthetic cluster")
    parser.add_argument("--runs", type=int, default=3, help="warm runs (the best is reported)")
    args = parser.parse_args()
    docs = read_documents(cluster_yaml(args.nodes)).documents + read_documents(CLAIM).documents

    def of(kind: str) -> list:
        return [d.obj for d in docs if d.kind == kind]

    work = build_workload(of("ResourceClaim"), of("ResourceClaimTemplate"), of("Pod"))
    inputs = SearchInputs(classes=of("DeviceClass"), slices=of("ResourceSlice"), allocated=work.allocated)
    gates, nodes = make_gates(), of("Node")

    def timed() -> tuple[float, int]:
        start = time.process_time()
        found = search_nodes(work.pending, inputs, gates, nodes=nodes)
        return time.process_time() - start, sum(o.allocated for o in found.outcomes)

    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cold, fit = timed()
    warm = min(timed()[0] for _ in range(args.runs))
    print(f"{args.nodes} nodes ({fit} fit): cold {cold:.3f} s, warm {warm:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
