"""A shared base for the API tests: no throttling, a small inventory, helpers."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.test import TestCase, override_settings

from allocator.tests.helpers import cli, write_files
from allocator.tests.helpers.inventory import device, device_class, inventory, node, resource_slice
from playground.models import SampleInventory

# Two GPUs of worker-1, a class for their driver
INVENTORY_YAML = inventory(
    node("worker-1"), device_class("gpu.example.com", "device.driver == 'gpu.example.com'"),
    resource_slice("worker-1-gpus", driver="gpu.example.com", node="worker-1", generation=0, devices=[
        device("gpu-0", attributes={"model": "A100"}, capacity={"memory": "40Gi"}),
        device("gpu-1", attributes={"model": "H100"}, capacity={"memory": "80Gi"})]))

CLAIM_YAML = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
"""

# A request that no device matches.
UNSATISFIABLE_CLAIM_YAML = CLAIM_YAML.replace("one-gpu", "big-gpu") + """\
        selectors:
        - cel:
            expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('100Gi')) >= 0
"""

# spec.devices.requests[0].name is not a DNS label.
INVALID_CLAIM_YAML = CLAIM_YAML.replace("- name: gpu", "- name: Not_A_Label")



def run_cli(command: str, *texts: str, options: tuple[str, ...] = ()) -> tuple[int, dict | None]:
    """Exit status and JSON output of `python -m allocator COMMAND -o json OPTIONS FILE...`, one file per text."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_files(Path(tmp), **{str(index): text for index, text in enumerate(texts)})
        p = cli(command, "-o", "json", *options, *paths)
    return p.returncode, json.loads(p.stdout) if p.stdout.strip() else None


NO_THROTTLING = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None}}


@override_settings(REST_FRAMEWORK=NO_THROTTLING)
class APITestCase(TestCase):
    """Throttling is off here; test_throttling.py turns it on to see a 429."""

    def setUp(self):
        super().setUp()
        self.inventory = SampleInventory.objects.create(
            slug="two-gpus", title="Two GPUs", description="One node with two GPUs.", provenance="written for the tests",
            license="Apache-2.0", kubernetes_version="1.37", tags=["node-local"], objects_yaml=INVENTORY_YAML,
        )

    def post_json(self, path: str, body, **extra):
        return self.client.post(path, data=json.dumps(body), content_type="application/json", **extra)

    def post_yaml(self, path: str, text: str | bytes, content_type: str = "application/yaml", **extra):
        return self.client.post(path, data=text, content_type=content_type, **extra)

    def assertErrors(self, response, status: int, type: str | None = None, field: str | None = None) -> list[dict]:
        """The response has ``status`` and the error shape; returns the errors."""
        self.assertEqual(response.status_code, status, response.content[:2000])
        self.assertTrue(response["Content-Type"].startswith("application/json"), response["Content-Type"])
        body = response.json()
        self.assertEqual(list(body), ["errors"])
        self.assertGreaterEqual(len(body["errors"]), 1)
        for item in body["errors"]:
            self.assertEqual(list(item), ["kind", "name", "field", "type", "detail", "line", "column"])
        if type is not None:
            self.assertIn(type, [e["type"] for e in body["errors"]], body)
        if field is not None:
            self.assertIn(field, [e["field"] for e in body["errors"]], body)
        return body["errors"]


@override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min"}})
class ThrottledAPITestCase(APITestCase):
    """Three requests a minute per address, counted afresh for each test."""

    def setUp(self):
        super().setUp()
        cache.clear()
        self.addCleanup(cache.clear)
