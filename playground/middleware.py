from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.defaultfilters import filesizeformat
from django.template.loader import render_to_string

# Where cluster snapshots are stored: the API and the page's "Use my cluster".
STORE_PATHS = frozenset({"/api/v1/inventories", "/cluster"})


def store_body_limit() -> int:
    """The largest body a store request may have."""
    stored: int = settings.STORED_INVENTORY_MAX_BYTES
    return 2 * stored + 64 * 1024


class BodySizeLimitMiddleware:
    """Refuse request bodies larger than DATA_UPLOAD_MAX_MEMORY_SIZE with 413.

    Django checks that limit only when form data or request.body is read;
    parsers that stream the body (DRF's JSON parser) bypass it. Checking the
    declared Content-Length here covers every view before it reads anything.
    (Without a Content-Length, Django's WSGI request reads no body at all.)

    Storing a cluster snapshot (``STORE_PATHS``) may send more: up to twice
    STORED_INVENTORY_MAX_BYTES (JSON escapes, a form's envelope); the
    snapshot's own size is checked against that setting when it is read.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit, setting = settings.DATA_UPLOAD_MAX_MEMORY_SIZE, "DATA_UPLOAD_MAX_MEMORY_SIZE"
        if request.method == "POST" and request.path in STORE_PATHS:
            limit, setting = max(limit or 0, store_body_limit()), "STORED_INVENTORY_MAX_BYTES"
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _error(400, "Bad request", "Invalid Content-Length header.")
        if limit is not None and length > limit:
            if _wants_page(request):
                return _page(request, length, limit, stored=request.path in STORE_PATHS)
            detail = f"Request body too large: {length} bytes, the limit is {limit} bytes (the site's {setting} setting)."
            return _error(413, "Request entity too large", detail)
        return self.get_response(request)


def _wants_page(request: HttpRequest) -> bool:
    """A browser posting one of the pages (not the API) gets an HTML answer."""
    if request.path.startswith("/api/"):
        return False
    return "text/html" in request.META.get("HTTP_ACCEPT", "") or request.headers.get("HX-Request") == "true"


# A person at the page is told the way that works, not the name of a setting (the API's answer names it).
EDITOR_ADVICE = ("To analyze a large cluster, store it once: open “Use my cluster” above the editor and paste or "
                 "upload it there (or POST it to /api/v1/inventories), then write your claims against it.")
CLUSTER_ADVICE = ("Store only what DRA reads: kubectl get nodes,resourceslices,deviceclasses -o yaml "
                "(or POST it to /api/v1/inventories).")


def _page(request: HttpRequest, length: int, limit: int, stored: bool) -> HttpResponse:
    htmx = request.headers.get("HX-Request") == "true"
    template = "playground/partials/too_large.html" if htmx else "playground/too_large.html"
    what = "a stored cluster" if stored else "the editor's text"
    detail = f"this is {filesizeformat(length)}, over the site's limit of {filesizeformat(limit)} for {what}."
    ctx = {"detail": detail, "advice": CLUSTER_ADVICE if stored else EDITOR_ADVICE, "limit": limit}
    return HttpResponse(render_to_string(template, ctx), status=413)


def _error(status: int, type: str, detail: str) -> JsonResponse:
    """``detail``, plus the REST API's error shape (api/errors.py) so API clients parse one format."""
    item = {"kind": "", "name": "", "field": "", "type": type, "detail": detail, "line": None, "column": None}
    return JsonResponse({"detail": detail, "errors": [item]}, status=status)
