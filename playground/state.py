"""The state of the editor: what a result depends on, as one value made of panels.

A ``State`` holds everything the engine needs to reproduce a result, in panels:

``inputs`` (``Inputs``)
    the inventory objects themselves (YAML text, not a reference to a sample
    that may later change), the user's documents, the node (``""`` means
    automatic: try every node), the Kubernetes release and the feature-gate
    overrides (gates whose value differs from that release's default).
    ``inventory_slug`` records which sample the inventory came from ("" for a
    custom one); it is informational only. The inventory may instead be a
    stored cluster snapshot (``inventory_id``, see ``playground.clusters``):
    then ``inventory`` is empty, and shares and exports hold the id, not
    megabytes of text. The state reads these fields as its own
    (``state.documents``).
``compare`` (a ``Column``, or None)
    the other column of a comparison: the same documents under its own
    release, gates, node and inventory.
``capacity`` (``Capacity``)
    the "How many fit?" panel: how many copies of the workload to try to place
    (0: as many as fit, up to the site's CAPACITY_MAX_COPIES) and how to choose
    each copy's node (``first``, ``spread``, ``pack``).
``console`` (``Console``)
    the expression console: an expression, the device (``DRIVER/POOL/DEVICE``)
    and the environment (``claim``: the ResourceClaim selector one, ``class``:
    the DeviceClass one).

Each panel has its own ``from_dict`` (untrusted input: a form, an API body, an
imported file; raises ``StateError`` with a message meant for people; texts
longer than the ``TEXT_MAX_CHARS`` setting are refused), ``to_dict`` (the
export/API form; None for a panel not set or at its defaults, which is then
left out of the export form, the share id and its ``Share`` column) and
``stored`` (from its ``Share`` column). ``State`` loops over them (``PANELS``).
``content_id()`` is the short, stable id of a share: the same state always
gives the same id, and states keep the ids they had before a panel existed.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import Any, Protocol, TypedDict

import yaml

from allocator.cel import MAX_EXPRESSION_LENGTH as CONSOLE_EXPRESSION_MAX
from allocator.reading.limits import Limits
from allocator.releases.gates import CURRENT_RELEASE, RELEASES, FeatureGateError, FeatureGates, make_gates
from allocator.workload.planning import STRATEGIES
from playground.limits import engine_limits, text_limit, too_long_message

# A share id is a prefix of the base62 form of the SHA-256 of the canonical
# state: 11 characters (about 65 bits), like the Go playground's links.
ID_LENGTH = 11
ID_MAX_LENGTH = 22
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

EXPORT_KIND = "DRAPlaygroundState"
EXPORT_API_VERSION = "playground.dra.dev/v1"

# The default of the TEXT_MAX_CHARS setting (the largest inventory or
# documents text in a state, in characters); read the setting, not this.
MAX_TEXT = 512 * 1024

# The "How many fit?" panel's defaults: as many as fit, nodes in name order.
CAPACITY_STRATEGY = STRATEGIES[0]

# The expression console's environments: a ResourceClaim's selector (the default) or a DeviceClass's.
CONSOLE_ENVS = ("claim", "class")
CONSOLE_ENV = CONSOLE_ENVS[0]
CONSOLE_DEVICE_MAX = 253 * 3 + 2  # DRIVER/POOL/DEVICE
# The console's device when it evaluates on the scratch device (its YAML in ``Console.scratch``), not on one of
# the inventory's: a value no DRIVER/POOL/DEVICE can be (it has no slash).
CONSOLE_SCRATCH = "scratch"
CONSOLE_SCRATCH_MAX = 64 * 1024  # characters of a scratch device's YAML


class AnalyzeArgs(TypedDict):
    """``allocator.engine.analyze``'s keyword arguments for a state (``State.analyze_kwargs``)."""

    documents: str
    inventory: str
    node: str | None
    feature_gates: dict[str, bool]
    kubernetes_version: str
    limits: Limits


class StateError(ValueError):
    """Input that cannot be a playground state; the message is for people."""


def base62(data: bytes) -> str:
    number = int.from_bytes(data, "big")
    out = []
    while number:
        number, digit = divmod(number, 62)
        out.append(BASE62[digit])
    return "".join(reversed(out)) or "0"


