"""Convert on the page: the claims editor's documents rewritten in another resource.k8s.io version.

``POST /editor/convert`` (form fields ``documents``, ``to`` (``v1``, ``resource.k8s.io/v1beta2``...), and the
release and gates as the editor's form names them): ``{"text", "apiVersion", "dropped": [...]}`` where
``dropped`` names each field the target version has no place for (kind, object, field, why), or
``400 {"error", "errors": [...]}`` when the documents cannot be converted (unreadable, or refused by the
chosen release in the target version). The convert service (``playground.services.convert``) does the work,
as for ``POST /api/v1/convert``; the page's script puts the text in the editor as one edit.

``with_rewrites`` gives each "not served" error of the documents the versions the chosen release serves its
kind in, for the "Rewrite in VERSION" buttons beside it.
"""

from __future__ import annotations

import yaml
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from allocator.authoring.conversion import target_version
from allocator.kube.convert import RESOURCE_GROUP, SERVED_VERSIONS
from allocator.reading.diagnostics import NOT_SERVED
from allocator.releases.gates import CURRENT_RELEASE, RELEASES, FeatureGateError, make_gates
from allocator.releases.table import release
from playground.forms import posted_gates
from playground.limits import text_limit
from playground.ratelimit import rate_limit
from playground.services.convert import NotConverted
from playground.services.convert import convert as convert_service
from playground.state import State

MAX_ERRORS = 20
VERSIONS = SERVED_VERSIONS  # the "Convert to" menu: every version of resource.k8s.io, the newest first


def _gates(request: HttpRequest):
    version = request.POST.get("kubernetes_version") or CURRENT_RELEASE
    if version not in RELEASES:
        raise FeatureGateError(f"unsupported Kubernetes version {version!r}: choose one of {', '.join(RELEASES)}", "")
    return make_gates(posted_gates(request.POST, version), version)


def _refused(message: str, errors: list[str] | None = None) -> JsonResponse:
    return JsonResponse({"error": message, "errors": errors or []}, status=400)


# Reading and converting the documents is engine work: it counts like an analysis.
@require_POST
@rate_limit("PAGE_ANALYSES_PER_MINUTE")
def convert(request: HttpRequest) -> JsonResponse:
    documents = request.POST.get("documents", "").replace("\r\n", "\n")
    if len(documents) > text_limit():
        return _refused(f"The documents are too long: the limit is {text_limit()} characters "
                        "(the site's TEXT_MAX_CHARS setting).")
    try:
        to = target_version(request.POST.get("to", ""))
        gates = _gates(request)
    except (ValueError, FeatureGateError) as err:
        return _refused(f"Not converted: {err}.")
    try:
        result = convert_service(documents, to, gates)
    except NotConverted as refused:
        messages = [_located(d) for d in refused.diagnostics[:MAX_ERRORS]]
        return _refused(f"Not converted to {RESOURCE_GROUP}/{to}: {messages[0]}", messages)
    text = yaml.safe_dump_all(result.objects, sort_keys=False, default_flow_style=False, allow_unicode=True)
    return JsonResponse({"text": text, "apiVersion": result.api_version,
                         "dropped": [d.as_dict() for d in result.dropped]})


def _located(diagnostic) -> str:
    where = f"line {diagnostic.line}, column {diagnostic.column}: " if diagnostic.line else ""
    return where + diagnostic.message()


def with_rewrites(errors: list[dict], state: State) -> list[dict]:
    """The errors, each "not served" one of the documents with ``rewrite``: the versions (``v1``...) the chosen
    release serves its kind in, the newest first."""
    if not any(d.get("type") == NOT_SERVED for d in errors):
        return errors
    try:
        gates = state.gates()
    except FeatureGateError:
        return errors
    rel = release(state.kubernetes_version)
    out = []
    for d in errors:
        if d.get("type") == NOT_SERVED and (d.get("source") or "documents") == "documents" and d.get("kind"):
            served = rel.served(d["kind"], gates.enabled)
            d = {**d, "rewrite": list(served)}
        out.append(d)
    return out
