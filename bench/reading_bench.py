"""The YAML and JSON readers against the parsers other libraries offer (a script, not a test).

    python bench/reading_bench.py [--nodes 1000,5000] [--runs 5] [--formats yaml,json] [--positioned]

For each size it writes a synthetic cluster (``allocator.synthetic``, as
``kubectl get -o yaml`` and ``-o json`` print it) and reads it in this
process, ``--runs`` times per reader, with the cyclic GC paused as the
engine reads. Printed per reader: the median CPU seconds (user + system of
this process, steadier than wall time on a shared machine), and whether it
gives the same data as ours ("same"), different data ("DIFFERS") or is not
installed. Ours:

- ``read_plain``: the fast reader (``allocator.reading.plainyaml``: block
  YAML line by line, JSON through the standard library), no positions;
- ``read_documents``: text to typed objects, as the command line reads
  (the fast reader, then decoding and conversion);
- ``load_yaml_stream``: the positioned reader (only with ``--positioned``:
  several seconds for 1,000 nodes).

Others, when installed (none is a dependency): PyYAML on libyaml
(``yaml.load`` with ``CSafeLoader``), rapidyaml (``ryml``: parse, emit JSON,
read it with the standard library), ``yaml_rs``, ``ryaml``, ``json``,
``orjson`` and ``msgspec``. Their data is compared with ours on the same
text; "same" on this file says nothing of the YAML 1.1 rules on other text
(see docs/performance.md, "Reading").
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from allocator.kube import objects  # noqa: E402
from allocator.reading.plainyaml import read_plain  # noqa: E402
from allocator.synthetic import cluster_json, cluster_yaml  # noqa: E402


def _median_cpu(read, text: str, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        objects._cache.clear()
        gc.collect()
        gc.disable()
        start = time.process_time()
        out = read(text)
        times.append(time.process_time() - start)
        gc.enable()
    return statistics.median(times), out


def _optional(module: str):
    try:
        return __import__(module)
    except ImportError:
        return None


def _readers(positioned: bool) -> list[tuple[str, str, object]]:
    """(format, name, read(text) -> data or None when not installed)."""
    yaml = _optional("yaml")
    ryml = _optional("ryml")
    yaml_rs = _optional("yaml_rs")
    ryaml = _optional("ryaml")
    orjson = _optional("orjson")
    msgspec = _optional("msgspec")

    def ours_plain(text):
        return [d.data for d in read_plain(text)]

    def ours_documents(text):
        return objects.read_documents(text)

    def ours_positioned(text):
        from allocator.reading.yamlsource import load_yaml_stream

        return [d.data for d in load_yaml_stream(text)]

    def rapidyaml(text):
        return [json.loads(ryml.emit_json(ryml.parse_in_arena(text.encode())))]

    found = [
        ("yaml", "ours: read_plain (block lines)", ours_plain),
        ("yaml", "ours: read_documents (typed objects)", ours_documents),
        ("yaml", "PyYAML CSafeLoader (libyaml)",
         yaml and getattr(yaml, "CSafeLoader", None) and (lambda t: [yaml.load(t, Loader=yaml.CSafeLoader)])),
        ("yaml", "rapidyaml (parse + emit JSON + json)", ryml and rapidyaml),
        ("yaml", "yaml_rs.loads", yaml_rs and (lambda t: [yaml_rs.loads(t, parse_datetime=False)])),
        ("yaml", "ryaml.loads", ryaml and (lambda t: [ryaml.loads(t)])),
        ("json", "ours: read_plain (json + checks)", ours_plain),
        ("json", "ours: read_documents (typed objects)", ours_documents),
        ("json", "json.loads", lambda t: [json.loads(t)]),
        ("json", "orjson.loads", orjson and (lambda t: [orjson.loads(t)])),
        ("json", "msgspec.json.decode", msgspec and (lambda t: [msgspec.json.decode(t)])),
    ]
    if positioned:
        found.insert(2, ("yaml", "ours: load_yaml_stream (positioned)", ours_positioned))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="1000,5000", help="cluster sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=5, help="runs per reader (the median is printed)")
    parser.add_argument("--formats", default="yaml,json", help="yaml, json or both (yaml,json)")
    parser.add_argument("--positioned", action="store_true", help="also time the positioned reader (slow)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'nodes':>6} {'format':<6} {'MB':>6}  {'reader':<40} {'cpu s':>7}  data")
    for nodes in (int(n) for n in args.nodes.split(",")):
        makers = {"yaml": cluster_yaml, "json": cluster_json}
        texts = {fmt: makers[fmt](nodes) for fmt in args.formats.split(",")}
        reference = {fmt: [d.data for d in read_plain(text)] for fmt, text in texts.items()}
        for fmt, name, read in _readers(args.positioned):
            if fmt not in texts:
                continue
            text = texts[fmt]
            size = len(text.encode()) / 1e6
            if not read:
                print(f"{nodes:>6} {fmt:<6} {size:>6.1f}  {name:<40} {'':>7}  not installed")
                continue
            seconds, out = _median_cpu(read, text, args.runs)
            if isinstance(out, objects.ReadResult):
                verdict = f"{len(out.documents)} objects"
            else:
                verdict = "same" if out == reference[fmt] else "DIFFERS"
            print(f"{nodes:>6} {fmt:<6} {size:>6.1f}  {name:<40} {seconds:>7.3f}  {verdict}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
