"""POST /api/v1/inventories: stored cluster snapshots, and naming them in the engine endpoints."""

from __future__ import annotations

import json

from django.test import override_settings

from allocator.synthetic import cluster_json, cluster_yaml
from allocator.tests.helpers import BENCH_CLAIM
from api.tests.base import CLAIM_YAML, INVENTORY_YAML, APITestCase
from playground import clusters
from playground.models import Share, StoredInventory
from playground.services.analyze import analyze
from playground.state import State


class StoreTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        clusters._texts.clear()

    def test_it_stores_yaml_and_answers_the_summary(self):
        r = self.post_yaml("/api/v1/inventories", INVENTORY_YAML)
        self.assertEqual(r.status_code, 201, r.content)
        body = r.json()
        self.assertRegex(body["id"], r"^[0-9A-Za-z]{11}$")
        self.assertEqual(body["url"], f"http://testserver/api/v1/inventories/{body['id']}")
        self.assertEqual({k: body[k] for k in ("nodes", "devices", "drivers", "pools", "deviceClasses",
                                               "resourceSlices", "claims", "bytes")},
                         {"nodes": 1, "devices": 2, "drivers": ["gpu.example.com"], "pools": 1, "deviceClasses": 1,
                          "resourceSlices": 1, "claims": 0, "bytes": len(INVENTORY_YAML)})

    def test_the_same_content_answers_200_and_the_same_id(self):
        first = self.post_yaml("/api/v1/inventories", INVENTORY_YAML).json()
        again = self.post_yaml("/api/v1/inventories", INVENTORY_YAML.replace("\n", "\r\n") + "\n\n")
        self.assertEqual(again.status_code, 200)
        self.assertEqual(again.json()["id"], first["id"])
        wrapped = self.post_json("/api/v1/inventories", {"inventory": INVENTORY_YAML})
        self.assertEqual((wrapped.status_code, wrapped.json()["id"]), (200, first["id"]))
        self.assertEqual(StoredInventory.objects.count(), 1)

    def test_it_stores_kubectl_json(self):
        text = cluster_json(3, gpus_per_node=2)
        r = self.client.post("/api/v1/inventories", data=text, content_type="application/json")
        self.assertEqual(r.status_code, 201, r.content)
        self.assertEqual((r.json()["nodes"], r.json()["devices"]), (3, 6))
        self.assertEqual(clusters.inventory_text(r.json()["id"]), text.rstrip() + "\n")

    def test_snapshots_are_immutable(self):
        stored = StoredInventory.objects.get(pk=self.post_yaml("/api/v1/inventories", INVENTORY_YAML).json()["id"])
        stored.nodes = 5
        with self.assertRaises(ValueError):
            stored.save()

    def test_invalid_objects_are_refused_with_located_errors(self):
        broken = INVENTORY_YAML.replace("  driver: gpu.example.com\n", "  driver: Not A Driver\n")
        errors = self.assertErrors(self.post_yaml("/api/v1/inventories", broken), 400)
        self.assertEqual(errors[0]["kind"], "ResourceSlice")
        self.assertEqual(errors[0]["field"], "spec.driver")
        self.assertEqual(errors[0]["line"], broken.splitlines().index("  driver: Not A Driver") + 1)
        self.assertEqual(StoredInventory.objects.count(), 0)

    def test_yaml_syntax_errors_are_located(self):
        errors = self.assertErrors(self.post_yaml("/api/v1/inventories", "kind: Node\n  bad: [\n"), 400,
                                   type="Parse error")
        self.assertIsNotNone(errors[0]["line"])

    def test_json_syntax_errors_are_located(self):
        r = self.client.post("/api/v1/inventories", data='{"kind": "List",\n "items": [}', content_type="application/json")
        errors = self.assertErrors(r, 400, type="Parse error")
        self.assertEqual((errors[0]["line"], errors[0]["column"]), (2, 12))

    def test_an_empty_body_is_refused(self):
        errors = self.assertErrors(self.post_yaml("/api/v1/inventories", ""), 400)
        self.assertIn("empty", errors[0]["detail"])

    def test_a_wrapped_inventory_must_be_text(self):
        self.assertErrors(self.post_json("/api/v1/inventories", {"inventory": 3}), 400, field="inventory")

    @override_settings(STORED_INVENTORY_MAX_BYTES=100)
    def test_a_snapshot_over_the_size_limit_is_refused_naming_the_setting(self):
        errors = self.assertErrors(self.post_yaml("/api/v1/inventories", INVENTORY_YAML), 413,
                                   type="Request entity too large")
        self.assertIn(f"{len(INVENTORY_YAML)} bytes, the limit is 100 bytes", errors[0]["detail"])
        self.assertIn("STORED_INVENTORY_MAX_BYTES", errors[0]["detail"])

    @override_settings(STORED_INVENTORY_MAX_BYTES=100, DATA_UPLOAD_MAX_MEMORY_SIZE=100)
    def test_a_body_far_over_the_limit_is_refused_before_reading(self):
        r = self.post_yaml("/api/v1/inventories", "#" * (clusters_body_limit() + 1))
        self.assertEqual(r.status_code, 413)  # the middleware's answer: the error shape plus "detail"
        self.assertIn("STORED_INVENTORY_MAX_BYTES", r.json()["errors"][0]["detail"])

    @override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
    def test_a_snapshot_may_be_larger_than_other_bodies(self):
        text = cluster_yaml(4)
        self.assertGreater(len(text), 1000)
        self.assertEqual(self.post_yaml("/api/v1/inventories", text).status_code, 201)
        self.assertEqual(self.post_yaml("/api/v1/validate", text).status_code, 413)

    @override_settings(STORED_INVENTORIES_PER_DAY=2)
    def test_the_count_quota_per_address_answers_429_with_retry_after(self):
        for nodes in (1, 2):
            self.assertEqual(self.post_yaml("/api/v1/inventories", cluster_yaml(nodes)).status_code, 201)
        r = self.post_yaml("/api/v1/inventories", cluster_yaml(3))
        errors = self.assertErrors(r, 429, type="Too many requests")
        self.assertIn("the limit is 2 (the site's STORED_INVENTORIES_PER_DAY setting)", errors[0]["detail"])
        self.assertGreater(int(r["Retry-After"]), 86000)
        # Content stored before is answered whoever asks, without counting.
        self.assertEqual(self.post_yaml("/api/v1/inventories", cluster_yaml(1)).status_code, 200)
        # Another address has its own quota.
        self.assertEqual(self.post_yaml("/api/v1/inventories", cluster_yaml(3), REMOTE_ADDR="10.0.0.9").status_code,
                         201)

    @override_settings(STORED_INVENTORY_BYTES_PER_DAY=10000)
    def test_the_bytes_quota_per_address(self):
        small = cluster_yaml(1)
        self.assertLess(len(small), 10000)
        self.assertEqual(self.post_yaml("/api/v1/inventories", small).status_code, 201)
        errors = self.assertErrors(self.post_yaml("/api/v1/inventories", cluster_yaml(2)), 429)
        self.assertIn("STORED_INVENTORY_BYTES_PER_DAY", errors[0]["detail"])

    def test_the_table_holds_no_addresses(self):
        self.post_yaml("/api/v1/inventories", INVENTORY_YAML, REMOTE_ADDR="192.0.2.7")
        self.assertNotIn("192.0.2.7", StoredInventory.objects.get().client)


