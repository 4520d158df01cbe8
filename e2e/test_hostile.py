"""Hostile input against the server as deployed (gunicorn, DEBUG off): every
request gets a clear answer quickly enough, and the server keeps serving.

The Django tests (api/tests/test_errors.py, playground/tests/test_security_*.py)
cover each kind of input in depth in-process; these send the worst of them
over HTTP, where a hung or crashed worker would show.
"""

from __future__ import annotations

import http.client
import re
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from e2e.helpers import Server, http_call, replace_text, summary

pytestmark = pytest.mark.e2e

FIFTY_MB = 50 * 1024 * 1024
GAVE_UP = re.compile("search limit reached after 1000000 steps|timed out trying to allocate devices")
DEVICES = 31
NUMA_NODES = 15  # the devices' NUMA values: one fewer than the requests below


def backtracking_inventory() -> str:
    """One node with 31 GPUs on 15 NUMA nodes (two or three each)."""
    devices = "".join(f"  - name: gpu-{i}\n    attributes:\n      numa: {{int: {i % NUMA_NODES}}}\n"
                      for i in range(DEVICES))
    return f"""\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: gpu}}
spec:
  selectors: [{{cel: {{expression: 'device.driver == "gpu.example.com"'}}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: node-0-gpus}}
spec:
  driver: gpu.example.com
  nodeName: node-0
  pool: {{name: node-0, generation: 1, resourceSliceCount: 1}}
  devices:
{devices}"""


# Sixteen one-GPU requests whose GPUs must all be on different NUMA nodes:
# there are 15, but no proof of impossibility covers distinctAttribute, so
# the search walks the assignments until its bound, as upstream's would.
GREEDY_CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: greedy}
spec:
  devices:
    requests:
""" + "".join(f"    - name: gpu-{i}\n      exactly: {{deviceClassName: gpu}}\n" for i in range(NUMA_NODES + 1)) + """\
    constraints:
    - distinctAttribute: gpu.example.com/numa
"""


def post(server: Server, path: str, body: dict | bytes, content_type: str = "application/json") -> tuple[int, dict]:
    status, answer = http_call("POST", server.url + path, body, content_type)
    assert isinstance(answer, dict), answer
    return status, answer


def assert_healthy(server: Server) -> None:
    with urllib.request.urlopen(server.url + "/healthz", timeout=10) as r:
        assert r.status == 200
    assert server.process.poll() is None


def test_a_50_mb_body_gets_413_without_being_read(server: Server):
    url = urlsplit(server.url)
    for path in ("/api/v1/analyze", "/"):
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            connection.putrequest("POST", path)
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(FIFTY_MB))
            connection.endheaders()
            # Send the first megabyte only: the answer must come from the
            # headers alone, not after reading (or waiting for) 50 MB.
            connection.send(b"x" * (1024 * 1024))
            response = connection.getresponse()
            assert response.status == 413, path
            assert b"too large" in response.read()
        finally:
            connection.close()
    assert_healthy(server)


def test_ten_thousand_objects_and_an_alias_bomb_get_answers(server: Server):
    # 10,000 claims from one anchor: each one invalid (no name).
    documents = "- &c {apiVersion: resource.k8s.io/v1, kind: ResourceClaim}\n" + "- *c\n" * 9_999
    documents = "apiVersion: v1\nkind: List\nitems:\n" + documents
    status, answer = post(server, "/api/v1/validate", {"documents": documents})
    assert status == 200
    assert answer["valid"] is False
    assert answer["errors"][0]["detail"].startswith("name or generateName is required")

    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    status, answer = post(server, "/api/v1/analyze", bomb.encode(), "application/yaml")
    # The body was read; the documents in it are what is wrong, located.
    assert status == 200 and answer["valid"] is False
    [error] = answer["diagnostics"]
    # Said as what it is, at the first list that uses an alias; no site setting, no "store your cluster".
    assert error["detail"].startswith("YAML aliases expand to more than 200000 values (an alias bomb): "), error
    assert "setting" not in error["detail"] and "cluster" not in error["detail"]
    assert (error["line"], error["column"]) == (2, 4)
    assert_healthy(server)


def test_cel_built_to_run_forever_is_refused_before_it_runs(server: Server):
    # Ten million iterations of a regular expression, if it ever ran.
    forever = "".join(f"[1,2,3,4,5,6,7,8,9,10].all(v{i}, " for i in range(7))
    forever += "device.attributes['x'].s.matches('^(a+)+$')" + ")" * 7
    documents = f"""\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: forever}}
spec:
  selectors:
  - cel:
      expression: "{forever}"
"""
    started = time.monotonic()
    status, answer = post(server, "/api/v1/validate", {"documents": documents})
    assert status == 200 and answer["valid"] is False
    [error] = answer["errors"]
    assert error["field"] == "spec.selectors[0].cel.expression"
    assert "cost limit" in error["detail"]
    assert error["line"] == 7
    assert time.monotonic() - started < 20
    assert_healthy(server)


def test_an_exponential_search_stops_at_the_limit_with_a_clear_message(server: Server):
    started = time.monotonic()
    status, answer = post(server, "/api/v1/allocate?node=node-0",
                          (backtracking_inventory() + "---\n" + GREEDY_CLAIM).encode(), "application/yaml")
    elapsed = time.monotonic() - started
    assert status == 200, answer
    assert answer["allocated"] is False
    # Bounded by the step budget or, on a slow machine, by the scheduler's 10 s
    # filter timeout first; either way well inside gunicorn's 30 s.
    assert any(GAVE_UP.search(reason) for reason in map(str, answer["reasons"])), answer["reasons"]
    assert elapsed < 25
    assert_healthy(server)


def test_the_page_says_when_the_search_limit_is_reached(page: Page, server: Server):
    page.goto("/")
    page.get_by_label("Sample inventory").select_option("")
    replace_text(page, backtracking_inventory(), name="inventory")
    replace_text(page, GREEDY_CLAIM)
    # The answer takes seconds to come: the search runs until its bound.
    expect(summary(page)).to_contain_text(GAVE_UP, timeout=40_000)
    expect(summary(page)).to_contain_text("The scheduler would give up")
    assert_healthy(server)
