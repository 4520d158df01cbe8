"""Request and response shapes of the API.

Requests: ``AnalysisRequestSerializer`` reads what to analyze (JSON body, or
query parameters beside a YAML body) into a ``playground.state.State``, the
same value the page and shared links use. Responses: serializers that
describe (for the OpenAPI schema) and shape the engine's report, the models
and the errors.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from allocator.allocation.alternatives import MAX_LIMIT as MAX_ALTERNATIVES
from allocator.cel import MAX_EXPRESSION_LENGTH
from allocator.kube.convert import RESOURCE_GROUP, SERVED_VERSIONS
from allocator.reading.diagnostics import NOT_SERVED, PARSE, Diagnostic
from allocator.releases.gates import CURRENT_RELEASE, RELEASES, FeatureGateError, make_gates, parse_gate_list
from allocator.workload.planning import STRATEGIES
from playground import clusters
from playground.limits import text_limit, too_long_message
from playground.models import Example, SampleInventory, Share, StoredInventory
from playground.services.analyze import Analysis
from playground.state import CONSOLE_SCRATCH_MAX, State, StateError

# DRF's type parameter is the instance a serializer shapes: here mostly the engine's JSON objects (requests
# have none).
JSONSerializer = serializers.Serializer[dict[str, Any]]
# A JSON object as the engine's reports and the API's entries hold it
JSONObject = dict[str, Any]

# The keys of an entry of `python -m allocator validate -o json`, and of every API error.
DIAGNOSTIC_KEYS = ("kind", "name", "field", "type", "detail", "line", "column")


class StrictCharField(serializers.CharField):
    """A string, and only a string (DRF's CharField turns numbers into text)."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class FeatureGatesField(serializers.DictField):
    """Gate overrides: ``{"DRAAdminAccess": false}``, or ``DRAAdminAccess=false,...`` as the CLI takes them."""

    def __init__(self, **kwargs: Any) -> None:  # DictField's options (required, help_text...)
        super().__init__(child=serializers.BooleanField(), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, bool]:  # Any: as sent; DictField refuses a non-mapping
        if isinstance(data, str):
            try:
                return parse_gate_list(data)
            except FeatureGateError as exc:
                raise serializers.ValidationError(exc.with_hint()) from None
        return super().to_internal_value(data)


class InventoryField(serializers.CharField):
    """A sample inventory's slug, or a stored inventory's id: the model object it names.

    Samples are looked up first (their slugs have dashes, ids never do). Text
    that cannot be either (a NUL byte above all: PostgreSQL refuses it in a
    query, a 500) is "not found" without a query.
    """

    default_error_messages = {
        "does_not_exist": "No sample inventory has the slug {value!r} and no stored inventory has that id{near} "
                          "(GET /api/v1/inventories lists the samples; POST /api/v1/inventories stores one).",
    }

    def to_internal_value(self, data: object) -> SampleInventory | StoredInventory:  # type: ignore[override]
        # (the model object, not the text: DRF passes on whatever a field returns)
        if not isinstance(data, str):
            self.fail("invalid")
        value = super().to_internal_value(data)
        found = None if "\x00" in value else (
            SampleInventory.objects.filter(slug=value).first() or clusters.find(value))
        if found is None:
            self.fail("does_not_exist", value=value.replace("\x00", "\\x00"),
                      near=did_you_mean(value, SampleInventory.objects.values_list("slug", flat=True)))
        return found


def did_you_mean(value: str, slugs: Iterable[str]) -> str:
    """`` (did you mean "gpu-node"?)`` for the slugs nearest a mistyped one, or nothing."""
    near = difflib.get_close_matches(value, list(slugs), n=3, cutoff=0.6)
    return f" (did you mean {' or '.join(repr(slug) for slug in near)}?)" if near else ""


class AnalysisRequestSerializer(JSONSerializer):
    """What to analyze; ``validated_data`` is a ``State``."""

    documents = StrictCharField(
        allow_blank=True, trim_whitespace=False,
        help_text="ResourceClaims, ResourceClaimTemplates, Pods (and any inventory objects of your own) "
        "as multi-document YAML or JSON, in any served apiVersion.",
    )
    inventory = InventoryField(
        required=False, allow_null=True, allow_blank=True,
        help_text="Slug of a sample inventory (GET /api/v1/inventories), or id of a stored one "
        "(POST /api/v1/inventories), whose objects are added to the documents.",
    )
    node = StrictCharField(
        required=False, allow_blank=True, allow_null=True, max_length=253,
        help_text="Allocate for this node; empty or absent: try every node.",
    )
    featureGates = FeatureGatesField(
        required=False, help_text="Feature-gate overrides; the others keep the release's defaults.",
    )
    kubernetesVersion = serializers.ChoiceField(
        choices=RELEASES, default=CURRENT_RELEASE,
        help_text="The Kubernetes release to simulate: its feature-gate defaults and locks (a locked gate set away "
        "from its value is a 400 on featureGates) and the resource.k8s.io versions it serves (an object in another "
        "version is refused with type `Not served` and the served versions named; with DynamicResourceAllocation "
        "off, as by default before 1.34, none is served).",
    )

    def validate_documents(self, value: str) -> str:
        if len(value) > text_limit():
            raise serializers.ValidationError(too_long_message("documents", len(value)), code="max_length")
        return value

    def validate(self, attrs: JSONObject) -> object:
        """A ``State`` here; the subclasses return what they read (``read_state`` is this class's part)."""
        return self.read_state(attrs)

    def read_state(self, attrs: JSONObject) -> State:
        version, gates = attrs["kubernetesVersion"], attrs.get("featureGates") or {}
        try:
            make_gates(gates, version)
        except FeatureGateError as exc:
            raise serializers.ValidationError({"featureGates": exc.with_hint()}) from None
        inventory = attrs.get("inventory") or None
        if isinstance(inventory, SampleInventory):
            fields = inventory.state_fields()
        elif isinstance(inventory, StoredInventory):
            fields = {"inventoryId": inventory.id}
        else:
            fields = {}
        try:
            return State.from_dict({
                **fields,
                "documents": attrs["documents"],
                "node": attrs.get("node"),
                "featureGates": gates,
                "kubernetesVersion": version,
            })
        except StateError as exc:
            raise serializers.ValidationError(str(exc)) from None


class AnalyzeRequestSerializer(AnalysisRequestSerializer):
    """``analyze``'s input: a state and ``alternatives``; ``validated_data`` is an ``Analysis``."""

    alternatives = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=MAX_ALTERNATIVES,
        help_text=f"List up to this many grants (at most {MAX_ALTERNATIVES}) the scheduler's search reaches on "
        "the chosen node, the scheduler's own first, in `allocation.alternatives`; 0: none.",
    )

    def validate(self, attrs: JSONObject) -> object:
        """An ``Analysis`` here (a comparison reads two)."""
        return Analysis(self.read_state(attrs), attrs.get("alternatives", 0))


SIDES = ("left", "right")


class CompareSideSerializer(JSONSerializer):
    """One side of a comparison: what it sets differently from the top level."""

    kubernetesVersion = serializers.ChoiceField(choices=RELEASES, required=False,
                                                help_text="The release of this side (default: the top level's).")
    featureGates = FeatureGatesField(required=False, help_text=(
        "This side's feature-gate overrides, instead of the top level's (not merged with them)."))
    node = StrictCharField(required=False, allow_blank=True, allow_null=True, max_length=253,
                           help_text="Allocate for this node on this side; empty: try every node.")
    inventory = StrictCharField(required=False, allow_null=True, help_text=(
        "This side's inventory, as the top-level `inventory` takes it."))

    def to_internal_value(self, data: object) -> JSONObject:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: [f"Unknown field: a side sets only {', '.join(self.fields)}."]
                                                   for key in unknown})
        values: JSONObject = super().to_internal_value(data)
        return values


