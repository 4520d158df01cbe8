"""The state of the editor: what a result depends on, as one value.

A ``State`` holds everything the engine needs to reproduce a result: the
inventory objects themselves (YAML text, not a reference to a sample that
may later change), the user's documents, the node (``""`` means automatic:
try every node), the Kubernetes release and the feature-gate overrides
(gates whose value differs from that release's default). ``inventory_slug``
records which sample the inventory came from ("" for a custom one); it is
informational only. ``compare``, when set, is the other column of a
comparison (a ``Side``): the same documents under its own release, gates,
node and inventory; it is part of share links, exports and the embed view.

The inventory may instead be a stored cluster snapshot (``inventory_id``, see
``playground.clusters``): then ``inventory`` is empty, and shares and
exports hold the id, not megabytes of text.

``State.from_dict`` validates untrusted input (a form, an API body, an
imported file) and raises ``StateError`` with a message meant for people;
texts longer than the ``TEXT_MAX_CHARS`` setting are refused.
``capacity_max`` and ``capacity_strategy`` are the "How many fit?" panel's
settings: how many copies of the workload to try to place (0: as many as
fit, up to the site's CAPACITY_MAX_COPIES) and how to choose each copy's node
(``first``, ``spread``, ``pack``). Left at their defaults they are not part
of a state's export form nor of its share id.
``console_expression``, ``console_device`` (``DRIVER/POOL/DEVICE``) and ``console_env`` (``claim``:
the ResourceClaim selector environment, ``class``: the DeviceClass one) are the expression console's;
empty (``claim``) they are not part of the export form nor of the share id either.
``content_id()`` is the short, stable id of a share: the same state always
gives the same id.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, replace

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
class Side:
    """The settings of the compared column: what it analyzes differently from the state."""

    inventory: str = ""
    node: str = ""
    kubernetes_version: str = CURRENT_RELEASE
    feature_gates: dict[str, bool] = field(default_factory=dict)
    inventory_slug: str = ""
    inventory_id: str = ""  # a stored cluster snapshot standing for the inventory

    def to_dict(self) -> dict:
        return {
            "kubernetesVersion": self.kubernetes_version,
            "featureGates": dict(sorted(self.feature_gates.items())),
            "node": self.node or None,
            "inventorySlug": self.inventory_slug,
            **({"inventoryId": self.inventory_id} if self.inventory_id else {}),
            "inventory": self.inventory,
        }


def side_from_dict(data: dict | None) -> Side | None:
    """A ``Side`` from its ``to_dict()`` form as stored (trusted: written by ``Side.to_dict``)."""
    if data is None:
        return None
    return Side(inventory=data.get("inventory") or "", node=data.get("node") or "",
                kubernetes_version=data.get("kubernetesVersion") or CURRENT_RELEASE,
                feature_gates=dict(sorted((data.get("featureGates") or {}).items())),
                inventory_slug=data.get("inventorySlug") or "", inventory_id=data.get("inventoryId") or "")


@dataclass(frozen=True)
class State:
    inventory: str = ""
    documents: str = ""
    node: str = ""
    kubernetes_version: str = CURRENT_RELEASE
    feature_gates: dict[str, bool] = field(default_factory=dict)
    inventory_slug: str = ""
    inventory_id: str = ""  # a stored cluster snapshot standing for the inventory
    compare: Side | None = None
    capacity_max: int = 0  # "How many fit?": copies to try (0: as many as fit)
    capacity_strategy: str = CAPACITY_STRATEGY
    console_expression: str = ""  # the expression console's expression, device and environment
    console_device: str = ""
    console_env: str = CONSOLE_ENV

    @classmethod
    def from_dict(cls, data: dict) -> State:
        """Build a state from the export/API form (camelCase keys), checking every value.

        Accepts ``kubernetesVersion``, ``featureGates``, ``inventorySlug``,
        ``inventoryId`` as well as their snake_case names. ``node`` may be
        null (automatic). Whether ``inventoryId`` names a stored snapshot is
        for the caller to check (``playground.clusters``).
        ``compare`` (optional, null: none) is a mapping of the same keys but
        ``documents``: the compared column's settings. ``capacity`` (optional,
        null: the defaults) is ``{max, strategy}``: the "How many fit?" panel's
        count (null or 0: as many as fit) and node choice.
        """
        if not isinstance(data, dict):
            raise StateError("The state must be a mapping.")
        compare = data.get("compare")
        if compare is not None:
            if not isinstance(compare, dict):
                raise StateError("compare must be a mapping of the compared column's settings (or null).")
            if "documents" in compare or "compare" in compare or "capacity" in compare or "console" in compare:
                raise StateError("compare holds the compared column's settings: both columns share the documents.")
            try:
                side = cls.from_dict(compare)
            except StateError as exc:
                raise StateError(f"compare: {exc}") from None
            compare = Side(inventory=side.inventory, node=side.node, kubernetes_version=side.kubernetes_version,
                           feature_gates=side.feature_gates, inventory_slug=side.inventory_slug,
                           inventory_id=side.inventory_id)

        def pick(*names, default=None):
            for name in names:
                if name in data:
                    return data[name]
            return default

        inventory = _text(pick("inventory", default=""), "inventory")
        documents = _text(pick("documents", default=""), "documents")
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
        capacity_max, capacity_strategy = _capacity(data.get("capacity"))
        console_expression, console_device, console_env = _console(data.get("console"))
        return cls(
            inventory=inventory,
            documents=documents,
            node=node.strip(),
            kubernetes_version=version,
            feature_gates=dict(sorted(overrides.items())),
            inventory_slug=slug,
            inventory_id=inventory_id,
            compare=compare,
            capacity_max=capacity_max,
            capacity_strategy=capacity_strategy,
            console_expression=console_expression,
            console_device=console_device,
            console_env=console_env,
        )

    def to_dict(self) -> dict:
        """The export/API form: camelCase keys, ``node`` null when automatic; ``compare`` only when set."""
        out = {
            "kubernetesVersion": self.kubernetes_version,
            "featureGates": dict(sorted(self.feature_gates.items())),
            "node": self.node or None,
            "inventorySlug": self.inventory_slug,
            **({"inventoryId": self.inventory_id} if self.inventory_id else {}),
            "inventory": self.inventory,
            "documents": self.documents,
        }
        if self.compare is not None:
            out["compare"] = self.compare.to_dict()
        capacity = self.capacity_dict()
        if capacity is not None:
            out["capacity"] = capacity
        console = self.console_dict()
        if console is not None:
            out["console"] = console
        return out

    def console_dict(self) -> dict | None:
        """The console's ``{expression, device, env}`` (``device`` null: none picked), or None when untouched."""
        if not self.console_expression and not self.console_device and self.console_env == CONSOLE_ENV:
            return None
        return {"expression": self.console_expression, "device": self.console_device or None, "env": self.console_env}

    def capacity_dict(self) -> dict | None:
        """The panel's settings as ``{max, strategy}`` (``max`` null: as many as fit), or None at the defaults."""
        if not self.capacity_max and self.capacity_strategy == CAPACITY_STRATEGY:
            return None
        return {"max": self.capacity_max or None, "strategy": self.capacity_strategy}

    def canonical(self) -> bytes:
        fields = asdict(self)
        if not self.inventory_id:  # states without one keep the ids they had before stored inventories
            del fields["inventory_id"]
        if self.compare is None:
            del fields["compare"]  # states without a comparison keep the ids they always had
        elif not self.compare.inventory_id:
            del fields["compare"]["inventory_id"]
        if self.capacity_dict() is None:  # states at the panel's defaults keep the ids they had before it
            del fields["capacity_max"], fields["capacity_strategy"]
        if self.console_dict() is None:  # states with an untouched console keep the ids they had before it
            del fields["console_expression"], fields["console_device"], fields["console_env"]
        return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def compared(self) -> State | None:
        """The compared column as a state of its own (the same documents), or None."""
        side = self.compare
        if side is None:
            return None
        return replace(self, inventory=side.inventory, node=side.node, kubernetes_version=side.kubernetes_version,
                       feature_gates=dict(side.feature_gates), inventory_slug=side.inventory_slug,
                       inventory_id=side.inventory_id, compare=None, capacity_max=0,
                       capacity_strategy=CAPACITY_STRATEGY, console_expression="", console_device="",
                       console_env=CONSOLE_ENV)

    def content_id(self, length: int = ID_LENGTH) -> str:
        digest = base62(hashlib.sha256(self.canonical()).digest())
        return digest[:length]

    def gates(self) -> FeatureGates:
        """The feature gates of the state's release with its overrides (``FeatureGateError`` when refused)."""
        return make_gates(dict(self.feature_gates), self.kubernetes_version)

    def limits(self) -> Limits:
        """The engine's limits for the inventory: a stored cluster's when the state names one."""
        return engine_limits(stored=bool(self.inventory_id))

    def analyze_kwargs(self) -> dict:
        """Keyword arguments for ``allocator.engine.analyze``; with an ``inventory_id`` the caller puts the
        stored text in ``inventory`` (``playground.clusters.analyze_state`` does)."""
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


