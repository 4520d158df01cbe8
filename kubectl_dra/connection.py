"""Talking to the cluster kubectl points at: kubeconfig, timeouts, paging, and errors a person can act on.

The official ``kubernetes`` client loads the kubeconfig (its contexts, exec
plugins, certificates) and signs the requests; we ask for plain JSON by path so
that objects arrive exactly as the apiserver serves them, in the version we
choose, with nothing lost to the client's models.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

import urllib3
from kubernetes import config as kubeconfig
from kubernetes.client import ApiClient
from kubernetes.config.config_exception import ConfigException

# Objects per list request: small enough that a 5,000-node cluster arrives in pages, as kubectl's chunking does.
PAGE_SIZE = 500


class ClusterError(Exception):
    """The cluster could not be read: unreachable, unauthorised, forbidden, or an object that is not there."""


@dataclass(frozen=True)
class Access:
    """One verb on one resource, as a Role's rule names it, for saying which permission is missing."""

    verb: str
    group: str  # "" for the core group
    resource: str
    namespace: str | None = None  # None: cluster-wide

    def __str__(self) -> str:
        name = f"{self.resource}.{self.group}" if self.group else self.resource
        where = f'in namespace "{self.namespace}"' if self.namespace else "cluster-wide"
        return f"{self.verb} {name} ({where})"


class Forbidden(ClusterError):
    """The apiserver answered 403: the message names the verb and resource the user's role lacks."""

    def __init__(self, access: Access, server_message: str):
        self.access = access
        super().__init__(f"{server_message.rstrip('.')}. Missing permission: {access}; "
                         "the read-only ClusterRole in the plugin's documentation grants exactly what it reads")


class NotFound(ClusterError):
    """The apiserver answered 404."""


class Progress:
    """A progress line on stderr once reading has taken more than a second, at most once a second after that."""

    def __init__(self, stream=None, delay: float = 1.0, clock=time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.clock = clock
        self.started = clock()
        self.last_shown: float | None = None

    def update(self, message: str) -> None:
        now = self.clock()
        if now - self.started < self.delay:
            return
        if self.last_shown is not None and now - self.last_shown < 1.0:
            return
        self.last_shown = now
        self.stream.write(f"kubectl-dra: {message}\n")
        self.stream.flush()


@dataclass
class Connection:
    """An authenticated client of one apiserver; every request has a timeout."""

    client: ApiClient
    timeout: float = 30.0
    progress: Progress = field(default_factory=Progress)

    @classmethod
    def from_kubeconfig(cls, kubeconfig_path: str | None = None, context: str | None = None,
                        timeout: float = 30.0) -> Connection:
        try:
            client = kubeconfig.new_client_from_config(config_file=kubeconfig_file(kubeconfig_path), context=context)
        except (ConfigException, FileNotFoundError, OSError) as err:
            raise ClusterError(f"cannot load the kubeconfig: {err}") from None
        # Fail fast on a dead apiserver: the client's default retries a refused connection three times.
        client.configuration.retries = 1
        return cls(client=client, timeout=timeout)

    @property
    def server(self) -> str:
        return self.client.configuration.host

    def request(self, method: str, path: str, access: Access, params: dict | None = None,
                accept: str = "application/json") -> bytes:
        """The body of a successful response; a refusal becomes a ``ClusterError`` that says what to do."""
        query = f"?{urlencode(params)}" if params else ""
        method, url, headers, body, post = self.client.param_serialize(
            method, path + query, header_params={"Accept": accept}, auth_settings=["BearerToken"])
        try:
            response = self.client.call_api(method, url, headers, body, post,
                                            _request_timeout=(min(self.timeout, 10.0), self.timeout))
        except urllib3.exceptions.HTTPError as err:
            raise ClusterError(f"cannot reach the apiserver at {self.server}: {_cause(err)}") from None
        data = response.read()
        if 200 <= response.status < 300:
            return data
        message = _status_message(data) or f"{response.status} {response.reason}"
        if response.status == 403:
            raise Forbidden(access, message)
        if response.status == 404:
            raise NotFound(message)
        if response.status == 401:
            raise ClusterError(f"the apiserver at {self.server} did not accept the credentials: {message}")
        raise ClusterError(f"{method} {path}: {message}")

    def get(self, path: str, access: Access) -> dict:
        return json.loads(self.request("GET", path, access))

    def list(self, path: str, access: Access, what: str) -> list[dict]:
        """Every item of a list, page by page (``limit``/``continue``), each with its apiVersion and kind."""
        items: list[dict] = []
        token = ""
        while True:
            params = {"limit": PAGE_SIZE}
            if token:
                params["continue"] = token
            page = json.loads(self.request("GET", path, access, params))
            # List items come without apiVersion and kind; the list's own names them ("ResourceSliceList").
            api_version = page.get("apiVersion", "")
            kind = page.get("kind", "").removesuffix("List")
            for item in page.get("items") or []:
                items.append({"apiVersion": api_version, "kind": kind, **item})
            token = (page.get("metadata") or {}).get("continue") or ""
            if not token:
                return items
            self.progress.update(f"reading {what}: {len(items)} so far")


def kubeconfig_file(flag: str | None) -> str:
    """As kubectl: --kubeconfig, else $KUBECONFIG (a list of files, merged), else ~/.kube/config.

    Read at each call: the client's own default is fixed when it is imported."""
    return flag or os.environ.get("KUBECONFIG") or os.path.expanduser("~/.kube/config")


def _status_message(data: bytes) -> str:
    """The ``message`` of a ``Status`` body, as kubectl prints it."""
    try:
        status = json.loads(data)
    except ValueError:
        return data.decode("utf-8", "replace").strip()[:300]
    return status.get("message", "") if isinstance(status, dict) else ""


def _cause(err: Exception) -> str:
    reason = getattr(err, "reason", None)
    return str(reason or err)
