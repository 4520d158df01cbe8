"""The results say which objects were read as stored (issue 33 item 4)."""

from allocator.tests.helpers.stored_objects import CREATED, STORED, claim, first_available, inventory
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX


class StoredObjectsTestCase(BaseTestCase):
    def _post(self, metadata: str, **overrides):
        return self.client.post("/", self.form_data(
            inventory_slug="", inventory=inventory("v1"), documents=claim("v1", metadata, first_available("v1")),
            node="n1", kubernetes_version="1.34", **overrides), headers=HTMX)

    def test_a_claim_read_from_a_cluster_is_noted_in_the_validation_section(self):
        r = self._post(STORED)
        html = r.content.decode()
        self.assertIn('<p id="stored-objects" class="hint">Read as stored: created earlier in the cluster '
                      "(ResourceClaim <code>default/c</code>).", html)
        # In the validation section, after its verdict.
        section = html.split('<section id="diagnostics"', 1)[1].split("</section>", 1)[0]
        self.assertIn('id="stored-objects"', section)

    def test_with_the_gate_off_the_scheduler_refuses_it_and_the_note_stays(self):
        r = self._post(STORED, gate_DRAPrioritizedList="off")
        self.assertContains(r, "has subrequests, but the DRAPrioritizedList feature is disabled")
        self.assertContains(r, 'id="stored-objects"')

    def test_no_note_for_objects_written_here(self):
        r = self._post(CREATED)
        self.assertNotContains(r, 'id="stored-objects"')
