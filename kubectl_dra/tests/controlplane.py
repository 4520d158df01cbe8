"""A real Kubernetes control plane for the plugin's tests: etcd, kube-apiserver and kube-scheduler.

The binaries are upstream's own commands built from the Go module proxy by
``upstream/controlplane`` (its go.mod names them as tools: nothing of theirs is
copied here). They are built once into a cache folder outside the checkout and
started as processes on free loopback ports, as upstream's integration tests
start theirs: no kubelet (Nodes are created through the API), no
controller-manager (claims are created by name), RBAC on, users by token.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

MODULE = Path(__file__).resolve().parents[2] / "upstream" / "controlplane"
COMMANDS = {"etcd": "go.etcd.io/etcd/server/v3", "kube-apiserver": "k8s.io/kubernetes/cmd/kube-apiserver",
            "kube-scheduler": "k8s.io/kubernetes/cmd/kube-scheduler"}
TOKENS = {"admin": ("admin-token", "system:masters"), "reader": ("reader-token", ""),
          "system:kube-scheduler": ("scheduler-token", "")}


class Unavailable(Exception):
    """The control plane is not built and may not be built here: the tests skip with this reason."""


class StartFailed(RuntimeError):
    """Built, but a component would not start or build: a failure of the tests, not a reason to skip."""


def cache_folder() -> Path:
    digest = hashlib.sha256()
    for name in ("go.mod", "go.sum"):
        digest.update((MODULE / name).read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "dra-playground" / "controlplane" / digest.hexdigest()[:16]


# Building takes minutes on a cold cache: a test run builds only when asked (CI asks), else it uses a built one.
BUILD_VARIABLE = "DRA_CONTROLPLANE"


def build() -> Path:
    """The folder holding the three binaries, built once for this go.mod and go.sum."""
    folder = cache_folder()
    if all((folder / name).exists() for name in COMMANDS):
        return folder
    if os.environ.get(BUILD_VARIABLE) != "build":
        raise Unavailable(f"the control plane is not built yet: {BUILD_VARIABLE}=build ./dev test "
                          "kubectl_dra/tests/test_live_cluster.py builds it from the Go modules (minutes, once)")
    if shutil.which("go") is None:
        raise Unavailable("go is not on PATH: the control plane is built from the Go module proxy")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"building etcd, kube-apiserver and kube-scheduler into {folder} (minutes when cold)", file=sys.stderr)
    done = subprocess.run(["go", "build", "-ldflags", version_flags(), "-o", str(folder) + os.sep,
                           *COMMANDS.values()], cwd=MODULE, capture_output=True, text=True)
    if done.returncode != 0:
        raise StartFailed(f"go build failed:\n{done.stderr[-3000:]}")
    # go names etcd's command after its module's path without the major version: server
    if (folder / "server").exists():
        (folder / "server").rename(folder / "etcd")
    return folder


def kubernetes_version() -> str:
    """The k8s.io/kubernetes version go.mod requires, e.g. v1.37.2."""
    found = re.search(r"^\s*k8s\.io/kubernetes (v[0-9][^\s]*)", (MODULE / "go.mod").read_text(), re.MULTILINE)
    if found is None:
        raise StartFailed("upstream/controlplane/go.mod requires no k8s.io/kubernetes")
    return found.group(1)


def version_flags() -> str:
    """The version stamp upstream's release build sets (hack/lib/version.sh does it with -X): without it the
    components call themselves v0.0.0-master, and their emulated version and gate defaults follow that."""
    version = kubernetes_version()
    major, minor = re.match(r"v(\d+)\.(\d+)", version).groups()
    package = "k8s.io/component-base/version"
    return " ".join(f"-X {package}.{name}={value}" for name, value in (
        ("gitVersion", version), ("gitMajor", major), ("gitMinor", minor), ("gitTreeState", "clean")))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class ControlPlane:
    folder: Path
    apiserver_port: int = 0
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def server(self) -> str:
        return f"https://127.0.0.1:{self.apiserver_port}"

    def kubeconfig(self, user: str, namespace: str = "default") -> Path:
        path = self.folder / f"{user.replace(':', '-')}.kubeconfig"
        path.write_text(f"""apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: {self.server}
    insecure-skip-tls-verify: true
users:
- name: {user}
  user:
    token: {TOKENS[user][0]}
contexts:
- name: test
  context: {{cluster: test, user: {user}, namespace: {namespace}}}
