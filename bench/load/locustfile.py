"""Locust users for the load test (run it with bench/load/run.py, not directly).

Each simulated user behaves like a person using the playground in a browser:
it opens ``/`` (which sets the CSRF cookie), then, with 0.5-2 s of think time
between actions, picks among:

- loading a page: ``/``, the gallery ``/examples/`` or an example's deep link
  ``/examples/<slug>`` (which makes that example the one being edited);
- live analysis: typing in the claims editor. The page posts the whole form
  to ``/`` with htmx (``HX-Request: true``, ``HX-Target: results``) after
  each burst of input; here 2-6 posts 0.4-1.5 s apart, each with the
  trailing YAML comment a few characters longer, so each carries new content;
- sharing: the Share button posts the same form to ``/share`` (htmx,
  ``HX-Target: share``) and gets back the link. Half the shares are of the
  example as the gallery has it (the same content for every user, so the
  server finds the existing share: shares are content-addressed), half of
  what this user typed (new content); now and then the user opens the link;
- now and then the API: ``POST /api/v1/analyze``, ``POST /api/v1/shares``;
- now and then ``GET /healthz`` (a monitor).

``StoredClusterUser`` (``SCENARIO=stored`` in run.py) is someone editing a
claim against a stored cluster of ``STORED_NODES`` synthetic nodes (1,000 by
default) instead: see its docstring.

Requests are named by kind so locust's table groups them ("POST / (live)",
"GET /examples/<slug>", ...). Besides the status (locust counts anything
but 2xx/3xx as a failure), each answer's content is checked a little: a
page has the editor form, a live answer has the results the page swaps in,
a share answer has a ``/s/`` link.

With LOAD_REQUEST_LOG set (run.py sets it), every request is also written to
that file (start time, name, milliseconds, failed), so run.py can tell the
first seconds, when all the users arrive at once, from the rest.
"""

from __future__ import annotations

import os
import random
import re
import string
import time
from pathlib import Path

import gevent
import yaml
from locust import HttpUser, between, events, task

SAMPLES = Path(__file__).resolve().parents[2] / "playground" / "samples"


def _inventories() -> dict[str, str]:
    """Sample inventory slug -> its objects as multi-document YAML (what the inventory editor holds)."""
    out = {}
    for path in sorted((SAMPLES / "inventories").glob("*.yaml")):
        sample = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[sample["slug"]] = yaml.safe_dump_all(sample["objects"], sort_keys=False)
    return out


def _examples() -> list[dict]:
    inventories = _inventories()
    out = []
    for path in sorted((SAMPLES / "examples").glob("*.yaml")):
        example = yaml.safe_load(path.read_text(encoding="utf-8"))
        documents = example["documents"]
        out.append({
            "slug": example["slug"],
            "inventory_slug": example["inventory"],
            "inventory": inventories[example["inventory"]],
            "documents": documents if documents.endswith("\n") else documents + "\n",
            "node": example.get("node") or "",
            "feature_gates": example.get("featureGates") or {},
            "kubernetes_version": str(example.get("kubernetesVersion") or "1.37"),
        })
    return out


EXAMPLES = _examples()
# The example the editor opens with on "/" (playground.models.DEFAULT_EXAMPLE).
DEFAULT = next((e for e in EXAMPLES if e["slug"] == "per-container-requests"), EXAMPLES[0])
GATE_FIELD = re.compile(r'<select name="(gate_[A-Za-z0-9]+)"')
# The key of the gate list the page shows, which its form posts back (a live answer sends a new list only
# when the key differs, and then with its new key).
GATES_SHOWN = re.compile(r'<input type="hidden" name="gates_shown" value="([^"]*)">')
if os.environ.get("LOAD_REQUEST_LOG"):
    _request_log = open(os.environ["LOAD_REQUEST_LOG"], "a", encoding="utf-8", buffering=1)

    @events.request.add_listener
    def _log_request(request_type, name, response_time, exception=None, **kwargs) -> None:
        started = time.time() - response_time / 1000
        _request_log.write(f"{started:.3f}\t{name}\t{response_time:.1f}\t{int(exception is not None)}\n")


def json_object(response) -> dict:
    """The answer's JSON object, or {} (so a check fails rather than the task raising)."""
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


WORDS = ("check", "the", "gpu", "claim", "count", "node", "why", "not", "this", "one", "try", "again")


