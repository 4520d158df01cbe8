"""OpenAPI documentation of the API: one ``extend_schema_view`` decorator per view.

Kept apart from the views so that they stay a few lines each. Every
endpoint lists its errors (all in the shape of ``api.errors``) and carries
request and response examples; the examples are real engine output for the
sample inventory ``gpu-node``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)

from allocator.releases.gates import RELEASES

from .serializers import (
    AllocateResponseSerializer,
    AnalysisRequestSerializer,
    AnalyzeRequestSerializer,
    AnalyzeResponseSerializer,
    CapacityRequestSerializer,
    CapacityResponseSerializer,
    CompareRequestSerializer,
    CompareResponseSerializer,
    ConvertRequestSerializer,
    ConvertResponseSerializer,
    ErrorsSerializer,
    EvaluateRequestSerializer,
    EvaluateResponseSerializer,
    ExampleDetailSerializer,
    ExampleSerializer,
    InventoryDetailSerializer,
    InventorySerializer,
    ShareCreatedSerializer,
    ShareRequestSerializer,
    ShareSerializer,
    StoredInventoryDetailSerializer,
    StoredInventorySerializer,
    ValidateResponseSerializer,
)

_View = TypeVar("_View", bound=Callable[..., Any])  # what drf-spectacular's decorators take and give back

ENGINE = "Engine"
SAMPLES = "Samples"
SHARES = "Shares"

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: single-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
"""

INVALID_CLAIM = CLAIM.replace("- name: gpu", "- name: GPU_0")

TEMPLATE_AND_POD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: single-gpu
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
---
apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  containers:
  - name: main
    image: registry.example/trainer
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: single-gpu
"""


def _error(detail: str, type: str, field: str = "", line: int | None = None, column: int | None = None,
           kind: str = "", name: str = "") -> dict[str, Any]:
    return {"errors": [{"kind": kind, "name": name, "field": field, "type": type, "detail": detail,
                        "line": line, "column": column}]}


# --- Errors ---------------------------------------------------------------

def _errors_response(description: str, *examples: OpenApiExample) -> OpenApiResponse:
    return OpenApiResponse(ErrorsSerializer, description=description, examples=list(examples))


NOT_FOUND = _errors_response(
    "No object with this slug or id.",
    OpenApiExample("Unknown slug", _error("No SampleInventory matches the given query.", "Not found")),
)
TOO_LARGE = _errors_response(
    "The body is larger than the server's limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 1 MiB by default).",
    OpenApiExample("Body too large", _error("Request body too large: 2097152 bytes, the limit is 1048576 bytes "
                                               "(the site's DATA_UPLOAD_MAX_MEMORY_SIZE setting).",
                                            "Request entity too large")),
)
UNSUPPORTED_MEDIA_TYPE = _errors_response(
    "The body is neither JSON (application/json) nor YAML (application/yaml, application/x-yaml, text/yaml).",
    OpenApiExample("Form data", _error('Unsupported media type "application/x-www-form-urlencoded" in request.',
                                       "Unsupported media type")),
)
THROTTLED = _errors_response(
    "Too many requests from this address (API_REQUESTS_PER_MINUTE, 120 a minute by default); "
    "the Retry-After header says when to try again.",
    OpenApiExample("Throttled", _error("Request was throttled. Expected available in 42 seconds.",
                                       "Too many requests")),
)
BAD_REQUEST_EXAMPLES = [
    OpenApiExample("YAML syntax error", _error(
        "YAML syntax error: mapping values are not allowed here", "Parse error", line=3, column=7)),
    OpenApiExample("Unknown feature gate", _error("unrecognized feature gate: DRANoSuchGate", "Invalid value",
                                                  field="featureGates")),
    OpenApiExample("Unknown inventory", _error(
        "No sample inventory has the slug 'no-such-inventory' and no stored inventory has that id "
        "(GET /api/v1/inventories lists the samples; POST /api/v1/inventories stores one).", "Not found",
        field="inventory")),
    OpenApiExample("JSON of the wrong type", _error("Not a valid string.", "Invalid value", field="documents")),
]
COMMON_ERRORS = {413: TOO_LARGE, 415: UNSUPPORTED_MEDIA_TYPE, 429: THROTTLED}
OUT_OF_TIME = _errors_response(
    "The analysis ran out of the site's time budget (ANALYSIS_TIME_BUDGET, 20 s by default), in the spirit of "
    "kube-scheduler's DRA filter timeout: the detail says where it stopped (the phase, then the node, claim, "
    "request, device and selector the search was on); kind and name are the claim's when it was on one. "
    "The command line (`--time-budget`) has no budget unless asked.",
    OpenApiExample("Time budget", {"errors": [{
        "kind": "ResourceClaim", "name": "slow", "field": "", "type": "Service unavailable",
        "detail": "The time budget of 20 s ran out while scheduling: node gpu-node-00006, claim default/slow, "
                  "request gpus, device gpu.nvidia.com/gpu-node-00006/gpu-5, evaluating claim default/slow "
                  "selector #0 ([0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19].all(a, [0,1,2,3,4,5,6,7,8...).",
        "line": None, "column": None}]}),
)


# --- Requests of the engine endpoints ---------------------------------------

STATE_REQUEST = {"application/json": AnalysisRequestSerializer, "application/yaml": OpenApiTypes.STR}
STATE_PARAMETERS = [
    OpenApiParameter("inventory", str, description="With a YAML body: slug of a sample inventory, or id of a "
                     "stored one (POST /api/v1/inventories), to add."),
    OpenApiParameter("node", str, description="With a YAML body: allocate for this node (default: try every node)."),
    OpenApiParameter("featureGates", str,
                     description="With a YAML body: feature-gate overrides as the CLI takes them, "
                     "e.g. `DRAConsumableCapacity=false,DRAListTypeAttributes=true`."),
    OpenApiParameter("kubernetesVersion", str, enum=RELEASES,
                     description="With a YAML body: the release whose feature-gate defaults apply (default 1.37)."),
]
STATE_EXAMPLES = [
    OpenApiExample("JSON: a claim for the sample GPU node", request_only=True, media_type="application/json",
                   value={"documents": CLAIM, "inventory": "gpu-node", "featureGates": {"DRAPrioritizedList": True},
                          "kubernetesVersion": "1.37"}),
    OpenApiExample("YAML: a claim (inventory and options as query parameters)", request_only=True,
                   media_type="application/yaml", value=CLAIM),
]
STATE_DESCRIPTION = """
Send either a JSON object, or the YAML documents themselves with
`Content-Type: application/yaml` and the other inputs as query parameters:

    curl --data-binary @claim.yaml -H 'Content-Type: application/yaml' \\
      'http://127.0.0.1:8000/api/v1/{endpoint}?inventory=gpu-node'

