"""REST views: parse the request, call a service (``playground.services``) or the models, serialize.

The engine endpoints (validate, allocate, analyze) take the same input: a
JSON object, or raw YAML with the other inputs as query parameters (see
``AnalysisRequestSerializer``). Errors of every kind are answered by
``api.errors.exception_handler`` in one shape.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import yaml
from rest_framework import generics, status
from rest_framework.exceptions import NotFound
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from allocator.authoring.console import DeviceNotFound, DeviceRef
from allocator.reading.diagnostics import NOT_FOUND
from playground import clusters
from playground.limits import engine_limits
from playground.models import Example, SampleInventory, Share
from playground.ratelimit import client_address
from playground.services.analyze import Analysis, analyze
from playground.services.capacity import plan
from playground.services.compare import compare
from playground.services.convert import NotConverted, convert
from playground.services.evaluate import (
    ScratchError,
    Unreadable,
    evaluate_on,
    evaluate_scratch,
    read_all_slices,
)
from playground.state import State

from . import docs
from .errors import InvalidInput, Refused, error, time_budget
from .parsers import YAML_PARSERS, InventoryJSONParser, JSONParser
from .renderers import YAMLRenderer
from .serializers import (
    AllocateResponseSerializer,
    AnalysisRequestSerializer,
    AnalyzeRequestSerializer,
    CapacityRequestSerializer,
    CapacityResponseSerializer,
    CompareRequestSerializer,
    ConvertRequestSerializer,
    ConvertResponseSerializer,
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
    diagnostic_errors,
    did_you_mean,
    unreadable_errors,
    unserved_errors,
)
from .throttling import TwoAnalysesRateThrottle

YAML_MEDIA_TYPES = frozenset(parser.media_type for parser in YAML_PARSERS)


class StateInputView(APIView):
    """Reads a ``State`` from a JSON object, or from a YAML body plus query parameters."""

    parser_classes = [JSONParser, *YAML_PARSERS]
    request_serializer = AnalysisRequestSerializer

    def given(self, request: Request) -> State | Analysis:
        """The validated input: a ``State`` (an ``Analysis`` for analyze, which also takes ``alternatives``)."""
        data = request.data
        if request.content_type.partition(";")[0].strip().lower() in YAML_MEDIA_TYPES:
            # An empty body parses to {}: it is empty YAML all the same.
            data = {**request.query_params.dict(), "documents": data if isinstance(data, str) else ""}
        serializer = self.request_serializer(data=data)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        if not isinstance(given, State | Analysis):
            raise TypeError(f"{self.request_serializer.__name__} reads neither a State nor an Analysis")
        return given

    def state(self, request: Request) -> State:
        """The validated input of a view whose serializer reads a plain ``State``."""
        given = self.given(request)
        if not isinstance(given, State):
            raise TypeError(f"{self.request_serializer.__name__} reads no plain State")
        return given

    def report(self, request: Request) -> dict[str, Any]:
        given = self.given(request)
        with time_budget():
            if isinstance(given, Analysis):
                return analyze(given.state, given.alternatives).to_dict()
            return analyze(given).to_dict()


@docs.validate
class ValidateView(StateInputView):
    def post(self, request: Request) -> Response:
        report = self.report(request)
        # As `python -m allocator validate` exits 2 for these, not 1.
        if refused := unreadable_errors(report) or unserved_errors(report):
            raise InvalidInput(refused)
        return Response(ValidateResponseSerializer(report).data)


@docs.allocate
class AllocateView(StateInputView):
    def post(self, request: Request) -> Response:
        report = self.report(request)
        if not report["valid"]:
            raise InvalidInput(ValidateResponseSerializer(report).data["errors"])
        beside: dict[str, Any] = {key: report[key] for key in ("storedObjects", "workloads") if key in report}
        return Response(AllocateResponseSerializer({**report["allocation"], **beside}).data)


@docs.analyze
class AnalyzeView(StateInputView):
    request_serializer = AnalyzeRequestSerializer

    def post(self, request: Request) -> Response:
        return Response(self.report(request))


@docs.compare
class CompareView(APIView):
    """Two analyses of the same documents; each side counts against the rate limit."""

    parser_classes = [JSONParser]
    throttle_classes = [TwoAnalysesRateThrottle]

    def post(self, request: Request) -> Response:
        serializer = CompareRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sides = serializer.validated_data
        with time_budget():
            compared = compare(sides["left"], sides["right"])
        return Response(compared)


@docs.convert
class ConvertView(APIView):
    """The documents rewritten in another resource.k8s.io version (``python -m allocator convert``)."""

    parser_classes = [JSONParser]

    def post(self, request: Request) -> Response:
        serializer = ConvertRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        try:
            result = convert(given["documents"], given["apiVersion"], given["gates"])
        except NotConverted as refused:
            raise InvalidInput(diagnostic_errors(refused.diagnostics)) from None
        return Response(ConvertResponseSerializer({
            "apiVersion": result.api_version,
            "items": result.objects,
            "documents": yaml.safe_dump_all(result.objects, sort_keys=False, default_flow_style=False,
                                            width=1_000_000),  # long expressions unfolded
            "dropped": [d.as_dict() for d in result.dropped],
        }).data)


@docs.evaluate
class EvaluateView(APIView):
    """A CEL expression on one device (``python -m allocator eval``): value, type, parts, cost."""

    parser_classes = [JSONParser]

    def post(self, request: Request) -> Response:
        serializer = EvaluateRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        if "scratch" in given:
            return self.on_scratch(given)
        ref = DeviceRef(**given["device"])
        try:
            with time_budget():
                slices = read_all_slices(given["texts"], engine_limits(stored=given["stored"]))
                answer = evaluate_on(given["expression"], ref, slices, given["gates"])
        except Unreadable as refused:
            raise InvalidInput(diagnostic_errors(refused.diagnostics)) from None
        except DeviceNotFound as err:
            raise InvalidInput([error(str(err), type=NOT_FOUND, field="device")]) from None
        return Response(EvaluateResponseSerializer({"expression": given["expression"],
                                                    "device": given["device"], **answer}).data)

    def on_scratch(self, given: dict[str, Any]) -> Response:
        """The expression on the scratch device: its YAML checked as a slice's device, errors located in it."""
        try:
            answer = evaluate_scratch(given["expression"], given["scratch"], given["gates"], given["gates"],
                                      engine_limits())
        except ScratchError as refused:
            raise InvalidInput(diagnostic_errors([
                replace(d, field=f"scratch.{d.field}" if d.field else "scratch") for d in refused.diagnostics
            ])) from None
        return Response(EvaluateResponseSerializer({"expression": given["expression"], **answer}).data)


