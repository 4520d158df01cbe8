"""The site's pages, their htmx fragments and the editor's small JSON answers: parse, call, render.

Page views: the editor (``index``, ``example``, ``share``, ``share_embed``), its forms' posts (``create_share``,
``export``, ``store_cluster``, ``import_state``), its panels (``capacity_run``, ``console_run``, and
``compare_run`` for a comparison left out while the tools were folded, ``picture_run`` for the picture a
live update left out until it is in view), the
gallery and ``healthz``. Editor helpers (JSON):

``GET /editor/language`` (optional ``kubernetes_version`` and ``gate_<Gate>=on|off`` as the form names
them): field names per kind and apiVersion, their one-line docs, CEL functions and macros as that release
with those gates compiles a new selector (the same for every visitor; cached a day).
``POST /editor/names`` (form field ``inventory``, or ``inventory_id`` of a stored cluster): the class,
driver, node, attribute and capacity names of that inventory.
``POST /editor/format`` (form field ``text``): ``{"text": formatted}``, or ``400 {"error": "line 3,
column 7: ..."}`` when the text cannot be read.
``POST /editor/convert`` (form fields ``documents``, ``to`` (``v1``, ``resource.k8s.io/v1beta2``...), and
the release and gates as the editor's form names them): ``{"text", "apiVersion", "dropped": [...]}`` where
``dropped`` names each field the target version has no place for (kind, object, field, why), or ``400
{"error", "errors": [...]}`` when the documents cannot be converted; the page's script puts the text in
the editor as one edit.

The work is the services' (``playground.services``, shared with ``api/``) and the engine's; shaping for
the templates is ``results``, ``capacity`` and ``console``'s.
"""

import logging
from collections.abc import Callable

import yaml
from csp.decorators import csp_replace
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from allocator.authoring.completion import completion_data, inventory_names
from allocator.authoring.conversion import target_version
from allocator.kube.convert import RESOURCE_GROUP
from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.formatting import format_yaml
from allocator.releases.gates import CURRENT_RELEASE, RELEASES, FeatureGateError, make_gates
from playground import budget, capacity, clusters, console, conversion, results, sharetext, start_here
from playground.forms import PlaygroundForm, UploadError, posted_gates, read_upload
from playground.limits import engine_limits, text_limit
from playground.models import Example, SampleInventory, Share
from playground.ratelimit import client_address, rate_limit
from playground.services.convert import NotConverted
from playground.services.convert import convert as convert_documents
from playground.state import State, StateError

logger = logging.getLogger(__name__)
MAX_CONVERT_ERRORS = 20


def _fragment_or_page(request: HttpRequest, fragment: str, ctx: dict, page: Callable[[], HttpResponse],
                      target: str | None = None) -> HttpResponse:
    """The ``fragment`` template when htmx asks (for the element ``target``, when given), else ``page()``:
    the whole page, for a post without script."""
    if request.htmx and (target is None or request.htmx.target == target):
        return render(request, fragment, ctx)
    return page()


def _live_update(request: HttpRequest) -> bool:
    """The page's live update: htmx asking for the results alone (the editor's ``hx-target="results"``)."""
    return bool(request.htmx) and request.htmx.target == "results"


def _tools_folded(request: HttpRequest) -> bool:
    """A live update from a page whose tools (the comparison, How many fit?, the console) are folded
    (``tools_folded``, sent by results-pane.js): what only they show waits until they are opened."""
    return _live_update(request) and request.POST.get("tools_folded") == "1"


def _picture_off_screen(request: HttpRequest) -> bool:
    """A live update from a page whose picture is out of view (``picture_in_view=0``, sent by
    picture-outline.js): its drawing waits until it is scrolled to. In view, or not said (no script), the
    answer draws it inline: one request a keystroke when the picture is on screen."""
    return _live_update(request) and request.POST.get("picture_in_view") == "0"


