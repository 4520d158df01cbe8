"""Which Kubernetes release the cluster runs, and which DRA feature gates are on.

The release is the apiserver's ``/version``. The gates come from the
apiserver's ``kubernetes_feature_enabled`` metric when the user may read
``/metrics``; otherwise the release's defaults apply and the answer says so.
The scheduler runs its own gates, which the apiserver cannot tell us: the
answer says which were used so a person can correct them with
``--feature-gates``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from allocator.releases.gates import KNOWN_GATES, RELEASES, exists_in, make_gates
from allocator.releases.table import release_key
from kubectl_dra.connection import Access, ClusterError, Connection, Forbidden, NotFound

_VERSION = re.compile(r"^v?(\d+)\.(\d+)")
_FEATURE_ENABLED = re.compile(r'^kubernetes_feature_enabled\{([^}]*)\}\s+([0-9.eE+-]+)\s*$')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


@dataclass
class ClusterRelease:
    """What the engine simulates for this cluster, and where each part came from."""

    server_version: str  # the apiserver's gitVersion, e.g. v1.37.2
    release: str  # the engine's release, e.g. 1.37
    gates: dict[str, bool] = field(default_factory=dict)  # overrides on the release's defaults
    gates_source: str = ""
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"serverVersion": self.server_version, "kubernetesVersion": self.release,
                "featureGates": self.gates, "featureGatesSource": self.gates_source, "notes": self.notes}


def engine_release(git_version: str) -> tuple[str, str | None]:
    """The engine's release for a server version, and a note when the engine has to stand in for it."""
    match = _VERSION.match(git_version)
    if not match:
        raise ClusterError(f"cannot read the apiserver's version {git_version!r}")
    found = f"{match.group(1)}.{match.group(2)}"
    if found in RELEASES:
        return found, None
    known = sorted(RELEASES, key=release_key)
    if release_key(found) > release_key(known[-1]):
        return known[-1], f"the cluster runs {git_version}; the engine simulates up to {known[-1]} and uses it"
    raise ClusterError(f"the cluster runs {git_version}; the engine simulates Kubernetes {known[0]} to {known[-1]}")


def parse_feature_metrics(text: str) -> dict[str, bool]:
    """Gate values from Prometheus text: ``kubernetes_feature_enabled{name="X",stage="BETA"} 1``."""
    gates: dict[str, bool] = {}
    for line in text.splitlines():
        match = _FEATURE_ENABLED.match(line.strip())
        if not match:
            continue
        labels = dict(_LABEL.findall(match.group(1)))
        if "name" in labels:
            gates[labels["name"]] = float(match.group(2)) != 0
    return gates


def read_release(connection: Connection, override_release: str | None = None,
                 override_gates: dict[str, bool] | None = None) -> ClusterRelease:
    """The cluster's release and gates; ``--kubernetes-version`` and ``--feature-gates`` win over what was read."""
    version = connection.get("/version", Access("get", "", "nonResourceURLs /version"))
    git_version = version.get("gitVersion", "")
    notes: list[str] = []
    if override_release:
        release = override_release
        notes.append(f"release {release} as asked (the cluster runs {git_version})")
    else:
        release, note = engine_release(git_version)
        if note:
            notes.append(note)
    try:
        text = connection.request("GET", "/metrics", Access("get", "", "nonResourceURLs /metrics"),
                                  accept="text/plain").decode("utf-8", "replace")
        read = {name: on for name, on in parse_feature_metrics(text).items()
                if name in KNOWN_GATES and exists_in(name, release)}
        defaults = make_gates(None, release).as_dict()
        gates = {name: on for name, on in read.items() if defaults.get(name) != on}
        source = "the apiserver's kubernetes_feature_enabled metric (the scheduler's gates may differ)"
    except (Forbidden, NotFound) as err:
        gates = {}
        source = f"the release's defaults (the apiserver's /metrics could not be read: {_short(err)})"
    if override_gates:
        gates.update(override_gates)
        source += "; --feature-gates on top"
    make_gates(gates, release)  # refuses, with the components' words, a set they would not start with
    return ClusterRelease(server_version=git_version, release=release, gates=gates, gates_source=source,
                          notes=notes)


def _short(err: Exception) -> str:
    return str(err).split(". Missing permission")[0]