The documents are combined with the inventory named by `inventory`: a sample's
slug (`GET /api/v1/inventories`), or the id of a cluster stored with
`POST /api/v1/inventories`, so a big cluster is sent once and then only the
claims. Texts sent here are held to the site's TEXT_MAX_CHARS (512 Ki
characters by default) and TEXT_MAX_VALUES settings; a stored cluster to
STORED_INVENTORY_MAX_BYTES and STORED_INVENTORY_MAX_VALUES.
"""


def _state_endpoint(endpoint: str, summary: str, description: str, ok: OpenApiResponse,
                    bad_request: OpenApiResponse, request: object = STATE_REQUEST,
                    parameters: list[OpenApiParameter] = STATE_PARAMETERS) -> Callable[[_View], _View]:
    return extend_schema_view(post=extend_schema(
        operation_id=endpoint, summary=summary, tags=[ENGINE],
        description=description + STATE_DESCRIPTION.format(endpoint=endpoint),
        request=request, parameters=parameters, examples=STATE_EXAMPLES,
        responses={200: ok, 400: bad_request, **COMMON_ERRORS, 503: OUT_OF_TIME},
    ))


validate = _state_endpoint(
    "validate", "Validate objects like the apiserver",
    "Validates every object with the apiserver's rules (field paths, error types, CEL compilation and cost) "
    "and looks at the claims against the inventory (warnings). The answer is what "
    "`python -m allocator validate -o json` prints for the same input.",
    OpenApiResponse(ValidateResponseSerializer, description="Valid or not, with errors and warnings.", examples=[
        OpenApiExample("Valid", {"valid": True, "errors": [], "warnings": []}),
        OpenApiExample("Invalid request name", {"valid": False, "errors": [{
            "kind": "ResourceClaim", "name": "single-gpu", "field": "spec.devices.requests[0].name",
            "type": "Invalid value",
            "detail": "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                      "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
                      "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "line": 8, "column": 13}], "warnings": []}),
    ]),
    _errors_response("The input cannot be read at all (YAML syntax, encoding), or a request field is wrong.",
                     *BAD_REQUEST_EXAMPLES),
)

allocate = _state_endpoint(
    "allocate", "Allocate claims like the scheduler",
    "Allocates the claims without `status.allocation` together, as for one pod, on `node` (or on the first "
    "node that fits); claims with `status.allocation` hold their devices. `claims` is exactly what "
    "`python -m allocator allocate -o json` prints for the same input, each claim in the apiVersion it was "
    "written in.",
    OpenApiResponse(AllocateResponseSerializer, description="The allocation, or why there is none.", examples=[
        OpenApiExample("Allocated", {"allocated": True, "node": "dra-example-driver-cluster-worker", "claims": [{
            "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": "single-gpu", "namespace": "default"},
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}]}},
            "status": {"allocation": {
                "devices": {"results": [{"request": "gpu", "driver": "gpu.example.com",
                                         "pool": "dra-example-driver-cluster-worker", "device": "gpu-0"}]},
                "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{
                    "key": "metadata.name", "operator": "In", "values": ["dra-example-driver-cluster-worker"]}]}]},
            }},
        }], "reasons": [], "error": None}),
        OpenApiExample("Unsatisfiable", {"allocated": False, "node": None, "claims": [], "reasons": [
            "dra-example-driver-cluster-worker: cannot allocate all claims"], "error": None}),
        OpenApiExample("The scheduler would give up", {"allocated": False, "node": None, "claims": [], "reasons": [
            'claim default/single-gpu, request gpu: could not retrieve device class tpu.example.com: '
            'deviceclass.resource.k8s.io "tpu.example.com" not found'], "error":
            'claim default/single-gpu, request gpu: could not retrieve device class tpu.example.com: '
            'deviceclass.resource.k8s.io "tpu.example.com" not found'}),
    ]),
    _errors_response("The input cannot be read or is invalid (the errors, as `validate` reports them), "
                     "or a request field is wrong.", *BAD_REQUEST_EXAMPLES),
)

analyze = _state_endpoint(
    "analyze", "Everything the page shows",
    "The engine's whole report: the objects read, diagnostics, for every request the devices its selectors "
    "match (and why the others do not), the allocation, which nodes fit, and the devices of each container. "
    "Input that cannot be read is reported in `diagnostics`, not as an error.\n\n"
    "With `alternatives: N` (1 to 100) the report also lists, in `allocation.alternatives`, up to N distinct "
    "grants of the pending claims on the chosen node in the order the scheduler's search reaches them, the "
    "scheduler's own first, each with its devices per request. The listing is bounded by the search step limit "
    "and a time budget; `allocation.alternativesSearch.stopped` says when it stopped early.",
    OpenApiResponse(AnalyzeResponseSerializer, description="The report."),
    _errors_response("A request field is wrong.", *BAD_REQUEST_EXAMPLES[1:]),
    request={"application/json": AnalyzeRequestSerializer, "application/yaml": OpenApiTypes.STR},
    parameters=[*STATE_PARAMETERS, OpenApiParameter(
        "alternatives", int, description="With a YAML body: list up to this many grants (0 to 100).")],
)

compare = extend_schema_view(post=extend_schema(
    operation_id="compare", summary="The same documents under two settings", tags=[ENGINE],
    description="Analyzes the documents twice, as `analyze` does: once with the top-level fields overridden by "
    "`left`, once by `right` (each of `kubernetesVersion`, `featureGates`, `node` and `inventory` a side sets "
    "replaces the top-level one; `featureGates` replaces the mapping, it does not merge). Answers both reports "
    "and the outcomes that differ. Each side obeys every limit of a single analysis, and the request counts "
    "as two requests for the rate limit. JSON only.",
    request=CompareRequestSerializer,
    examples=[OpenApiExample(
        "DRAPrioritizedList off and on", request_only=True,
        value={"documents": CLAIM, "inventory": "gpu-node", "kubernetesVersion": "1.37",
               "left": {"featureGates": {"DRAPrioritizedList": False}},
               "right": {"featureGates": {"DRAPrioritizedList": True}}}),
        OpenApiExample("Two releases", request_only=True,
                       value={"documents": CLAIM, "inventory": "gpu-node", "left": {"kubernetesVersion": "1.33"},
                              "right": {"kubernetesVersion": "1.34"}})],
    responses={
        200: OpenApiResponse(CompareResponseSerializer, description="Both reports and their differences."),
        400: _errors_response(
            "A request field is wrong (on a side: located under `left.` or `right.`).",
            *BAD_REQUEST_EXAMPLES[1:],
            OpenApiExample("Unknown gate on one side", _error("unrecognized feature gate: DRANoSuchGate",
                                                              "Invalid value", field="right.featureGates"))),
        413: TOO_LARGE,
        415: _errors_response("The body is not JSON (application/json).", OpenApiExample(
            "YAML", _error('Unsupported media type "application/yaml" in request. Send one of: application/json.',
                           "Unsupported media type"))),
        429: _errors_response(
            "Too many requests from this address (API_REQUESTS_PER_MINUTE, 120 a minute by default; a comparison "
            "counts as two); the Retry-After header says when to try again.",
            OpenApiExample("Throttled", _error("Request was throttled. Expected available in 42 seconds.",
                                               "Too many requests"))),
        503: OUT_OF_TIME,
    },
))

convert = extend_schema_view(post=extend_schema(
    operation_id="convert", summary="The documents rewritten in another resource.k8s.io version", tags=[ENGINE],
    description="As `python -m allocator convert --to VERSION`: every resource.k8s.io object of `documents` "
    "(written in any version, also one the release no longer serves) is converted to `apiVersion` as the "
    "apiserver converts between versions; Pods, Nodes and other objects are returned as they are. A field the "
    "target version has no place for is named in `dropped` (and is not in the output). The result must be "
    "served by `kubernetesVersion` with `featureGates`: otherwise a 400 of type `Not served` names the versions "
    "it serves. JSON only.",
    request=ConvertRequestSerializer,
    examples=[OpenApiExample("A v1 claim for a 1.32 cluster", request_only=True,
                             value={"documents": CLAIM, "apiVersion": "v1beta1", "kubernetesVersion": "1.32",
                                    "featureGates": {"DynamicResourceAllocation": True}})],
    responses={
        200: OpenApiResponse(ConvertResponseSerializer, description="The objects in the target version."),
        400: _errors_response(
            "A request field is wrong, the documents cannot be read, or the release does not serve the result.",
            *BAD_REQUEST_EXAMPLES[1:],
            OpenApiExample("Not served", _error(
                'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1alpha3": not served by '
                "Kubernetes 1.37, which serves ResourceClaim in resource.k8s.io/v1, resource.k8s.io/v1beta2, "
                "resource.k8s.io/v1beta1", "Not served", field="apiVersion"))),
        413: TOO_LARGE,
        415: _errors_response("The body is not JSON (application/json).", OpenApiExample(
            "YAML", _error('Unsupported media type "application/yaml" in request. Send one of: application/json.',
                           "Unsupported media type"))),
        429: THROTTLED,
    },
))

evaluate = extend_schema_view(post=extend_schema(
    operation_id="evaluate", summary="A CEL expression on one device", tags=[ENGINE],
    description="As `python -m allocator eval`: the expression (of any result type) is compiled in the DRA CEL "
    "environment of `kubernetesVersion` and `featureGates`, with the apiserver's cost limit, and evaluated on the "
    "device `device` names among the ResourceSlices of `inventory` (a sample's slug or a stored inventory's id) "
    "and `documents`. Answers the value as CEL writes it, cel-go's name of its type, the tree of sub-expressions "
    "with their values, the estimated cost and the limit. A compile or runtime error is a 200 with "
    "`diagnostics` (compile errors with cel-go's caret diagram); an unknown device is a 400 on `device` naming "
    "what the pool holds. JSON only.",
    request=EvaluateRequestSerializer,
    examples=[OpenApiExample("GPU memory", request_only=True, value={
        "expression": 'device.capacity["gpu.nvidia.com"].memory', "inventory": "nvidia-mig",
        "device": {"driver": "gpu.nvidia.com", "pool": "dgx-h100-01", "device": "gpu-0"}})],
    responses={
        200: OpenApiResponse(EvaluateResponseSerializer, description="The value, its type, its parts and cost."),
        400: _errors_response(
            "A request field is wrong, the inventory cannot be read, or it has no such device.",
            *BAD_REQUEST_EXAMPLES[1:],
            OpenApiExample("No such device", _error(
                "pool 'dgx-h100-01' of driver 'gpu.nvidia.com' has no device 'gpu-9'; it has gpu-0, gpu-1",
                "Not found", field="device"))),
        413: TOO_LARGE,
        415: _errors_response("The body is not JSON (application/json).", OpenApiExample(
            "YAML", _error('Unsupported media type "application/yaml" in request. Send one of: application/json.',
                           "Unsupported media type"))),
        429: THROTTLED,
        503: OUT_OF_TIME,
    },
))

capacity = extend_schema_view(post=extend_schema(
    operation_id="capacity", summary="How many copies of a workload fit", tags=[ENGINE],
    description="As `python -m allocator capacity`: copies of the documents' workload (every Pod, renamed "
    "`<name>-<n>`; without pods, every pending claim) are placed one after another as the scheduler would, each "
    "with its own claims from templates, claims named by pods shared (at most 256 consumers), every earlier "
    "copy's allocation held, until a copy fits on no node or `max` are placed. Answers the count, per node and "
    "per pool what is used, each copy's node and devices, and why the next copy fits nowhere (each node's "
    "reason). The inventory is read as `analyze` reads it; `node` is not used. JSON only.",
    request=CapacityRequestSerializer,
    examples=[OpenApiExample("Pods of one GPU each, spread", request_only=True, value={
        "documents": TEMPLATE_AND_POD,
        "inventory": "gpu-node", "strategy": "spread", "max": 10})],
    responses={
        200: OpenApiResponse(CapacityResponseSerializer, description="The copies placed and why the next fits nowhere."),
        400: _errors_response("A request field is wrong, or the documents or inventory are not valid.",
                              *BAD_REQUEST_EXAMPLES[1:]),
        413: TOO_LARGE,
        415: _errors_response("The body is not JSON (application/json).", OpenApiExample(
            "YAML", _error('Unsupported media type "application/yaml" in request. Send one of: application/json.',
                           "Unsupported media type"))),
        429: THROTTLED,
        503: OUT_OF_TIME,
    },
))


# --- Samples and shares ------------------------------------------------------

CLUSTER_YAML = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: worker-1}
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: worker-1-gpus}
  spec:
    driver: gpu.example.com
    nodeName: worker-1
    pool: {name: worker-1, generation: 0, resourceSliceCount: 1}
    devices:
    - name: gpu-0
"""
STORED_EXAMPLE = {
    "id": "5Qm2xYpL0aT", "url": "http://127.0.0.1:8000/api/v1/inventories/5Qm2xYpL0aT", "nodes": 1, "devices": 1,
    "drivers": ["gpu.example.com"], "pools": 1, "deviceClasses": 0, "resourceSlices": 1, "claims": 0,
    "bytes": 312, "created": "2026-12-03T23:40:00Z",
}