def clusters_body_limit() -> int:
    from playground.middleware import store_body_limit
    return store_body_limit()


class RetrieveTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        self.stored = self.post_yaml("/api/v1/inventories", INVENTORY_YAML).json()

    def test_it_returns_the_summary_and_the_text(self):
        r = self.client.get(f"/api/v1/inventories/{self.stored['id']}")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.json(), {**self.stored, "documents": INVENTORY_YAML})

    def test_it_returns_yaml(self):
        r = self.client.get(f"/api/v1/inventories/{self.stored['id']}?format=yaml")
        self.assertEqual(r.content.decode(), INVENTORY_YAML)

    def test_samples_keep_their_route(self):
        self.assertEqual(self.client.get("/api/v1/inventories/two-gpus").json()["slug"], "two-gpus")

    def test_an_unknown_id_is_404(self):
        errors = self.assertErrors(self.client.get("/api/v1/inventories/NoSuchId123"), 404)
        self.assertIn("no stored inventory has that id", errors[0]["detail"])


class NamedInEngineEndpointsTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        self.id = self.post_yaml("/api/v1/inventories", INVENTORY_YAML).json()["id"]

    def test_analyze_reads_the_stored_objects(self):
        by_id = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": self.id}).json()
        by_slug = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": "two-gpus"}).json()
        self.assertEqual(by_id["allocation"]["status"], "allocated")
        self.assertEqual(by_id["allocation"], by_slug["allocation"])

    def test_allocate_with_yaml_body_and_query_parameter(self):
        r = self.post_yaml(f"/api/v1/allocate?inventory={self.id}", CLAIM_YAML)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual((r.json()["allocated"], r.json()["node"]), (True, "worker-1"))

    def test_an_unknown_id_is_a_located_404_type(self):
        errors = self.assertErrors(self.post_json("/api/v1/validate", {"documents": CLAIM_YAML, "inventory": "Zz9"}),
                                   400, type="Not found", field="inventory")
        self.assertIn("POST /api/v1/inventories", errors[0]["detail"])

    def test_a_share_holds_the_id_not_the_text(self):
        r = self.post_json("/api/v1/shares", {"documents": CLAIM_YAML, "inventory": self.id})
        self.assertEqual(r.status_code, 201, r.content)
        share = Share.objects.get(pk=r.json()["id"])
        self.assertEqual((share.inventory_id, share.inventory), (self.id, ""))
        body = self.client.get(f"/api/v1/shares/{share.id}").json()
        self.assertEqual((body["inventoryId"], body["inventory"]), (self.id, ""))
        self.assertEqual(json.loads(json.dumps(body))["documents"], CLAIM_YAML)

    def test_compare_and_alternatives_read_the_stored_objects(self):
        by_id = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": self.id,
                                                   "alternatives": 5}).json()
        self.assertEqual(by_id["allocation"]["alternativesSearch"]["found"], 2)  # either of the 2 GPUs
        body = self.post_json("/api/v1/compare", {"documents": CLAIM_YAML, "inventory": "two-gpus",
                                                  "right": {"inventory": self.id}}).json()
        self.assertEqual(body["right"]["allocation"]["status"], "allocated")
        self.assertEqual(body["right"]["allocation"]["node"], "worker-1")
        self.assertNotIn("allocation.node", {d["path"] for d in body["differences"]})

    def test_a_shared_comparison_keeps_the_stored_id_of_its_compared_column(self):
        state = {"documents": CLAIM_YAML, "inventory": "", "inventorySlug": "",
                 "compare": {"inventoryId": self.id, "inventory": "", "inventorySlug": ""}}
        restored = State.from_dict(state)
        self.assertEqual(restored.compare.inventory_id, self.id)
        self.assertEqual(restored.compared().inventory_id, self.id)
        share, _ = Share.objects.get_or_create_for(restored)
        self.assertEqual(Share.objects.get(pk=share.pk).state(), restored)
        self.assertEqual(analyze(restored.compared()).to_dict()["allocation"]["node"], "worker-1")


