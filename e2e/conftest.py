"""Playwright harness: Debian's Chromium against gunicorn, as users get the site.

The site under test is what `Running in production` in docs/configuration.md describes:
gunicorn with `gunicorn.conf.py`, `DEBUG=0`, WhiteNoise serving static files,
on a free loopback port, over a temporary SQLite database prepared with
`migrate` and `load_samples` before the server starts. One server runs for the
whole session; tests that need other settings (a smaller body limit, tight
rate limits) ask `server_with(...)` for a second one, also kept for the
session. Tests create data only through the pages or the HTTP API, never the
ORM: the server is another process with its own database.

`playwright install` downloads browsers, which this project cannot rely on,
so the tests drive the system Chromium at /usr/bin/chromium (`./dev test`
installs it with apt). The flags keep it from reaching out to the network.

Every page a test opens fails the test on a JavaScript error or a
Content-Security-Policy violation.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from e2e.helpers import Server, new_context, start_server

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def server_with() -> Iterator[Callable[..., Server]]:
    """`server_with(NAME=value, ...)`: a gunicorn server with these settings on top of SERVER_ENV."""
    servers: dict[tuple, Server] = {}
    with tempfile.TemporaryDirectory(prefix="dra-e2e-") as tmp:

        def get(**overrides: str) -> Server:
            key = tuple(sorted(overrides.items()))
            if key not in servers:
                folder = Path(tmp) / f"server-{len(servers)}"
                folder.mkdir()
                servers[key] = start_server(folder, **overrides)
            return servers[key]

        try:
            yield get
        finally:
            for s in servers.values():
                s.stop()


@pytest.fixture(scope="session")
def server(server_with) -> Server:
    """The server under test, with its database holding load_samples' inventories and examples."""
    return server_with()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}; run ./dev test, which installs Debian's chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context, problems = new_context(browser, server.url)
    page = context.new_page()
    yield page
    context.close()
    problems.check()


@pytest.fixture
def samples(server: Server) -> Server:
    """The server, whose database holds the sample inventories and examples (load_samples)."""
    return server