@dataclass(frozen=True)
class Column:
    """What one column of the editor analyzes with: the inventory, the node, the release and its gates.

    The compared column of a comparison (``State.compare``) is one; the editor's own inputs (``Inputs``)
    add the documents both columns share.
    """

    inventory: str = ""
    node: str = ""
    kubernetes_version: str = CURRENT_RELEASE
    feature_gates: dict[str, bool] = field(default_factory=dict)
    inventory_slug: str = ""
    inventory_id: str = ""  # a stored cluster snapshot standing for the inventory

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Column | None:
        """The compared column from the export/API form (untrusted; None: no comparison)."""
        if data is None:
            return None
        if not isinstance(data, dict):
            raise StateError("compare must be a mapping of the compared column's settings (or null).")
        if "documents" in data or any(key in data for key in PANEL_KEYS):
            raise StateError("compare holds the compared column's settings: both columns share the documents.")
        try:
            return Column(**_column_fields(data))
        except StateError as exc:
            raise StateError(f"compare: {exc}") from None

    @classmethod
    def stored(cls, data: dict[str, Any] | None) -> Column | None:
        """The compared column from its ``to_dict()`` form as stored (trusted: written by ``to_dict``)."""
        if data is None:
            return None
        return Column(inventory=data.get("inventory") or "", node=data.get("node") or "",
                      kubernetes_version=data.get("kubernetesVersion") or CURRENT_RELEASE,
                      feature_gates=dict(sorted((data.get("featureGates") or {}).items())),
                      inventory_slug=data.get("inventorySlug") or "", inventory_id=data.get("inventoryId") or "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kubernetesVersion": self.kubernetes_version,
            "featureGates": dict(sorted(self.feature_gates.items())),
            "node": self.node or None,
            "inventorySlug": self.inventory_slug,
            **({"inventoryId": self.inventory_id} if self.inventory_id else {}),
            "inventory": self.inventory,
        }

    def canonical(self) -> dict[str, Any]:
        """The fields a share id hashes; without a stored inventory, the ones states had before there were any."""
        fields = asdict(self)
        if not self.inventory_id:
            del fields["inventory_id"]
        return fields


@dataclass(frozen=True)
class Inputs(Column):
    """The editor's inputs: its column's settings and the documents (the top-level keys of the export form)."""

    documents: str = ""

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Inputs:
        """The inputs from the export/API form (untrusted; the panels' keys are read by the panels; None: the
        defaults)."""
        fields = _column_fields(data or {}, documents=True)
        return Inputs(**fields)

    @classmethod
    def columns(cls, row: object) -> Inputs:
        """The inputs from the columns of a stored ``Share`` of the same names."""
        values = {f.name: getattr(row, f.name) for f in dataclass_fields(cls)}
        return Inputs(**{**values, "feature_gates": dict(sorted(values["feature_gates"].items()))})

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "documents": self.documents}

    def column(self) -> Column:
        """The editor's column alone (the documents left out)."""
        return Column(**{f.name: getattr(self, f.name) for f in dataclass_fields(Column)})


@dataclass(frozen=True)
class Capacity:
    """The "How many fit?" panel: copies to try (0: as many as fit, up to the site's CAPACITY_MAX_COPIES), how
    each copy's node is chosen (``first``, ``spread``, ``pack``) and whether its result was on screen
    (``shown``: a share or an import shows it again, not only the settings)."""

    max: int = 0
    strategy: str = CAPACITY_STRATEGY
    shown: bool = False

    KEY = "capacity"
    FIELDS = ("max", "strategy", "shown")
    # Fields added after shares were made: left out of the share id (and the export) while unset.
    LATER_FIELDS = ("shown",)

    @classmethod
    def from_dict(cls, value: object) -> Capacity:
        """The panel from the export/API form's ``{max, strategy}`` (untrusted; None: the defaults)."""
        if value is None:
            return Capacity()
        if not isinstance(value, dict):
            raise StateError("capacity must be a mapping of max and strategy (or null).")
        count = value.get("max") or 0
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise StateError("capacity.max must be a whole number of copies, at least 1 (or null: as many as fit).")
        strategy = value.get("strategy") or CAPACITY_STRATEGY
        if strategy not in STRATEGIES:
            raise StateError(f"capacity.strategy must be one of {', '.join(STRATEGIES)}.")
        shown = value.get("shown") or False
        if shown in ("1", "on", "true"):  # the page's hidden field
            shown = True
        if not isinstance(shown, bool):
            raise StateError("capacity.shown must be true or false (whether the result was on screen).")
        return Capacity(count, strategy, shown)

    @classmethod
    def stored(cls, value: dict[str, Any] | None) -> Capacity:
        value = value or {}
        return Capacity(value.get("max") or 0, value.get("strategy") or CAPACITY_STRATEGY, bool(value.get("shown")))

    def to_dict(self) -> dict[str, Any] | None:
        """``{max, strategy}`` (``max`` null: as many as fit) and ``shown: true`` when the result was on
        screen, or None at the defaults."""
        if self == Capacity():
            return None
        return {"max": self.max or None, "strategy": self.strategy, **({"shown": True} if self.shown else {})}

    def form_initial(self) -> dict[str, Any]:
        return {"max": self.max or None, "strategy": self.strategy, "shown": "1" if self.shown else ""}


