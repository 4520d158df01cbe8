"""Load test: gunicorn on loopback, 50 locust users for 60 seconds.

    .ci/with-postgres .venv/bin/python bench/load/run.py     # on a throwaway PostgreSQL
    .venv/bin/python bench/load/run.py                       # on a temporary SQLite file

Needs the `load` extra (pip install -e '.[load,postgres]'). It migrates the
database named by DATABASE_URL (a fresh SQLite file when unset), loads the
samples, starts gunicorn with gunicorn.conf.py (WORKERS, default 3) on a
free 127.0.0.1 port with DEBUG off and API throttling off, runs locust
headless (USERS, default 50; DURATION, default 60s; see locustfile.py for
the mix), stops everything, and prints latency percentiles, throughput and
errors per endpoint together with a description of the machine. Nothing
listens beyond loopback.
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
USERS = int(os.environ.get("USERS", "50"))
DURATION = os.environ.get("DURATION", "60s")
WORKERS = int(os.environ.get("WORKERS", "3"))


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
    header = f"{'endpoint':<24}{'requests':>9}{'errors':>8}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'max ms':>8}"
    rows = [header, "-" * len(header)]
    for e in [*sorted(entries, key=lambda e: e["name"]), together]:
        rows.append(
            f"{e['name']:<24}{e['num_requests']:>9}{e['num_failures']:>8}{e['num_requests'] / seconds:>8.1f}"
            + "".join(f"{percentile(e['response_times'], f):>8.0f}" for f in (0.50, 0.95, 0.99))
            + f"{e['max_response_time']:>8.0f}"
        )
    rows.append(f"over {seconds:.0f} s of requests")
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
            WEB_CONCURRENCY=str(WORKERS), API_REQUESTS_PER_MINUTE="0", LOG_LEVEL="WARNING",
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
            print(f"==> locust: {USERS} users for {DURATION} against {host}")
            stats = Path(tmp) / "stats.json"
            with open(Path(tmp) / "locust.log", "w") as locust_log:
                locust = subprocess.run(
                    [str(BIN / "locust"), "-f", str(Path(__file__).with_name("locustfile.py")), "--headless",
                     "--users", str(USERS), "--spawn-rate", str(USERS), "--run-time", DURATION, "--host", host,
                     "--json-file", str(stats.with_suffix("")), "--skip-log", "--loglevel", "WARNING",
                     "--stop-timeout", "10"],
                    cwd=ROOT, env=env, check=False, stdout=locust_log, stderr=subprocess.STDOUT,
                )
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
        if not stats.exists():
            print((Path(tmp) / "locust.log").read_text()[-3000:], file=sys.stderr)
            raise SystemExit(f"locust wrote no statistics (exit {locust.returncode})")
        entries = json.loads(stats.read_text())
        print(f"==> machine: {described}")
        print(f"==> {USERS} users, think time 0.5-2 s (bench/load/locustfile.py), for {DURATION}")
        print("\n".join(report(entries)))
        failures = [e for e in entries if e["num_failures"]]
        errors = Path(tmp) / "locust.log"
        for line in errors.read_text().splitlines()[-20:] if failures else []:
            print(f"locust: {line}")
        server_errors = [line for line in (Path(tmp) / "gunicorn.log").read_text().splitlines()
                         if "Traceback" in line or "[CRITICAL]" in line or "WORKER TIMEOUT" in line]
        for line in server_errors[:10]:
            print(f"server: {line}")
        return 1 if failures or server_errors else 0


if __name__ == "__main__":
    sys.exit(main())
