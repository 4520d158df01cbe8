"""A bug inside our CEL implementation is never an answer and never a 500: it is a located internal error."""

from collections import OrderedDict
from unittest import mock

from allocator.cel.library import FUNCTIONS
from api.tests.base import CLAIM_YAML, INVENTORY_YAML, APITestCase

SELECTOR = """\
        selectors:
        - cel:
            expression: device.attributes['gpu.example.com'].model.endsWith('100')
"""


def broken(*_args):
    raise AttributeError("'int' object has no attribute 'endswith'")


class CELInternalErrorTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        patches = [mock.patch.object(o, "impl", broken) for o in FUNCTIONS["endsWith"]]
        patches.append(mock.patch("allocator.cel._CACHE", OrderedDict()))  # compile afresh, forget after
        for p in patches:
            p.start()
            self.addCleanup(p.stop)

    def test_allocate_reports_it_as_the_allocator_error(self):
        r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML + SELECTOR, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertIn("selector #0 on device gpu.example.com/worker-1/gpu-0: CEL runtime error: internal error "
                      "in the playground's CEL implementation (AttributeError", body["error"])

    def test_the_page_shows_it(self):
        r = self.client.post("/", {"documents": CLAIM_YAML + SELECTOR, "inventory": INVENTORY_YAML,
                                   "kubernetes_version": "1.37"}, HTTP_HX_REQUEST="true")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "The scheduler would give up")
        self.assertContains(r, "internal error in the playground&#x27;s CEL implementation")