current-context: test
""")
        return path

    def request(self, method: str, path: str, body: dict | None = None, user: str = "admin") -> dict:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.server + path, data=data, method=method, headers={
            "Authorization": f"Bearer {TOKENS[user][0]}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, context=context, timeout=30) as response:
            return json.loads(response.read() or b"{}")

    def create(self, obj: dict) -> dict:
        kind, version = obj["kind"], obj["apiVersion"]
        plural = {"Node": "nodes", "Pod": "pods", "ServiceAccount": "serviceaccounts", "Namespace": "namespaces",
                  "DeviceClass": "deviceclasses", "ResourceSlice": "resourceslices",
                  "ResourceClaim": "resourceclaims", "ResourceClaimTemplate": "resourceclaimtemplates",
                  "ClusterRole": "clusterroles", "ClusterRoleBinding": "clusterrolebindings"}[kind]
        prefix = "/api/v1" if version == "v1" else f"/apis/{version}"
        namespaced = kind in ("Pod", "ServiceAccount", "ResourceClaim", "ResourceClaimTemplate")
        scope = f"/namespaces/{obj['metadata'].get('namespace', 'default')}" if namespaced else ""
        return self.request("POST", f"{prefix}{scope}/{plural}", obj)

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def start(binaries: Path, work: Path) -> ControlPlane:
    """etcd, then kube-apiserver on it (RBAC, token users, every API version on), then kube-scheduler."""
    plane = ControlPlane(folder=work)
    logs = work / "logs"
    logs.mkdir()
    client, peer = _free_port(), _free_port()
    plane.processes.append(subprocess.Popen(
        [str(binaries / "etcd"), "--data-dir", str(work / "etcd"), "--name", "test",
         "--listen-client-urls", f"http://127.0.0.1:{client}", "--advertise-client-urls", f"http://127.0.0.1:{client}",
         "--listen-peer-urls", f"http://127.0.0.1:{peer}", "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
         "--initial-cluster", f"test=http://127.0.0.1:{peer}"],
        stdout=open(logs / "etcd.log", "w"), stderr=subprocess.STDOUT))
    key = work / "sa.key"
    subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True, capture_output=True)
    subprocess.run(["openssl", "rsa", "-in", str(key), "-pubout", "-out", str(work / "sa.pub")], check=True,
                   capture_output=True)
    (work / "tokens.csv").write_text("".join(
        f'{token},{user},{user}-uid,"{groups}"\n' if groups else f"{token},{user},{user}-uid\n"
        for user, (token, groups) in TOKENS.items()))
    plane.apiserver_port = _free_port()
    plane.processes.append(subprocess.Popen(
        [str(binaries / "kube-apiserver"), f"--etcd-servers=http://127.0.0.1:{client}",
         f"--secure-port={plane.apiserver_port}", "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
         f"--cert-dir={work / 'certs'}", f"--token-auth-file={work / 'tokens.csv'}", "--authorization-mode=RBAC",
         "--service-account-issuer=https://kubernetes.default.svc", f"--service-account-key-file={work / 'sa.pub'}",
         f"--service-account-signing-key-file={key}", "--service-cluster-ip-range=10.0.0.0/24",
         "--runtime-config=api/all=true", "--enable-priority-and-fairness=false",
         # no Service endpoints to keep: a loopback address is refused by the reconciler
         "--endpoint-reconciler-type=none",
         # it taints every new Node not-ready until a kubelet reports; there is no kubelet here
         "--disable-admission-plugins=TaintNodesByCondition"],
        stdout=open(logs / "kube-apiserver.log", "w"), stderr=subprocess.STDOUT))
    _wait_ready(plane, logs / "kube-apiserver.log")
    scheduler_config = plane.kubeconfig("system:kube-scheduler")
    plane.processes.append(subprocess.Popen(
        [str(binaries / "kube-scheduler"), f"--kubeconfig={scheduler_config}", "--leader-elect=false",
         f"--secure-port={_free_port()}", "--bind-address=127.0.0.1",
         f"--authentication-kubeconfig={scheduler_config}", f"--authorization-kubeconfig={scheduler_config}"],
        stdout=open(logs / "kube-scheduler.log", "w"), stderr=subprocess.STDOUT))
    return plane


def _wait_ready(plane: ControlPlane, log: Path, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in plane.processes):
            plane.stop()
            raise StartFailed(f"a control-plane process exited:\n{log.read_text()[-3000:]}")
        try:
            plane.request("GET", "/readyz")
            return
        except OSError:
            time.sleep(0.5)
        except ValueError:  # /readyz answers "ok", not JSON: it is ready
            return
    plane.stop()
    raise StartFailed(f"kube-apiserver was not ready in {timeout:.0f} s:\n{log.read_text()[-3000:]}")


def temporary_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="dra-controlplane-"))


if __name__ == "__main__":  # CI builds it before the tests: DRA_CONTROLPLANE=build python3 -m kubectl_dra.tests.controlplane
    print(build())
