import dataclasses
import logging

from csp.decorators import csp_replace
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from playground import capacity, clusters, console, conversion, results
from playground.forms import PlaygroundForm, UploadError, read_upload
from playground.models import Example, SampleInventory, Share
from playground.ratelimit import client_address, rate_limit
from playground.state import State, StateError

logger = logging.getLogger(__name__)


def _render_editor(request: HttpRequest, state: State | None, form: PlaygroundForm, alternatives: int = 0,
                   **extra) -> HttpResponse:
    """The editor page, or only its results when htmx asks for them (``hx-target="results"``)."""
    ctx = {"form": form, "state": state, "cluster_limit": settings.STORED_INVENTORY_MAX_BYTES,
           "capacity_cap": settings.CAPACITY_MAX_COPIES, "convert_versions": conversion.VERSIONS, **extra}
    inventory_id = state.inventory_id if state is not None else form["inventory_id"].value()
    if inventory_id:
        ctx["cluster"] = clusters.find(inventory_id)
        if ctx["cluster"] is None:  # a share or an example of a snapshot since deleted: no results to show
            ctx["cluster_missing"] = inventory_id
            state = ctx["state"] = None
        # A sample cluster shows as its sample in the picker; one's own as "My cluster".
        ctx["own_cluster"] = not (state.inventory_slug if state is not None else form["inventory_slug"].value())
    if state is not None:
        ctx.update(results.context(state, form.node_filter_value(), alternatives))
        ctx.update(console.page(state))
    if request.htmx and request.htmx.target == "results":
        return render(request, "playground/partials/results_swap.html", ctx)
    return render(request, "playground/index.html", ctx)


def default_state() -> State:
    example = Example.objects.default()
    if example:
        return example.state()
    inventory = SampleInventory.objects.default()
    if inventory is None:
        return State()
    return State.from_dict({**inventory.state_fields(), "documents": inventory.starter_documents() or ""})


def _posted_analyses(request: HttpRequest, *args, **kwargs) -> int:
    """A posted comparison runs two analyses."""
    return 2 if request.POST.get("compare") else 1


def _shared_analyses(request: HttpRequest, share_id: str) -> int:
    """A shared comparison runs two analyses."""
    return 2 if Share.objects.filter(pk=share_id, compare__isnull=False).exists() else 1


# Every view that renders results runs the engine, reading included.
@require_http_methods(["GET", "HEAD", "POST"])
@rate_limit("PAGE_ANALYSES_PER_MINUTE", methods=("GET", "HEAD", "POST"), cost=_posted_analyses)
def index(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        state = default_state()
        return _render_editor(request, state, PlaygroundForm.for_state(state))
    form = PlaygroundForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_editor(request, None, form)
    # Re-bind from the state so a loaded or uploaded inventory shows in the editor.
    alternatives = form.cleaned_data.get("alternatives") or 0
    rebound = PlaygroundForm.for_state(form.state, samples=form.samples, node_filter=form.node_filter_value())
    rebound.initial["alternatives"] = alternatives or None
    return _render_editor(request, form.state, rebound, alternatives)


def _example_analyses(request: HttpRequest, slug: str) -> int:
    """A comparison example runs two analyses."""
    return 2 if Example.objects.filter(slug=slug, compare__isnull=False).exists() else 1


@require_safe
@rate_limit("PAGE_ANALYSES_PER_MINUTE", methods=("GET", "HEAD"), cost=_example_analyses)
def example(request: HttpRequest, slug: str) -> HttpResponse:
    ex = get_object_or_404(Example.objects.with_inventory(), slug=slug)
    state = ex.state()
    form = PlaygroundForm.for_state(state)
    form.initial["alternatives"] = ex.alternatives or None
    return _render_editor(request, state, form, ex.alternatives, example=ex)


@require_safe
def gallery(request: HttpRequest) -> HttpResponse:
    tag = request.GET.get("tag", "")
    examples = Example.objects.with_inventory()
    if tag:
        examples = examples.tagged(tag)
    ctx = {"examples": examples, "tags": Example.objects.all_tags(), "tag": tag}
    return render(request, "playground/gallery.html", ctx)


@require_safe
@rate_limit("PAGE_ANALYSES_PER_MINUTE", methods=("GET", "HEAD"), cost=_shared_analyses)
def share(request: HttpRequest, share_id: str) -> HttpResponse:
    snapshot = get_object_or_404(Share, pk=share_id)
    state = snapshot.state()
    return _render_editor(request, state, PlaygroundForm.for_state(state), share=snapshot)


# Other sites may frame this view (and only this one): read-only results, no
# editor, no form, no script, so there is nothing to click-jack.
@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})
@require_safe
@rate_limit("PAGE_ANALYSES_PER_MINUTE", methods=("GET", "HEAD"), cost=_shared_analyses)
def share_embed(request: HttpRequest, share_id: str) -> HttpResponse:
    snapshot = get_object_or_404(Share, pk=share_id)
    state = snapshot.state()
    try:
        report = results.context(state)
    except clusters.UnknownInventory as exc:  # its stored cluster was deleted
        raise Http404(str(exc)) from None
    ctx = {"share": snapshot, "state": state, "form": PlaygroundForm.for_state(state), "embed": True,
           **report}
    return render(request, "playground/embed.html", ctx)


