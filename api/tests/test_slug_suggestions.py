"""A mistyped sample inventory or example slug in the API gets the nearest slugs (did you mean ...)."""

from api.tests.base import CLAIM_YAML, APITestCase
from playground.models import Example


class SlugSuggestionsTestCase(APITestCase):
    def test_a_mistyped_inventory_in_a_request_names_the_nearest_sample(self):
        r = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": "two-gpu"})
        self.assertEqual(r.status_code, 400, r.content)
        [error] = r.json()["errors"]
        self.assertEqual(error["field"], "inventory")
        self.assertIn("No sample inventory has the slug 'two-gpu' and no stored inventory has that id "
                      "(did you mean 'two-gpus'", error["detail"])

    def test_a_mistyped_inventory_or_example_url_names_the_nearest(self):
        r = self.client.get("/api/v1/inventories/two-gpu")
        self.assertEqual(r.status_code, 404)
        self.assertIn("(did you mean 'two-gpus'", r.content.decode())
        slug = Example.objects.create(slug="one-gpu", title="One GPU", inventory=self.inventory,
                                      documents=CLAIM_YAML, expected={"allocated": True}).slug
        r = self.client.get(f"/api/v1/examples/{slug[:-1]}")
        self.assertEqual(r.status_code, 404)
        self.assertIn(f"(did you mean '{slug}'", r.content.decode())
        self.assertEqual(self.client.get(f"/api/v1/examples/{slug}").status_code, 200)

    def test_nothing_near_says_nothing_more(self):
        r = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": "zzzzzzzz"})
        self.assertNotIn("did you mean", r.json()["errors"][0]["detail"])
