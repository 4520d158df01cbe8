"""Benchmark of the DRA CEL environment: compile time and per-device evaluation time.

Run: python bench/cel_bench.py
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from allocator.cel import _compile, build_device, compile_selector  # noqa: E402
from allocator.kube.model import DeviceAttribute, DeviceCapacity  # noqa: E402

DRIVER = "gpu.example.com"
ATTRS = {"model": DeviceAttribute(string="a100"), "index": DeviceAttribute(int=3),
         "fwVersion": DeviceAttribute(version="2.1.0"), "healthy": DeviceAttribute(bool=True)}
CAPS = {"memory": DeviceCapacity(value="80Gi"), "cores": DeviceCapacity(value="16")}

SELECTORS = {
    "typical": 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100" && '
               'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0',
    "driver": 'device.driver == "gpu.example.com"',
    "semver": "has(device.attributes['gpu.example.com'].fwVersion) && "
              "device.attributes['gpu.example.com'].fwVersion.isGreaterThan(semver('1.2.3'))",
    "regex": "device.attributes['gpu.example.com'].model.matches('^[a-z0-9]+$')",
    "exists": 'device.attributes["gpu.example.com"].exists(k, k == "healthy")',
}


def measure(fn, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def main():
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
          f"python={platform.python_version()}")
    print(f"{'selector':10} {'compile µs':>11} {'eval µs (prebuilt device) med/p95':>34} "
          f"{'eval µs (incl. device build) med/p95':>37}")
    device = build_device(DRIVER, ATTRS, CAPS)
    for name, expr in SELECTORS.items():
        c_med, _ = measure(lambda expr=expr: _compile(expr, frozenset(), True), 200)
        sel = compile_selector(expr)
        assert sel.evaluate(DRIVER, ATTRS, CAPS) is True, name
        e_med, e_p95 = measure(lambda sel=sel: sel.evaluate_device(device), 20000)
        f_med, f_p95 = measure(lambda sel=sel: sel.evaluate(DRIVER, ATTRS, CAPS), 20000)
        print(f"{name:10} {c_med * 1e6:11.1f} {e_med * 1e6:16.2f} / {e_p95 * 1e6:6.2f}       "
              f"{f_med * 1e6:18.2f} / {f_p95 * 1e6:6.2f}")

    heavy()


# The review's selector of issue 36: upstream accepts it (estimated and actual cost under 1,000,000),
# so the engine evaluates it; 8,000 matches() a device. Before the matches() memo and the two-argument
# dispatch the analysis of one 8-GPU node took 3.2 s; after, 0.84 s (about 65 ms a device here, on a
# busy 2-CPU machine).
TWENTY = "[" + ",".join(str(i) for i in range(20)) + "]"
HEAVY = (f"{TWENTY}.all(a, {TWENTY}.all(b, {TWENTY}.all(c, "
         "device.attributes['gpu.example.com'].uuid.matches('^GPU-[0-9a-f-]+$'))))")


def heavy():
    sel = compile_selector(HEAVY)
    devices = [build_device(DRIVER, {**ATTRS, "uuid": DeviceAttribute(string=f"GPU-{i:08x}-0000-4000-8000-000000000000")},
                            CAPS) for i in range(8)]
    assert all(sel.evaluate_device(d) is True for d in devices)
    med, p95 = measure(lambda: [sel.evaluate_device(d) for d in devices], 3)
    print(f"nested .all() x3 over 20 around matches(), 8 devices: {med * 1e3:.0f} ms (p95 {p95 * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
