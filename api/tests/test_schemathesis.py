"""Property-based tests of the REST API against its own OpenAPI schema (schemathesis).

schemathesis reads `/api/schema/` from the Django application itself (WSGI,
in this process, on the test database with the sample inventories and
examples) and, for every operation, sends requests generated from the
schema: valid ones and, in the negative phase, ones the schema forbids. Every
answer must be no 5xx, a status code, content type, headers and body that
the schema declares. The run is bounded (few examples per operation, no
deadline) so it stays well under two minutes; `SCHEMATHESIS_MAX_EXAMPLES`
raises it for a longer hunt.
"""

from __future__ import annotations

import os
from io import StringIO

import pytest
import schemathesis
import yaml
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.media_types import YAML_MEDIA_TYPES
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.tests.base import NO_THROTTLING
from playground.wsgi import application


@schemathesis.deserializer(*YAML_MEDIA_TYPES)  # every name of YAML, or schemathesis' own reader answers first
def yaml_answer(ctx, response) -> object:
    """An answer in YAML as ``api.renderers.YAMLRenderer`` writes it: an inventory's documents as text (a
    stream of several documents, which the schema declares as a string), or an error as one document.
    Schemathesis' own reader takes one document and refuses a stream."""
    text = response.content.decode(response.encoding or "utf-8")
    if response.status_code >= 400:
        return yaml.safe_load(text)
    list(yaml.safe_load_all(text))  # raises on text that is not YAML: the check reports it
    return text


MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "25"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def run_operation(operation, mode: GenerationMode) -> str | None:
    """Send MAX_EXAMPLES generated requests to one operation; the first failure, shrunk, or None."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    def check(case):
        case.call_and_validate(checks=CHECKS)

    try:
        check()
    except Unsatisfiable:
        # Nothing the schema forbids can be sent (no parameters, or only a
        # free-form path string): the negative phase has no case to run.
        assert mode is GenerationMode.NEGATIVE, operation.path
    except Exception as exc:  # schemathesis' FailureGroup, or any error while calling
        return f"{operation.method.upper()} {operation.path} ({mode}): {exc}"
    return None


@pytest.fixture
def keep_connections():
    """Calls through the WSGI handler (not Django's test client) would close the
    database connection at each request's start and end, and with it the test's
    transaction (PostgreSQL; SQLite's in-memory test database ignores it).
    Django's test client detaches the same handler."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def test_the_api_conforms_to_its_schema(db, settings, keep_connections):
    settings.REST_FRAMEWORK = NO_THROTTLING
    settings.ALLOWED_HOSTS = ["localhost"]  # the host schemathesis sends
    call_command("load_samples", stdout=StringIO())
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 9, [f"{o.method} {o.path}" for o in operations]
    failures = [
        failure
        for operation in operations
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        if (failure := run_operation(operation, mode))
    ]
    assert not failures, "\n\n".join(failures)


def test_a_path_with_a_newline_gets_the_apis_404(client, db):
    # Found by the run above: `.` in the catch-all route did not match a newline,
    # so such paths fell through to Django's HTML 404.
    for path in ["/api/v1/inventories/a%0Ab", "/api/v1/shares/%0A", "/api/v1/%0Ax"]:
        r = client.get(path)
        assert r.status_code == 404, path
        assert r["Content-Type"] == "application/json", path
        assert r.json()["errors"][0]["type"] == "Not found", path
    # The catch-all stays reversible, so the URLs in answers (reverse()) still work.
    call_command("load_samples", stdout=StringIO())
    r = client.get("/api/v1/examples")
    assert r.status_code == 200 and r.json()[0]["url"].startswith("http://testserver/api/v1/examples/")


def test_nul_bytes_get_a_4xx_not_a_database_error(client, db):
    # Found by the run above on PostgreSQL, which refuses NUL in query text.
    call_command("load_samples", stdout=StringIO())
    for path in ["/api/v1/shares/%00", "/api/v1/shares/abc%00", "/api/v1/inventories/%00", "/api/v1/examples/a%00"]:
        assert client.get(path).status_code == 404, path
    for endpoint in ["validate", "allocate", "analyze", "shares"]:
        r = client.post(f"/api/v1/{endpoint}", {"documents": "", "inventory": "gpu-node\x00"},
                        content_type="application/json")
        assert r.status_code == 400, endpoint
        assert r.json()["errors"][0]["field"] == "inventory", endpoint
        r = client.post(f"/api/v1/{endpoint}?inventory=%00", "kind: x\x00", content_type="application/yaml")
        assert r.status_code == 400, endpoint


def test_a_samples_yaml_answer_conforms(db, settings, keep_connections):
    # Found by the run above once unrelated code changed: Hypothesis also draws strings from the project's
    # own literals, so the cases of the derandomized run move with any edit anywhere, and one drew a real
    # slug, whose YAML answer (several documents) schemathesis' reader refused (``yaml_answer``). That
    # answer is checked here on every run, not left to a draw.
    settings.REST_FRAMEWORK = NO_THROTTLING
    settings.ALLOWED_HOSTS = ["localhost"]
    call_command("load_samples", stdout=StringIO())
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    operation = schema["/api/v1/inventories/{slug}"]["GET"]
    for slug in ("gpu-node", "mixed-cluster"):
        case = operation.Case(path_parameters={"slug": slug}, query={"format": "yaml"})
        response = case.call_and_validate(checks=CHECKS)
        assert response.text.count("\n---\n") > 0, slug  # several documents
