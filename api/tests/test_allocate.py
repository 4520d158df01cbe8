from django.core.management import call_command

from api.tests.base import (
    CLAIM_YAML,
    INVALID_CLAIM_YAML,
    INVENTORY_YAML,
    UNSATISFIABLE_CLAIM_YAML,
    APITestCase,
    run_cli,
)
from playground.models import Example


class AllocateTestCase(APITestCase):
    def test_it_allocates_claim_sent_as_json(self):
        r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(list(body), ["allocated", "node", "claims", "reasons", "error"])
        self.assertTrue(body["allocated"])
        self.assertEqual(body["node"], "worker-1")
        self.assertEqual(body["reasons"], [])
        self.assertIsNone(body["error"])
        [claim] = body["claims"]
        self.assertEqual(claim["metadata"], {"name": "one-gpu", "namespace": "default"})
        self.assertEqual(claim["status"]["allocation"]["devices"]["results"], [
            {"request": "gpu", "driver": "gpu.example.com", "pool": "worker-1", "device": "gpu-0"},
        ])

    def test_it_allocates_claim_sent_as_yaml_with_query_parameters(self):
        r = self.post_yaml("/api/v1/allocate?inventory=two-gpus&node=worker-1&kubernetesVersion=1.36"
                           "&featureGates=DRAPrioritizedList=false,DRADeviceTaints=false", CLAIM_YAML)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertTrue(r.json()["allocated"])
        self.assertEqual(r.json()["node"], "worker-1")

    def test_it_combines_documents_with_inventory(self):
        # Without the inventory there is no device at all.
        r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML})
        self.assertEqual(r.status_code, 200)
        self.assertFalse(r.json()["allocated"])
        # The same objects inline work like the named inventory.
        r = self.post_json("/api/v1/allocate", {"documents": INVENTORY_YAML + "---\n" + CLAIM_YAML})
        self.assertTrue(r.json()["allocated"])

    def test_it_explains_unsatisfiable_claim(self):
        r = self.post_json("/api/v1/allocate", {"documents": UNSATISFIABLE_CLAIM_YAML, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertEqual(body["claims"], [])
        self.assertTrue(body["reasons"])
        self.assertIsNone(body["error"])

    def test_it_reports_allocator_error(self):
        documents = CLAIM_YAML.replace("deviceClassName: gpu.example.com", "deviceClassName: tpu.example.com")
        r = self.post_json("/api/v1/allocate", {"documents": documents, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertIn("could not retrieve device class tpu.example.com", body["error"])
        self.assertEqual(body["reasons"], [body["error"]])

    def test_it_answers_unknown_node_with_reasons(self):
        r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML, "inventory": "two-gpus", "node": "nope"})
        self.assertEqual(r.status_code, 200)
        self.assertFalse(r.json()["allocated"])

    def test_it_refuses_invalid_objects_with_their_errors(self):
        r = self.post_json("/api/v1/allocate", {"documents": INVALID_CLAIM_YAML, "inventory": "two-gpus"})
        [error] = self.assertErrors(r, 400, type="Invalid value", field="spec.devices.requests[0].name")
        self.assertEqual((error["kind"], error["name"], error["line"]), ("ResourceClaim", "one-gpu", 8))

    def test_it_refuses_unreadable_yaml(self):
        self.assertErrors(self.post_yaml("/api/v1/allocate", "kind: [unclosed\n"), 400, type="Parse error")

    def test_it_refuses_unknown_inventory(self):
        r = self.post_yaml("/api/v1/allocate?inventory=no-such", CLAIM_YAML)
        self.assertErrors(r, 400, type="Not found", field="inventory")

    def test_it_refuses_bad_options(self):
        cases = [
            ({"featureGates": {"DRANoSuchGate": True}}, "featureGates"),
            ({"featureGates": "DRAAdminAccess"}, "featureGates"),
            ({"featureGates": {"DRAAdminAccess": "maybe"}}, "featureGates.DRAAdminAccess"),
            ({"featureGates": {"DRAListTypeAttributes": True}, "kubernetesVersion": "1.33"}, "featureGates"),
            ({"kubernetesVersion": "1.99"}, "kubernetesVersion"),
            ({"node": 7}, "node"),
            ({"inventory": ["two-gpus"]}, "inventory"),
        ]
        for options, field in cases:
            with self.subTest(options):
                r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML, **options})
                self.assertErrors(r, 400, field=field)

    def test_a_misspelt_gate_is_refused_with_the_gate_it_resembles(self):
        for gates in ("DRAPrioritzedList=true", {"DRAPrioritzedList": True}):
            with self.subTest(gates=gates):
                r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML, "inventory": "two-gpus",
                                                        "featureGates": gates})
                [error] = self.assertErrors(r, 400, field="featureGates")
                self.assertEqual(error["detail"], 'unrecognized feature gate: DRAPrioritzedList '
                                                  '(did you mean "DRAPrioritizedList"?)')

    def test_it_refuses_bad_query_gates(self):
        r = self.post_yaml("/api/v1/allocate?featureGates=DRAAdminAccess=maybe", CLAIM_YAML)
        [error] = self.assertErrors(r, 400, field="featureGates")
        self.assertIn("invalid value of DRAAdminAccess=maybe", error["detail"])


