"""The editor's helpers: completion data and the Format button, as small JSON views.

``GET /editor/language`` (optional ``kubernetes_version`` and ``gate_<Gate>=on|off``
as the form names them): field names per kind and apiVersion, their one-line
docs, CEL functions and macros as that release with those gates compiles a
new selector (the same for every visitor; cached a day).
``POST /editor/names`` (form field ``inventory``, or ``inventory_id`` of a
stored cluster): the class, driver, node, attribute and capacity names of
that inventory.
``POST /editor/format`` (form field ``text``): ``{"text": formatted}``, or
``400 {"error": "line 3, column 7: ..."}`` when the text cannot be read.
The engine (``allocator.authoring.completion``, ``allocator.reading.formatting``) does the work.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST, require_safe

from allocator.authoring.completion import completion_data, inventory_names
from allocator.reading.diagnostics import DiagnosticError
from allocator.reading.formatting import format_yaml
from allocator.releases.gates import CURRENT_RELEASE
from playground import clusters
from playground.forms import posted_gates
from playground.limits import engine_limits, text_limit
from playground.ratelimit import rate_limit


def _text(request: HttpRequest, name: str) -> str | None:
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
    inventory = _text(request, "inventory")
    if inventory is None:
        return _too_long("inventory")
    return JsonResponse(inventory_names(inventory, engine_limits()))


@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def format_text(request: HttpRequest) -> JsonResponse:
    text = _text(request, "text")
    if text is None:
        return _too_long("text")
    try:
        return JsonResponse({"text": format_yaml(text, engine_limits())})
    except DiagnosticError as exc:
        d = exc.diagnostics[0]
        where = f"line {d.line}, column {d.column}: " if d.line else ""
        return JsonResponse({"error": f"Not formatted: {where}{d.detail}", "line": d.line, "column": d.column},
                            status=400)
