"""A pod asking for an extended resource: the API returns the generated claim and its mapping (workload.extended)."""

from __future__ import annotations

from allocator.tests.helpers.samples import inventory_text, sample
from api.tests.base import APITestCase

EXAMPLE = sample("examples", "extended-resource-gpus")


class ExtendedResourcesTestCase(APITestCase):
    def documents(self, pod: str) -> str:
        return inventory_text("gpu-extended-resources") + "---\n" + pod

    def test_allocate_returns_the_generated_claim_last_and_the_mapping(self):
        r = self.post_json("/api/v1/allocate", {"documents": self.documents(EXAMPLE["documents"])})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertTrue(body["allocated"], body)
        self.assertEqual(body["node"], "gpu-dra-node")
        [claim] = body["claims"]
        self.assertEqual(claim["metadata"]["generateName"], "trainer-extended-resources-")
        [entry] = body["extendedResources"]
        self.assertEqual(entry["dra"], {"nvidia.com/gpu": 2})
        self.assertEqual(entry["status"]["extendedResourceClaimStatus"]["requestMappings"],
                         [{"containerName": "main", "resourceName": "nvidia.com/gpu",
                           "requestName": "container-0-request-0"}])

    def test_analyze_lists_the_containers_and_the_nodes(self):
        r = self.post_json("/api/v1/analyze", {"documents": self.documents(EXAMPLE["documents"])})
        self.assertEqual(r.status_code, 200, r.content)
        report = r.json()
        [row] = report["containers"]
        self.assertEqual((row["container"], row["extendedResource"], row["podClaim"]), ("main", "nvidia.com/gpu", ""))
        nodes = {n["name"]: n for n in report["nodes"]}
        self.assertIn("Insufficient nvidia.com/gpu", nodes["gpu-device-plugin-node"]["reason"])

    def test_gate_off_on_135_leaves_it_to_the_device_plugin(self):
        r = self.post_json("/api/v1/allocate", {"documents": self.documents(EXAMPLE["documents"]),
                                                "kubernetesVersion": "1.35"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertNotIn("extendedResources", body)
        self.assertTrue(any("DRAExtendedResource is off" in reason for reason in body["reasons"]), body)
