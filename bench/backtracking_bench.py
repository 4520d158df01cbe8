"""Backtracking benchmark (a script, not a test): ``python bench/backtracking_bench.py [--quick] [--yaml]``.

Plain search (upstream's tree, step for step: ``SearchOptions(prove=False)``)
against the search with exact proofs and memoised failure
(``SearchOptions(prove=True)``, what the page, the API and the CLI use), in
steps (allocateOne calls) and wall time:

1. Upstream's worst backtracking case (kubernetes/kubernetes#131730): one
   request for one device more than the node has, at 5 / 10 / 14 / 20
   devices. Target: 20 devices in under 1 s.
2. The three-claim pattern of issue 15: ``train`` and ``infer`` take 4 of
   16 GPUs each, then ``gpu-nic`` wants a GPU and a NIC that agree on
   ``gpu.example.com/fwVersion``, which no NIC publishes. Upstream tries
   every combination of the first two claims first. Target: under 50 ms.
   The plain search runs with the default bounds (1,000,000 steps, 10 s),
   as a user would meet it. ``--yaml`` prints the pattern for
   ``python -m allocator allocate --node node-0 FILE``.
3. A failure no proof catches (three NICs on distinct NUMA nodes, a
   ``distinctAttribute``, where the NICs sit on two) after a claim with many choices: memoised failure
   searches the NIC claim once instead of once per choice.

Both searches must give the same answer; the script checks it.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from allocator.allocation.allocator import Allocator  # noqa: E402
from allocator.allocation.errors import AllocatorError  # noqa: E402
from allocator.allocation.inputs import DEFAULT_LIMITS, UNBOUNDED, SearchInputs, SearchOptions  # noqa: E402
from allocator.kube.objects import read_documents  # noqa: E402
from allocator.releases.gates import make_gates  # noqa: E402

NODE = "node-0"


def gpus_and_nics(gpus: int, nics: int, nic_numa: int = 2) -> str:
    """An inventory: ``gpus`` GPUs with a firmware version, ``nics`` NICs (without one) on ``nic_numa`` NUMA nodes."""
    gpu_devices = "".join(
        f"  - name: gpu-{i}\n    attributes:\n      fwVersion: {{version: 1.{i % 2}.0}}\n      numa: {{int: {i % 2}}}\n"
        for i in range(gpus))
    nic_devices = "".join(f"  - name: nic-{i}\n    attributes:\n      numa: {{int: {i % nic_numa}}}\n"
                          for i in range(nics))
    return f"""
apiVersion: v1
kind: Node
metadata: {{name: {NODE}}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: gpu}}
spec:
  selectors: [{{cel: {{expression: "device.driver == 'gpu.example.com'"}}}}]
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: nic}}
spec:
  selectors: [{{cel: {{expression: "device.driver == 'nic.example.com'"}}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {NODE}-gpus}}
spec:
  driver: gpu.example.com
  nodeName: {NODE}
  pool: {{name: {NODE}-gpus, generation: 1, resourceSliceCount: 1}}
  devices:
{gpu_devices}---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {NODE}-nics}}
spec:
  driver: nic.example.com
  nodeName: {NODE}
  pool: {{name: {NODE}-nics, generation: 1, resourceSliceCount: 1}}
  devices:
{nic_devices}"""


def claim(name: str, requests: str, constraints: str = "") -> str:
    return f"""---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: {name}, namespace: default}}
spec:
  devices:
    requests:
{requests}{constraints}"""


def exact(name: str, device_class: str, count: int) -> str:
    return f"    - {{name: {name}, exactly: {{deviceClassName: {device_class}, count: {count}}}}}\n"


def worst_case(devices: int) -> str:
    return gpus_and_nics(devices, 0) + claim("greedy", exact("gpus", "gpu", devices + 1))


def three_claims() -> str:
    return (gpus_and_nics(16, 4) + claim("train", exact("gpus", "gpu", 4)) + claim("infer", exact("gpus", "gpu", 4))
            + claim("gpu-nic", exact("gpu", "gpu", 1) + exact("nic", "nic", 1),
                    "    constraints:\n    - {requests: [gpu, nic], matchAttribute: gpu.example.com/fwVersion}\n"))


def distinct_nics() -> str:
    return (gpus_and_nics(16, 4) + claim("train", exact("gpus", "gpu", 5))
            + claim("spread", exact("nic-a", "nic", 1) + exact("nic-b", "nic", 1) + exact("nic-c", "nic", 1),
                    "    constraints:\n    - {distinctAttribute: nic.example.com/numa}\n"))


def run(text: str, prove: bool, bounded: bool) -> tuple[str, int, float]:
    docs = read_documents(text)

    def of(kind):
        return [d.obj for d in docs.documents if d.kind == kind]

    allocator = Allocator(SearchInputs(of("DeviceClass"), of("ResourceSlice")), make_gates(),
                          limits=DEFAULT_LIMITS if bounded else UNBOUNDED, options=SearchOptions(prove=prove))
    node = of("Node")[0]
    start = time.perf_counter()
    try:
        outcome = allocator.allocate(node, of("ResourceClaim"), explain_failure=False)
        answer = "fits" if outcome.allocated else "does not fit"
        steps = outcome.steps
        if outcome.proof is not None:
            answer += f" ({outcome.proof.code})"
    except AllocatorError as err:
        answer, steps = f"error: {err}", getattr(err, "steps", -1)
    return answer, steps, time.perf_counter() - start


def row(label: str, text: str, bounded_plain: bool, repeat: int = 5) -> None:
    plain = run(text, prove=False, bounded=bounded_plain)
    runs = sorted((run(text, prove=True, bounded=True) for _ in range(repeat)), key=lambda r: r[2])
    optimised = runs[len(runs) // 2]  # the median time
    print(f"| {label} | {plain[1]:,} | {plain[2] * 1000:,.1f} | {plain[0]} | {optimised[1]:,} "
          f"| {optimised[2] * 1000:,.1f} | {optimised[0]} |")
    if not plain[0].startswith("error") and plain[0] != optimised[0].split(" (")[0]:
        raise SystemExit(f"answers differ: plain {plain[0]!r}, optimised {optimised[0]!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 20-device plain search (about half a minute)")
    parser.add_argument("--yaml", action="store_true", help="print the three-claim pattern and exit")
    args = parser.parse_args()
    if args.yaml:
        print(three_claims())
        return 0
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    print(f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {load[0]:.2f}" if load[0] != "?" else "")
    print("| case | plain steps | plain ms | plain answer | optimised steps | optimised ms (median of 5) "
          "| optimised answer (proof) |")
    print("| --- | ---: | ---: | --- | ---: | ---: | --- |")
    for devices in (5, 10, 14) if args.quick else (5, 10, 14, 20):
        row(f"worst case, {devices} devices", worst_case(devices), bounded_plain=False)
    row("three claims (plain: default bounds, 1,000,000 steps, 10 s)", three_claims(), bounded_plain=True)
    row("train + distinct NICs (memo)", distinct_nics(), bounded_plain=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
