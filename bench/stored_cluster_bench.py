"""Stored cluster benchmark (a script, not a test): ``python bench/stored_cluster_bench.py [--nodes 100 1000] [--edits N]``.

What a person with a real cluster does through the API and the page: store
the cluster once (``POST /api/v1/inventories``, its ``kubectl get -o yaml``
text), run a first analysis against its id, then edit the claim again and
again (``POST /api/v1/analyze`` with ``{"documents": <claim>, "inventory":
<id>}``, and the page's live request, which posts the form with the id and
not the cluster). The clusters are ``allocator.synthetic``'s (8 GPUs a node,
one ResourceSlice and one Node each); the claim asks for two H200s, which a
minority of nodes have, so every node is tried and most are explained.

Reported per size: the YAML's size, the time to store it, the first
analysis, and the median, p95 and max of the claim edits (API and page),
as server time in this process (the Django test client: middleware, view,
engine, serializers or templates; no network), and the process's peak
memory. The target (issue 12) is a median under 150 ms for a claim edit
against a stored 1,000-node cluster. The machine and its load are printed
first. It runs on a throwaway SQLite database, never the project's own; the
rate limits and the storing quota are off for it.
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
# edit {n}
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


def timed(call) -> tuple[float, object]:
    start = time.perf_counter()
    result = call()
    return (time.perf_counter() - start) * 1000, result


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(client, nodes: int, edits: int) -> dict:
    from allocator.synthetic import cluster_yaml

    text = cluster_yaml(nodes, seed=nodes)
    store_ms, r = timed(lambda: client.post("/api/v1/inventories", data=text, content_type="application/yaml"))
    assert r.status_code == 201, r.content[:500]
    inventory = r.json()["id"]

    def api_edit(n: int):
        body = json.dumps({"documents": CLAIM.format(n=n), "inventory": inventory})
        r = client.post("/api/v1/analyze", data=body, content_type="application/json")
        assert r.status_code == 200 and r.json()["allocation"]["status"] == "allocated", r.content[:500]

    def page_edit(n: int):
        form = {"inventory_id": inventory, "inventory_slug": "", "inventory": "", "documents": CLAIM.format(n=n),
                "kubernetes_version": "1.37"}
        r = client.post("/", form, **HTMX_HEADERS)
        assert r.status_code == 200 and b"Allocated" in r.content, r.content[:500]

    first_ms, _ = timed(lambda: api_edit(0))
    api = [timed(lambda n=n: api_edit(n))[0] for n in range(1, edits + 1)]
    page = [timed(lambda n=n: page_edit(n))[0] for n in range(edits + 1, 2 * edits + 1)]
    return {"nodes": nodes, "mib": len(text.encode()) / 2**20, "store": store_ms, "first": first_ms,
            "api": api, "page": page, "peak": peak_mib()}


def stats(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f} {percentile(values, 95):7.0f} {max(values):7.0f}"


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
        print(f"{'nodes':>6} {'YAML MiB':>8} {'store ms':>9} {'first ms':>9}  {'API edit ms: p50     p95     max':>33}"
              f"  {'page edit ms: p50     p95     max':>34} {'peak MiB':>9}")
        for nodes in args.nodes:
            row = run(client, nodes, args.edits)
            print(f"{nodes:>6} {row['mib']:>8.1f} {row['store']:>9.0f} {row['first']:>9.0f}  {'':>10}{stats(row['api'])}"
                  f"  {'':>11}{stats(row['page'])} {row['peak']:>9.0f}")
            if nodes == 1000:
                verdict = "meets" if statistics.median(row["api"]) < TARGET_MS else "misses"
                print(f"       1,000 nodes: the API's claim edit {verdict} the target (median < {TARGET_MS:.0f} ms)")


if __name__ == "__main__":
    main()