class SiteLimitsTestCase(APITestCase):
    """Anonymous text and stored clusters have limits of their own, each named in its refusal."""

    @override_settings(TEXT_MAX_VALUES=300)
    def test_anonymous_text_over_the_values_limit_names_the_setting(self):
        r = self.post_json("/api/v1/validate", {"documents": cluster_yaml(2)})
        details = " ".join(e["detail"] for e in r.json()["errors"])
        self.assertEqual(r.status_code, 400, r.content)
        self.assertIn("more than 300 values", details)
        self.assertIn("TEXT_MAX_VALUES", details)
        self.assertIn("POST /api/v1/inventories", details)

    @override_settings(TEXT_MAX_VALUES=300, TEXT_MAX_CHARS=2000)
    def test_a_stored_cluster_is_read_under_the_stored_limits(self):
        r = self.post_yaml("/api/v1/inventories", cluster_yaml(2))
        self.assertEqual(r.status_code, 201, r.content)
        claim = CLAIM_YAML.replace("gpu.example.com", "gpu.nvidia.com")
        r = self.post_json("/api/v1/allocate", {"documents": claim, "inventory": r.json()["id"]})
        self.assertEqual((r.status_code, r.json().get("allocated")), (200, True), r.content)

    @override_settings(STORED_INVENTORY_MAX_VALUES=300)
    def test_storing_over_the_stored_values_limit_names_that_setting(self):
        errors = self.assertErrors(self.post_yaml("/api/v1/inventories", cluster_yaml(2)), 400)
        self.assertIn("STORED_INVENTORY_MAX_VALUES", errors[0]["detail"])

    @override_settings(TEXT_MAX_CHARS=100)
    def test_documents_over_the_text_limit_name_the_setting(self):
        errors = self.assertErrors(self.post_json("/api/v1/validate", {"documents": CLAIM_YAML}), 400,
                                   field="documents")
        self.assertIn("the limit is 100 (the site's TEXT_MAX_CHARS setting)", errors[0]["detail"])


class NodesSharingOneSearchTestCase(APITestCase):
    """Searching every node of a stored cluster: nodes that look the same share one search
    (``allocator.allocation.node_views``), and each row still reads as that node's own answer."""

    def test_every_row_is_the_answer_of_analyzing_that_node_alone(self):
        stored = self.client.post("/api/v1/inventories", data=cluster_yaml(40), content_type="application/yaml")
        inventory = stored.json()["id"]
        table = self.post_json("/api/v1/analyze", {"documents": BENCH_CLAIM, "inventory": inventory}).json()["nodes"]
        refused = [row for row in table if not row["fits"]]
        self.assertGreater(len(refused), 10)
        for row in refused:
            self.assertEqual(row["proof"]["node"], row["name"])
            self.assertIn(f"on {row['name']} ", row["proof"]["message"])
        for row in (refused[0], refused[len(refused) // 2], refused[-1]):
            alone = self.post_json("/api/v1/analyze", {"documents": BENCH_CLAIM, "inventory": inventory,
                                                       "node": row["name"]}).json()["nodes"]
            self.assertEqual(alone, [row])
