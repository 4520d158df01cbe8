from api.tests.base import CLAIM_YAML, INVENTORY_YAML, APITestCase
from playground.models import Share


class ShareCreateTestCase(APITestCase):
    def test_it_creates_share_from_json(self):
        r = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML, "inventory": "two-gpus", "node": "worker-1"})
        self.assertEqual(r.status_code, 201, r.content)
        body = r.json()
        self.assertEqual(list(body), ["id", "url"])
        share = Share.objects.get(pk=body["id"])
        self.assertEqual(body["url"], f"http://testserver{share.get_absolute_url()}")
        self.assertEqual(share.documents, CLAIM_YAML)
        self.assertEqual(share.inventory, INVENTORY_YAML)  # the objects themselves, not the slug
        self.assertEqual(share.inventory_slug, "two-gpus")
        self.assertEqual(share.node, "worker-1")

    def test_it_is_idempotent(self):
        body = {"documents": CLAIM_YAML, "inventory": "two-gpus", "featureGates": {"DRAConsumableCapacity": False}}
        first = self.post_json("/api/v1/shares", body)
        again = self.post_json("/api/v1/shares", body)
        self.assertEqual(first.status_code, 201)
        self.assertEqual(again.status_code, 200)
        self.assertEqual(again.json(), first.json())
        self.assertEqual(Share.objects.count(), 1)

    def test_it_gives_same_id_for_yaml_and_json_of_same_state(self):
        first = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML, "inventory": "two-gpus",
                                                  "featureGates": {"DRAConsumableCapacity": False}})
        again = self.post_yaml("/api/v1/shares?inventory=two-gpus&featureGates=DRAConsumableCapacity=false", CLAIM_YAML)
        self.assertEqual(again.status_code, 200, again.content)
        self.assertEqual(again.json()["id"], first.json()["id"])

    def test_it_gives_new_id_for_other_content(self):
        first = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML})
        other = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML + "# changed\n"})
        self.assertEqual(other.status_code, 201)
        self.assertNotEqual(other.json()["id"], first.json()["id"])

    def test_it_refuses_unknown_inventory(self):
        r = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML, "inventory": "nope"})
        self.assertErrors(r, 400, type="Not found", field="inventory")
        self.assertEqual(Share.objects.count(), 0)

    def test_it_refuses_unknown_gate(self):
        r = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML, "featureGates": {"DRANoSuchGate": True}})
        errors = self.assertErrors(r, 400, field="featureGates")
        self.assertEqual(errors[0]["detail"], "unrecognized feature gate: DRANoSuchGate")


class ShareDetailTestCase(APITestCase):
    def test_it_returns_the_state(self):
        created = self.post_json("/api/v1/shares", {
            "documents": CLAIM_YAML, "inventory": "two-gpus", "node": "worker-1", "kubernetesVersion": "1.35",
            "featureGates": {"DRAPrioritizedList": False},
        }).json()
        r = self.client.get(f"/api/v1/shares/{created['id']}")
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertEqual(body["id"], created["id"])
        self.assertEqual(body["url"], created["url"])
        self.assertEqual(body["documents"], CLAIM_YAML)
        self.assertEqual(body["inventory"], INVENTORY_YAML)
        self.assertEqual(body["inventorySlug"], "two-gpus")
        self.assertEqual(body["node"], "worker-1")
        self.assertEqual(body["kubernetesVersion"], "1.35")
        self.assertEqual(body["featureGates"], {"DRAPrioritizedList": False})
        self.assertIn("created", body)

    def test_it_answers_404_for_unknown_id(self):
        self.assertErrors(self.client.get("/api/v1/shares/doesNotExist1"), 404, type="Not found")