class CompareRequestSerializer(AnalyzeRequestSerializer):
    """The shared input and each side's settings; ``validated_data`` is ``{"left": Analysis, "right": Analysis}``.

    Each side is read exactly as an ``analyze`` request made of the top-level
    fields with the side's fields put over them, so it obeys every rule and
    limit of a single analysis; errors are located under ``left.`` or ``right.``.
    """

    left = CompareSideSerializer(required=False, help_text="The left side's settings.")
    right = CompareSideSerializer(required=False, help_text="The right side's settings.")

    def validate(self, attrs: JSONObject) -> dict[str, Analysis]:
        top = {k: v for k, v in self.initial_data.items() if k not in SIDES}
        sides: dict[str, Analysis] = {}
        errors: dict[str, Any] = {}
        for side in SIDES:
            serializer = AnalyzeRequestSerializer(data={**top, **(self.initial_data.get(side) or {})})
            if serializer.is_valid():
                sides[side] = serializer.validated_data
            else:
                errors[side] = serializer.errors
        if errors:
            raise serializers.ValidationError(errors)
        return sides


class ConvertRequestSerializer(JSONSerializer):
    """What to rewrite, and in which version; ``validated_data`` keeps the request's names."""

    documents = StrictCharField(
        allow_blank=True, trim_whitespace=False,
        help_text="Objects as multi-document YAML or JSON (Lists too), in any resource.k8s.io version, also one "
        "the release no longer serves.",
    )
    apiVersion = serializers.ChoiceField(
        choices=[*SERVED_VERSIONS, *(f"{RESOURCE_GROUP}/{v}" for v in SERVED_VERSIONS)],
        help_text="The target version, `v1beta1` or `resource.k8s.io/v1beta1`.",
    )
    featureGates = FeatureGatesField(
        required=False, help_text="Feature-gate overrides; the others keep the release's defaults.",
    )
    kubernetesVersion = serializers.ChoiceField(
        choices=RELEASES, default=CURRENT_RELEASE,
        help_text="The release whose apiserver must serve the result (with DynamicResourceAllocation off, as by "
        "default before 1.34, it serves none).",
    )

    def validate_documents(self, value: str) -> str:
        if len(value) > text_limit():
            raise serializers.ValidationError(too_long_message("documents", len(value)), code="max_length")
        return value

    def validate(self, attrs: JSONObject) -> JSONObject:
        try:
            attrs["gates"] = make_gates(attrs.get("featureGates") or {}, attrs["kubernetesVersion"])
        except FeatureGateError as exc:
            raise serializers.ValidationError({"featureGates": exc.with_hint()}) from None
        return attrs


class DroppedFieldSerializer(JSONSerializer):
    kind = serializers.CharField()
    name = serializers.CharField()
    field = serializers.CharField(help_text="The field as the input wrote it.")
    detail = serializers.CharField()


class ConvertResponseSerializer(JSONSerializer):
    apiVersion = serializers.CharField(help_text="The target version.")
    items = serializers.ListField(child=serializers.DictField(), help_text="Every object, resource.k8s.io ones "
                                  "in the target version, others as they were.")
    documents = serializers.CharField(help_text="The same objects as multi-document YAML, ready to apply.")
    dropped = DroppedFieldSerializer(many=True, help_text="Fields the target version has no place for: they are "
                                     "not in the output. Empty when the conversion lost nothing.")


class CapacityRequestSerializer(AnalysisRequestSerializer):
    """``capacity``'s input: a state (its ``node`` is not used), ``strategy`` and ``max``."""

    strategy = serializers.ChoiceField(
        choices=STRATEGIES, default="first",
        help_text="Which node each copy goes to: `first` (node name order), `spread` (fewest of its own devices "
        "in use) or `pack` (most in use). kube-scheduler scores nodes with its plugins and breaks ties at random; "
        "these bracket what it does.",
    )
    max = serializers.IntegerField(
        required=False, default=None, min_value=1, allow_null=True,
        help_text="Place at most this many copies (default and cap: the site's CAPACITY_MAX_COPIES, 1000 unless "
        "configured).",
    )

    def validate_max(self, value: int | None) -> int:
        cap = settings.CAPACITY_MAX_COPIES
        if value is not None and value > cap:
            raise serializers.ValidationError(f"Ensure this value is less than or equal to {cap}.",
                                              code="max_value")
        return value if value is not None else cap

    def validate(self, attrs: JSONObject) -> State:
        """The state with its capacity panel set from ``strategy`` and ``max``."""
        state = self.read_state(attrs)
        return State.from_dict({**state.to_dict(), "capacity": {"max": attrs["max"], "strategy": attrs["strategy"]}})


class SharedConsoleSerializer(JSONSerializer):
    expression = serializers.CharField(allow_blank=True, trim_whitespace=False, required=False,
                                       help_text="The console's CEL expression.")
    device = serializers.CharField(allow_null=True, required=False,
                                   help_text="The device it is evaluated on, DRIVER/POOL/DEVICE; null: none picked.")
    env = serializers.ChoiceField(choices=["claim", "class"], required=False, help_text=(
        "`claim`: the ResourceClaim selector environment (the default); `class`: the DeviceClass one."))
    scratch = serializers.CharField(allow_blank=True, trim_whitespace=False, required=False,
                                    max_length=CONSOLE_SCRATCH_MAX, help_text=(
                                        "The scratch device's YAML (device `scratch`), as `/api/v1/evaluate` takes it."))


class ShareRequestSerializer(AnalysisRequestSerializer):
    """A state to share: the analysis input and, optionally, the page's expression console."""

    console = SharedConsoleSerializer(required=False, allow_null=True, help_text=(
        "The page's expression console: shown with the results of the shared page."))

    def validate(self, attrs: JSONObject) -> State:
        state = self.read_state(attrs)
        if attrs.get("console") is None:
            return state
        try:
            return State.from_dict({**state.to_dict(), "console": dict(attrs["console"])})
        except StateError as exc:
            raise serializers.ValidationError({"console": str(exc)}) from None


class DeviceRefSerializer(JSONSerializer):
    driver = StrictCharField(max_length=253, help_text="The device's driver (`spec.driver` of its ResourceSlice).")
    pool = StrictCharField(max_length=253, help_text="Its pool (`spec.pool.name`).")
    device = StrictCharField(max_length=253, help_text="Its name in the slice's `spec.devices`.")