class AllocateAgreesWithCLITestCase(APITestCase):
    """The API's claims are what `python -m allocator allocate -o json` prints for the same input."""

    def assertAgrees(self, documents: str, inventory: str, node: str | None = None, gates: dict | None = None,
                     version: str | None = None):
        gates = gates or {}
        r = self.post_json("/api/v1/allocate", {"documents": documents, "inventory": inventory, "node": node,
                                                "featureGates": gates,
                                                **({"kubernetesVersion": version} if version else {})})
        text = self.inventory_yaml(inventory) + "---\n" + documents
        options = ("--feature-gates", ",".join(f"{k}={str(v).lower()}" for k, v in gates.items()))
        options += ("--kubernetes-version", version) if version else ()
        code, printed = run_cli("allocate", text, options=options + (("--node", node) if node else ()))
        if version and r.status_code == 400:  # refused as the release's apiserver refuses it: so does the CLI
            self.assertEqual(code, 2, printed)
            return {"allocated": False, "error": r.json()["errors"][0]["detail"]}
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(code, 0 if body["allocated"] else 2 if body["error"] else 1, printed)
        if body["allocated"]:
            self.assertEqual(body["claims"], printed["claims"])
            self.assertEqual(body["node"], printed["node"])
        return body

    def inventory_yaml(self, slug: str) -> str:
        return self.client.get(f"/api/v1/inventories/{slug}?format=yaml").content.decode()

    def test_it_agrees_on_simple_claim(self):
        self.assertTrue(self.assertAgrees(CLAIM_YAML, "two-gpus")["allocated"])
        self.assertTrue(self.assertAgrees(CLAIM_YAML, "two-gpus", node="worker-1")["allocated"])

    def test_it_agrees_on_a_v1beta1_claim_printed_as_v1beta1(self):
        documents = CLAIM_YAML.replace("resource.k8s.io/v1\n", "resource.k8s.io/v1beta1\n")
        documents = documents.replace("      exactly:\n        deviceClassName", "      deviceClassName")
        body = self.assertAgrees(documents, "two-gpus")
        [claim] = body["claims"]
        self.assertEqual(claim["apiVersion"], "resource.k8s.io/v1beta1")
        self.assertNotIn("exactly", claim["spec"]["devices"]["requests"][0])

    def test_it_agrees_on_unsatisfiable_claim(self):
        self.assertFalse(self.assertAgrees(UNSATISFIABLE_CLAIM_YAML, "two-gpus", node="worker-1")["allocated"])

    def test_it_agrees_on_gallery_examples(self):
        call_command("load_samples", verbosity=0)
        outcomes = set()
        for example in Example.objects.with_inventory():
            kinds = {o["kind"] for o in self.post_json("/api/v1/analyze", {"documents": example.documents}).json()[
                "objects"]}
            if "Pod" in kinds or "ResourceClaimTemplate" in kinds:
                continue  # the CLI allocates ResourceClaims only; the page and the API also claims for Pods
            with self.subTest(example.slug):
                # Each example on its own release: the 1.33 form of counters is refused from 1.35 on.
                body = self.assertAgrees(example.documents, example.inventory.slug, example.node or None,
                                         example.feature_gates, example.kubernetes_version)
                outcomes.add("allocated" if body["allocated"] else "error" if body["error"] else "unsatisfiable")
        self.assertEqual(outcomes, {"allocated", "unsatisfiable", "error"})
