"""Request body parsers: JSON objects, or raw YAML documents as text.

Both turn whatever a client sends into data or a located 400 (never an
exception DRF would answer with 500): bytes that are not text in the
declared charset, JSON syntax errors, JSON nested beyond Python's recursion
limit, numbers too long to convert.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any, NoReturn

from django.conf import settings
from rest_framework.parsers import BaseParser

from allocator.reading.diagnostics import PARSE

from .errors import InvalidInput, error


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character index."""
    return text.count("\n", 0, index) + 1, index - text.rfind("\n", 0, index)


def _decode(raw: bytes, parser_context: Mapping[str, Any] | None) -> str:
    # Django keeps a declared charset only when Python knows it.
    encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode(encoding, "replace")
        line, column = _position(before, len(before))
        raise InvalidInput([error(f"the body is not {encoding} text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                                  type=PARSE, line=line, column=column)]) from None


class JSONParser(BaseParser):
    """A JSON value; DRF's own parser answers 500 to deep nesting and huge numbers."""

    media_type = "application/json"

    # DRF hands any parsed value on as request.data; the stubs want a mapping (a body may be any JSON value).
    def parse(self, stream: IO[bytes], media_type: str | None = None,  # type: ignore[override]
              parser_context: Mapping[str, Any] | None = None) -> object:
        return _loads(_decode(stream.read(), parser_context))


def _loads(text: str) -> object:
    """The JSON value of the text, or a located 400."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InvalidInput([error(f"JSON syntax error: {exc.msg}", type=PARSE, line=exc.lineno,
                                  column=exc.colno)]) from None
    except ValueError as exc:  # NaN, Infinity, or an integer with too many digits
        raise InvalidInput([error(f"JSON error: {exc}", type=PARSE)]) from None
    except RecursionError:
        raise InvalidInput([error("JSON error: nested too deeply", type=PARSE)]) from None


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


class YAMLParser(BaseParser):
    """The body as text: multi-document YAML (or JSON) that the engine reads itself."""

    media_type = "application/yaml"

    # the text itself is request.data (see JSONParser.parse on the stubs)
    def parse(self, stream: IO[bytes], media_type: str | None = None,  # type: ignore[override]
              parser_context: Mapping[str, Any] | None = None) -> str:
        return _decode(stream.read(), parser_context)


class XYAMLParser(YAMLParser):
    media_type = "application/x-yaml"


class TextYAMLParser(YAMLParser):
    media_type = "text/yaml"


YAML_PARSERS = [YAMLParser, XYAMLParser, TextYAMLParser]


class InventoryJSONParser(BaseParser):
    """A cluster's objects as JSON text (``kubectl get -o json``), or ``{"inventory": "<YAML or JSON text>"}``.

    The answer is text either way, for the engine to read as it reads YAML;
    the JSON is parsed here only to answer syntax errors with their position.
    """

    media_type = "application/json"

    # the text itself is request.data (see JSONParser.parse on the stubs)
    def parse(self, stream: IO[bytes], media_type: str | None = None,  # type: ignore[override]
              parser_context: Mapping[str, Any] | None = None) -> str:
        text = _decode(stream.read(), parser_context)
        value = _loads(text)
        if isinstance(value, dict) and set(value) == {"inventory"}:
            if not isinstance(value["inventory"], str):
                raise InvalidInput([error("inventory must be the objects as YAML or JSON text.", field="inventory")])
            return value["inventory"]
        return text

