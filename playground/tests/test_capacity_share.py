"""A share (or an import) brings back How many fit?'s result, not only its settings (issue 36, item 8): the
panel's ``shown`` says the result was on screen; states without it keep their ids."""

import yaml
from django.core.files.uploadedfile import SimpleUploadedFile

from playground.models import Share
from playground.state import State, StateError
from playground.tests.base import BaseTestCase


class CapacityShareTestCase(BaseTestCase):
    def test_a_share_made_with_the_result_on_screen_shows_it_again(self):
        r = self.client.post("/share", self.form_data(capacity_max="2", capacity_shown="1"))
        share = Share.objects.get()
        self.assertEqual(share.capacity, {"max": 2, "strategy": "first", "shown": True})
        page = self.client.get(r["Location"])
        self.assertContains(page, '<span id="capacity-placed">2</span> copies placed', html=False)
        self.assertContains(page, 'id="id_capacity_shown" form="playground-form" value="1"', html=False)

    def test_as_many_as_fit_at_the_defaults_is_kept_too(self):
        r = self.client.post("/share", self.form_data(capacity_shown="1"))
        self.assertEqual(Share.objects.get().capacity, {"max": None, "strategy": "first", "shown": True})
        page = self.client.get(r["Location"])
        self.assertContains(page, '<span id="capacity-placed">4</span> copies placed', html=False)

    def test_without_the_result_only_the_settings_and_the_id_as_before(self):
        r = self.client.post("/share", self.form_data(capacity_max="2"))
        share = Share.objects.get()
        self.assertEqual(share.capacity, {"max": 2, "strategy": "first"})
        self.assertNotContains(self.client.get(r["Location"]), 'id="capacity-placed"')
        base = State.from_dict({**self.example.state().to_dict(), "capacity": {"max": 2}})
        self.assertEqual(share.id, base.content_id())
        shown = State.from_dict({**self.example.state().to_dict(), "capacity": {"max": 2, "shown": True}})
        self.assertNotEqual(shown.content_id(), base.content_id())

    def test_an_export_and_its_import_keep_the_result(self):
        exported = self.client.post("/export", self.form_data(capacity_max="1", capacity_shown="1")).content
        self.assertEqual(yaml.safe_load(exported)["capacity"], {"max": 1, "strategy": "first", "shown": True})
        page = self.client.post("/import", {"state_file": SimpleUploadedFile("s.yaml", exported)})
        self.assertContains(page, '<span id="capacity-placed">1</span> copy placed', html=False)

    def test_a_bad_shown_is_refused_by_name(self):
        with self.assertRaisesMessage(StateError, "capacity.shown must be true or false"):
            State.from_dict({**self.example.state().to_dict(), "capacity": {"shown": "maybe"}})


SHARED_CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: gpu-pair
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
---
apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  resourceClaims:
  - name: gpus
    resourceClaimName: gpu-pair
  containers:
  - name: trainer
    image: registry.k8s.io/pause:3.10
    resources:
      claims:
      - name: gpus
"""


class SharedClaimCapacityTestCase(BaseTestCase):
    """How many fit? on pods that all share one claim (the default starter) says why the count is the maximum."""

    def test_copies_sharing_their_claim_are_said_to_need_no_devices(self):
        r = self.client.post("/capacity", self.form_data(documents=SHARED_CLAIM, capacity_max="5"),
                             headers={"HX-Request": "true", "HX-Target": "capacity-result"})
        self.assertContains(r, '<span id="capacity-placed">5</span> copies placed', html=False)
        self.assertContains(r, 'id="capacity-shared"')
        self.assertContains(r, "<code>gpu-pair</code> (named by <code>resourceClaimName</code>)", html=False)

    def test_copies_with_claims_of_their_own_are_not(self):
        r = self.client.post("/capacity", self.form_data(), headers={"HX-Request": "true",
                                                                     "HX-Target": "capacity-result"})
        self.assertContains(r, '<span id="capacity-placed">4</span> copies placed', html=False)
        self.assertNotContains(r, 'id="capacity-shared"')


class DefaultStarterCapacityTestCase(BaseTestCase):
    def test_the_default_starter_s_copies_fill_the_node(self):
        """The page's first example makes a claim per pod from a template: How many fit? answers with the node's
        GPUs (8, two a copy), not the site's maximum."""
        example = self.example.__class__.objects.get(slug="per-container-requests")
        r = self.client.post("/capacity", self.form_data(documents=example.documents),
                             headers={"HX-Request": "true", "HX-Target": "capacity-result"})
        self.assertContains(r, '<span id="capacity-placed">4</span> copies placed', html=False)
        self.assertContains(r, "copy 5 fits on no node")
        self.assertNotContains(r, 'id="capacity-shared"')
