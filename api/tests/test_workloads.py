"""A Deployment in /api/v1/analyze and /api/v1/allocate: analysed as its first pod, ``workloads`` saying so
(allocator.workload.analysed), no longer in ``ignored``."""

import re

from api.tests.base import APITestCase

DEPLOYMENT = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu-template}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: trainer}
spec:
  replicas: 5
  selector: {matchLabels: {app: trainer}}
  template:
    metadata: {labels: {app: trainer}}
    spec:
      containers: [{name: main, image: busybox, resources: {claims: [{name: gpu}]}}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu-template}]
"""
NOTE = "×5 replicas: one analysed; see capacity planning (POST /api/v1/capacity)"


class WorkloadsTestCase(APITestCase):
    def test_analyze_allocates_one_pod_of_the_deployment_and_points_to_capacity(self):
        r = self.post_json("/api/v1/analyze", {"documents": DEPLOYMENT, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["ignored"], [])
        [workload] = body["workloads"]
        pod = workload.pop("pod")
        self.assertRegex(pod, r"^trainer-[a-z0-9]{6,10}-[a-z0-9]{5}$")
        self.assertEqual(workload, {"kind": "Deployment", "name": "trainer", "namespace": "default", "replicas": 5,
                                    "line": 9, "note": NOTE})
        self.assertEqual(body["allocation"]["status"], "allocated")
        [claim] = body["allocation"]["claims"]
        self.assertTrue(claim["metadata"]["name"].startswith(pod + "-gpu-"))

    def test_allocate_gives_the_workloads_beside_the_allocation(self):
        r = self.post_json("/api/v1/allocate", {"documents": DEPLOYMENT, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertTrue(body["allocated"])
        self.assertEqual([w["note"] for w in body["workloads"]], [NOTE])

    def test_answers_without_workloads_have_no_workloads_key(self):
        r = self.post_json("/api/v1/analyze", {"documents": DEPLOYMENT.split("---")[0], "inventory": "two-gpus"})
        self.assertNotIn("workloads", r.json())

    def test_the_schema_documents_the_workloads(self):
        schema = self.client.get("/api/schema/", headers={"Accept": "application/json"}).content.decode()
        self.assertTrue(re.search(r"analysed as one pod of its template", schema))
