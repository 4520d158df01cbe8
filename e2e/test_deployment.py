"""Several app servers on one database, as the production setup of docs/configuration.md runs them.

Two gunicorn servers share a database (the `DATABASE_URL` of the test run when
it is PostgreSQL, as in CI's second pass, else a SQLite file) and
`CACHE=database`: a share or a stored cluster made on one is served by the
other and survives a restart, the same cluster stored on both at once is
stored once, and the API's rate limit counts across both.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from allocator.synthetic import cluster_yaml
from e2e.helpers import ONE_GPU as CLAIM
from e2e.helpers import Server, http_call, start_server

pytestmark = pytest.mark.e2e

LIMIT = 8


def shared_database(folder: Path) -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else f"sqlite:///{folder / 'shared.sqlite3'}"


def call(method: str, url: str, body: dict | None = None, client: str = "") -> tuple[int, dict | str]:
    return http_call(method, url, body, headers={"X-Forwarded-For": client} if client else None)


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[Server, Server, Path, str]]:
    database = shared_database(tmp_path)
    # Behind one (pretend) proxy, so each test can count as a client of its own:
    # on PostgreSQL the database, and with it the counts, outlive a test.
    settings = {"CACHE": "database", "API_REQUESTS_PER_MINUTE": str(LIMIT), "API_NUM_PROXIES": "1",
                "WEB_CONCURRENCY": "2"}
    servers = []
    try:
        for name in ("a", "b"):
            folder = tmp_path / name
            folder.mkdir()
            servers.append(start_server(folder, database, **settings))
        yield servers[0], servers[1], tmp_path, database
    finally:
        for s in servers:
            s.stop()


def test_a_share_is_seen_by_the_other_server_and_survives_a_restart(two_servers):
    a, b, folder, database = two_servers
    status, created = call("POST", a.url + "/api/v1/shares", {"documents": CLAIM, "inventory": "gpu-node"})
    assert status in (200, 201), created
    share = created["id"]

    status, seen = call("GET", f"{b.url}/api/v1/shares/{share}")
    assert status == 200, seen
    assert seen["documents"] == CLAIM
    status, page = call("GET", f"{b.url}/s/{share}")
    assert status == 200 and "one-gpu" in page

    a.stop()
    restarted = start_server(folder / "a", database, CACHE="database")
    try:
        status, again = call("GET", f"{restarted.url}/api/v1/shares/{share}")
        assert status == 200 and again["documents"] == CLAIM
        # Sharing the same content again on the other server gives the same id.
        status, twice = call("POST", b.url + "/api/v1/shares", {"documents": CLAIM, "inventory": "gpu-node"})
        assert (status, twice["id"]) == (200, share)
    finally:
        restarted.stop()


def test_the_rate_limit_counts_across_servers_and_workers(two_servers):
    a, b, _, _ = two_servers
    # Alternate between the servers (each with two workers): with per-process
    # counts the limit would only bite after 4 x LIMIT requests.
    client = f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"
    statuses = [call("GET", (a if i % 2 else b).url + "/api/v1/inventories", client=client)[0]
                for i in range(LIMIT + 1)]
    assert statuses == [200] * LIMIT + [429]


GPU_CLAIM = CLAIM.replace("gpu.example.com", "gpu.nvidia.com")


def test_a_stored_cluster_is_seen_by_the_other_server_and_survives_a_restart(two_servers):
    a, b, folder, database = two_servers
    # Content of its own, so a database that outlives the test (PostgreSQL) has not seen it.
    cluster = cluster_yaml(20, seed=secrets.randbelow(2**31))
    both = [None, None]

    def store(index: int, server: Server) -> None:
        both[index] = http_call("POST", server.url + "/api/v1/inventories", cluster.encode(), "application/yaml",
                                headers={"X-Forwarded-For": f"2001:db8::{secrets.token_hex(2)}"})

    # The same content sent to both servers at once is stored once, under one id.
    threads = [threading.Thread(target=store, args=(i, s)) for i, s in enumerate((a, b))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (status_a, stored_a), (status_b, stored_b) = both
    assert sorted([status_a, status_b]) == [200, 201], both
    assert stored_a["id"] == stored_b["id"] and stored_a["nodes"] == 20 and stored_a["devices"] == 160
    inventory = stored_a["id"]

    status, seen = call("GET", f"{b.url}/api/v1/inventories/{inventory}")
    assert status == 200 and seen["documents"] == cluster.rstrip() + "\n"
    status, report = call("POST", b.url + "/api/v1/analyze", {"documents": GPU_CLAIM, "inventory": inventory})
    assert status == 200 and report["allocation"]["status"] == "allocated", report

    a.stop()
    restarted = start_server(folder / "a", database, CACHE="database")
    try:
        status, again = call("POST", restarted.url + "/api/v1/allocate", {"documents": GPU_CLAIM, "inventory": inventory})
        assert status == 200 and again["allocated"], again
    finally:
        restarted.stop()
