"""Other grants benchmark (a script, not a test): ``python bench/alternatives_bench.py [--quick]``.

Times ``engine.analyze(..., alternatives=100)`` against the same analysis
without alternatives, on one synthetic node (``allocator.synthetic``: GPUs
four to a PCIe root) of 8 and 64 GPUs, for three claims:

* ``pair-same-root``: 2 GPUs under matchAttribute pcieRoot (few grants);
* ``eight-any``: 8 GPUs, no constraint (more grants than can be listed);
* ``four-same-root``: 4 GPUs under matchAttribute pcieRoot (one grant per
  root: the search walks far between grants, and says it saw them all).

Target: listing 100 grants adds under 250 ms to an analysis on a 64-GPU node;
the listing never runs past its 5 s budget. Medians of wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from allocator.engine import analyze  # noqa: E402
from allocator.synthetic import DEVICE_CLASS, cluster_yaml  # noqa: E402


def claim(count: int, same_root: bool) -> str:
    text = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: gpus}\nspec:\n  devices:\n"
            f"    requests:\n    - name: gpus\n      exactly: {{deviceClassName: {DEVICE_CLASS}, count: {count}}}\n")
    if same_root:
        text += "    constraints:\n    - {requests: [gpus], matchAttribute: resource.kubernetes.io/pcieRoot}\n"
    return text


CLAIMS = {"pair-same-root": claim(2, True), "eight-any": claim(8, False), "four-same-root": claim(4, True)}


def median_ms(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    print(f"{'GPUs':>5} {'claim':<15} {'analysis ms':>12} {'+100 grants ms':>15} {'listed':>7}  how it ended")
    for gpus in (8, 64):
        inventory = cluster_yaml(1, gpus_per_node=gpus)
        for name, documents in CLAIMS.items():
            analyze(documents, inventory, alternatives=100)  # warm the caches (reading, CEL) first
            plain = median_ms(lambda: analyze(documents, inventory), repeat)  # noqa: B023
            listed = median_ms(lambda: analyze(documents, inventory, alternatives=100), repeat)  # noqa: B023
            search = analyze(documents, inventory, alternatives=100).to_dict()["allocation"]["alternativesSearch"]
            ended = search["stopped"] or ("all seen" if search["exhausted"] else "limit reached")
            print(f"{gpus:>5} {name:<15} {plain:>12.1f} {listed - plain:>15.1f} {search['found']:>7}  "
                  f"{ended} ({search['steps']} steps)")


if __name__ == "__main__":
    main()