class EvaluateRequestSerializer(JSONSerializer):
    """An expression and the device to evaluate it on; ``validated_data`` adds ``gates``, ``text`` and ``stored``."""

    expression = StrictCharField(trim_whitespace=False, max_length=MAX_EXPRESSION_LENGTH,
                                 help_text="A CEL expression of any result type, in the DRA environment.")
    device = DeviceRefSerializer(required=False, help_text="The device of the inventory to evaluate on (or `scratch`).")
    scratch = StrictCharField(
        required=False, trim_whitespace=False, max_length=CONSOLE_SCRATCH_MAX,
        help_text="A scratch device to evaluate on instead of one of an inventory: a device as a ResourceSlice "
        "lists it under `spec.devices` (`attributes`, `capacity`, ...) as YAML, with an optional `driver:` line "
        "(default `scratch.example.com`); checked as the apiserver checks a slice's device, errors located in it.",
    )
    inventory = InventoryField(
        required=False, allow_null=True, allow_blank=True,
        help_text="Slug of a sample inventory or id of a stored one whose slices hold the device.",
    )
    documents = StrictCharField(
        required=False, allow_blank=True, trim_whitespace=False,
        help_text="Inventory objects as YAML or JSON, when no `inventory` is named (or in addition to it).",
    )
    featureGates = FeatureGatesField(
        required=False, help_text="Feature-gate overrides; the others keep the release's defaults.",
    )
    kubernetesVersion = serializers.ChoiceField(
        choices=RELEASES, default=CURRENT_RELEASE,
        help_text="The release whose CEL environment and gates apply (`includes()` needs DRAListTypeAttributes).",
    )

    def validate_documents(self, value: str) -> str:
        if len(value) > text_limit():
            raise serializers.ValidationError(too_long_message("documents", len(value)), code="max_length")
        return value

    def validate(self, attrs: JSONObject) -> JSONObject:
        try:
            attrs["gates"] = make_gates(attrs.get("featureGates") or {}, attrs["kubernetesVersion"])
        except FeatureGateError as exc:
            raise serializers.ValidationError({"featureGates": exc.with_hint()}) from None
        if ("device" in attrs) == ("scratch" in attrs):
            raise serializers.ValidationError({"device": "Name a device of the inventory or send a scratch device "
                                                         "(scratch), one of the two."})
        if "scratch" in attrs:
            attrs["texts"], attrs["stored"] = [], False
            return attrs
        inventory = attrs.get("inventory") or None
        texts = [attrs.get("documents") or ""]
        attrs["stored"] = isinstance(inventory, StoredInventory)
        if isinstance(inventory, SampleInventory):
            fields = inventory.state_fields()
            texts.insert(0, clusters.inventory_text(fields["inventoryId"]) if "inventoryId" in fields
                         else fields["inventory"])
            attrs["stored"] = "inventoryId" in fields
        elif isinstance(inventory, StoredInventory):
            texts.insert(0, clusters.inventory_text(inventory.id))
        attrs["texts"] = [t for t in texts if t.strip()]
        if not attrs["texts"]:
            raise serializers.ValidationError({"inventory": "Name an inventory or send its objects in documents."})
        return attrs


class PartSerializer(JSONSerializer):
    start = serializers.IntegerField(help_text="Offset of the sub-expression in the expression.")
    end = serializers.IntegerField()
    text = serializers.CharField()
    staticType = serializers.CharField(allow_null=True, help_text="Its type as the checker found it.")
    value = serializers.CharField(allow_null=True, help_text="Its value as CEL writes it.")
    type = serializers.CharField(allow_null=True, help_text="The value's type, as cel-go names it.")
    error = serializers.CharField(allow_null=True)
    perElement = serializers.BooleanField(help_text="It reads a macro's variable: a value per element, none alone.")
    children = serializers.ListField(child=serializers.DictField(), help_text="Its sub-expressions, as parts.")


class EvaluateResponseSerializer(JSONSerializer):
    expression = serializers.CharField()
    device = DeviceRefSerializer(help_text="The device evaluated on; a scratch device's pool is `scratch`.")
    value = serializers.CharField(allow_null=True, help_text="The value as CEL writes it; null on an error.")
    type = serializers.CharField(allow_null=True, help_text="cel-go's name of the value's type.")
    parts = PartSerializer(many=True, help_text="The expression as a tree of sub-expressions and their values.")
    truncated = serializers.BooleanField(help_text="The tree was cut at 200 parts.")
    cost = serializers.DictField(help_text="`estimated` (the apiserver's worst-case estimate) and `limit`.")
    diagnostics = serializers.ListField(child=serializers.DictField(), help_text="Compile or runtime errors: "
                                        "`{phase, message, hint}`, compile errors with cel-go's caret diagram.")


class CapacityResponseSerializer(JSONSerializer):
    strategy = serializers.CharField()
    placed = serializers.IntegerField(help_text="How many copies were placed.")
    stoppedBy = serializers.ChoiceField(choices=["max", "all placed", "no node fits", "error"],
                                        help_text="Why placing stopped (`all placed`: every workload has its count).")
    workloads = serializers.ListField(child=serializers.DictField(), help_text="`{kind, name, asked, placed}` per "
                                      "workload, in placing order: Deployments, ReplicaSets and StatefulSets "
                                      "(`spec.replicas`), Jobs (`spec.parallelism`, at most `spec.completions`), "
                                      "bare Pods (1); without any of those one entry for the whole input, `asked` "
                                      "null (as many as fit).")
    byNode = serializers.ListField(child=serializers.DictField(), help_text="`{name, copies, used, total}` per "
                                   "node: copies placed there, its own devices in use and in all.")
    byPool = serializers.ListField(child=serializers.DictField(), help_text="`{driver, pool, node, used, total}` "
                                   "per pool (`node` null for a pool of several nodes).")
    next = serializers.DictField(allow_null=True, help_text="Why the next copy fits on no node: `{reason, "
                                 "workload, pods, nodes: [{name, reason}]}` (`workload` as `Kind/name`); null when "
                                 "placing stopped at `max` or with every count placed.")
    error = serializers.CharField(allow_blank=True, help_text="The scheduler's error when no node fits and "
                                  "Allocate failed with an error on some (stoppedBy `error`).")
    steps = serializers.ListField(child=serializers.DictField(), help_text="Each copy: `{copy, workload, node, "
                                  "pods, claims: [{name, devices}]}`, devices as `driver/pool/device`.")


# --- Responses -------------------------------------------------------------

class ErrorSerializer(JSONSerializer):
    kind = serializers.CharField(help_text="Kind of the object the error is in, or empty.")
    name = serializers.CharField(help_text="Name of that object, or empty.")
    field = serializers.CharField(help_text="Field path: in the request (featureGates) or the apiserver's "
                                  "(spec.devices.requests[0].name).")
    type = serializers.CharField(help_text="The apiserver's error type (Required value, Invalid value...), "
                                 "Parse error, Not served (the release does not serve the object's apiVersion), "
                                 "or the HTTP status in words.")
    detail = serializers.CharField()
    line = serializers.IntegerField(allow_null=True, help_text="1-based line in the text sent, when known.")
    column = serializers.IntegerField(allow_null=True, help_text="1-based column in the text sent, when known.")


class ErrorsSerializer(JSONSerializer):
    # (a field named errors: DRF's metaclass moves declared fields out of the class, so Serializer.errors stays)
    errors = ErrorSerializer(many=True)  # type: ignore[assignment]


def _entry(diagnostic: JSONObject) -> JSONObject:
    return {key: diagnostic[key] for key in DIAGNOSTIC_KEYS}


def diagnostic_errors(diagnostics: Iterable[Diagnostic]) -> list[JSONObject]:
    """Engine diagnostics (``allocator.reading.diagnostics.Diagnostic``) as items of the API's ``errors``."""
    return [_entry(d.to_dict()) for d in diagnostics]


def unreadable_errors(report: JSONObject) -> list[JSONObject]:
    """The report's diagnostics for text that is not objects at all (YAML syntax, binary data, not a mapping).

    Those are parse errors outside any object; errors inside an object
    (unknown field, wrong type) leave the rest readable.
    """
    return [_entry(d) for d in report["diagnostics"] if d["type"] == PARSE and not d["kind"]]