@dataclass(frozen=True)
class Console:
    """The expression console: an expression, the device it runs on (``DRIVER/POOL/DEVICE``, or
    ``CONSOLE_SCRATCH``), the environment (``claim``: a ResourceClaim's selector, ``class``: a DeviceClass's)
    and the scratch device's YAML (``allocator.authoring.scratch``)."""

    expression: str = ""
    device: str = ""
    env: str = CONSOLE_ENV
    scratch: str = ""

    KEY = "console"
    FIELDS = ("expression", "device", "env", "scratch")
    # Fields added after shares were made: left out of the share id (and the export) while empty.
    LATER_FIELDS = ("scratch",)

    @classmethod
    def from_dict(cls, value: object) -> Console:
        """The console from the export/API form's ``{expression, device, env, scratch}`` (untrusted; None:
        untouched)."""
        if value is None:
            return Console()
        if not isinstance(value, dict):
            raise StateError("console must be a mapping of expression, device and env (or null).")
        expression = value.get("expression") or ""
        if not isinstance(expression, str):
            raise StateError("console.expression must be a string (a CEL expression).")
        if len(expression.encode("utf-8")) > CONSOLE_EXPRESSION_MAX:
            raise StateError(f"console.expression is too long: at most {CONSOLE_EXPRESSION_MAX} bytes, as a selector.")
        device = value.get("device") or ""
        if not isinstance(device, str) or len(device) > CONSOLE_DEVICE_MAX:
            raise StateError("console.device must be DRIVER/POOL/DEVICE (or null: none picked).")
        env = value.get("env") or CONSOLE_ENV
        if env not in CONSOLE_ENVS:
            raise StateError(f"console.env must be one of {', '.join(CONSOLE_ENVS)}.")
        scratch = value.get("scratch") or ""
        if not isinstance(scratch, str):
            raise StateError("console.scratch must be YAML text (the scratch device's attributes and capacity).")
        if len(scratch) > CONSOLE_SCRATCH_MAX:
            raise StateError(f"console.scratch is too long: at most {CONSOLE_SCRATCH_MAX} characters.")
        return Console(expression.replace("\r\n", "\n"), device.strip(), env, scratch.replace("\r\n", "\n"))

    @classmethod
    def stored(cls, value: dict[str, Any] | None) -> Console:
        value = value or {}
        return Console(value.get("expression") or "", value.get("device") or "", value.get("env") or CONSOLE_ENV,
                       value.get("scratch") or "")

    def to_dict(self) -> dict[str, Any] | None:
        """``{expression, device, env}`` (``device`` null: none picked) and ``scratch`` when typed, or None when
        untouched."""
        if self == Console():
            return None
        return {"expression": self.expression, "device": self.device or None, "env": self.env,
                **({"scratch": self.scratch} if self.scratch else {})}

    def form_initial(self) -> dict[str, Any]:
        return {"expression": self.expression, "device": self.device, "env": self.env, "scratch": self.scratch}


# The panels besides the inputs, by their key in the export form, the Share columns and the form's field names
# (``capacity_max``...); each has ``from_dict``, ``stored``, ``to_dict`` (None: left out) and defaults.
COMPARE = "compare"
class Panel(Protocol):
    """What ``State`` asks of each panel's class."""

    def from_dict(self, value: Any, /) -> object: ...

    def stored(self, value: Any, /) -> object: ...