def _same_gate_lists(request: HttpRequest, form: PlaygroundForm) -> list[str]:
    """The gate lists ("gates", "compare") a live update leaves out: the page already shows them as this
    answer would (the key it posts back, ``gates_shown``, is this form's). Only the release and the gates
    change a list, and they rarely change while one types."""
    if not _live_update(request):
        return []
    posted = {"gates": request.POST.get("gates_shown"), "compare": request.POST.get("compare_gates_shown")}
    keys = {"gates": form.gate_list_key, "compare": form.compare_gate_list_key}
    return [name for name, key in keys.items() if posted[name] and posted[name] == key()]


def _render_editor(request: HttpRequest, state: State | None, form: PlaygroundForm, alternatives: int = 0,
                   **extra) -> HttpResponse:
    """The editor page, or only its results when htmx asks for them (``hx-target="results"``)."""
    ctx = {"form": form, "state": state, "cluster_limit": settings.STORED_INVENTORY_MAX_BYTES,
           "capacity_cap": settings.CAPACITY_MAX_COPIES, "convert_versions": conversion.VERSIONS,
           "same_gate_lists": _same_gate_lists(request, form), **extra}
    inventory_id = state.inventory_id if state is not None else form["inventory_id"].value()
    if inventory_id:
        ctx["cluster"] = clusters.find(inventory_id)
        if ctx["cluster"] is None:  # a share or an example of a snapshot since deleted: no results to show
            ctx["cluster_missing"] = inventory_id
            state = ctx["state"] = None
        # A sample cluster shows as its sample in the picker; one's own as "My cluster".
        ctx["own_cluster"] = not (state.inventory_slug if state is not None else form["inventory_slug"].value())
    if state is not None:
        try:
            with budget.analysis_budget():
                folded = _tools_folded(request)
                # A live update with the picture out of view leaves its drawing to a request of its own,
                # made when it comes into view.
                ctx.update(results.context(state, form.node_filter_value(), alternatives, compare=not folded,
                                           draw=not _picture_off_screen(request)))
                ctx["tools_folded"] = folded
                # The analysis's read, not another. A live update (htmx) leaves the console's evaluation to
                # a request of its own, made when the console is in view; a page without script has it here.
                ctx.update(console.page(state, ctx.pop("inventory_read", None), defer=_live_update(request)))
        except budget.BudgetExceeded as err:
            return _out_of_time(request, form, err)
    return _fragment_or_page(request, "playground/partials/results_swap.html", ctx,
                             lambda: render(request, "playground/index.html", ctx), target="results")


def _out_of_time(request: HttpRequest, form: PlaygroundForm, err: budget.BudgetExceeded) -> HttpResponse:
    """The time budget ran out: htmx gets 503 JSON (the script marks the old results stale and shows why);
    a post without script gets the editor back, with the message where the results would be."""
    logger.info("analysis stopped: %s", err.message)
    if request.htmx:
        return budget.answer(err)
    response = _render_editor(request, None, form, time_budget=err, time_budget_advice=budget.advice())
    response.status_code = 503
    return response


def _panel(request: HttpRequest, fragment: str, answer: Callable[[State], dict], invalid: dict | None = None,
           answer_on_page: bool = True) -> HttpResponse:
    """A panel's answer to the posted editor form: its ``fragment`` for htmx, or the whole page with it.

    ``answer(state)`` is the fragment's context; ``invalid`` is added to it when the form is refused (the
    whole page then answers 400). ``answer_on_page`` False: the page shows the panel by itself.
    """
    form = PlaygroundForm(request.POST, request.FILES)
    if not form.is_valid():
        def refused() -> HttpResponse:
            response = _render_editor(request, None, form)
            response.status_code = 400
            return response
        return _fragment_or_page(request, fragment, {"form": form, **(invalid or {})}, refused)
    try:
        with budget.analysis_budget():
            ctx = answer(form.state)
    except budget.BudgetExceeded as err:
        return _out_of_time(request, form, err)

    def page() -> HttpResponse:
        rebound = PlaygroundForm.for_state(form.state, samples=form.samples, node_filter=form.node_filter_value())
        return _render_editor(request, form.state, rebound, **(ctx if answer_on_page else {}))
    return _fragment_or_page(request, fragment, {"form": form, **ctx}, page)


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