inventory_list = extend_schema_view(
    get=extend_schema(
        operation_id="inventories_list", summary="Sample inventories", tags=[SAMPLES],
        description="The sample device inventories (Nodes, DeviceClasses, ResourceSlices), in picker order.",
        responses={200: InventorySerializer(many=True), 429: THROTTLED},
    ),
    post=extend_schema(
        operation_id="inventories_create", summary="Store a cluster snapshot", tags=[SAMPLES],
        description=(
            "Stores a cluster's objects once, so that validate, allocate, analyze and shares can name them by "
            "`inventory` id and send only their claims. The body is the objects: YAML "
            "(`kubectl get deviceclasses,resourceslices,nodes -o yaml`), JSON (`-o json`), or a JSON object "
            "`{\"inventory\": \"<the objects as text>\"}`. A snapshot is immutable and addressed by the "
            "SHA-256 of its content (line endings and trailing blank space normalised): storing the same content "
            "again answers the same id with 200, and counts against no quota.\n\n"
            "Limits (site settings): a snapshot may have up to STORED_INVENTORY_MAX_BYTES bytes (16 MiB by "
            "default; 413 above); each client address may store STORED_INVENTORIES_PER_DAY new snapshots "
            "(50 by default) and STORED_INVENTORY_BYTES_PER_DAY bytes (256 MiB) in 24 hours (429 above, with "
            "Retry-After). Objects the engine cannot read or finds invalid are refused with 400 and located "
            "errors (line and column in the text sent)."
        ),
        request={"application/yaml": OpenApiTypes.STR, "application/json": OpenApiTypes.OBJECT},
        examples=[
            OpenApiExample("YAML: kubectl get -o yaml", CLUSTER_YAML, request_only=True, media_type="application/yaml"),
            OpenApiExample("JSON: the text in a field", {"inventory": CLUSTER_YAML}, request_only=True,
                           media_type="application/json"),
        ],
        responses={
            201: OpenApiResponse(StoredInventorySerializer, description="Stored: its id and what it holds.",
                                 examples=[OpenApiExample("Stored", STORED_EXAMPLE)]),
            200: OpenApiResponse(StoredInventorySerializer, description="This content was stored before: the same id."),
            400: _errors_response(
                "The objects cannot be read or are invalid.",
                OpenApiExample("Invalid slice", _error(
                    "Required value", "Required value", field="spec.driver", line=9, column=5)),
            ),
            413: _errors_response(
                "The snapshot is larger than STORED_INVENTORY_MAX_BYTES.",
                OpenApiExample("Too large", _error(
                    "The inventory is too large to store: 20000000 bytes, the limit is 16777216 bytes "
                    "(the site's STORED_INVENTORY_MAX_BYTES setting).", "Request entity too large")),
            ),
            415: UNSUPPORTED_MEDIA_TYPE,
            429: _errors_response(
                "This address has stored its quota of new snapshots in the last 24 hours "
                "(STORED_INVENTORIES_PER_DAY, STORED_INVENTORY_BYTES_PER_DAY), or is throttled "
                "(API_REQUESTS_PER_MINUTE); Retry-After says when to try again.",
                OpenApiExample("Quota", _error(
                    "This address has stored 50 new inventories in the last 24 hours; the limit is 50 "
                    "(the site's STORED_INVENTORIES_PER_DAY setting).", "Too many requests")),
            ),
        },
    ),
)