def _capacity(value) -> tuple[int, str]:
    """(max, strategy) from the ``capacity`` mapping of the export/API form (None: the defaults)."""
    if value is None:
        return 0, CAPACITY_STRATEGY
    if not isinstance(value, dict):
        raise StateError("capacity must be a mapping of max and strategy (or null).")
    count = value.get("max") or 0
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise StateError("capacity.max must be a whole number of copies, at least 1 (or null: as many as fit).")
    strategy = value.get("strategy") or CAPACITY_STRATEGY
    if strategy not in STRATEGIES:
        raise StateError(f"capacity.strategy must be one of {', '.join(STRATEGIES)}.")
    return count, strategy


def _console(value) -> tuple[str, str, str]:
    """(expression, device, env) from the ``console`` mapping of the export/API form (None: untouched)."""
    if value is None:
        return "", "", CONSOLE_ENV
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
    return expression.replace("\r\n", "\n"), device.strip(), env


def _text(value, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise StateError(f"{name} must be YAML text.")
    if len(value) > text_limit():
        raise StateError(too_long_message(name, len(value)))
    return value.replace("\r\n", "\n")


class _BlockDumper(yaml.SafeDumper):
    """Writes multi-line strings as literal blocks, so an export reads like the editor."""


def _str_representer(dumper: yaml.SafeDumper, value: str):
    if "\n" in value:
        # PyYAML falls back to a quoted scalar when a literal block cannot hold the text.
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_BlockDumper.add_representer(str, _str_representer)
