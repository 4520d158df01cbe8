"""A small HTTP server that answers the apiserver's read protocol from a list of objects, for unit tests.

It serves what the plugin reads: /version, /metrics, discovery of
resource.k8s.io, lists with ``limit``/``continue`` and gets by name, and
answers 403 with a ``Status`` body as the apiserver's authorizer words it for
the paths a test forbids. The tests against a real kube-apiserver are in
``test_live_cluster.py``; this one is for output shapes, paging and refusals.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PLURALS = {"DeviceClass": "deviceclasses", "ResourceSlice": "resourceslices", "DeviceTaintRule": "devicetaintrules",
           "ResourceClaim": "resourceclaims", "ResourceClaimTemplate": "resourceclaimtemplates",
           "Node": "nodes", "Pod": "pods"}
CLUSTER_SCOPED = {"deviceclasses", "resourceslices", "devicetaintrules", "nodes"}


@dataclass
class FakeCluster:
    objects: list[dict] = field(default_factory=list)
    git_version: str = "v1.37.2"
    metrics: str | None = ""  # None: /metrics is forbidden
    forbidden: set[str] = field(default_factory=set)  # plurals whose list/get is forbidden
    requests: list[str] = field(default_factory=list)

    def items(self, plural: str, namespace: str | None) -> list[dict]:
        return [o for o in self.objects if PLURALS[o["kind"]] == plural
                and (namespace is None or o["metadata"].get("namespace") == namespace)]


def _status(code: int, reason: str, message: str) -> dict:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason, "code": code}


class _Handler(BaseHTTPRequestHandler):
    cluster: FakeCluster

    def log_message(self, *args):  # quiet
        pass

    def _send(self, code: int, body, content_type: str = "application/json") -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802 (http.server's name)
        url = urlparse(self.path)
        self.cluster.requests.append(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        path = url.path.rstrip("/")
        if path == "/version":
            return self._send(200, {"major": "1", "minor": self.cluster.git_version.split(".")[1],
                                    "gitVersion": self.cluster.git_version})
        if path == "/metrics":
            if self.cluster.metrics is None:
                return self._send(403, _status(403, "Forbidden", 'forbidden: User "reader" cannot get path "/metrics"'))
            return self._send(200, self.cluster.metrics.encode(), "text/plain")
        if path == "/apis/resource.k8s.io":
            version = {"groupVersion": "resource.k8s.io/v1", "version": "v1"}
            return self._send(200, {"kind": "APIGroup", "name": "resource.k8s.io", "versions": [version],
                                    "preferredVersion": version})
        if path == "/apis/resource.k8s.io/v1":
            return self._send(200, {"kind": "APIResourceList", "groupVersion": "resource.k8s.io/v1", "resources": [
                {"name": p, "namespaced": p not in CLUSTER_SCOPED, "verbs": ["get", "list", "watch"]}
                for p in ("deviceclasses", "resourceslices", "devicetaintrules", "resourceclaims",
                          "resourceclaimtemplates")]})
        parts = path.strip("/").split("/")
        core = parts[:2] == ["api", "v1"]
        rest = parts[2:] if core else parts[3:]
        namespace = None
        if rest[:1] == ["namespaces"]:
            namespace, rest = rest[1], rest[2:]
        plural, name = rest[0], (rest[1] if len(rest) > 1 else None)
        if plural in self.cluster.forbidden:
            group = '""' if core else '"resource.k8s.io"'
            verb = "get" if name else "list"
            scope = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
            return self._send(403, _status(403, "Forbidden", f'{plural} is forbidden: User "reader" cannot {verb} '
                                                             f'resource "{plural}" in API group {group} {scope}'))
        items = self.cluster.items(plural, namespace)
        api_version = "v1" if core else "resource.k8s.io/v1"
        if name:
            found = [o for o in items if o["metadata"]["name"] == name]
            if not found:
                return self._send(404, _status(404, "NotFound", f'{plural} "{name}" not found'))
            return self._send(200, found[0])
        start = int(query.get("continue") or 0)
        limit = int(query.get("limit") or len(items) or 1)
        page = items[start:start + limit]
        token = str(start + limit) if start + limit < len(items) else ""
        kind = next((k for k, p in PLURALS.items() if p == plural), plural)
        return self._send(200, {"apiVersion": api_version, "kind": f"{kind}List",
                                "metadata": {"resourceVersion": "1", **({"continue": token} if token else {})},
                                "items": [{k: v for k, v in o.items() if k not in ("apiVersion", "kind")}
                                          for o in page]})


def serve(cluster: FakeCluster):
    handler = type("Handler", (_Handler,), {"cluster": cluster})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def kubeconfig(server_url: str, namespace: str = "default") -> str:
    return f"""apiVersion: v1
kind: Config
clusters:
- name: fake
  cluster:
    server: {server_url}
users:
- name: reader
  user:
    token: test-token
contexts:
- name: fake
  context:
    cluster: fake
    user: reader
    namespace: {namespace}
current-context: fake
"""
