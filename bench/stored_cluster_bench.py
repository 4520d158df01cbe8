"""Stored cluster benchmark (a script, not a test): ``python bench/stored_cluster_bench.py [--nodes 100 1000] [--edits N]``.

What a person with a real cluster does through the API and the page: store
the cluster once (``POST /api/v1/inventories``, its ``kubectl get -o yaml``
text), run a first analysis against its id, then edit the claim again and
again (``POST /api/v1/analyze`` with ``{"documents": <claim>, "inventory":
<id>}``, and the page's live request, which posts the form with the id and
not the cluster). The clusters are ``allocator.synthetic``'s (8 GPUs a node,
one ResourceSlice and one Node each); the claim asks for two H200s, which a
minority of nodes have. Every edit changes a selector (a memory bound, as
someone typing it would), so each one compiles and evaluates a new
expression on every device; nothing is answered from a previous edit.

Edits are timed three ways: through the API on the node the person chose
(``"node"``: what the page does once a node is picked), through the API
searching every node (each node is tried and, when it does not fit,
explained), and through the page searching every node.

Reported per size: the YAML's size, the time to store it, the first
analysis, and the median, p95 and max of the claim edits, as server time in
this process (the Django test client: middleware, view, engine, serializers
or templates; no network), wall clock and CPU time of the process (steadier
on a busy machine), and the process's peak memory. The target (issue 12) is
a median under 150 ms for a claim edit against a stored 1,000-node cluster.
The machine and its load are printed first. It runs on a throwaway SQLite
database, never the project's own; the rate limits and the storing quota
are off for it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_bench import HTMX_HEADERS, machine, percentile  # noqa: E402

TARGET_MS = 150.0
CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-h200
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.nvidia.com
        count: 2
        selectors:
        - cel:
            expression: device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H200'
        - cel:
            expression: device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('{n}Mi')) >= 0
"""


def setup_django(db_path: str) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "playground.settings", "SECRET_KEY": secrets.token_urlsafe(32), "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{db_path}", "PAGE_ANALYSES_PER_MINUTE": "0", "API_REQUESTS_PER_MINUTE": "0",
        "STORED_INVENTORIES_PER_DAY": "0", "STORED_INVENTORY_BYTES_PER_DAY": "0",
        "STORED_INVENTORY_MAX_BYTES": str(256 * 1024 * 1024),
    })
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_samples", "--no-clusters", verbosity=0, stdout=io.StringIO())


def timed(call) -> tuple[float, float, object]:
    """Wall clock and CPU time of the process in ms, and what ``call`` returned."""
    start, cpu = time.perf_counter(), time.process_time()
    result = call()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000, result


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(client, nodes: int, edits: int) -> dict:
    from allocator.synthetic import cluster_yaml

    text = cluster_yaml(nodes, seed=nodes)
    store_ms, _, r = timed(lambda: client.post("/api/v1/inventories", data=text, content_type="application/yaml"))
    assert r.status_code == 201, r.content[:500]
    inventory = r.json()["id"]

    def api_edit(n: int, node: str | None = None):
        body = {"documents": CLAIM.format(n=n), "inventory": inventory, **({"node": node} if node else {})}
        r = client.post("/api/v1/analyze", data=json.dumps(body), content_type="application/json")
        assert r.status_code == 200 and r.json()["allocation"]["status"] == "allocated", r.content[:500]
        return r.json()["allocation"]["node"]

    def page_edit(n: int):
        form = {"inventory_id": inventory, "inventory_slug": "", "inventory": "", "documents": CLAIM.format(n=n),
                "kubernetes_version": "1.37"}
        r = client.post("/", form, **HTMX_HEADERS)
        assert r.status_code == 200 and b"Allocated" in r.content, r.content[:500]

    first_ms, _, chosen = timed(lambda: api_edit(0))  # the node found: the one a person would then pick
    n = iter(range(1, 3 * edits + 1))  # a new memory bound, so a new expression, for every edit
    one = [timed(lambda: api_edit(next(n), chosen)) for _ in range(edits)]
    every = [timed(lambda: api_edit(next(n))) for _ in range(edits)]
    page = [timed(lambda: page_edit(next(n))) for _ in range(edits)]
    return {"nodes": nodes, "mib": len(text.encode()) / 2**20, "store": store_ms, "first": first_ms,
            "one": one, "every": every, "page": page, "peak": peak_mib()}


def stats(times: list[tuple[float, float, object]]) -> str:
    wall = [t[0] for t in times]
    cpu = [t[1] for t in times]
    return (f"{statistics.median(wall):6.0f} {percentile(wall, 95):6.0f} {max(wall):6.0f}"
            f"  {statistics.median(cpu):5.0f} {percentile(cpu, 95):5.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 1000], help="cluster sizes (default: 100 1000)")
    parser.add_argument("--edits", type=int, default=20, help="claim edits timed per size and client (default: 20)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.test import Client

        client = Client(SERVER_NAME="localhost")
        print(machine())
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("edit times in ms: wall p50 p95 max, CPU p50 p95")
        print(f"{'nodes':>6} {'MiB':>5} {'store':>6} {'first':>6}  {'API, chosen node':<32}{'API, every node':<32}"
              f"{'page, every node':<32}{'peak MiB':>8}")
        for nodes in args.nodes:
            row = run(client, nodes, args.edits)
            print(f"{nodes:>6} {row['mib']:>5.1f} {row['store']:>6.0f} {row['first']:>6.0f}  {stats(row['one']):<32}"
                  f"{stats(row['every']):<32}{stats(row['page']):<32}{row['peak']:>8.0f}")
            if nodes == 1000:
                for label, times in (("on the chosen node", row["one"]), ("searching every node", row["every"])):
                    median = statistics.median(t[0] for t in times)
                    verdict = "meets" if median < TARGET_MS else "misses"
                    print(f"       1,000 nodes, API claim edit {label}: {verdict} the target "
                          f"(median {median:.0f} ms, target < {TARGET_MS:.0f} ms)")

if __name__ == "__main__":
    main()