def unserved_errors(report: JSONObject) -> list[JSONObject]:
    """Objects in a version the release does not serve: the apiserver would answer 404 before validating."""
    return [_entry(d) for d in report["diagnostics"] if d["type"] == NOT_SERVED]


class StoredObjectSerializer(JSONSerializer):
    kind = serializers.CharField(help_text="ResourceClaim.")
    namespace = serializers.CharField()
    name = serializers.CharField()


STORED_OBJECTS_HELP = (
    "Present only when some are: the pending ResourceClaims of `documents` read as stored (created "
    "earlier in the cluster), because they carry metadata.uid or metadata.resourceVersion as `kubectl get -o yaml` "
    "prints them. They are checked with the stored-object rules (the fields of a feature gate that is off now are "
    "kept, not dropped as on create), and the scheduler's allocator then refuses such fields as upstream's does "
    "(\"has subrequests, but the DRAPrioritizedList feature is disabled\", ...).")


def stored_objects_field() -> StoredObjectSerializer:
    return StoredObjectSerializer(many=True, required=False, help_text=STORED_OBJECTS_HELP)


class WorkloadSerializer(JSONSerializer):
    kind = serializers.CharField(help_text="Deployment, ReplicaSet, StatefulSet or Job.")
    name = serializers.CharField()
    namespace = serializers.CharField()
    replicas = serializers.IntegerField(help_text=(
        "The pods it asks for now: spec.replicas (1 when unset); for a Job spec.parallelism, at most "
        "spec.completions, 0 while suspended."))
    pod = serializers.CharField(allow_null=True, help_text=(
        "The pod analysed for it (null when it asks for none): its first, named as its controller names it "
        "(StatefulSet `<name>-0`; Deployment `<name>-<pod-template-hash>-<5 characters>`; ReplicaSet and Job "
        "`<name>-<5 characters>`, an Indexed Job `<name>-0-<5 characters>`; the characters and the hash derived "
        "from the names, so the same input gives the same names). Its claims from templates are named after it."))
    line = serializers.IntegerField(allow_null=True, help_text="Where the object starts in `documents`.")
    note = serializers.CharField(help_text=(
        "What the analysis shows of it, e.g. \"×5 replicas: one analysed; see capacity planning "
        "(POST /api/v1/capacity)\": how many of the replicas fit is capacity's answer."))


WORKLOADS_HELP = (
    "Present only when `documents` has some: each Deployment, ReplicaSet, StatefulSet and Job (apps/v1, batch/v1), "
    "analysed as one pod of its template, as if that pod were written in `documents` (its claims appear in "
    "`allocation` and `containers`). They are no longer listed in `ignored`; their pod templates are checked as "
    "Pods are, errors given at the controller's fields (`spec.template.spec...`).")


def workloads_field() -> WorkloadSerializer:
    return WorkloadSerializer(many=True, required=False, help_text=WORKLOADS_HELP)


class ValidateResponseSerializer(JSONSerializer):
    """``python -m allocator validate -o json``: diagnostics split into errors and warnings."""

    valid = serializers.BooleanField()
    errors = ErrorSerializer(many=True)  # type: ignore[assignment]  # a field, as ErrorsSerializer's
    warnings = ErrorSerializer(many=True)
    storedObjects = stored_objects_field()

    def to_representation(self, report: JSONObject) -> JSONObject:
        diagnostics = report["diagnostics"]
        out = {
            "valid": report["valid"],
            "errors": [_entry(d) for d in diagnostics if d["severity"] != "warning"],
            "warnings": [_entry(d) for d in diagnostics if d["severity"] == "warning"],
        }
        if report.get("storedObjects"):
            out["storedObjects"] = report["storedObjects"]
        return out


class CounterTakerSerializer(JSONSerializer):
    device = serializers.CharField(help_text="A device of the same pool that consumes the counter.")
    holder = serializers.CharField(help_text=(
        "Who holds it: `allocated claim NAMESPACE/NAME`, or `request NAME` (`claim NAMESPACE/NAME, request NAME`) "
        "of the claims being allocated."))
    amount = serializers.CharField(help_text="What it consumes of the counter, as a quantity.")
    allocated = serializers.BooleanField(help_text="Held by an already-allocated claim.")


class CounterPartSerializer(JSONSerializer):
    kind = serializers.ChoiceField(choices=["counter"], help_text="Tells a counter from a selector part.")
    pool = serializers.CharField(help_text="DRIVER/POOL.")
    counterSet = serializers.CharField()
    counter = serializers.CharField()
    total = serializers.CharField(help_text="What the counter set publishes of the counter.")
    left = serializers.CharField(help_text="What is left after the takers (negative when overdrawn).")
    needs = serializers.CharField(help_text="What the device consumes of it.")
    takenBy = CounterTakerSerializer(many=True)
    summary = serializers.CharField(help_text="One line: counter set/counter, left of total, needs, taken by.")


class CounterChoiceSerializer(JSONSerializer):
    takes = serializers.ListField(child=serializers.DictField(), help_text=(
        "The devices taken on this choice's path before a request ran short, in order: claim, request, device."))
    claim = serializers.CharField(help_text="The claim of the request that runs short (NAMESPACE/NAME).")
    request = serializers.CharField(help_text="The request that runs short.")
    needed = serializers.IntegerField()
    matching = serializers.IntegerField()
    fitting = serializers.IntegerField(help_text="Of its matching devices not taken, how many fit the counters left.")
    takenBy = serializers.ListField(child=serializers.DictField(), help_text=(
        "Its matching devices that requests on the path took themselves: device, claim, request."))
    devices = serializers.ListField(child=serializers.DictField(), help_text=(
        "Each of its devices that does not fit the counters left: driver, pool, device, and `why` (counter parts)."))
    message = serializers.CharField()


class CounterRequestSerializer(JSONSerializer):
    kind = serializers.ChoiceField(choices=["forced", "choices"], help_text=(
        "`forced`: the request runs short beside the devices other requests must take; `choices`: whatever the "
        "requests choose (every combination walked within a bound), with `choice`, `withoutCounters` and "
        "`branches`."))
    claim = serializers.CharField(help_text="NAMESPACE/NAME.")
    request = serializers.CharField()
    needed = serializers.IntegerField(help_text="Devices the request needs.")
    matching = serializers.IntegerField(help_text="Devices that match it on their own.")
    fitting = serializers.IntegerField(help_text="Of those, how many still fit the counters left.")
    forced = serializers.ListField(child=serializers.DictField(), help_text=(
        "The devices other requests must take (their only matching devices): device, claim, request."))
    devices = serializers.ListField(child=serializers.DictField(), help_text=(
        "Each matching device that no longer fits: driver, pool, device, and `why` (counter parts)."))
    choice = serializers.DictField(required=False, help_text=(
        "For `choices`: the first request with a choice (claim, request), how many of its choices fit the "
        "counters (`choices`, each one walked) and how many do not fit the counters left (`refused`)."))
    withoutCounters = serializers.ListField(child=serializers.DictField(), required=False, help_text=(
        "For `choices`: the proof that the counters are the cause, distinct matching devices for every request "
        "when counters are left aside: claim, request, devices."))
    branches = CounterChoiceSerializer(many=True, required=False, help_text=(
        "For `choices`: per choice (the first 20), the request that then runs short, with the numbers."))
    steps = serializers.IntegerField(required=False, help_text="For `choices`: device placements tried.")
    unlisted = serializers.IntegerField(required=False, help_text="For `choices`: choices left out of `branches`.")
    headline = serializers.CharField(required=False, help_text=(
        "For `choices`: the message's opening, without the choices (listed in `branches`)."))
    message = serializers.CharField()


