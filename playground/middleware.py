from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


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
            return _error(
                413, "Request entity too large", f"Request body too large: {length} bytes, the limit is {limit} bytes."
            )
        return self.get_response(request)


def _error(status: int, type: str, detail: str) -> JsonResponse:
    """``detail``, plus the REST API's error shape (api/errors.py) so API clients parse one format."""
    item = {"kind": "", "name": "", "field": "", "type": type, "detail": detail, "line": None, "column": None}
    return JsonResponse({"detail": detail, "errors": [item]}, status=status)
