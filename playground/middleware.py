from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string


class BodySizeLimitMiddleware:
    """Refuse request bodies larger than DATA_UPLOAD_MAX_MEMORY_SIZE with 413.

    Django checks that limit only when form data or request.body is read;
    parsers that stream the body (DRF's JSON parser) bypass it. Checking the
    declared Content-Length here covers every view before it reads anything.
    (Without a Content-Length, Django's WSGI request reads no body at all.)
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _error(400, "Bad request", "Invalid Content-Length header.")
        if limit is not None and length > limit:
            detail = f"Request body too large: {length} bytes, the limit is {limit} bytes."
            if _wants_page(request):
                return _page(request, detail, limit)
            return _error(413, "Request entity too large", detail)
        return self.get_response(request)


def _wants_page(request: HttpRequest) -> bool:
    """A browser posting one of the pages (not the API) gets an HTML answer."""
    if request.path.startswith("/api/"):
        return False
    return "text/html" in request.META.get("HTTP_ACCEPT", "") or request.headers.get("HX-Request") == "true"


def _page(request: HttpRequest, detail: str, limit: int) -> HttpResponse:
    htmx = request.headers.get("HX-Request") == "true"
    template = "playground/partials/too_large.html" if htmx else "playground/too_large.html"
    return HttpResponse(render_to_string(template, {"detail": detail, "limit": limit}), status=413)


def _error(status: int, type: str, detail: str) -> JsonResponse:
    """``detail``, plus the REST API's error shape (api/errors.py) so API clients parse one format."""
    item = {"kind": "", "name": "", "field": "", "type": type, "detail": detail, "line": None, "column": None}
    return JsonResponse({"detail": detail, "errors": [item]}, status=status)