COUNTERS_HELP = (
    "When nothing fits because requests run out of shared counters, beside the devices other requests must take "
    "(`forced`) or whatever devices the requests choose (`choices`), and only when without counters they would "
    "fit: the counters with what is left, what each device needs and which devices took it.")


PINNED_BY_HELP = (
    "Present when the node does not fit only because these allocated claims of the pod (names) are allocated on "
    "devices the node cannot use (their allocation's nodeSelector does not match it): the scheduler's "
    "\"resourceclaim not available on the node\".")
ATTEMPTS_HELP = (
    "Present when the first scheduling attempt found no node and the scheduler's PostFilter freed an allocated "
    "claim of the pod (one no other pod uses: status.reservedFor empty or naming only this pod), so that the next "
    "attempt started over with it pending: the failed attempts in order. The rest of the answer is the last "
    "attempt's.")
DEALLOCATED_HELP = "With `attempts`: the claims PostFilter freed, one per failed attempt, in order."
NOT_FREED_HELP = (
    "Present when no node fits, some node refused the pod only for these allocated claims of it, and PostFilter "
    "frees none of them because status.reservedFor names another pod (\"still not schedulable\").")


SCORE_HELP = (
    "From Kubernetes 1.35, on each node that fits when more than one does and no node was named: the scheduler's "
    "DynamicResources score normalised as the scheduler does (100 * raw / the highest raw score, rounded down; "
    "all 0 when every raw score is 0). The chosen node has the best one; among equals the scheduler picks at "
    "random (its other plugins' scores aside) and the playground takes the first by name.")
RAW_SCORE_HELP = (
    "With `score`: the plugin's raw score, 8 - i for every request with firstAvailable whose subrequest at index i "
    "was allocated on this node (8 = FirstAvailableDeviceRequestMaxSize), over the pod's claims, including those "
    "already allocated; 0 for `exactly` requests.")


class ScoringSerializer(JSONSerializer):
    scored = serializers.BooleanField(help_text=(
        "Whether the nodes that fit were scored: false before 1.35, with DRAPrioritizedList off, when one node "
        "fits, when no node fits, or when the node was named."))
    note = serializers.CharField(help_text="What was done and why, in a sentence (ties: the scheduler picks at random).")
    tied = serializers.ListField(child=serializers.CharField(), help_text=(
        "The nodes sharing the best score, in name order, when more than one does (the first is the one shown)."))


class BindingDeviceSerializer(JSONSerializer):
    claim = serializers.CharField(help_text="NAMESPACE/NAME of the claim.")
    request = serializers.CharField()
    driver = serializers.CharField()
    pool = serializers.CharField()
    device = serializers.CharField()
    bindingConditions = serializers.ListField(child=serializers.CharField())
    bindingFailureConditions = serializers.ListField(child=serializers.CharField())


class BindingSerializer(JSONSerializer):
    devices = BindingDeviceSerializer(many=True, help_text="The granted devices that carry binding conditions.")
    conditions = serializers.ListField(child=serializers.CharField(), help_text="Their binding conditions, once each.")
    failureConditions = serializers.ListField(child=serializers.CharField(),
                                              help_text="Their binding failure conditions, once each.")
    timeoutSeconds = serializers.IntegerField(help_text="The scheduler's default binding timeout: 600.")
    timeoutSetting = serializers.CharField(help_text=(
        "Where the timeout is set in this release: fixed in 1.34; from 1.35 `bindingTimeout` in the "
        "DynamicResources plugin's args of the KubeSchedulerConfiguration (default 10 minutes)."))
    pollSeconds = serializers.IntegerField(help_text="How often PreBind reads the claims while it waits: 5.")
    message = serializers.CharField(help_text="The same in words, as the page shows it.")


BINDING_HELP = (
    "Present when granted devices carry bindingConditions (DRADeviceBindingConditions and "
    "DRAResourceClaimDeviceStatus on; beta and on by default from 1.36): the allocation is not final until the "
    "driver reports every condition True in the claim's status.devices; the scheduler waits in PreBind up to the "
    "binding timeout, and on a failure condition or the timeout clears the allocation and schedules the pod again.")
SCHEDULER_REASON_HELP = (
    "What kube-scheduler itself says of the node, as in `kubectl describe pod` and the scheduler's diagnosis: "
    "\"cannot allocate all claims\", \"Insufficient NAME\", \"resourceclaim not available on the node\", the "
    "allocator's error on this node; null where the pod fits. `reason` is the playground's detailed explanation.")
SCHEDULER_MESSAGE_HELP = (
    "Present when no node fits: the pod's PodScheduled condition message as kube-scheduler writes it "
    "(\"0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 cannot allocate all claims. preemption: ...\").")
SCORING_HELP = "How the node was chosen among those that fit (the scheduler's DRA score, 1.35+)."


class NodeAttemptSerializer(JSONSerializer):
    name = serializers.CharField(allow_null=True)
    fits = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True, required=False)
    schedulerReason = serializers.CharField(allow_null=True, required=False, help_text="As in `nodes`.")
    pinnedBy = serializers.ListField(child=serializers.CharField(), required=False, help_text=PINNED_BY_HELP)
    error = serializers.BooleanField(required=False, help_text="As in `nodes`.")
    proof = serializers.DictField(required=False, help_text="As in `nodes` (the analysis only).")


class AttemptSerializer(JSONSerializer):
    attempt = serializers.IntegerField(help_text="1 for the first attempt.")
    status = serializers.CharField(required=False, help_text="How the attempt ended (unsatisfiable).")
    reasons = serializers.ListField(child=serializers.CharField(), required=False,
                                    help_text="Why no node fitted, node by node.")
    nodes = NodeAttemptSerializer(many=True, help_text="The nodes tried in that attempt, as in `nodes`.")
    deallocated = serializers.CharField(help_text=(
        "The claim PostFilter freed after the attempt (upstream picks one at random among `deallocatable`; "
        "the playground takes the first in the pods' spec.resourceClaims order)."))
    deallocatable = serializers.ListField(child=serializers.CharField(), help_text=(
        "The claims PostFilter could have freed: allocated claims of the pod that kept it off a node where its "
        "pending claims fitted, which no other pod uses."))


EXTENDED_HELP = (
    "Present when a pod asks for extended resources (DRAExtendedResource): per pod, on the chosen node, the "
    "resources DRA serves (`dra`) and those left to the node's device plugin (`devicePlugin`), the claim the "
    "scheduler generates (`claim`, `generateName`; it is also the last of `claims`), `requestMappings` and the "
    "pod's `status.extendedResourceClaimStatus` (`status`), `containers` as in `containers`, and `notes` on "
    "extended resource names several DeviceClasses share.")


class ExtendedResourcesSerializer(JSONSerializer):
    pod = serializers.CharField()
    dra = serializers.DictField(child=serializers.IntegerField(), help_text="Resource -> count served by DRA.")
    devicePlugin = serializers.DictField(child=serializers.IntegerField(),
                                         help_text="Resource -> count left to the node's device plugin.")
    claim = serializers.CharField(allow_null=True, help_text="The generated claim's name; null when DRA serves nothing.")
    generateName = serializers.CharField(required=False, help_text="`<pod>-extended-resources-`.")
    requestMappings = serializers.ListField(child=serializers.DictField(), required=False, help_text=(
        "containerName, resourceName, requestName: which request of the claim serves which container."))
    status = serializers.DictField(allow_null=True, help_text="The pod's status: extendedResourceClaimStatus.")
    containers = serializers.ListField(child=serializers.DictField())
    notes = serializers.ListField(child=serializers.CharField())