def _shared_page_analyses(request: HttpRequest, share_id: str) -> int:
    """The shared page: its analyses, and How many fit?'s when its result is shown again (two, as a run)."""
    capacity_value = Share.objects.filter(pk=share_id).values_list("capacity", flat=True).first() or {}
    return _shared_analyses(request, share_id) + (2 if capacity_value.get("shown") else 0)


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
    step, next_step = start_here.step_of(ex.slug)
    return _render_editor(request, state, form, ex.alternatives, example=ex, step=step, next_step=next_step)


@require_safe
def gallery(request: HttpRequest) -> HttpResponse:
    tag = request.GET.get("tag", "")
    examples = Example.objects.with_inventory()
    if tag:
        examples = examples.tagged(tag)
    ctx = {"examples": examples, "tags": Example.objects.all_tags(), "tag": tag,
           "start_here": start_here.steps() if not tag else []}
    return render(request, "playground/gallery.html", ctx)


@require_safe
@rate_limit("PAGE_ANALYSES_PER_MINUTE", methods=("GET", "HEAD"), cost=_shared_page_analyses)
def share(request: HttpRequest, share_id: str) -> HttpResponse:
    snapshot = get_object_or_404(Share, pk=share_id)
    state = snapshot.state()
    return _render_editor(request, state, PlaygroundForm.for_state(state), share=snapshot, **_shown_capacity(state))


def _shown_capacity(state: State) -> dict:
    """How many fit?'s answer when the state says it was on screen (a share, an import), else nothing."""
    return capacity.run(state) if state.capacity.shown else {}


@require_safe
def share_text(request: HttpRequest, share_id: str) -> HttpResponse:
    """A share's documents and inventory as plain YAML (curl-able), under a header naming its settings."""
    snapshot = get_object_or_404(Share, pk=share_id)
    state = snapshot.state()
    try:
        inventory = clusters.state_inventory(state)
    except clusters.UnknownInventory as exc:  # its stored cluster was deleted
        raise Http404(str(exc)) from None
    text = sharetext.share_text(state, inventory, request.build_absolute_uri(snapshot.get_absolute_url()))
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


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
    state = state.with_inputs(inventory="", inventory_slug="", inventory_id=stored.id)
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
    return _render_editor(request, state, PlaygroundForm.for_state(state), imported=True, **_shown_capacity(state))


def _capacity_analyses(request: HttpRequest) -> int:
    """A capacity run is a scheduling pass per copy and one for the next: it counts as two analyses."""
    return 2


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE", cost=_capacity_analyses)
def capacity_run(request: HttpRequest) -> HttpResponse:
    """ "How many fit?": the panel's answer for htmx, or the whole page with it (a post without script)."""
    return _panel(request, "playground/partials/capacity_result.html", capacity.run)


def _comparison(state: State) -> dict:
    """Both columns of the comparison, for the folded tools' request once they are opened."""
    left = clusters.analyze_state(state)
    return {"comparison": results.comparison(state, left)}


def _compare_analyses(request: HttpRequest) -> int:
    """The comparison runs both columns' analyses."""
    return 2


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE", cost=_compare_analyses)
def compare_run(request: HttpRequest) -> HttpResponse:
    """The comparison a live update left out while the tools were folded (``results.context``'s
    ``comparison_deferred``): its section for htmx, or the whole page (a post without script: the page runs
    the comparison itself)."""
    return _panel(request, "playground/partials/compare_result.html", _comparison, answer_on_page=False)


def _drawing(state: State) -> dict:
    """The inventory picture, for the request a live update's outline makes once it is in view."""
    return {"picture": results.drawing(clusters.analyze_state(state))}


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def picture_run(request: HttpRequest) -> HttpResponse:
    """The inventory picture a live update left out (``results.context``'s ``draw``): its section for htmx,
    or the whole page (a post without script: the page draws the picture itself)."""
    return _panel(request, "playground/partials/picture_result.html", _drawing, answer_on_page=False)


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def console_run(request: HttpRequest) -> HttpResponse:
    """The console's answer for htmx (the result area), or the whole page with it (a post without script)."""
    return _panel(request, "playground/partials/console_result.html", console.run,
                  invalid={"console_invalid": True}, answer_on_page=False)


