"""What one ``POST /api/v1/capacity`` costs the server (a script, not a test):
``python bench/capacity_api_bench.py [--nodes 1000] [--copies 200,1000,2000,4000] [--runs 3]``.

Stores a synthetic cluster (``allocator.synthetic``, 8 GPUs a node) through
``POST /api/v1/inventories``, then asks for up to N copies of a pod with one
two-GPU template claim (four fit a node) with each strategy, against the
stored id, once warm (the first request reads the stored text) and then
``--runs`` times: the server's time in one process (Django's test client),
wall clock and CPU, median; and the size of the answer. This is what the
API's copy cap (``CAPACITY_MAX_COPIES``) is chosen from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from stored_cluster_bench import setup_django, timed  # noqa: E402

POD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com, count: 2}}]
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: two-gpus}]
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--copies", default="200,1000,2000,4000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    copies = [int(c) for c in args.copies.split(",")]
    os.environ["CAPACITY_MAX_COPIES"] = str(max(copies))
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.test import Client

        from allocator.synthetic import cluster_yaml

        client = Client(SERVER_NAME="localhost")
        r = client.post("/api/v1/inventories", data=cluster_yaml(args.nodes), content_type="application/yaml")
        assert r.status_code in (200, 201), r.content[:300]
        inventory = r.json()["id"]
        print(f"{args.nodes} nodes stored; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'copies':>6} {'strategy':<8} {'wall ms':>8} {'CPU ms':>8} {'answer KB':>9}  placed")

        def ask(count: int, strategy: str):
            body = {"documents": POD, "inventory": inventory, "max": count, "strategy": strategy}
            return client.post("/api/v1/capacity", data=json.dumps(body), content_type="application/json")

        ask(1, "first")  # reads the stored text once, as a warm worker has it
        for count in copies:
            for strategy in ("first", "spread", "pack"):
                times = [timed(lambda c=count, s=strategy: ask(c, s)) for _ in range(args.runs)]
                answer = times[-1][2]
                assert answer.status_code == 200, answer.content[:300]
                print(f"{count:>6} {strategy:<8} {statistics.median(t[0] for t in times):>8.0f} "
                      f"{statistics.median(t[1] for t in times):>8.0f} {len(answer.content) / 1024:>9.0f}  "
                      f"{answer.json()['placed']}", flush=True)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
