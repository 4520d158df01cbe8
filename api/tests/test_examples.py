from api.tests.base import CLAIM_YAML, APITestCase
from playground.models import Example


class ExampleTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        self.example = Example.objects.create(
            slug="one-gpu", title="One GPU", description="The simplest claim.", inventory=self.inventory,
            documents=CLAIM_YAML, node="worker-1", feature_gates={"DRADeviceTaints": False},
            kubernetes_version="1.36", tags=["basic"], expected={"allocated": True},
        )

    def test_it_lists_examples(self):
        r = self.client.get("/api/v1/examples")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.json(), [{
            "slug": "one-gpu", "title": "One GPU", "description": "The simplest claim.", "inventory": "two-gpus",
            "node": "worker-1", "featureGates": {"DRADeviceTaints": False}, "kubernetesVersion": "1.36",
            "tags": ["basic"], "url": "http://testserver/api/v1/examples/one-gpu",
        }])

    def test_it_returns_one_example_with_documents_and_expectation(self):
        r = self.client.get("/api/v1/examples/one-gpu")
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertEqual(body["documents"], CLAIM_YAML)
        self.assertEqual(body["expected"], {"allocated": True})
        self.assertEqual(body["inventory"], "two-gpus")

    def test_it_answers_404_for_unknown_slug(self):
        self.assertErrors(self.client.get("/api/v1/examples/nope"), 404, type="Not found")

    def test_it_can_be_allocated_as_listed(self):
        # What an example lists is what the engine endpoints take.
        body = {k: v for k, v in self.client.get("/api/v1/examples/one-gpu").json().items()
                if k in ("documents", "inventory", "node", "featureGates", "kubernetesVersion")}
        r = self.post_json("/api/v1/allocate", body)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertTrue(r.json()["allocated"])