class AllocateResponseSerializer(JSONSerializer):
    allocated = serializers.BooleanField(help_text="Whether every claim got devices.")
    node = serializers.CharField(allow_null=True, help_text="The node the claims were allocated for.")
    claims = serializers.ListField(
        child=serializers.DictField(),
        help_text="The ResourceClaims with status.allocation, as `python -m allocator allocate -o json` prints them: "
        "each in the apiVersion it was written in (a claim from a template in the template's).",
    )
    reasons = serializers.ListField(child=serializers.CharField(), help_text="Why the claims cannot be allocated.")
    error = serializers.CharField(
        allow_null=True, help_text="Set when the scheduler would give up rather than find no fit (a CEL runtime "
        "error, an unknown DeviceClass, invalid resource pools on every node tried...): where "
        "`python -m allocator allocate` exits 2, not 1.",
    )
    counters = CounterRequestSerializer(many=True, required=False, help_text=COUNTERS_HELP)
    attempts = AttemptSerializer(many=True, required=False, help_text=ATTEMPTS_HELP)
    deallocated = serializers.ListField(child=serializers.CharField(), required=False, help_text=DEALLOCATED_HELP)
    notFreed = serializers.ListField(child=serializers.CharField(), required=False, help_text=NOT_FREED_HELP)
    scoring = ScoringSerializer(required=False, help_text=SCORING_HELP + " Present when scores chose the node.")
    binding = BindingSerializer(required=False, help_text=BINDING_HELP)
    extendedResources = ExtendedResourcesSerializer(many=True, required=False, help_text=EXTENDED_HELP)
    schedulerMessage = serializers.CharField(required=False, help_text=SCHEDULER_MESSAGE_HELP)
    storedObjects = stored_objects_field()
    workloads = workloads_field()

    def to_representation(self, allocation: JSONObject) -> JSONObject:
        out = {
            "allocated": allocation["status"] == "allocated",
            "node": allocation["node"],
            "claims": allocation["claims"],
            "reasons": allocation["reasons"],
            "error": allocation["error"],
        }
        if allocation.get("counters"):
            out["counters"] = allocation["counters"]
        if allocation.get("attempts"):
            out["attempts"] = allocation["attempts"]
            out["deallocated"] = allocation["deallocated"]
        if allocation.get("notFreed"):
            out["notFreed"] = allocation["notFreed"]
        if (allocation.get("scoring") or {}).get("scored"):  # only when scores chose the node
            out["scoring"] = allocation["scoring"]
        if allocation.get("binding"):
            out["binding"] = allocation["binding"]
        if allocation.get("extendedResources"):
            out["extendedResources"] = allocation["extendedResources"]
        if allocation.get("schedulerMessage"):
            out["schedulerMessage"] = allocation["schedulerMessage"]
        if allocation.get("storedObjects"):  # the report's, given beside the allocation by the view
            out["storedObjects"] = allocation["storedObjects"]
        if allocation.get("workloads"):  # likewise
            out["workloads"] = allocation["workloads"]
        return out


class FixPositionSerializer(JSONSerializer):
    line = serializers.IntegerField(help_text="1-based line in the document's text.")
    column = serializers.IntegerField(help_text="1-based column (characters) in that line.")


class FixSerializer(JSONSerializer):
    title = serializers.CharField(help_text='What the edit does, as a button says it: "Use productName", '
                                  '"Guard with has(...)", "Use compareTo", "Wrap in semver()", "Move under exactly:".')
    document = serializers.ChoiceField(choices=["documents", "inventory"], help_text="The text the edit applies to.")
    start = FixPositionSerializer(help_text="Where the replaced text starts.")
    end = FixPositionSerializer(help_text="Just after the replaced text (equal to start: an insertion).")
    replacement = serializers.CharField(allow_blank=True, help_text=(
        "The new text, already escaped for the YAML scalar it lands in. Applying the edit and analyzing again "
        "removes the hint."))


class DiagnosticSerializer(ErrorSerializer):
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField(help_text="The text the apiserver would print.")
    # a field, as ErrorsSerializer.errors is
    source = serializers.CharField(  # type: ignore[assignment]
        help_text="Which text the diagnostic is in: documents or inventory.")
    hint = serializers.CharField(allow_null=True, help_text=(
        "The playground's advice beside the upstream message (never instead of it): how to compare quantities, "
        "the attribute name you probably meant, which part of a selector is too costly..."))
    fixes = FixSerializer(many=True, help_text=(
        "Edits that do what the hint says (empty when no mechanical edit fits); the page's Apply button."))


class ReadSerializer(JSONSerializer):
    text = serializers.CharField(help_text="The read as written in the selector.")
    name = serializers.CharField(help_text="Its short name (the attribute or capacity name).")
    value = serializers.CharField(allow_null=True, help_text="The device's value, as CEL shows it; null if missing.")


class SelectorPartSerializer(JSONSerializer):
    start = serializers.IntegerField(help_text="Offset of the part in the CEL expression (characters).")
    end = serializers.IntegerField(help_text="Offset just after the part.")
    text = serializers.CharField()
    verdict = serializers.ChoiceField(choices=["false", "true", "error"], help_text=(
        "What the part evaluated to on this device: false (or true under a `!`) decided the selector; error "
        "failed, and the failure reached the selector's value (an error that && or || absorbed, as in "
        "`has(x) && x == 1` on a device without x, is not listed)."))
    error = serializers.CharField(allow_null=True)
    operator = serializers.CharField(allow_null=True, help_text="For a comparison: ==, !=, <, <=, >, >=, in.")
    left = serializers.CharField(allow_null=True, help_text="For a comparison: the left side's value.")
    right = serializers.CharField(allow_null=True, help_text="For a comparison: the right side's value.")
    reads = ReadSerializer(many=True, help_text="The device values the part read.")
    summary = serializers.CharField(help_text="One line: the part, its verdict and the values read.")
    hint = serializers.CharField(allow_null=True, help_text=(
        "Advice for the part: the likely fix of its error (a did-you-mean for a name no device in reach publishes "
        "comes before any has() advice), or of a comparison that cannot do what it seems to (a version with a "
        "string). Never advice the expression already follows."))
    fixes = FixSerializer(many=True, help_text=(
        "Edits that do what the hint says, in the text where the selector is written (the claim's or the "
        "DeviceClass's); empty when no mechanical edit fits or the expression is written in several places."))


WHY_PARTS = PolymorphicProxySerializer(
    component_name="WhyPart", serializers=[SelectorPartSerializer, CounterPartSerializer],
    resource_type_field_name=None, many=True, allow_null=True, help_text=(
        "For a false or failing selector: the parts of its expression that decided, with the values they read. "
        "For a `counters` reason: every counter the device cannot get (`kind: counter`), with the numbers."))