@require_POST
@rate_limit("PAGE_SHARES_PER_MINUTE")
def create_share(request: HttpRequest) -> HttpResponse:
    form = PlaygroundForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "playground/partials/share.html", {"form": form}, status=400)
    snapshot, _ = Share.objects.get_or_create_for(form.state)
    if not request.htmx:
        return redirect(snapshot, permanent=False)
    response = render(request, "playground/partials/share.html", {"share": snapshot})
    response["HX-Push-Url"] = snapshot.get_absolute_url()
    return response


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def export(request: HttpRequest) -> HttpResponse:
    form = PlaygroundForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render_editor(request, None, form)
    response = HttpResponse(form.state.to_yaml(), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="dra-playground.yaml"'
    return response


# Storing a cluster reads it as an analysis does, and keeps it like a share.
@require_POST
@rate_limit("PAGE_SHARES_PER_MINUTE")
def store_cluster(request: HttpRequest) -> HttpResponse:
    """ "Use my cluster": store the uploaded or pasted objects and go on editing the claims against them."""
    form = PlaygroundForm(request.POST, request.FILES)
    state = form.state if form.is_valid() else default_state()
    upload = request.FILES.get("cluster_file")
    # The page's script sends pasted text as a file (cluster_pasted): a refused paste comes back to be fixed.
    pasted = upload is None or request.POST.get("cluster_pasted") == "1"
    text = ""
    try:
        text = (read_upload(upload, settings.STORED_INVENTORY_MAX_BYTES, "STORED_INVENTORY_MAX_BYTES") if upload
                else request.POST.get("cluster_text", ""))
        stored, _ = clusters.store(text, client_address(request))
    except (UploadError, clusters.ClusterRefused) as exc:
        status = getattr(exc, "status", 400)
        response = _render_editor(request, state, PlaygroundForm.for_state(state), cluster_error=str(exc),
                                  cluster_diagnostics=getattr(exc, "diagnostics", []),
                                  cluster_text=text if pasted else "")
        # htmx swaps only successful answers: it gets the page with the error in it.
        response.status_code = 200 if request.htmx else status
        return response
    state = dataclasses.replace(state, inventory="", inventory_slug="", inventory_id=stored.id)
    return _render_editor(request, state, PlaygroundForm.for_state(state), cluster_stored=True)


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE", cost=_posted_analyses)
def import_state(request: HttpRequest) -> HttpResponse:
    upload = request.FILES.get("state_file")
    try:
        if upload is None:
            raise StateError("Choose a file exported from DRA Playground to import.")
        state = State.from_yaml(read_upload(upload))
        clusters.check_state(state)
    except (StateError, UploadError) as exc:
        form = PlaygroundForm(request.POST)
        form.is_valid()
        return _render_editor(request, getattr(form, "state", None), form, import_error=str(exc))
    return _render_editor(request, state, PlaygroundForm.for_state(state), imported=True)


def _capacity_analyses(request: HttpRequest) -> int:
    """A capacity run is a scheduling pass per copy and one for the next: it counts as two analyses."""
    return 2


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE", cost=_capacity_analyses)
def capacity_run(request: HttpRequest) -> HttpResponse:
    """ "How many fit?": the panel's answer for htmx, or the whole page with it (a post without script)."""
    form = PlaygroundForm(request.POST, request.FILES)
    if not form.is_valid():
        if request.htmx:
            return render(request, "playground/partials/capacity_result.html", {"form": form})
        response = _render_editor(request, None, form)
        response.status_code = 400
        return response
    ctx = capacity.run(form.state)
    if request.htmx:
        return render(request, "playground/partials/capacity_result.html", {"form": form, **ctx})
    rebound = PlaygroundForm.for_state(form.state, samples=form.samples, node_filter=form.node_filter_value())
    return _render_editor(request, form.state, rebound, **ctx)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: database check failed")
        return JsonResponse({"status": "error", "detail": "database unavailable"}, status=503)
    return JsonResponse({"status": "ok"})
