"""The page shows the claim the scheduler generates for extended resources, and its container mapping."""

from allocator.tests.helpers.samples import sample
from playground.models import Example, SampleInventory
from playground.tests.base import BaseTestCase


class ExtendedResourcesTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "gpu-extended-resources"), 9)
        for position, slug in enumerate(["extended-resource-gpus", "extended-resource-init-containers"], start=9):
            Example.objects.update_or_create_from_sample(sample("examples", slug), position)

    def test_it_shows_the_generated_claim_and_mapping(self):
        r = self.client.get("/examples/extended-resource-gpus")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="extended-resources"')
        self.assertContains(r, "<code>nvidia.com/gpu</code>: 2 by DRA", html=False)
        self.assertContains(r, "generateName <code>trainer-extended-resources-</code>", html=False)
        self.assertContains(r, "<td><code>main</code></td><td><code>nvidia.com/gpu</code></td>"
                               "<td><code>container-0-request-0</code></td>", html=False)
        self.assertContains(r, "extendedResourceClaimStatus:")
        self.assertContains(r, "resourceClaimName: trainer-extended-resources-")
        # the node table says why the device plugin node does not fit
        self.assertContains(r, "Insufficient nvidia.com/gpu: the pod asks for 2, the node&#x27;s allocatable has 1")
        # per container: the extended resource, not a pod claim
        self.assertContains(r, 'served by the generated claim trainer-extended-resources-', html=False)
        self.assertContains(r, "nvidia.com/gpu</code> → container-0-request-0", html=False)

    def test_init_container_reuses_devices(self):
        r = self.client.get("/examples/extended-resource-init-containers")
        self.assertContains(r, "<td><code>warmup</code></td><td><code>nvidia.com/gpu</code></td>"
                               "<td><code>container-1-request-0</code></td>", html=False)
        self.assertContains(r, "<td><code>warmup</code></td><td><code>nvidia.com/gpu</code></td>"
                               "<td><code>container-0-request-0</code></td>", html=False)

    def test_no_section_without_extended_resources(self):
        r = self.client.get("/examples/count-two-gpus")
        self.assertNotContains(r, 'id="extended-resources"')