def _posted_text(request: HttpRequest, name: str) -> str | None:
    """A posted text, or None when it is over the site's TEXT_MAX_CHARS."""
    value = request.POST.get(name, "")
    return value.replace("\r\n", "\n") if len(value) <= text_limit() else None


def _too_long(name: str) -> JsonResponse:
    return JsonResponse({"error": f"{name} is too long: the limit is {text_limit()} characters "
                                  "(the site's TEXT_MAX_CHARS setting)."}, status=400)


@require_safe
@cache_control(public=True, max_age=86400)
def language(request: HttpRequest) -> JsonResponse:
    # The editor's release and gate overrides, named as the form names them (gate_X=on|off).
    release = request.GET.get("kubernetes_version") or CURRENT_RELEASE
    return JsonResponse(completion_data(release, posted_gates(request.GET, release)))


# Reading an inventory is engine work, so it counts like an analysis.
@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def names(request: HttpRequest) -> JsonResponse:
    inventory_id = request.POST.get("inventory_id", "")
    if inventory_id:
        try:
            return JsonResponse(inventory_names(clusters.inventory_text(inventory_id), engine_limits(stored=True)))
        except clusters.UnknownInventory as exc:
            return JsonResponse({"error": str(exc)}, status=404)
    inventory = _posted_text(request, "inventory")
    if inventory is None:
        return _too_long("inventory")
    return JsonResponse(inventory_names(inventory, engine_limits()))


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def format_text(request: HttpRequest) -> JsonResponse:
    text = _posted_text(request, "text")
    if text is None:
        return _too_long("text")
    try:
        return JsonResponse({"text": format_yaml(text, engine_limits())})
    except DiagnosticError as exc:
        d = exc.diagnostics[0]
        where = f"line {d.line}, column {d.column}: " if d.line else ""
        return JsonResponse({"error": f"Not formatted: {where}{d.detail}", "line": d.line, "column": d.column},
                            status=400)


def _convert_refused(message: str, errors: list[str] | None = None) -> JsonResponse:
    return JsonResponse({"error": message, "errors": errors or []}, status=400)


def _located(diagnostic) -> str:
    where = f"line {diagnostic.line}, column {diagnostic.column}: " if diagnostic.line else ""
    return where + diagnostic.message()


# Reading and converting the documents is engine work: it counts like an analysis.
@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def convert(request: HttpRequest) -> JsonResponse:
    documents = request.POST.get("documents", "").replace("\r\n", "\n")
    if len(documents) > text_limit():
        return _convert_refused(f"The documents are too long: the limit is {text_limit()} characters "
                                "(the site's TEXT_MAX_CHARS setting).")
    version = request.POST.get("kubernetes_version") or CURRENT_RELEASE
    try:
        to = target_version(request.POST.get("to", ""))
        if version not in RELEASES:
            raise FeatureGateError(f"unsupported Kubernetes version {version!r}: choose one of "
                                   f"{', '.join(RELEASES)}", "")
        gates = make_gates(posted_gates(request.POST, version), version)
    except (ValueError, FeatureGateError) as err:
        return _convert_refused(f"Not converted: {err}.")
    try:
        result = convert_documents(documents, to, gates)
    except NotConverted as refused:
        messages = [_located(d) for d in refused.diagnostics[:MAX_CONVERT_ERRORS]]
        return _convert_refused(f"Not converted to {RESOURCE_GROUP}/{to}: {messages[0]}", messages)
    # width: a long expression stays on its line in the editor, not folded onto a continuation line
    text = yaml.safe_dump_all(result.objects, sort_keys=False, default_flow_style=False, allow_unicode=True,
                              width=1_000_000)
    return JsonResponse({"text": text, "apiVersion": result.api_version,
                         "dropped": [d.as_dict() for d in result.dropped]})


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