class DeviceMatchSerializer(JSONSerializer):
    driver = serializers.CharField()
    pool = serializers.CharField()
    device = serializers.CharField()
    node = serializers.CharField(allow_null=True)
    matches = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True, help_text="Why the device does not match.")
    reasonCode = serializers.CharField(allow_null=True, help_text=(
        "The reason as a stable code: wrong-node, pool-outdated, pool-incomplete, pool-invalid, allocated, "
        "binding-conditions, cel-error, class-selector, request-selector, capacity, partitionable-disabled, "
        "counters, tainted, constraint."))
    slice = serializers.CharField(help_text="The ResourceSlice that publishes the device.")
    chosen = serializers.BooleanField(help_text="The allocation picked this device for this request.")
    takenBy = serializers.CharField(allow_null=True, help_text="The request that got this device instead.")
    reasonShort = serializers.CharField(allow_null=True, help_text="The reason without the parts' summaries.")
    why = WHY_PARTS


class RequestMatchesSerializer(JSONSerializer):
    claim = serializers.CharField()
    request = serializers.CharField()
    deviceClass = serializers.CharField(allow_null=True)
    mode = serializers.CharField(help_text="ExactCount or All.")
    count = serializers.IntegerField()
    selected = serializers.BooleanField(allow_null=True, help_text="For a subrequest: whether the allocation chose it.")
    error = serializers.CharField(allow_null=True, help_text="Why the request cannot be considered at all.")
    devices = DeviceMatchSerializer(many=True)


class GrantedDeviceSerializer(JSONSerializer):
    request = serializers.CharField(help_text="REQUEST or REQUEST/SUBREQUEST, as in status.allocation.")
    driver = serializers.CharField()
    pool = serializers.CharField()
    device = serializers.CharField()


class GrantClaimSerializer(JSONSerializer):
    name = serializers.CharField()
    namespace = serializers.CharField()
    results = GrantedDeviceSerializer(many=True, help_text="The claim's devices in this grant, in the order picked.")


class AlternativeSerializer(JSONSerializer):
    claims = GrantClaimSerializer(many=True, help_text="Every pending claim, in the order allocated.")


class AlternativesSearchSerializer(JSONSerializer):
    limit = serializers.IntegerField(help_text="How many grants were asked for.")
    found = serializers.IntegerField(help_text="How many distinct grants were listed.")
    exhausted = serializers.BooleanField(help_text="The search tried everything: there are no other grants.")
    stopped = serializers.CharField(allow_null=True, help_text=(
        "Why the listing ended before the limit without trying everything (the search step limit, the time "
        "budget, an error further on), or why nothing is listed; null otherwise."))
    steps = serializers.IntegerField(help_text="Steps the listing's search took.")


class AllocationSerializer(JSONSerializer):
    status = serializers.ChoiceField(
        choices=["allocated", "unsatisfiable", "error", "skipped", "controller"],
        help_text="`controller`: Kubernetes 1.31 with DRAControlPlaneController, a claim with spec.controller is "
        "allocated by that driver's control-plane controller, not by the scheduler (not simulated; see reasons).")
    node = serializers.CharField(allow_null=True)
    claims = serializers.ListField(child=serializers.DictField())
    reasons = serializers.ListField(child=serializers.CharField())
    error = serializers.CharField(allow_null=True)
    alternatives = AlternativeSerializer(many=True, required=False, help_text=(
        "With `alternatives` in the request: distinct grants of the pending claims on the chosen node in the "
        "order the scheduler's search reaches them; the first is the scheduler's."))
    alternativesSearch = AlternativesSearchSerializer(required=False, help_text=(
        "With `alternatives` in the request: how the listing went."))
    counters = CounterRequestSerializer(many=True, required=False, help_text=COUNTERS_HELP)
    attempts = AttemptSerializer(many=True, required=False, help_text=ATTEMPTS_HELP)
    deallocated = serializers.ListField(child=serializers.CharField(), required=False, help_text=DEALLOCATED_HELP)
    notFreed = serializers.ListField(child=serializers.CharField(), required=False, help_text=NOT_FREED_HELP)
    scoring = ScoringSerializer(required=False, help_text=SCORING_HELP)
    binding = BindingSerializer(required=False, help_text=BINDING_HELP)
    extendedResources = ExtendedResourcesSerializer(many=True, required=False, help_text=EXTENDED_HELP)
    schedulerMessage = serializers.CharField(required=False, help_text=SCHEDULER_MESSAGE_HELP)


class ProofSerializer(JSONSerializer):
    code = serializers.CharField(help_text=(
        "What was proved: too-few-devices, missing-attribute, no-subrequest-fits, all-devices-unusable, "
        "requests-exceed-devices, counters-exceeded, no-shared-value."))
    message = serializers.CharField()
    node = serializers.CharField()
    claim = serializers.CharField(allow_null=True, help_text="NAMESPACE/NAME of the claim, when one claim decides.")
    request = serializers.CharField(allow_null=True, help_text="The request (or request/subrequest) that decides.")
    needed = serializers.IntegerField(allow_null=True, help_text="Devices needed.")
    available = serializers.IntegerField(allow_null=True, help_text="Devices that could serve them.")
    attribute = serializers.CharField(allow_null=True, help_text="The constraint's attribute.")
    constraint = serializers.IntegerField(allow_null=True, help_text="The constraint's index in the claim.")
    requests = serializers.ListField(child=serializers.CharField(), help_text="The requests involved.")
    pool = serializers.CharField(allow_null=True)
    counter = serializers.CharField(allow_null=True, help_text="COUNTER_SET/COUNTER.")
    amountNeeded = serializers.CharField(allow_null=True, help_text="Of the counter, as a quantity.")
    amountAvailable = serializers.CharField(allow_null=True, help_text="Of the counter, as a quantity.")


class NodeFitSerializer(JSONSerializer):
    name = serializers.CharField()
    fits = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True)
    schedulerReason = serializers.CharField(allow_null=True, help_text=SCHEDULER_REASON_HELP)
    error = serializers.BooleanField(help_text=(
        "The scheduler's Allocate failed on this node with an error (e.g. invalid resource pools), not "
        "\"does not fit\"; when no node fits, that error is the answer (allocation.error)."))
    pinnedBy = serializers.ListField(child=serializers.CharField(), required=False, help_text=PINNED_BY_HELP)
    score = serializers.IntegerField(required=False, min_value=0, max_value=100, help_text=SCORE_HELP)
    rawScore = serializers.IntegerField(required=False, min_value=0, help_text=RAW_SCORE_HELP)
    proof = ProofSerializer(required=False, help_text=(
        "Present when the claims were proved not to fit on the node without searching every combination: "
        "the same answer as the full search, with the numbers and names behind it."))
    extendedResources = serializers.ListField(child=serializers.DictField(), required=False, help_text=(
        "When a pod asks for extended resources and the claims were allocated: per pod, what DRA (`dra`) and "
        "the node's device plugin (`devicePlugin`) serve on this node."))


class ContainerDevicesSerializer(JSONSerializer):
    pod = serializers.CharField()
    container = serializers.CharField()
    init = serializers.BooleanField()
    podClaim = serializers.CharField()
    claim = serializers.CharField()
    request = serializers.CharField(allow_null=True)
    extendedResource = serializers.CharField(required=False, help_text=(
        "Set for the generated claim of extended resources backed by DRA (podClaim is then empty): the resource."))
    devices = serializers.ListField(child=serializers.DictField())


