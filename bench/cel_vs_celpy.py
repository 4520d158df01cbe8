"""Our CEL against cel-python, per evaluation, on typical DRA selectors both can run.

Why the runtime has its own CEL: this prints, per selector, the median time of
one evaluation (device value built once, as the allocator does) and of one
compilation in each, and the ratio. Only selectors in the part of CEL celpy
implements are measured (no quantity or semver, which celpy lacks).

Run: python bench/cel_vs_celpy.py   (needs the test extra: pip install -e ".[test]")
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import celpy  # noqa: E402

from allocator.cel import _compile, build_device, compile_selector  # noqa: E402
from allocator.kube.model import DeviceAttribute  # noqa: E402

DRIVER = "gpu.example.com"
ATTRIBUTES = {"model": "a100", "index": 3, "healthy": True, "family": "ampere"}

SELECTORS = {
    "driver": 'device.driver == "gpu.example.com"',
    "typical": 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100" && '
               'device.attributes["gpu.example.com"].index >= 2',
    "in-list": 'device.attributes["gpu.example.com"].model in ["a100", "h100", "h200"]',
    "string": 'device.attributes["gpu.example.com"].family.startsWith("amp") && '
              'device.attributes["gpu.example.com"].healthy',
    "exists": 'device.attributes["gpu.example.com"].exists(k, k == "healthy")',
}


def median_seconds(fn, n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
          f"python={platform.python_version()} load={os.getloadavg()[0]:.1f}")
    typed = {k: DeviceAttribute(string=v) if isinstance(v, str) else
             DeviceAttribute(bool=v) if isinstance(v, bool) else DeviceAttribute(int=v) for k, v in ATTRIBUTES.items()}
    ours_device = build_device(DRIVER, typed, {})
    env = celpy.Environment()
    celpy_device = {"device": celpy.json_to_cel({"driver": DRIVER, "attributes": {DRIVER: ATTRIBUTES}, "capacity": {}})}

    print(f"{'selector':9} {'ours eval µs':>13} {'celpy eval µs':>14} {'ratio':>7} "
          f"{'ours compile µs':>16} {'celpy compile µs':>17}")
    ratios = []
    for name, expression in SELECTORS.items():
        ours = compile_selector(expression)
        theirs = env.program(env.compile(expression))
        assert ours.evaluate_device(ours_device) is True, name
        assert bool(theirs.evaluate(celpy_device)) is True, name
        ours_eval = median_seconds(lambda s=ours: s.evaluate_device(ours_device), 5000)
        celpy_eval = median_seconds(lambda p=theirs: p.evaluate(celpy_device), 500)
        ours_compile = median_seconds(lambda e=expression: _compile(e, frozenset(), True), 100)
        celpy_compile = median_seconds(lambda e=expression: env.program(env.compile(e)), 50)
        ratios.append(celpy_eval / ours_eval)
        print(f"{name:9} {ours_eval * 1e6:13.1f} {celpy_eval * 1e6:14.1f} {celpy_eval / ours_eval:6.0f}x "
              f"{ours_compile * 1e6:16.0f} {celpy_compile * 1e6:17.0f}")
    print(f"celpy per evaluation: {min(ratios):.0f}x to {max(ratios):.0f}x our time "
          f"(median {statistics.median(ratios):.0f}x)")


if __name__ == "__main__":
    main()
