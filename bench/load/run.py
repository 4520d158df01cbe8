"""Load test: gunicorn on loopback, 50 locust users for 60 seconds.

    .ci/with-postgres .venv/bin/python bench/load/run.py     # on a throwaway PostgreSQL
    .venv/bin/python bench/load/run.py                       # on a temporary SQLite file

Needs the `load` extra (pip install -e '.[load,postgres]'). It migrates the
database named by DATABASE_URL (a fresh SQLite file when unset), loads the
samples, starts gunicorn with gunicorn.conf.py (WORKERS, default 3) on a
free 127.0.0.1 port with DEBUG off, database connections kept for 60 s
(CONN_MAX_AGE, as docs/configuration.md deploys it) and the rate limits off
(the pages' and the API's: every simulated user comes from 127.0.0.1), runs locust headless
(USERS, default 50; DURATION, default 60s; see locustfile.py for the mix),
stops everything, and prints latency percentiles, throughput and errors per
endpoint (and any failure's message) together with a description of the
machine and its load average during the run; then the same table without
the requests started in the first WARMUP seconds, when all the users
arrive at once. Nothing listens beyond loopback; locust stops after
DURATION (plus at most 10 s for the users' last requests).

    USERS=1 DURATION=20s .ci/with-postgres .venv/bin/python bench/load/run.py   # one user alone
    SCENARIO=stored .ci/with-postgres .venv/bin/python bench/load/run.py        # editing against a stored
                                                                               # 1,000-node cluster
"""

from __future__ import annotations