class AnalyzeResponseSerializer(JSONSerializer):
    """The engine's whole report (``allocator.engine.analyze(...).to_dict()``): what the page shows."""

    kubernetesVersion = serializers.CharField()
    draOff = serializers.CharField(
        allow_null=True, help_text="Set when DynamicResourceAllocation is off in this release (by default before "
        "1.34, or set so): why, and which gate to turn on. Nothing of resource.k8s.io is served then.")
    featureGates = serializers.DictField(child=serializers.BooleanField(), help_text="Every gate's value.")
    gateOverrides = serializers.DictField(child=serializers.BooleanField(), help_text="Gates that differ from the default.")
    objects = serializers.ListField(child=serializers.DictField(), help_text="The objects read, with the apiVersion seen.")
    ignored = serializers.ListField(child=serializers.CharField(), help_text=(
        "Objects of other kinds, not used (\"KIND NAME\"); the Deployments, ReplicaSets, StatefulSets and Jobs of "
        "`documents` are not among them: see `workloads`."))
    valid = serializers.BooleanField()
    diagnostics = DiagnosticSerializer(many=True)
    requests = RequestMatchesSerializer(many=True)
    explainedNode = serializers.CharField(allow_null=True, help_text="The node the per-request explanation looks from.")
    allocation = AllocationSerializer()
    nodes = NodeFitSerializer(many=True)
    containers = ContainerDevicesSerializer(many=True)
    storedObjects = stored_objects_field()
    workloads = workloads_field()


class DifferenceSerializer(JSONSerializer):
    path = serializers.CharField(help_text=(
        "What differs: valid, errors, allocation.status, allocation.node, allocation.error, "
        "allocation.devices[NAMESPACE/CLAIM][REQUEST], containers[POD][CONTAINER], allocation.reasons, "
        "nodes[NODE].fits."))
    left = serializers.JSONField(allow_null=True, help_text="The left side's value; null where it has none.")
    right = serializers.JSONField(allow_null=True, help_text="The right side's value; null where it has none.")


class CompareResponseSerializer(JSONSerializer):
    left = AnalyzeResponseSerializer(help_text="The left side's report, as `analyze` answers it.")
    right = AnalyzeResponseSerializer(help_text="The right side's report, as `analyze` answers it.")
    differences = DifferenceSerializer(many=True, help_text="The outcomes that differ, most telling first.")


class InventorySerializer(serializers.ModelSerializer[SampleInventory]):
    kubernetesVersion = serializers.CharField(source="kubernetes_version")
    url = serializers.HyperlinkedIdentityField(view_name="api:inventory", lookup_field="slug")

    class Meta:
        model = SampleInventory
        fields = ["slug", "title", "description", "provenance", "license", "kubernetesVersion", "tags", "url"]


class InventoryDetailSerializer(InventorySerializer):
    documents = serializers.CharField(source="as_yaml", help_text="The objects as multi-document YAML.")

    class Meta(InventorySerializer.Meta):
        fields = [*InventorySerializer.Meta.fields, "documents"]


class StoredInventorySerializer(serializers.ModelSerializer[StoredInventory]):
    """A stored cluster snapshot's summary (POST /api/v1/inventories)."""

    url = serializers.HyperlinkedIdentityField(view_name="api:inventory", lookup_field="pk", lookup_url_kwarg="slug")
    drivers = serializers.ListField(child=serializers.CharField(), help_text="The drivers of its ResourceSlices.")
    pools = serializers.IntegerField(help_text="Distinct (driver, pool) pairs.")
    nodes = serializers.IntegerField(help_text="Nodes: Node objects and nodes that ResourceSlices name.")
    deviceClasses = serializers.IntegerField(source="device_classes")
    resourceSlices = serializers.IntegerField(source="resource_slices")
    claims = serializers.IntegerField(help_text="ResourceClaims in the snapshot (allocated ones hold devices).")
    bytes = serializers.IntegerField(source="size", help_text="Size of the text as stored (UTF-8).")

    class Meta:
        model = StoredInventory
        fields = ["id", "url", "nodes", "devices", "drivers", "pools", "deviceClasses", "resourceSlices", "claims",
                  "bytes", "created"]


class StoredInventoryDetailSerializer(StoredInventorySerializer):
    documents = serializers.CharField(source="text", help_text="The objects as they were stored (YAML or JSON).")

    class Meta(StoredInventorySerializer.Meta):
        fields = [*StoredInventorySerializer.Meta.fields, "documents"]


class ExampleSerializer(serializers.ModelSerializer[Example]):
    inventory: serializers.SlugRelatedField[SampleInventory] = serializers.SlugRelatedField(slug_field="slug",
                                                                                             read_only=True)
    featureGates = serializers.DictField(source="feature_gates", child=serializers.BooleanField())
    kubernetesVersion = serializers.CharField(source="kubernetes_version")
    url = serializers.HyperlinkedIdentityField(view_name="api:example", lookup_field="slug")

    class Meta:
        model = Example
        fields = ["slug", "title", "description", "inventory", "node", "featureGates", "kubernetesVersion", "tags",
                  "url"]


class ExampleDetailSerializer(ExampleSerializer):
    documents = serializers.CharField(help_text="ResourceClaims and Pods as multi-document YAML.")
    expected = serializers.DictField(help_text="The expected outcome.")

    class Meta(ExampleSerializer.Meta):
        fields = [*ExampleSerializer.Meta.fields, "documents", "expected"]


class ShareCreatedSerializer(serializers.Serializer[Share]):
    id = serializers.CharField(help_text="Derived from the content: the same state always gets the same id.")
    url = serializers.URLField(help_text="The page that shows this state.")

    def to_representation(self, share: Share) -> JSONObject:
        return {"id": share.id, "url": self.context["request"].build_absolute_uri(share.get_absolute_url())}


class SharedSideSerializer(JSONSerializer):
    kubernetesVersion = serializers.CharField()
    featureGates = serializers.DictField(child=serializers.BooleanField(), help_text="Overrides of the defaults.")
    node = serializers.CharField(allow_null=True)
    inventorySlug = serializers.CharField(help_text="The sample the inventory came from, or empty.")
    inventory = serializers.CharField(help_text="The inventory objects themselves, as YAML.")


class SharedCapacitySerializer(JSONSerializer):
    max = serializers.IntegerField(allow_null=True, help_text="Copies to place; null: as many as fit.")
    strategy = serializers.ChoiceField(choices=["first", "spread", "pack"], help_text="The node choice.")


class ShareSerializer(ShareCreatedSerializer):
    created = serializers.DateTimeField()
    kubernetesVersion = serializers.CharField()
    featureGates = serializers.DictField(child=serializers.BooleanField(), help_text="Overrides of the defaults.")
    node = serializers.CharField(allow_null=True)
    inventorySlug = serializers.CharField(help_text="The sample the inventory came from, or empty.")
    inventory = serializers.CharField(help_text="The inventory objects themselves, as YAML (empty with inventoryId).")
    inventoryId = serializers.CharField(required=False, help_text="Present when the inventory is a stored cluster "
                                        "snapshot: its id (GET /api/v1/inventories/<id>).")
    documents = serializers.CharField()
    compare = SharedSideSerializer(required=False, help_text=(
        "Present for a comparison shared from the page: the right column's settings (same documents)."))
    capacity = SharedCapacitySerializer(required=False, help_text=(
        "Present when the page's \"How many fit?\" panel was not at its defaults (as many as fit, first)."))
    console = SharedConsoleSerializer(required=False, help_text=(
        "Present when the page's expression console was used: its expression, device and environment."))

    def to_representation(self, share: Share) -> JSONObject:
        return {**super().to_representation(share), "created": share.created.isoformat(), **share.state().to_dict()}