PANELS: dict[str, Panel] = {COMPARE: Column, Capacity.KEY: Capacity, Console.KEY: Console}
PANEL_KEYS = tuple(PANELS)
# The panels set in the page's form by fields of their own (``<key>_<field>``).
FORM_PANELS = (Capacity, Console)


@dataclass(frozen=True)
class State:
    """The inputs and the panels: everything a result depends on (see the module's docstring)."""

    inputs: Inputs = field(default_factory=Inputs)
    compare: Column | None = None
    capacity: Capacity = field(default_factory=Capacity)
    console: Console = field(default_factory=Console)

    # The inputs' fields, read as the state's own.
    @property
    def inventory(self) -> str:
        return self.inputs.inventory

    @property
    def documents(self) -> str:
        return self.inputs.documents

    @property
    def node(self) -> str:
        return self.inputs.node

    @property
    def kubernetes_version(self) -> str:
        return self.inputs.kubernetes_version

    @property
    def feature_gates(self) -> dict[str, bool]:
        return self.inputs.feature_gates

    @property
    def inventory_slug(self) -> str:
        return self.inputs.inventory_slug

    @property
    def inventory_id(self) -> str:
        return self.inputs.inventory_id

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Build a state from the export/API form (camelCase keys), checking every value.

        Accepts ``kubernetesVersion``, ``featureGates``, ``inventorySlug``,
        ``inventoryId`` as well as their snake_case names. ``node`` may be
        null (automatic). Whether ``inventoryId`` names a stored snapshot is
        for the caller to check (``playground.clusters``).
        ``compare`` (optional, null: none) is a mapping of the same keys but
        ``documents``: the compared column's settings. ``capacity`` (optional,
        null: the defaults) is ``{max, strategy}``: the "How many fit?" panel's
        count (null or 0: as many as fit) and node choice. ``console`` (optional,
        null: untouched) is ``{expression, device, env}``.
        """
        if not isinstance(data, dict):
            raise StateError("The state must be a mapping.")
        compare = Column.from_dict(data.get(COMPARE))  # the compared column's errors are told first
        inputs = Inputs.from_dict(data)
        # Any: each key is one of State's panel fields, whose types differ
        panels: dict[str, Any] = {key: panel.from_dict(data.get(key)) for key, panel in PANELS.items()
                                  if key != COMPARE}
        return cls(inputs=inputs, compare=compare, **panels)

    @classmethod
    def stored(cls, row: object) -> State:
        """The state of a stored ``Share`` row: the inputs' columns and a column per panel (trusted)."""
        panels: dict[str, Any] = {key: panel.stored(getattr(row, key)) for key, panel in PANELS.items()}
        return cls(inputs=Inputs.columns(row), **panels)

    def panel_dicts(self) -> dict[str, dict[str, Any] | None]:
        """Each panel's export form (None: no comparison, or at the defaults), by key."""
        return {key: None if getattr(self, key) is None else getattr(self, key).to_dict() for key in PANELS}

    def to_dict(self) -> dict[str, Any]:
        """The export/API form: camelCase keys, ``node`` null when automatic; a panel only when set."""
        return {**self.inputs.to_dict(), **{key: value for key, value in self.panel_dicts().items()
                                            if value is not None}}

    def canonical(self) -> bytes:
        """What a share id hashes. A panel at its defaults is left out, as are the fields of a stored inventory
        when none is used: states keep the ids they had before those panels and fields existed."""
        fields = self.inputs.canonical()
        if self.compare is not None:
            fields[COMPARE] = self.compare.canonical()
        for panel in FORM_PANELS:
            value = getattr(self, panel.KEY)
            if value.to_dict() is not None:
                fields.update({f"{panel.KEY}_{name}": getattr(value, name) for name in panel.FIELDS
                               if getattr(value, name) or name not in getattr(panel, "LATER_FIELDS", ())})
        return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def with_inputs(self, **changes: Any) -> State:
        """The state with some of its inputs changed (Inputs' fields by name: ``replace`` refuses others)."""
        return replace(self, inputs=replace(self.inputs, **changes))

    def compared(self) -> State | None:
        """The compared column as a state of its own (the same documents, the panels at their defaults), or None."""
        side = self.compare
        if side is None:
            return None
        return State(inputs=Inputs(**asdict(side), documents=self.documents))

    def content_id(self, length: int = ID_LENGTH) -> str:
        digest = base62(hashlib.sha256(self.canonical()).digest())
        return digest[:length]

    def gates(self) -> FeatureGates:
        """The feature gates of the state's release with its overrides (``FeatureGateError`` when refused)."""
        return make_gates(dict(self.feature_gates), self.kubernetes_version)

    def limits(self) -> Limits:
        """The engine's limits for the inventory: a stored cluster's when the state names one."""
        return engine_limits(stored=bool(self.inventory_id))

    def analyze_kwargs(self) -> AnalyzeArgs:
        """Keyword arguments for ``allocator.engine.analyze``; with an ``inventory_id`` the caller puts the
        stored text in ``inventory`` (``playground.services.analyze`` does)."""
        return {
            "documents": self.documents,
            "inventory": self.inventory,
            "node": self.node or None,
            "feature_gates": dict(self.feature_gates),
            "kubernetes_version": self.kubernetes_version,
            "limits": self.limits(),
        }

    def to_yaml(self) -> str:
        """The whole state as one YAML file (see ``from_yaml``)."""
        body = {"apiVersion": EXPORT_API_VERSION, "kind": EXPORT_KIND, **self.to_dict()}
        return yaml.dump(body, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=1000)

    @classmethod
    def from_yaml(cls, text: str) -> State:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise StateError(f"This file is not YAML: {exc}") from None
        if not isinstance(data, dict) or data.get("kind") != EXPORT_KIND:
            raise StateError(f"This file is not a DRA Playground export (expected kind: {EXPORT_KIND}).")
        return cls.from_dict(data)