inventory_detail = extend_schema_view(get=extend_schema(
    operation_id="inventories_retrieve", summary="One sample or stored inventory", tags=[SAMPLES],
    description="A sample inventory by slug, or a stored cluster snapshot by id (its summary, as "
    "POST /api/v1/inventories answers it, and its text), with the objects in `documents`; with `?format=yaml` or "
    "`Accept: application/yaml`, only the documents.",
    parameters=[OpenApiParameter("format", str, enum=["json", "yaml"], description="The answer's format.")],
    responses={
        (200, "application/json"): PolymorphicProxySerializer(
            component_name="InventoryOrStoredInventory",
            serializers=[InventoryDetailSerializer, StoredInventoryDetailSerializer], resource_type_field_name=None),
        (200, "application/yaml"): OpenApiResponse(OpenApiTypes.STR, examples=[
            OpenApiExample("YAML documents", "apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\n---\n...")]),
        404: NOT_FOUND, 429: THROTTLED,
    },
))

example_list = extend_schema_view(get=extend_schema(
    operation_id="examples_list", summary="Examples", tags=[SAMPLES],
    description="The gallery of examples: claims for a sample inventory, with the expected outcome.",
    responses={200: ExampleSerializer(many=True), 429: THROTTLED},
))

example_detail = extend_schema_view(get=extend_schema(
    operation_id="examples_retrieve", summary="One example", tags=[SAMPLES],
    description="The example with its documents and expected outcome.",
    responses={200: ExampleDetailSerializer, 404: NOT_FOUND, 429: THROTTLED},
))

