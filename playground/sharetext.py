"""A share as plain text (``/s/ID.yaml``): its documents, then its inventory, as one YAML stream anyone
can curl, under a comment header that names the release, the feature gates and the node it was
shared with (a YAML reader skips the comments; the settings are in the page and the export)."""

from __future__ import annotations

from playground.state import State


def _gates_line(state: State) -> str:
    if not state.feature_gates:
        return "the release's default feature gates"
    values = ", ".join(f"{gate}={str(value).lower()}" for gate, value in state.feature_gates.items())
    return f"feature gates {values} (the release's defaults for the rest)"


def _inventory_line(state: State) -> str:
    if state.inventory_id:
        return f"the stored cluster {state.inventory_id}"
    if state.inventory_slug:
        return f"the sample {state.inventory_slug}" + (" (edited)" if state.inventory else "")
    return "as written"


def _ended(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def share_text(state: State, inventory: str, url: str) -> str:
    """The documents and ``inventory`` (the text the engine reads for the state) of the share at ``url``."""
    header = [
        f"# DRA Playground share: {url}",
        f"# Kubernetes {state.kubernetes_version} with {_gates_line(state)}.",
        f"# Node: {state.node or 'automatic (every node tried)'}. Inventory: {_inventory_line(state)}.",
    ]
    if state.compare is not None:
        other = state.compare
        header.append(f"# Compared with Kubernetes {other.kubernetes_version}"
                      f"{' and its own feature gates' if other.feature_gates else ''}: see the page.")
    header.append("# Below: the claims, templates and pods, then (after the inventory comment) the inventory.")
    parts = ["\n".join(header) + "\n", _ended(state.documents)]
    if inventory.strip():
        parts.append("---\n# Inventory\n" + _ended(inventory))
    return "".join(parts)
