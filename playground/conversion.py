"""Convert on the page: the "Convert to" menu's versions and the "Rewrite in VERSION" buttons.

``POST /editor/convert`` (``playground.views.convert``) rewrites the claims editor's documents through the
convert service (``playground.services.convert``), as ``POST /api/v1/convert`` does. ``with_rewrites``
gives each "not served" error of the documents the versions the chosen release serves its kind in, for the
"Rewrite in VERSION" buttons beside it.
"""

from __future__ import annotations

from allocator.kube.convert import SERVED_VERSIONS
from allocator.reading.diagnostics import NOT_SERVED
from allocator.releases.gates import FeatureGateError
from allocator.releases.table import release
from playground.state import State

VERSIONS = SERVED_VERSIONS  # the "Convert to" menu: every version of resource.k8s.io, the newest first


def with_rewrites(errors: list[dict], state: State) -> list[dict]:
    """The errors, each "not served" one of the documents with ``rewrite``: the versions (``v1``...) the chosen
    release serves its kind in, the newest first."""
    if not any(d.get("type") == NOT_SERVED for d in errors):
        return errors
    try:
        gates = state.gates()
    except FeatureGateError:
        return errors
    rel = release(state.kubernetes_version)
    out = []
    for d in errors:
        if d.get("type") == NOT_SERVED and (d.get("source") or "documents") == "documents" and d.get("kind"):
            served = rel.served(d["kind"], gates.enabled)
            d = {**d, "rewrite": list(served)}
        out.append(d)
    return out
