"""POST /api/v1/convert: the documents rewritten in another resource.k8s.io version."""

import yaml

from api.tests.base import APITestCase

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-gpus
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
    constraints:
    - distinctAttribute: gpu.example.com/uuid
      requests: [gpus]
"""


class ConvertTestCase(APITestCase):
    def test_it_answers_the_objects_in_the_target_version(self):
        r = self.post_json("/api/v1/convert", {"documents": CLAIM, "apiVersion": "v1beta1"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["apiVersion"], "resource.k8s.io/v1beta1")
        self.assertEqual(body["dropped"], [])
        request = body["items"][0]["spec"]["devices"]["requests"][0]
        self.assertEqual(request, {"name": "gpus", "deviceClassName": "gpu.example.com", "count": 2})
        self.assertEqual(list(yaml.safe_load_all(body["documents"])), body["items"])

    def test_it_names_the_fields_the_target_has_no_place_for(self):
        r = self.post_json("/api/v1/convert", {"documents": CLAIM, "apiVersion": "resource.k8s.io/v1alpha3",
                                               "kubernetesVersion": "1.33",
                                               "featureGates": {"DynamicResourceAllocation": True}})
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual(r.json()["dropped"], [{
            "kind": "ResourceClaim", "name": "two-gpus", "field": "spec.devices.constraints[0].distinctAttribute",
            "detail": "resource.k8s.io/v1alpha3 has no such field; its value is not in the output"}])

    def test_a_version_the_release_does_not_serve_is_a_400_naming_the_served_ones(self):
        r = self.post_json("/api/v1/convert", {"documents": CLAIM, "apiVersion": "v1alpha3"})
        [error] = self.assertErrors(r, 400, type="Not served", field="apiVersion")
        self.assertIn("which serves ResourceClaim in resource.k8s.io/v1", error["detail"])

    def test_an_unknown_version_is_a_400_on_the_field(self):
        r = self.post_json("/api/v1/convert", {"documents": CLAIM, "apiVersion": "v2"})
        self.assertErrors(r, 400, field="apiVersion")

    def test_unreadable_documents_are_a_located_400(self):
        r = self.post_json("/api/v1/convert", {"documents": "kind: [\n", "apiVersion": "v1"})
        [error] = self.assertErrors(r, 400, type="Parse error")
        self.assertEqual(error["line"], 2)

    def test_an_unknown_field_is_a_located_400(self):
        r = self.post_json("/api/v1/convert", {"documents": CLAIM.replace("count: 2", "cuont: 2"),
                                               "apiVersion": "v1beta1"})
        [error] = self.assertErrors(r, 400)
        self.assertIn("cuont", error["detail"])
        self.assertEqual(error["line"], 11)

    def test_a_long_expression_stays_on_its_line_in_the_documents(self):
        long = "device.attributes['gpu.example.com'].model == 'A100' && " * 3 + "true"
        claim = CLAIM.replace("        count: 2\n", f"        count: 2\n        selectors:\n        - cel:\n"
                              f"            expression: {long}\n")
        r = self.post_json("/api/v1/convert", {"documents": claim, "apiVersion": "v1beta2"})
        self.assertEqual(r.status_code, 200, r.content)
        self.assertIn(f"expression: {long}\n", r.json()["documents"])