share_create = extend_schema_view(post=extend_schema(
    operation_id="shares_create", summary="Share a state", tags=[SHARES],
    description="Stores an immutable snapshot of the input (the inventory's objects themselves, not the slug) "
    "and answers its id, derived from the content: sharing the same state again answers the same id with 200."
    + STATE_DESCRIPTION.format(endpoint="shares"),
    request={**STATE_REQUEST, "application/json": ShareRequestSerializer}, parameters=STATE_PARAMETERS,
    examples=STATE_EXAMPLES,
    responses={
        201: OpenApiResponse(ShareCreatedSerializer, description="A new share.", examples=[
            OpenApiExample("Created", {"id": "3xT9cLq2aBd", "url": "http://127.0.0.1:8000/s/3xT9cLq2aBd"})]),
        200: OpenApiResponse(ShareCreatedSerializer, description="This state was shared before: the same id."),
        400: _errors_response("A request field is wrong.", *BAD_REQUEST_EXAMPLES[1:]),
        **COMMON_ERRORS,
    },
))

share_detail = extend_schema_view(get=extend_schema(
    operation_id="shares_retrieve", summary="A shared state", tags=[SHARES],
    description="The snapshot: inventory YAML, documents, node, Kubernetes version and gate overrides.",
    responses={200: ShareSerializer, 404: NOT_FOUND, 429: THROTTLED},
))

not_found = extend_schema(exclude=True)