import csv
import json
import math
import os
import platform
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
USERS = int(os.environ.get("USERS", "50"))
DURATION = os.environ.get("DURATION", "60s")
WORKERS = int(os.environ.get("WORKERS", "3"))
# "mixed" (PlaygroundUser: pages, live edits on the samples, shares, API) or "stored" (StoredClusterUser:
# live edits against a stored cluster of STORED_NODES synthetic nodes, 1,000 by default).
SCENARIO = os.environ.get("SCENARIO", "mixed")
USER_CLASSES = {"mixed": "PlaygroundUser", "stored": "StoredClusterUser"}
WARMUP = 10.0  # seconds: the second table leaves out requests started this early


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def machine(env: dict) -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kib = int(next(x for x in Path("/proc/meminfo").read_text().splitlines()
                           if x.startswith("MemTotal")).split()[1])
        memory = f"{mem_kib / 1024 / 1024:.0f} GiB RAM"
    except (OSError, StopIteration):
        memory = "RAM unknown"
    database = subprocess.run(
        [sys.executable, "-c", "from django.db import connection; connection.ensure_connection(); "
         "v = connection.cursor().connection.info.server_version if connection.vendor == 'postgresql' else 0; "
         "print(connection.vendor, f'{v // 10000}.{v % 100}' if v else __import__('sqlite3').sqlite_version)"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "playground.settings"},
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    return (f"{cpu}, {os.cpu_count()} CPUs, {memory}; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}; database {database}; "
            f"gunicorn {WORKERS} sync workers; locust on the same machine")


def cpu_times() -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


class LoadSampler(threading.Thread):
    """Reads the 1-minute load average every few seconds until stopped, and how busy the CPUs were."""

    def __init__(self, every: float = 5.0):
        super().__init__(daemon=True)
        self.every, self.samples, self.stopped = every, [], threading.Event()
        self.cpu_start = cpu_times()

    def run(self) -> None:
        while True:
            if hasattr(os, "getloadavg"):
                self.samples.append(os.getloadavg()[0])
            if self.stopped.wait(self.every):
                return

    def stop(self) -> str:
        self.stopped.set()
        self.join()
        load = (f"min {min(self.samples):.2f}, max {max(self.samples):.2f} ({len(self.samples)} samples)"
                if self.samples else "n/a")
        end = cpu_times()
        if self.cpu_start and end and end[1] > self.cpu_start[1]:
            busy = (end[0] - self.cpu_start[0]) / (end[1] - self.cpu_start[1])
            load += f"; CPUs {busy:.0%} busy (all processes, /proc/stat)"
        return load


def wait_for(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn exited before it answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer within 60 s")


def percentile(buckets: dict[str, int], fraction: float) -> float:
    """The response time (ms) under which ``fraction`` of the requests finished.

    Locust keeps response times rounded (to 2 significant digits above 100 ms)."""
    times = sorted((float(ms), count) for ms, count in buckets.items())
    wanted = fraction * sum(count for _, count in times)
    seen = 0
    for ms, count in times:
        seen += count
        if seen >= wanted:
            return ms
    return times[-1][0] if times else 0.0


HEADER = f"{'endpoint':<24}{'requests':>9}{'errors':>8}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'max ms':>8}"


def row(name: str, requests: int, failures: int, seconds: float, quantiles: list[float], slowest: float) -> str:
    """One line of the tables: counts, rate, p50/p95/p99 and the slowest, in ms."""
    return (f"{name:<24}{requests:>9}{failures:>8}{requests / seconds:>8.1f}"
            + "".join(f"{q:>8.0f}" for q in quantiles) + f"{slowest:>8.0f}")


def report(entries: list[dict]) -> list[str]:
    """Rows of the results table (one per endpoint, then all together)."""
    first = min(e["start_time"] for e in entries)
    last = max(e["last_request_timestamp"] for e in entries)
    seconds = max(last - first, 1e-9)
    together = {"name": "all", "num_requests": 0, "num_failures": 0, "response_times": {}, "max_response_time": 0}
    for e in entries:
        together["num_requests"] += e["num_requests"]
        together["num_failures"] += e["num_failures"]
        together["max_response_time"] = max(together["max_response_time"], e["max_response_time"])
        for ms, count in e["response_times"].items():
            together["response_times"][ms] = together["response_times"].get(ms, 0) + count
    rows = [HEADER, "-" * len(HEADER)]
    for e in [*sorted(entries, key=lambda e: e["name"]), together]:
        quantiles = [percentile(e["response_times"], f) for f in (0.50, 0.95, 0.99)]
        rows.append(row(e["name"], e["num_requests"], e["num_failures"], seconds, quantiles, e["max_response_time"]))
    rows.append(f"over {seconds:.0f} s of requests")
    return rows


def steady(log: Path) -> list[str]:
    """Rows like report()'s for the requests started WARMUP s or more after the first one.

    From the locustfile's request log, with exact times (nearest-rank percentiles)."""
    if not log.exists():
        return ["no request log"]
    records = []
    for line in log.read_text(encoding="utf-8").splitlines():
        started, name, ms, failed = line.split("\t")
        records.append((float(started), name, float(ms), int(failed)))
    if not records:
        return ["no request log"]
    first = min(r[0] for r in records)
    kept = [r for r in records if r[0] - first >= WARMUP]
    if not kept:
        return [f"no request started after the first {WARMUP:.0f} s"]
    seconds = max(max(r[0] + r[2] / 1000 for r in kept) - (first + WARMUP), 1e-9)

    def nearest_rank(values: list[float], fraction: float) -> float:
        return values[max(0, math.ceil(fraction * len(values)) - 1)]

    rows = [HEADER, "-" * len(HEADER)]
    groups = {name: [r for r in kept if r[1] == name] for name in sorted({r[1] for r in kept})}
    for name, group in [*groups.items(), ("all", kept)]:
        times = sorted(r[2] for r in group)
        quantiles = [nearest_rank(times, f) for f in (0.50, 0.95, 0.99)]
        rows.append(row(name, len(group), sum(r[3] for r in group), seconds, quantiles, times[-1]))
    rows.append(f"requests started from {WARMUP:.0f} s on, over {seconds:.0f} s")
    return rows


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS", "SECURE_SSL_REDIRECT")}
        port = free_port()
        if not env.get("DATABASE_URL"):
            print("==> DATABASE_URL unset: using a temporary SQLite database "
                  "(run through .ci/with-postgres for PostgreSQL)")
            env["DATABASE_URL"] = f"sqlite:///{tmp}/load.sqlite3"
        env.update(
            SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1", BIND=f"127.0.0.1:{port}",
            WEB_CONCURRENCY=str(WORKERS), LOG_LEVEL="WARNING",
            # As docs/configuration.md deploys it: each worker keeps its database connection.
            CONN_MAX_AGE=env.get("CONN_MAX_AGE", "60"),
            # All the users share one address: any per-client limit would answer 429.
            API_REQUESTS_PER_MINUTE="0", PAGE_ANALYSES_PER_MINUTE="0", PAGE_SHARES_PER_MINUTE="0",
            # SCENARIO=stored: every user stores the same cluster (content-addressed: one snapshot).
            STORED_INVENTORIES_PER_DAY="0", STORED_INVENTORY_BYTES_PER_DAY="0",
        )
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
        subprocess.run([*manage, "load_samples"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        described = machine(env)

        log = open(Path(tmp) / "gunicorn.log", "w")
        server = subprocess.Popen([str(BIN / "gunicorn"), "--access-logfile", os.devnull], cwd=ROOT, env=env,
                                  stdout=log, stderr=subprocess.STDOUT)
        try:
            host = f"http://127.0.0.1:{port}"
            try:
                wait_for(f"{host}/healthz", server)
            except SystemExit:
                print((Path(tmp) / "gunicorn.log").read_text()[-3000:], file=sys.stderr)
                raise
            print(f"==> locust: {USERS} users ({SCENARIO}) for {DURATION} against {host}")
            stats = Path(tmp) / "stats.json"
            load_before = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
            sampler = LoadSampler()
            sampler.start()
            with open(Path(tmp) / "locust.log", "w") as locust_log:
                locust = subprocess.run(
                    [str(BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")), "--headless",
                     "--users", str(USERS), "--spawn-rate", str(USERS), "--run-time", DURATION, "--host", host,
                     "--json-file", str(stats.with_suffix("")), "--csv", str(Path(tmp) / "locust"),
                     "--skip-log", "--loglevel", "WARNING", "--stop-timeout", "10", USER_CLASSES[SCENARIO]],
                    cwd=ROOT, env={**env, "LOAD_REQUEST_LOG": str(Path(tmp) / "requests.tsv")}, check=False,
                    stdout=locust_log, stderr=subprocess.STDOUT,
                )
            load_during = sampler.stop()
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
        if not stats.exists():
            print((Path(tmp) / "locust.log").read_text()[-3000:], file=sys.stderr)
            raise SystemExit(f"locust wrote no statistics (exit {locust.returncode})")
        entries = json.loads(stats.read_text())
        if not entries:  # every user failed before its first request (an error in the locustfile, say)
            print((Path(tmp) / "locust.log").read_text()[-3000:], file=sys.stderr)
            raise SystemExit("locust recorded no request")
        print(f"==> machine: {described}")
        print(f"==> load average before: {load_before} (1, 5, 15 min); 1-minute load average during the run: "
              f"{load_during}")
        print(f"==> {USERS} users, think time 0.5-2 s (mix: bench/load/locustfile.py), for {DURATION}")
        print("\n".join(report(entries)))
        print(f"==> the same without the first {WARMUP:.0f} s (all the users arrive at once and open /)")
        print("\n".join(steady(Path(tmp) / "requests.tsv")))
        failures = [e for e in entries if e["num_failures"]]
        failures_csv = Path(tmp) / "locust_failures.csv"
        if failures_csv.exists():
            with open(failures_csv, newline="") as f:
                for row in csv.DictReader(f):
                    print(f"failure: {row['Method']} {row['Name']}: {row['Error']} ({row['Occurrences']}x)")
        errors = Path(tmp) / "locust.log"
        for line in errors.read_text().splitlines()[-20:] if failures or locust.returncode else []:
            print(f"locust: {line}")
        server_errors = [line for line in (Path(tmp) / "gunicorn.log").read_text().splitlines()
                         if "Traceback" in line or "[CRITICAL]" in line or "WORKER TIMEOUT" in line]
        for line in server_errors[:10]:
            print(f"server: {line}")
        return 1 if failures or server_errors or locust.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
