"""OpenAPI documentation of the API: one ``extend_schema_view`` decorator per view.

Kept apart from the views so that they stay a few lines each. Every
endpoint lists its errors (all in the shape of ``api.errors``) and carries
request and response examples; the examples are real engine output for the
sample inventory ``gpu-node``.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from allocator.features import RELEASES

from .serializers import (
    AllocateResponseSerializer,
    AnalysisRequestSerializer,
    AnalyzeRequestSerializer,
    AnalyzeResponseSerializer,
    CompareRequestSerializer,
    CompareResponseSerializer,
    ErrorsSerializer,
    ExampleDetailSerializer,
    ExampleSerializer,
    InventoryDetailSerializer,
    InventorySerializer,
    ShareCreatedSerializer,
    ShareSerializer,
    ValidateResponseSerializer,
)

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


def _error(detail: str, type: str, field: str = "", line: int | None = None, column: int | None = None,
           kind: str = "", name: str = "") -> dict:
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
    OpenApiExample("Body too large", _error("Request body too large: 2097152 bytes, the limit is 1048576 bytes.",
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
    OpenApiExample("Unknown inventory", _error("Object with slug=no-such-inventory does not exist.", "Not found",
                                               field="inventory")),
    OpenApiExample("JSON of the wrong type", _error("Not a valid string.", "Invalid value", field="documents")),
]
COMMON_ERRORS = {413: TOO_LARGE, 415: UNSUPPORTED_MEDIA_TYPE, 429: THROTTLED}


# --- Requests of the engine endpoints ---------------------------------------

STATE_REQUEST = {"application/json": AnalysisRequestSerializer, "application/yaml": OpenApiTypes.STR}
STATE_PARAMETERS = [
    OpenApiParameter("inventory", str, description="With a YAML body: slug of a sample inventory to add."),
    OpenApiParameter("node", str, description="With a YAML body: allocate for this node (default: try every node)."),
    OpenApiParameter("featureGates", str,
                     description="With a YAML body: feature-gate overrides as the CLI takes them, "
                     "e.g. `DRADeviceTaints=false,DRAListTypeAttributes=true`."),
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

The documents are combined with the sample inventory named by `inventory`.
"""


def _state_endpoint(endpoint: str, summary: str, description: str, ok: OpenApiResponse,
                    bad_request: OpenApiResponse, request=STATE_REQUEST,
                    parameters=STATE_PARAMETERS) -> extend_schema_view:
    return extend_schema_view(post=extend_schema(
        operation_id=endpoint, summary=summary, tags=[ENGINE],
        description=description + STATE_DESCRIPTION.format(endpoint=endpoint),
        request=request, parameters=parameters, examples=STATE_EXAMPLES,
        responses={200: ok, 400: bad_request, **COMMON_ERRORS},
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
    "`python -m allocator allocate -o json` prints for the same input.",
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
    },
))


# --- Samples and shares ------------------------------------------------------

inventory_list = extend_schema_view(get=extend_schema(
    operation_id="inventories_list", summary="Sample inventories", tags=[SAMPLES],
    description="The sample device inventories (Nodes, DeviceClasses, ResourceSlices), in picker order.",
    responses={200: InventorySerializer(many=True), 429: THROTTLED},
))

inventory_detail = extend_schema_view(get=extend_schema(
    operation_id="inventories_retrieve", summary="One sample inventory", tags=[SAMPLES],
    description="The inventory with its objects as YAML (`documents`); with `?format=yaml` or "
    "`Accept: application/yaml`, only the YAML documents.",
    parameters=[OpenApiParameter("format", str, enum=["json", "yaml"], description="The answer's format.")],
    responses={
        (200, "application/json"): InventoryDetailSerializer,
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
    request=STATE_REQUEST, parameters=STATE_PARAMETERS, examples=STATE_EXAMPLES,
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
