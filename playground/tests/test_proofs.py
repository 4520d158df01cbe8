"""The page shows which proof decided that claims cannot fit (``allocator.allocation.proofs``)."""

from django.utils.html import escape

from allocator.tests.helpers.proofs import ISSUE, MESSAGE
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX


class ProofPageTestCase(BaseTestCase):
    def test_it_shows_the_proof_of_the_three_claim_pattern(self):
        r = self.client.post("/", self.form_data(inventory_slug="", inventory="", documents=ISSUE, node=""), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, escape(MESSAGE))
        self.assertNotContains(r, "timed out")