@docs.capacity
class CapacityView(StateInputView):
    """How many copies of the documents' workload fit (``python -m allocator capacity``)."""

    parser_classes = [JSONParser]
    request_serializer = CapacityRequestSerializer

    def post(self, request: Request) -> Response:
        given = self.state(request)
        with time_budget():
            report, errors = plan(given)
        if errors or report is None:  # no report comes without its errors
            raise InvalidInput(diagnostic_errors(errors))
        return Response(CapacityResponseSerializer(report.to_dict()).data)


@docs.inventory_list
class InventoryListView(generics.ListAPIView[SampleInventory]):
    """GET: the samples. POST: store a cluster snapshot (``playground.clusters.store``)."""

    queryset = SampleInventory.objects.listed()
    serializer_class = InventorySerializer
    parser_classes = [InventoryJSONParser, *YAML_PARSERS]

    def post(self, request: Request) -> Response:
        text = request.data if isinstance(request.data, str) else ""  # an empty body parses to {}
        try:
            stored, created = clusters.store(text, client_address(request))
        except clusters.ClusterRefused as refused:
            if refused.diagnostics:
                raise InvalidInput(diagnostic_errors(refused.diagnostics)) from None
            raise Refused(refused.status, refused.detail, refused.retry_after) from None
        body = StoredInventorySerializer(stored, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


@docs.inventory_detail
class InventoryDetailView(generics.RetrieveAPIView[SampleInventory]):
    """A sample by slug, or a stored snapshot by id (ids have no dashes; samples are looked up first)."""

    queryset = SampleInventory.objects.all()
    serializer_class = InventoryDetailSerializer
    lookup_field = "slug"
    renderer_classes = [JSONRenderer, YAMLRenderer]

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:  # the URL's arguments
        inventory = SampleInventory.objects.filter(slug=kwargs["slug"]).first()
        if inventory is None:
            return self.retrieve_stored(request, kwargs["slug"])
        if request.accepted_renderer.format == YAMLRenderer.format:
            return Response(inventory.as_yaml())
        return Response(self.get_serializer(inventory).data)

    def retrieve_stored(self, request: Request, inventory_id: str) -> Response:
        stored = clusters.find(inventory_id)
        if stored is None:
            near = did_you_mean(inventory_id, SampleInventory.objects.values_list("slug", flat=True))
            raise NotFound(f"No sample inventory has the slug {inventory_id!r} and no stored inventory has that id"
                           f"{near}.")
        text = clusters.inventory_text(stored.id)
        if request.accepted_renderer.format == YAMLRenderer.format:
            return Response(text)
        stored.text = text
        return Response(StoredInventoryDetailSerializer(stored, context={"request": request}).data)


@docs.example_list
class ExampleListView(generics.ListAPIView[Example]):
    queryset = Example.objects.with_inventory()
    serializer_class = ExampleSerializer


@docs.example_detail
class ExampleDetailView(generics.RetrieveAPIView[Example]):
    queryset = Example.objects.with_inventory()
    serializer_class = ExampleDetailSerializer
    lookup_field = "slug"

    def get_object(self) -> Example:
        found = self.get_queryset().filter(slug=self.kwargs["slug"]).first()
        if found is None:
            near = did_you_mean(self.kwargs["slug"], Example.objects.values_list("slug", flat=True))
            raise NotFound(f"No example has the slug {self.kwargs['slug']!r}{near} (GET /api/v1/examples lists them).")
        return found


@docs.share_create
class ShareCreateView(StateInputView):
    request_serializer = ShareRequestSerializer

    def post(self, request: Request) -> Response:
        share, created = Share.objects.get_or_create_for(self.state(request))
        return Response(ShareCreatedSerializer(share, context={"request": request}).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


@docs.share_detail
class ShareDetailView(generics.RetrieveAPIView[Share]):
    queryset = Share.objects.all()
    serializer_class = ShareSerializer
    lookup_url_kwarg = "id"


@docs.not_found
class NotFoundView(APIView):
    """Any other path under /api/v1/: a 404 in the API's shape rather than Django's HTML page."""

    # DRF hands its own Request on (its stubs override Django's View with the same ignore)
    def http_method_not_allowed(self, request: Request, *args: Any,  # type: ignore[override]
                                **kwargs: Any) -> Response:
        raise NotFound("No such endpoint; the endpoints are described at /api/docs/.")
