import yaml

from api.tests.base import INVENTORY_YAML, APITestCase
from playground.models import SampleInventory


class InventoryListTestCase(APITestCase):
    def test_it_lists_inventories_in_picker_order(self):
        SampleInventory.objects.create(slug="first", title="First", objects_yaml="", position=0)
        self.inventory.position = 1
        self.inventory.save()
        r = self.client.get("/api/v1/inventories")
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertEqual([i["slug"] for i in body], ["first", "two-gpus"])
        self.assertEqual(body[1], {
            "slug": "two-gpus", "title": "Two GPUs", "description": "One node with two GPUs.",
            "provenance": "written for the tests", "license": "Apache-2.0", "kubernetesVersion": "1.37",
            "tags": ["node-local"], "url": "http://testserver/api/v1/inventories/two-gpus",
        })
        self.assertNotIn("documents", body[1])

    def test_it_refuses_put(self):
        r = self.client.put("/api/v1/inventories", data="{}", content_type="application/json")
        self.assertErrors(r, 405, type="Method not allowed")


class InventoryDetailTestCase(APITestCase):
    def test_it_returns_json_with_documents(self):
        r = self.client.get("/api/v1/inventories/two-gpus")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r["Content-Type"], "application/json")
        body = r.json()
        self.assertEqual(body["slug"], "two-gpus")
        self.assertEqual(body["documents"], INVENTORY_YAML)

    def test_it_returns_yaml_with_format_parameter(self):
        r = self.client.get("/api/v1/inventories/two-gpus?format=yaml")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r["Content-Type"], "application/yaml; charset=utf-8")
        self.assertEqual(r.content.decode(), INVENTORY_YAML)
        kinds = [doc["kind"] for doc in yaml.safe_load_all(r.content)]
        self.assertEqual(kinds, ["Node", "DeviceClass", "ResourceSlice"])

    def test_it_returns_yaml_with_accept_header(self):
        r = self.client.get("/api/v1/inventories/two-gpus", HTTP_ACCEPT="application/yaml")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.content.decode(), INVENTORY_YAML)

    def test_it_prefers_json_by_default(self):
        r = self.client.get("/api/v1/inventories/two-gpus", HTTP_ACCEPT="*/*")
        self.assertEqual(r["Content-Type"], "application/json")

    def test_it_answers_404_for_unknown_slug(self):
        errors = self.assertErrors(self.client.get("/api/v1/inventories/no-such"), 404, type="Not found")
        self.assertEqual(errors[0]["detail"], "No sample inventory has the slug 'no-such' and no stored inventory "
                                              "has that id.")

    def test_it_answers_404_in_yaml_when_yaml_was_asked(self):
        r = self.client.get("/api/v1/inventories/no-such?format=yaml")
        self.assertEqual(r.status_code, 404)
        self.assertEqual(yaml.safe_load(r.content)["errors"][0]["type"], "Not found")

    def test_it_answers_406_for_unknown_accept(self):
        r = self.client.get("/api/v1/inventories/two-gpus", HTTP_ACCEPT="text/html")
        self.assertEqual(r.status_code, 406)
        self.assertEqual(r.json()["errors"][0]["type"], "Not acceptable")