class PlaygroundUser(HttpUser):
    wait_time = between(0.5, 2)

    def on_start(self) -> None:
        self.gate_fields: list[str] = []
        self.gates_shown = ""
        self.use(DEFAULT)
        self.shares: list[str] = []  # links this user got back
        page = self.page("/", "GET /")
        if page is not None:
            # The form sends every gate's select ("" = the release's default), as a browser does.
            self.gate_fields = GATE_FIELD.findall(page)

    # --- helpers ---------------------------------------------------------

    def page(self, path: str, name: str, marker: str = 'id="playground-form"') -> str | None:
        """GET a page; it fails unless it is a 200 containing ``marker`` (the editor form by default)."""
        with self.client.get(path, name=name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
            elif marker not in response.text:
                response.failure(f"no {marker} in the page")
            else:
                self.note_gates_shown(response.text)
                return response.text
        return None

    def note_gates_shown(self, text: str) -> None:
        found = GATES_SHOWN.search(text)
        if found is not None:
            self.gates_shown = found.group(1)

    def use(self, example: dict) -> None:
        """Edit this example from now on (as after opening it)."""
        self.example = example
        self.documents = example["documents"]
        self.note = ""  # the comment being typed at the end of the documents

    def type_a_little(self) -> None:
        """A few more characters of the trailing comment, as a burst of keystrokes would add."""
        if len(self.note) > 200:  # a long comment: start a new one on the next line
            self.documents += f"# {self.note}\n"
            self.note = ""
        burst = random.choice(WORDS) + " " if random.random() < 0.7 else random.choice(string.ascii_lowercase)
        self.note += burst

    def form(self, documents: str) -> dict[str, tuple[None, str]]:
        """The editor form as the page posts it (multipart: the form has a file input)."""
        example = self.example
        fields = {
            "csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""),
            "inventory_slug": example["inventory_slug"],
            "inventory": example["inventory"],
            "documents": documents,
            "node": example["node"],
            "kubernetes_version": example["kubernetes_version"],
        }
        for field in self.gate_fields:
            fields[field] = ""
        for gate, on in example["feature_gates"].items():
            fields[f"gate_{gate}"] = "on" if on else "off"
        fields["gates_shown"] = self.gates_shown
        return {key: (None, value) for key, value in fields.items()}

    def htmx(self, target: str, trigger: str) -> dict[str, str]:
        return {
            "HX-Request": "true",
            "HX-Target": target,
            "HX-Trigger": trigger,
            "HX-Current-URL": f"{self.host}/",
            "X-CSRFToken": self.client.cookies.get("csrftoken", ""),
        }

    def typed(self) -> str:
        return self.documents + (f"# {self.note}\n" if self.note else "")

    # --- tasks -----------------------------------------------------------

    @task(6)
    def load_page(self) -> None:
        roll = random.random()
        if roll < 0.5:
            self.page("/", "GET /")
            self.use(DEFAULT)
        elif roll < 0.7:
            self.page("/examples/", "GET /examples/", marker='id="examples"')
        else:
            example = random.choice(EXAMPLES)
            if self.page(f"/examples/{example['slug']}", "GET /examples/<slug>") is not None:
                self.use(example)

    @task(8)
    def live_analysis(self) -> None:
        for i in range(random.randint(2, 6)):
            if i:
                gevent.sleep(random.uniform(0.4, 1.5))
            self.type_a_little()
            with self.client.post("/", files=self.form(self.typed()), headers=self.htmx("results", "playground-form"),
                                  name="POST / (live)", catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"status {response.status_code}")
                elif 'id="result-summary"' not in response.text or "<html" in response.text:
                    response.failure("no results fragment in the answer")
                elif "Nothing was analyzed" in response.text:
                    response.failure("the form was refused")
                else:
                    self.note_gates_shown(response.text)

    @task(4)
    def share(self) -> None:
        if random.random() < 0.5:
            self.type_a_little()  # an edit since the last share or live post: new content
            documents = self.typed()
        else:
            documents = self.example["documents"]  # as the gallery has it: the same for every user
        with self.client.post("/share", files=self.form(documents), headers=self.htmx("share", "share-button"),
                              name="POST /share", catch_response=True) as response:
            found = re.search(r'href="(/s/[0-9A-Za-z]+)"', response.text or "")
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
            elif found is None:
                response.failure("no /s/ link in the answer")
            else:
                self.shares.append(found.group(1))
        if self.shares and random.random() < 0.3:
            self.page(random.choice(self.shares), "GET /s/<id>")

    @task(2)
    def api_analyze(self) -> None:
        example = random.choice(EXAMPLES)
        with self.client.post("/api/v1/analyze", json=self.api_payload(example),
                              name="POST /api/v1/analyze", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
            elif "allocation" not in json_object(response):
                response.failure("no allocation in the report")

    @task(1)
    def api_share(self) -> None:
        example = random.choice(EXAMPLES)
        payload = self.api_payload(example)
        if random.random() < 0.5:  # new content half the time
            payload["documents"] += f"# api {random.getrandbits(64):x}\n"
        with self.client.post("/api/v1/shares", json=payload,
                              name="POST /api/v1/shares", catch_response=True) as response:
            if response.status_code not in (200, 201):
                response.failure(f"status {response.status_code}")
            elif "/s/" not in str(json_object(response).get("url", "")):
                response.failure("no /s/ url in the answer")

    @task(2)
    def health(self) -> None:
        with self.client.get("/healthz", name="GET /healthz", catch_response=True) as response:
            if response.status_code != 200 or json_object(response).get("status") != "ok":
                response.failure(f"status {response.status_code}: {response.text[:80]}")

    @staticmethod
    def api_payload(example: dict) -> dict:
        return {
            "documents": example["documents"],
            "inventory": example["inventory_slug"],
            "node": example["node"],
            "featureGates": example["feature_gates"],
            "kubernetesVersion": example["kubernetes_version"],
        }


# --- stored clusters (SCENARIO=stored in run.py) ---------------------------

STORED_NODES = int(os.environ.get("STORED_NODES", "1000"))
STORED_CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: two-h200}}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.nvidia.com
        count: 2
        selectors:
        - cel:
            expression: device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('{memory}Mi')) >= 0
