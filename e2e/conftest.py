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

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
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

# Settings of the server under test. Rate limits are raised (not off, so the
# limiter runs) because the whole suite comes from one address;
# e2e/test_security.py proves the 429s on a server with tight limits.
SERVER_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "e2e-only-not-secret",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "HTTPS": "0",
    "API_REQUESTS_PER_MINUTE": "100000",
    "PAGE_ANALYSES_PER_MINUTE": "100000",
    "PAGE_SHARES_PER_MINUTE": "100000",
    "WEB_CONCURRENCY": "2",
    "GUNICORN_MAX_REQUESTS": "0",
    "LOG_LEVEL": "WARNING",
}
# Settings of the test process that must not leak into the server's.
CLEARED = ("DATABASE_URL", "CSRF_TRUSTED_ORIGINS", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT",
           "DATA_UPLOAD_MAX_MEMORY_SIZE", "STATIC_ROOT", "API_NUM_PROXIES", "BIND", "DJANGO_SETTINGS_MODULE",
           "CACHE")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path
    env: dict[str, str] = field(repr=False)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(folder: Path, database_url: str | None = None, **overrides: str) -> Server:
    """gunicorn on a free port, logging into `folder`, on `database_url` (default:
    a SQLite file in `folder`) after `migrate` and `load_samples`."""
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(SERVER_ENV, DATABASE_URL=database_url or f"sqlite:///{folder / 'db.sqlite3'}", **overrides)
    for command in (["migrate", "--no-input"], ["load_samples"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
    port = _free_port()
    env["BIND"] = f"127.0.0.1:{port}"
    log = folder / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn"], cwd=ROOT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, log, env)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(server.url + "/healthz", timeout=5) as r:
                if r.status == 200:
                    return server
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"gunicorn did not start:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.2)


def http_call(method: str, url: str, body: dict | bytes | None = None, content_type: str = "application/json",
         headers: dict[str, str] | None = None) -> tuple[int, dict | str]:
    """One HTTP request to a test server: the status and the answer (JSON decoded when it is JSON).

    A dict body is sent as JSON; 4xx and 5xx answers are returned, not raised."""
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": content_type, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


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


# Reports every CSP violation to the console as well, with what was blocked.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


@dataclass
class Problems:
    errors: list[str] = field(default_factory=list)
    csp: list[str] = field(default_factory=list)

    def watch(self, context: BrowserContext) -> None:
        context.add_init_script(CSP_LISTENER)
        context.on("page", self.watch_page)

    def watch_page(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", self._console)

    def _console(self, msg) -> None:
        text = msg.text
        if "Content Security Policy" in text or text.startswith("CSP violation"):
            self.csp.append(text)

    def check(self) -> None:
        assert not self.csp, f"Content-Security-Policy violations: {self.csp}"
        assert not self.errors, f"JavaScript errors on the page: {self.errors}"


def new_context(browser: Browser, base_url: str, **options) -> tuple[BrowserContext, Problems]:
    """A browser context on `base_url` whose pages record JS errors and CSP violations."""
    context = browser.new_context(base_url=base_url, **options)
    context.set_default_timeout(10_000)
    problems = Problems()
    problems.watch(context)
    return context, problems


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