STORED_ID = re.compile(f"[0-9A-Za-z]{{1,{ID_MAX_LENGTH}}}")


def _column_fields(data: dict[str, Any], documents: bool = False) -> dict[str, Any]:
    """A column's fields (and, with ``documents``, the documents) from the export/API form, checked."""

    def pick(*names: str, default: object = None) -> Any:  # Any: a value of untrusted JSON, checked below
        for name in names:
            if name in data:
                return data[name]
        return default

    inventory = _text(pick("inventory", default=""), "inventory")
    texts = {"documents": _text(pick("documents", default=""), "documents")} if documents else {}
    node = pick("node", default="") or ""
    if not isinstance(node, str):
        raise StateError("node must be a string (or empty for automatic).")
    version = str(pick("kubernetesVersion", "kubernetes_version", default=CURRENT_RELEASE) or CURRENT_RELEASE)
    if version not in RELEASES:
        raise StateError(f"Unsupported Kubernetes version {version!r}: choose one of {', '.join(RELEASES)}.")
    gates = pick("featureGates", "feature_gates", default={}) or {}
    if not isinstance(gates, dict):
        raise StateError("featureGates must be a mapping of gate names to true or false.")
    try:
        overrides = make_gates(gates, version).overrides()
    except FeatureGateError as exc:
        raise StateError(f"{exc}.") from None
    slug = pick("inventorySlug", "inventory_slug", default="") or ""
    if not isinstance(slug, str):
        raise StateError("inventorySlug must be a string.")
    inventory_id = pick("inventoryId", "inventory_id", default="") or ""
    if not isinstance(inventory_id, str) or not STORED_ID.fullmatch(inventory_id or "0"):
        raise StateError("inventoryId must be the id of a stored inventory (letters and digits).")
    if inventory_id and inventory.strip():
        raise StateError("Give the inventory as text or as the id of a stored one (inventoryId), not both.")
    return {"inventory": inventory, **texts, "node": node.strip(), "kubernetes_version": version,
            "feature_gates": dict(sorted(overrides.items())), "inventory_slug": slug, "inventory_id": inventory_id}


def _text(value: object, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise StateError(f"{name} must be YAML text.")
    if len(value) > text_limit():
        raise StateError(too_long_message(name, len(value)))
    return value.replace("\r\n", "\n")


class _BlockDumper(yaml.SafeDumper):
    """Writes multi-line strings as literal blocks, so an export reads like the editor."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        # PyYAML falls back to a quoted scalar when a literal block cannot hold the text.
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_BlockDumper.add_representer(str, _str_representer)
