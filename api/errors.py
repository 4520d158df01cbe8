"""One shape for every API failure: ``{"errors": [{kind, name, field, type, detail, line, column}]}``.

Each item has the keys of ``python -m allocator validate -o json``'s entries.
``kind`` and ``name`` name the object an error is in ("" otherwise);
``field`` is a path in the request (``featureGates.DRAFoo``) or, for errors
in the YAML documents, the apiserver's field path; ``type`` is the
apiserver's error type where one fits (``Required value``, ``Invalid
value``...) and otherwise the HTTP status in words (``Not found``);
``line`` and ``column`` (1-based) locate the error in the text sent, when
known. DRF's exceptions and Django's ``Http404`` are rewritten into this
shape by ``exception_handler``, installed as REST_FRAMEWORK's
EXCEPTION_HANDLER.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from allocator.reading.diagnostics import INTERNAL, INVALID, NOT_FOUND, PARSE, REQUIRED, TOO_LONG, UNSUPPORTED
from allocator.releases.gates import FeatureGateError
from playground.budget import BudgetExceeded, analysis_budget

logger = logging.getLogger(__name__)

# DRF validation codes -> the apiserver's field.ErrorType strings.
_VALIDATION_TYPES = {
    "required": REQUIRED,
    "null": REQUIRED,
    "blank": REQUIRED,
    "invalid_choice": UNSUPPORTED,
    "max_length": TOO_LONG,
    "does_not_exist": NOT_FOUND,
}


def error(detail: str, *, type: str = INVALID, field: str = "", line: int | None = None,
          column: int | None = None) -> dict[str, Any]:
    """One item of the ``errors`` list; ``kind`` and ``name`` are set only for errors in an object."""
    return {"kind": "", "name": "", "field": field, "type": type, "detail": detail, "line": line, "column": column}


def status_type(status: int) -> str:
    """The HTTP status in words, as the ``type`` of an error without a better one."""
    if status == 404:
        return NOT_FOUND
    return HTTPStatus(status).phrase.capitalize()


class InvalidInput(exceptions.APIException):
    """400 with errors that are already in the API's shape (located, typed)."""

    status_code = 400
    default_detail = "The input cannot be read."
    default_code = "invalid"

    def __init__(self, errors: list[dict[str, Any]]):
        super().__init__()
        self.errors = errors


class Refused(exceptions.APIException):
    """A request the site's limits refuse (413, 429): ``detail`` names the limit and its setting."""

    def __init__(self, status: int, detail: str, retry_after: int | None = None):
        super().__init__(detail)
        self.status_code = status
        self.wait = retry_after  # DRF's handler turns it into Retry-After


class OutOfTime(exceptions.APIException):
    """503: the analysis's time budget (ANALYSIS_TIME_BUDGET) ran out; the detail says where it stopped."""

    status_code = 503
    default_code = "time_budget_exceeded"

    def __init__(self, err: BudgetExceeded):
        super().__init__(f"The {err.message}.")
        self.claim = err.where.get("claim", "")  # namespace/name of the claim the search was on, if any


@contextmanager
def time_budget() -> Iterator[None]:
    """Run an engine call with the site's time budget; past it, answer 503 (``OutOfTime``), not 500."""
    try:
        with analysis_budget():
            yield
    except BudgetExceeded as err:
        raise OutOfTime(err) from None


def _validation_errors(detail: object, field: str = "") -> Iterator[dict[str, Any]]:
    """Flatten a ValidationError's nested detail into located errors, one per message."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key == "non_field_errors":
                yield from _validation_errors(value, field)
            else:
                yield from _validation_errors(value, f"{field}.{key}" if field else str(key))
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            nested = isinstance(value, dict | list)
            yield from _validation_errors(value, f"{field}[{index}]" if nested else field)
    else:
        code = getattr(detail, "code", "invalid")
        yield error(str(detail), type=_VALIDATION_TYPES.get(code, INVALID), field=field)


def _errors_of(exc: exceptions.APIException) -> list[dict[str, Any]]:
    if isinstance(exc, InvalidInput):
        return exc.errors
    if isinstance(exc, OutOfTime):  # in the claim the search was on, when it was on one
        found = error(str(exc.detail), type=status_type(exc.status_code))
        if exc.claim:
            found.update(kind="ResourceClaim", name=exc.claim.rpartition("/")[2])
        return [found]
    if isinstance(exc, exceptions.ValidationError):
        return list(_validation_errors(exc.detail))
    if isinstance(exc, exceptions.ParseError):
        return [error(str(exc.detail), type=PARSE)]
    return [error(str(exc.detail), type=status_type(exc.status_code))]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's handler (status, headers, rollback), with the body in the error shape; never an HTML 500."""
    if isinstance(exc, FeatureGateError):  # the serializer checks gates first; this is a safety net
        exc = InvalidInput([error(exc.with_hint(), field="featureGates")])
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):  # DRF answers its own exceptions only
        # A bug on our side, not something the client did wrong: log it and
        # still answer in the documented shape.
        logger.error("API error in %s", context.get("view").__class__.__name__, exc_info=exc)
        return Response({"errors": [error("Internal server error.", type=INTERNAL)]}, status=500)
    errors = _errors_of(exc)
    if isinstance(exc, exceptions.UnsupportedMediaType) and hasattr(context.get("view"), "parser_classes"):
        accepted = ", ".join(parser.media_type for parser in context["view"].parser_classes)
        errors[0]["detail"] += f" Send one of: {accepted}."
    response.data = {"errors": errors}
    return response
