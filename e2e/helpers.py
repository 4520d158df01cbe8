"""What the browser tests share: the server under test, HTTP calls, browser contexts that watch for
errors, and driving the editor page. The fixtures are in conftest.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from playground.tests.helpers import ROOT, free_port

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
    port = free_port()
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



# ----------------------------------------------------------------------------- the editor page

KUBECTL_LIST = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: pasted-node
    managedFields:
    - manager: kubelet
      operation: Update
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
- apiVersion: resource.k8s.io/v1beta1
  kind: DeviceClass
  metadata:
    name: gpu.example.com
  spec:
    selectors:
    - cel:
        expression: device.driver == 'gpu.example.com'
- apiVersion: resource.k8s.io/v1beta1
  kind: ResourceSlice
  metadata:
    name: pasted-slice
  spec:
    driver: gpu.example.com
    nodeName: pasted-node
    pool:
      name: pasted-pool
      generation: 1
      resourceSliceCount: 1
    devices:
    - name: pasted-gpu-0
      basic:
        attributes:
          model:
            string: LATEST-GPU-MODEL
metadata:
  resourceVersion: ""
"""

ONE_GPU = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
"""


# Arms a listener for the next htmx:afterSettle of an answer into #target (from the URL path ``path``, when
# given) and returns a token that window.__e2eSettled holds once it has fired. On the document: an outerHTML
# swap settles on the element that replaced the target, which bubbles there too.
ARM_SETTLE = """([target, path]) => {
  const settled = (window.__e2eSettled = window.__e2eSettled || new Set());
  const token = String(Math.random());
  document.addEventListener("htmx:afterSettle", function once(event) {
    const detail = event.detail || {};
    const url = detail.xhr ? new URL(detail.xhr.responseURL || "", location.href).pathname : "";
    if (!detail.target || detail.target.id !== target || (path && url !== path)) return;
    document.removeEventListener("htmx:afterSettle", once);
    settled.add(token);
  });
  return token;
}"""


@contextmanager
def swapped_in(page: Page, target: str, path: str = "", timeout: float | None = None) -> Iterator[None]:
    """Wait, after the block, until htmx has swapped an answer into #target and settled it (from ``path``,
    when given). Waiting for the response alone races the page: htmx swaps it in a moment later, so a test
    that reads the page then may still see the previous answer."""
    token = page.evaluate(ARM_SETTLE, [target, path])
    yield
    page.wait_for_function("token => window.__e2eSettled && window.__e2eSettled.has(token)", arg=token,
                           timeout=timeout)


def editor(page: Page, name: str = "documents"):
    return page.locator(f"#id_{name} + .CodeMirror")


def replace_text(page: Page, text: str, name: str = "documents") -> None:
    """Select everything in a CodeMirror editor and paste text over it, as a person would."""
    editor(page, name).click()
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)


def summary(page: Page):
    return page.locator("#result-summary")


# The one-GPU-node sample's attributes, and a claim of it with a selector.
GPU = 'device.attributes["gpu.example.com"]'


def claim(selector: str, requests: int = 1) -> str:
    """A claim for the one-GPU-node sample with ``requests`` one-device requests and this selector."""
    text = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: gpus\nspec:\n  devices:\n    requests:\n"
    for i in range(requests):
        text += f"    - name: gpu-{i}\n      exactly:\n        deviceClassName: gpu.example.com\n"
        if selector:
            text += f"        selectors:\n        - cel:\n            expression: '{selector}'\n"
    return text


def open_gates(page: Page) -> None:
    """Open the Feature gates panel, if it is closed."""
    if page.locator("#gate-picker").get_attribute("open") is None:
        page.locator("#gate-picker summary").click()


# How many fit? (the capacity panel)
def capacity_table(page: Page, table_id: str) -> list[list[str]]:
    """The rows of one of the chart's data tables, as cell texts."""
    return [[cell.strip() for cell in row] for row in
            page.locator(f"#{table_id} tbody tr").evaluate_all("rows => rows.map(r => [...r.cells].map(c => c.textContent))")]


def run_capacity(page: Page, count: str = "", strategy: str = "first") -> None:
    """How many fit? run with this many copies (empty: as many as fit) and node choice; returns once its
    answer is on the page."""
    panel = page.locator("#capacity-panel")
    panel.get_by_label("Copies", exact=True).fill(count)
    panel.get_by_label("Node choice", exact=True).select_option(strategy)
    with swapped_in(page, "capacity-result", "/capacity"):
        page.locator("#capacity-button").click()


def type_expression(page: Page, expression: str) -> None:
    """Replace the console's expression as a person would; returns once the typing pause's answer is shown."""
    with swapped_in(page, "console-result", "/console"):
        editor(page, "console_expression").click()
        page.keyboard.press("Control+A")
        page.keyboard.type(expression)


def copies_placed(page: Page) -> int:
    """The copies How many fit? placed, once its summary shows."""
    expect(page.locator("#capacity-summary")).to_be_visible()
    return int(page.locator("#capacity-placed").text_content())


# Two H200s, which few nodes of allocator.synthetic's clusters have.
TWO_H200 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-h200
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.nvidia.com
        count: 2
        selectors:
        - cel:
            expression: device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H200'
"""


# The sample gpu-node: one node with eight GPUs of the class gpu.example.com.
TWO_GPU_TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 2}}]
"""


def workload_controller(kind: str, name: str, replicas: int, claims: str = "[{name: gpu, resourceClaimTemplateName: two-gpus}]") -> str:
    return f"""\
---
apiVersion: apps/v1
kind: {kind}
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers: [{{name: c, image: registry.example/app:1}}]
      resourceClaims: {claims}
"""


def editor_value(page: Page, name: str = "documents") -> str:
    return page.evaluate(f"document.getElementById('id_{name}').cm.getValue()")