"""
_stored_text: str | None = None


def _stored_cluster() -> str:
    """The synthetic cluster every stored-cluster user sends (the same text: the server stores it once)."""
    global _stored_text
    if _stored_text is None:
        from allocator.synthetic import cluster_yaml

        _stored_text = cluster_yaml(STORED_NODES)
    return _stored_text


class StoredClusterUser(HttpUser):
    """A person with a real cluster: stores its ``kubectl get -o yaml`` once (``POST /api/v1/inventories``,
    content-addressed, so every user gets the same id), then edits a claim against it: live posts of the
    page's form with the stored id (every node searched), each with a new memory bound in the selector, as
    typing a number does, and now and then the same through ``POST /api/v1/analyze``."""

    wait_time = between(0.5, 2)
    note_gates_shown = PlaygroundUser.note_gates_shown  # PlaygroundUser.page keeps the page's gate-list key

    def on_start(self) -> None:
        self.gates_shown = ""
        PlaygroundUser.page(self, "/", "GET /")  # the CSRF cookie, as a browser gets it
        self.inventory = ""
        with self.client.post("/api/v1/inventories", data=_stored_cluster(), name="POST /api/v1/inventories",
                              headers={"Content-Type": "application/yaml"}, catch_response=True) as response:
            if response.status_code not in (200, 201):
                response.failure(f"status {response.status_code}: {response.text[:120]}")
            else:
                self.inventory = json_object(response).get("id", "")
        self.memory = random.randint(40_000, 140_000)

    def edited(self) -> str:
        self.memory += random.choice((-1, 1)) * random.randint(1, 9)
        return STORED_CLAIM.format(memory=self.memory)

    @task(8)
    def live_analysis(self) -> None:
        if not self.inventory:
            return
        for i in range(random.randint(2, 6)):
            if i:
                gevent.sleep(random.uniform(0.4, 1.5))
            form = {"csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""), "inventory_id": self.inventory,
                    "inventory_slug": "", "inventory": "", "documents": self.edited(), "kubernetes_version": "1.37",
                    "gates_shown": self.gates_shown}
            headers = {"HX-Request": "true", "HX-Target": "results", "HX-Trigger": "playground-form",
                       "HX-Current-URL": f"{self.host}/", "X-CSRFToken": self.client.cookies.get("csrftoken", "")}
            with self.client.post("/", data=form, headers=headers, name="POST / (live, stored cluster)",
                                  catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"status {response.status_code}")
                elif 'id="result-summary"' not in response.text or "Nothing was analyzed" in response.text:
                    response.failure("no analysis in the answer")
                else:
                    self.note_gates_shown(response.text)

    @task(2)
    def api_analyze(self) -> None:
        if not self.inventory:
            return
        body = {"documents": self.edited(), "inventory": self.inventory}
        with self.client.post("/api/v1/analyze", json=body, name="POST /api/v1/analyze (stored cluster)",
                              catch_response=True) as response:
            if response.status_code != 200 or "allocation" not in json_object(response):
                response.failure(f"status {response.status_code}: {response.text[:120]}")
