"""The editor form: binds what the page posts to a ``State``.

One form serves the live htmx requests, the plain (no JavaScript) posts and
the share and export buttons; each gate is a three-way choice (release
default, on, off) so switching the Kubernetes version never turns defaults
into overrides.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import MaxValueValidator

from allocator.allocation.alternatives import MAX_LIMIT as MAX_ALTERNATIVES
from allocator.cel import MAX_EXPRESSION_LENGTH as CONSOLE_EXPRESSION_MAX
from allocator.releases.gates import CURRENT_RELEASE, KNOWN_GATES, RELEASES, FeatureGateError, make_gates
from allocator.releases.table import Release, release
from allocator.workload.planning import STRATEGIES
from playground import clusters
from playground.limits import text_limit
from playground.models import SampleInventory
from playground.state import (
    CAPACITY_STRATEGY,
    CONSOLE_DEVICE_MAX,
    CONSOLE_ENV,
    CONSOLE_SCRATCH_MAX,
    FORM_PANELS,
    ID_MAX_LENGTH,
    State,
    StateError,
)

GATE_CHOICES = [("", "default"), ("on", "on"), ("off", "off")]
CUSTOM = ""  # the inventory picker's value for a pasted or uploaded inventory
SAME = "="  # the compared column's inventory picker: the same inventory as the editor's
COMPARE = "compare_"  # prefix of the compared column's fields

# Form actions besides the default "analyze".
LOAD = "load"  # put the picked sample inventory into the inventory editor
IMPORT = "import"  # put the uploaded file into the inventory editor


def gate_field(gate: str, prefix: str = "") -> str:
    return f"{prefix}gate_{gate}"


def posted_gates(data: Mapping[str, Any], version: str, prefix: str = "") -> dict[str, bool]:
    """The gate overrides a form sends (``gate_<Gate>=on|off``, its compared column's with ``prefix``).

    An override of a gate the release ``version`` does not have is left out: the page does not offer it
    there, it was set for another release. An unknown release reads as the current one.
    """
    rel = release(version if version in RELEASES else CURRENT_RELEASE)
    return {gate: data.get(name) == "on" for gate in KNOWN_GATES
            if data.get(name := gate_field(gate, prefix)) in ("on", "off") and rel.exists(gate)}


def text_digest(text: str) -> str:
    """A short fingerprint of the documents as the page served them, to tell later whether they were edited."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode()).hexdigest()[:16]


@cache
def _gate_fields() -> dict[str, forms.ChoiceField]:
    """The gate override fields of both columns, made once for every form: nothing a request does changes a
    field (its value and errors are the form's), so the forms share them rather than make 2 x the gates each."""
    return {gate_field(gate, prefix): forms.ChoiceField(label=gate, choices=GATE_CHOICES, required=False)
            for gate in KNOWN_GATES for prefix in ("", COMPARE)}


@lru_cache(maxsize=64)
def _gates_refusal(overrides: tuple[tuple[str, bool], ...], version: str) -> tuple[str | None, str] | None:
    """Why the components of ``version`` would not start with these overrides (the gate at fault and the
    message), or None. Kept for the last few: the live editor posts the same gates with every keystroke."""
    try:
        make_gates(dict(overrides), version)
    except FeatureGateError as exc:
        return exc.gate, str(exc)
    return None


class UploadError(ValueError):
    pass


def read_upload(upload: UploadedFile, limit: int | None = None, setting: str = "TEXT_MAX_CHARS") -> str:
    """The uploaded file's text, at most ``limit`` bytes (by default the site's TEXT_MAX_CHARS)."""
    limit = text_limit() if limit is None else limit
    size = upload.size or 0  # Django's stubs allow None for a file whose size is unknown
    if size > limit:
        raise UploadError(f"{upload.name} is too large: {size} bytes, the limit is {limit} bytes "
                          f"(the site's {setting} setting).")
    try:
        text: str = upload.read().decode("utf-8")
        return text
    except UnicodeDecodeError:
        raise UploadError(f"{upload.name} is not UTF-8 text.") from None


class PlaygroundForm(forms.Form):
    inventory_slug = forms.ChoiceField(label="Inventory", required=False)
    inventory = forms.CharField(
        label="Inventory objects (YAML)", required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
    )
    inventory_file = forms.FileField(label="Upload a file", required=False)
    # A stored cluster snapshot standing for the inventory ("Use my cluster"):
    # live edits send this id, not the cluster's text.
    inventory_id = forms.CharField(required=False, max_length=ID_MAX_LENGTH, widget=forms.HiddenInput)
    documents = forms.CharField(
        label="Claims, templates and pods (YAML)", required=False, strip=False,
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "false"}),
    )
    node = forms.CharField(label="Node", required=False, max_length=253)
    # Narrows the node table to names containing it; a view setting, not part of the state.
    node_filter = forms.CharField(label="Find nodes", required=False, max_length=253)
    kubernetes_version = forms.ChoiceField(
        label="Kubernetes version", choices=[(r, r) for r in reversed(RELEASES)], initial=CURRENT_RELEASE
    )
    action = forms.CharField(required=False)
    # text_digest() of the documents the page was served with: loading a sample
    # inventory replaces the documents by its starter claims only when unedited.
    documents_origin = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    # The other grants the scheduler could have made: how many to list (0: none). Not part of the state.
    alternatives = forms.IntegerField(required=False, min_value=0, max_value=MAX_ALTERNATIVES,
                                      widget=forms.HiddenInput)
    # Compare: a second column over the same documents with its own settings (State.compare).
    compare = forms.BooleanField(label="Compare", required=False)
    compare_inventory_slug = forms.ChoiceField(label="Inventory", required=False)
    # The compared column's inventory when it is neither a sample nor the editor's (imported or shared).
    compare_inventory = forms.CharField(required=False, strip=False, widget=forms.HiddenInput)
    # ... or the stored cluster it names (a share or import whose compared column has its own).
    compare_inventory_id = forms.CharField(required=False, max_length=ID_MAX_LENGTH, widget=forms.HiddenInput)
    compare_node = forms.CharField(label="Node", required=False, max_length=253)
    compare_kubernetes_version = forms.ChoiceField(
        label="Kubernetes version", choices=[(r, r) for r in reversed(RELEASES)], initial=CURRENT_RELEASE,
        required=False,
    )

    # "How many fit?": copies to try (empty: as many as fit, up to CAPACITY_MAX_COPIES) and the node choice.
    capacity_max = forms.IntegerField(label="Copies", required=False, min_value=1)
    capacity_strategy = forms.ChoiceField(label="Node choice", required=False, initial=CAPACITY_STRATEGY,
                                          choices=[(s, s) for s in STRATEGIES])
    # Whether the panel's result is on screen (set by the page's script): a share shows it again.
    capacity_shown = forms.CharField(required=False, max_length=1, widget=forms.HiddenInput)

    # The expression console: a CEL expression, the device it runs on (DRIVER/POOL/DEVICE), the environment.
    console_expression = forms.CharField(label="Expression", required=False, strip=False,
                                         max_length=CONSOLE_EXPRESSION_MAX,
                                         widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false"}))
    console_device = forms.CharField(label="Device", required=False, max_length=CONSOLE_DEVICE_MAX)
    console_env = forms.ChoiceField(label="Environment", required=False, initial=CONSOLE_ENV,
                                    choices=[("claim", "ResourceClaim selector"), ("class", "DeviceClass selector")])
    # The scratch device (console_device "scratch"): a device's attributes and capacity as YAML.
    console_scratch = forms.CharField(label="Scratch device", required=False, strip=False,
                                      max_length=CONSOLE_SCRATCH_MAX,
                                      widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))

    def __init__(self, *args: Any, samples: Iterable[SampleInventory] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        capacity_max = self.fields["capacity_max"]
        assert isinstance(capacity_max, forms.IntegerField)
        capacity_max.max_value = settings.CAPACITY_MAX_COPIES
        capacity_max.validators.append(MaxValueValidator(settings.CAPACITY_MAX_COPIES))
        self.samples = list(samples if samples is not None else SampleInventory.objects.picker())
        slug_field, compare_slug_field = self.fields["inventory_slug"], self.fields["compare_inventory_slug"]
        assert isinstance(slug_field, forms.ChoiceField) and isinstance(compare_slug_field, forms.ChoiceField)
        slug_field.choices = [(s.slug, s.title) for s in self.samples] + [
            (CUSTOM, "Custom (paste or upload below)")
        ]
        compare_slug_field.choices = [(SAME, "Same as the editor's")] + [
            (s.slug, s.title) for s in self.samples] + [(CUSTOM, "Custom (imported or shared)")]
        self.fields.update(_gate_fields())

    @classmethod
    def for_state(cls, state: State, samples: Iterable[SampleInventory] | None = None,
                  node_filter: str = "") -> PlaygroundForm:
        initial: dict[str, Any] = {
            "node_filter": node_filter,
            "inventory_slug": state.inventory_slug,
            "inventory": state.inventory,
            "inventory_id": state.inventory_id,
            "documents": state.documents,
            "node": state.node,
            "kubernetes_version": state.kubernetes_version,
            "documents_origin": text_digest(state.documents),
        }
        for panel in FORM_PANELS:
            initial.update({f"{panel.KEY}_{name}": value
                            for name, value in getattr(state, panel.KEY).form_initial().items()})
        for gate, on in state.feature_gates.items():
            initial[gate_field(gate)] = "on" if on else "off"
        side = state.compare
        initial["compare_kubernetes_version"] = state.kubernetes_version  # the right column starts alike
        if side is not None:
            same = (side.inventory, side.inventory_id) == (state.inventory, state.inventory_id)
            own = not same and not side.inventory_slug  # imported, shared or stored: kept as it is
            initial.update(compare=True, compare_node=side.node, compare_kubernetes_version=side.kubernetes_version,
                           compare_inventory_slug=SAME if same else side.inventory_slug,
                           compare_inventory=side.inventory if own else "",
                           compare_inventory_id=side.inventory_id if own else "")
            for gate, on in side.feature_gates.items():
                initial[gate_field(gate, COMPARE)] = "on" if on else "off"
        return cls(initial=initial, samples=samples)

    def node_filter_value(self) -> str:
        """The node table's filter as posted (bound forms) or given (``for_state``)."""
        value = self["node_filter"].value() if self.is_bound else self.initial.get("node_filter")
        return (value or "")[:253]

    def _sample_cluster(self, slug: str, inventory_id: str) -> bool:
        """Is this stored cluster the sample ``slug``'s own (then the picker keeps showing the sample)?"""
        return any(s.slug == slug and s.cluster_id == inventory_id for s in self.samples)

    def gate_fields(self) -> list[Any]:
        return [self[gate_field(gate)] for gate in KNOWN_GATES]

    def _release_of(self, prefix: str = "") -> Release:
        """The release chosen for the editor's column (or, with ``prefix`` COMPARE, the right one's)."""
        name = self["kubernetes_version"].value()
        if prefix:
            name = self["compare_kubernetes_version"].value() or name
        return release(name if name in RELEASES else CURRENT_RELEASE)

    def gate_rows(self, prefix: str = "") -> list[dict[str, Any]]:
        """Each gate's field, whether the chosen release locks it (then the page cannot change it), and
        whether the release has it at all ("absent": not offered; the row stays, hidden and disabled,
        so that restoring work of another release can still set it).

        With ``prefix`` COMPARE: the right column's gates, of its own release.
        """
        rel = self._release_of(prefix)
        rows = []
        for gate in KNOWN_GATES:
            spec = rel.gate_spec(gate)
            locked = spec is not None and spec.locked
            title = (f"{spec.stage} and locked to {'on' if spec.default else 'off'} in Kubernetes {rel.name}"
                     if spec is not None and locked else "")
            field = self[gate_field(gate, prefix)]
            rows.append({"field": field, "locked": locked, "title": title, "absent": spec is None,
                         "errors": field.errors if self.is_bound else []})
        return rows

    def gate_list_key(self, prefix: str = "") -> str:
        """What a gate list shows, in short: the release and each gate's value. The page posts back the key of
        the list it has (``gates_shown``, ``compare_gates_shown``), so a live update leaves the list out when
        it would send the same one. A list with errors has no key: the next answer replaces it."""
        if self.is_bound and any(self[gate_field(g, prefix)].errors for g in KNOWN_GATES):
            return ""
        values = "".join({"on": "1", "off": "0"}.get(self[gate_field(g, prefix)].value() or "", "-")
                         for g in KNOWN_GATES)
        return f"{self._release_of(prefix).name}:{values}"

    def compare_gate_list_key(self) -> str:
        return self.gate_list_key(COMPARE)

    def gate_error(self) -> bool:
        """Whether a gate is refused (the gate picker is then shown open)."""
        return self.is_bound and any(self[gate_field(g, p)].errors for g in KNOWN_GATES for p in ("", COMPARE))

    def compare_gate_rows(self) -> list[dict[str, Any]]:
        return self.gate_rows(COMPARE)

    def _gates(self, data: dict[str, Any], prefix: str = "") -> dict[str, bool]:
        """The posted overrides of the editor's column (or, with ``prefix`` COMPARE, the right one's)."""
        return posted_gates(data, data.get(f"{prefix}kubernetes_version") or CURRENT_RELEASE, prefix)

    def _gates_accepted(self, data: dict[str, Any]) -> bool:
        """Whether the components of the chosen release (and of the compared column's) would start with
        these gates; if not, the refusal is put on the gate at fault, where the gates are set."""
        sides = [("", data.get("kubernetes_version") or CURRENT_RELEASE)]
        if data.get("compare"):
            sides.append((COMPARE, data.get("compare_kubernetes_version") or CURRENT_RELEASE))
        accepted = True
        for prefix, version in sides:
            refused = _gates_refusal(tuple(sorted(self._gates(data, prefix).items())), version)
            if refused is None or refused[0] is None or refused[0] not in KNOWN_GATES:
                continue  # accepted, or an unknown release: State.from_dict says so
            gate, message = refused[0], refused[1]
            self.add_error(gate_field(gate, prefix), f"{message}.")
            accepted = False
        return accepted

    def _compared(self, data: dict[str, Any], inventory: str, slug: str, inventory_id: str) -> dict[str, Any] | None:
        """The compared column's settings for ``State.from_dict``, or None when Compare is off."""
        if not data.get("compare"):
            return None
        picked = data.get("compare_inventory_slug") or CUSTOM
        side_id = ""
        if picked == SAME:
            side_inventory, side_slug, side_id = inventory, slug, inventory_id
        elif picked == CUSTOM:
            side_inventory, side_slug = data.get("compare_inventory") or "", CUSTOM
            side_id = "" if side_inventory.strip() else data.get("compare_inventory_id") or ""
        else:
            sample = next((s for s in self.samples if s.slug == picked), None)
            fields = sample.state_fields() if sample else {}
            side_inventory, side_id = fields.get("inventory", ""), fields.get("inventoryId", "")
            side_slug = picked if sample else CUSTOM
        return {"inventory": side_inventory, "inventorySlug": side_slug, "inventoryId": side_id,
                "node": data.get("compare_node") or "",
                "kubernetesVersion": data.get("compare_kubernetes_version") or CURRENT_RELEASE,
                "featureGates": self._gates(data, COMPARE)}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data: dict[str, Any] = self.cleaned_data  # what Form.clean() returns, typed
        action = data.get("action") or ""
        slug = data.get("inventory_slug") or CUSTOM
        inventory = data.get("inventory") or ""
        documents = data.get("documents") or ""
        # The stored cluster stays in use until a sample is loaded, a file
        # uploaded or inventory text typed.
        inventory_id = data.get("inventory_id") or ""
        if action == LOAD or inventory.strip():
            inventory_id = ""
        if action == LOAD:
            sample = next((s for s in self.samples if s.slug == slug), None)
            fields = sample.state_fields() if sample else {}
            inventory, inventory_id = fields.get("inventory", ""), fields.get("inventoryId", "")
            if sample and text_digest(documents) == data.get("documents_origin"):
                documents = sample.starter_documents() or documents
        upload = data.get("inventory_file")
        if upload:
            try:
                inventory, slug, inventory_id = read_upload(upload), CUSTOM, ""
            except UploadError as exc:
                self.add_error("inventory_file", str(exc))
                return data
        if not self._gates_accepted(data):
            return data
        try:
            self.state = State.from_dict(
                {
                    "inventory": inventory,
                    "documents": documents,
                    "node": data.get("node") or "",
                    "kubernetesVersion": data.get("kubernetes_version") or CURRENT_RELEASE,
                    "featureGates": self._gates(data),
                    "inventorySlug": "" if inventory_id and not self._sample_cluster(slug, inventory_id) else slug,
                    "inventoryId": inventory_id,
                    "compare": self._compared(data, inventory, slug, inventory_id),
                    **{panel.KEY: {name: data.get(f"{panel.KEY}_{name}") for name in panel.FIELDS}
                       for panel in FORM_PANELS},
                }
            )
            clusters.check_state(self.state)
        except StateError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data
