"""POST /api/v1/compare and analyze's ``alternatives``: shapes, overrides, differences, limits, throttling."""


from api.tests.base import CLAIM_YAML, UNSATISFIABLE_CLAIM_YAML, APITestCase, ThrottledAPITestCase

PRIORITIZED_CLAIM_YAML = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: prioritized
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - name: h100
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: device.attributes['gpu.example.com'].model == 'H100'
"""

# The first device the search reaches on each side.
SIDES = {"documents": CLAIM_YAML, "inventory": "two-gpus"}


class AlternativesTestCase(APITestCase):
    def test_analyze_lists_the_grants_the_schedulers_first(self):
        r = self.post_json("/api/v1/analyze", {**SIDES, "alternatives": 5})
        self.assertEqual(r.status_code, 200, r.content)
        alloc = r.json()["allocation"]
        devices = [[res["device"] for res in alt["claims"][0]["results"]] for alt in alloc["alternatives"]]
        self.assertEqual(devices, [["gpu-0"], ["gpu-1"]])
        granted = alloc["claims"][0]["status"]["allocation"]["devices"]["results"]
        self.assertEqual([g["device"] for g in granted], devices[0])
        self.assertEqual(alloc["alternatives"][0]["claims"][0]["name"], "one-gpu")
        self.assertEqual(alloc["alternativesSearch"]["found"], 2)
        self.assertTrue(alloc["alternativesSearch"]["exhausted"])
        self.assertIsNone(alloc["alternativesSearch"]["stopped"])

    def test_analyze_without_alternatives_has_none(self):
        alloc = self.post_json("/api/v1/analyze", SIDES).json()["allocation"]
        self.assertNotIn("alternatives", alloc)
        self.assertNotIn("alternativesSearch", alloc)

    def test_a_yaml_body_takes_alternatives_as_a_query_parameter(self):
        r = self.post_yaml("/api/v1/analyze?inventory=two-gpus&alternatives=1", CLAIM_YAML)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual(len(r.json()["allocation"]["alternatives"]), 1)
        self.assertFalse(r.json()["allocation"]["alternativesSearch"]["exhausted"])

    def test_alternatives_out_of_range_are_located_errors(self):
        for bad in (-1, 101, "many", 2.5, True):
            with self.subTest(bad=bad):
                self.assertErrors(self.post_json("/api/v1/analyze", {**SIDES, "alternatives": bad}), 400,
                                  field="alternatives")

    def test_nothing_allocated_lists_nothing_and_says_why(self):
        r = self.post_json("/api/v1/analyze", {"documents": UNSATISFIABLE_CLAIM_YAML, "inventory": "two-gpus",
                                               "alternatives": 3})
        alloc = r.json()["allocation"]
        self.assertEqual(alloc["alternatives"], [])
        self.assertIn("nothing was allocated", alloc["alternativesSearch"]["stopped"])


class CompareTestCase(APITestCase):
    def compare(self, body: dict):
        r = self.post_json("/api/v1/compare", body)
        self.assertEqual(r.status_code, 200, r.content)
        return r.json()

    def test_equal_sides_have_no_differences(self):
        body = self.compare({**SIDES, "left": {}, "right": {}})
        self.assertEqual(list(body), ["left", "right", "differences"])
        self.assertEqual(body["differences"], [])
        self.assertEqual(body["left"], body["right"])
        self.assertEqual(body["left"], self.post_json("/api/v1/analyze", SIDES).json())

    def test_a_side_overrides_the_top_level(self):
        body = self.compare({**SIDES, "kubernetesVersion": "1.35", "left": {"kubernetesVersion": "1.34"}})
        self.assertEqual(body["left"]["kubernetesVersion"], "1.34")
        self.assertEqual(body["right"]["kubernetesVersion"], "1.35")

    def test_a_gate_that_changes_the_outcome_is_a_difference(self):
        body = self.compare({"documents": PRIORITIZED_CLAIM_YAML, "inventory": "two-gpus", "kubernetesVersion": "1.36",
                             "left": {"featureGates": {"DRAPrioritizedList": False}},
                             "right": {"featureGates": {"DRAPrioritizedList": True}}})
        self.assertEqual(body["left"]["gateOverrides"], {"DRAPrioritizedList": False})
        paths = {d["path"]: d for d in body["differences"]}
        self.assertIn("valid", paths)
        self.assertEqual(paths["valid"], {"path": "valid", "left": False, "right": True})
        self.assertEqual(paths["allocation.devices[default/prioritized][gpu/h100]"],
                         {"path": "allocation.devices[default/prioritized][gpu/h100]", "left": None,
                          "right": ["gpu.example.com/worker-1/gpu-1"]})

    def test_nodes_and_devices_differ_by_node(self):
        body = self.compare({**SIDES, "left": {"node": "worker-1"}, "right": {"node": "worker-9"}})
        paths = [d["path"] for d in body["differences"]]
        self.assertIn("allocation.status", paths)
        self.assertIn("allocation.devices[default/one-gpu][gpu]", paths)

    def test_alternatives_apply_to_both_sides(self):
        body = self.compare({**SIDES, "alternatives": 2})
        self.assertEqual(len(body["left"]["allocation"]["alternatives"]), 2)
        self.assertEqual(len(body["right"]["allocation"]["alternatives"]), 2)

    def test_errors_on_a_side_are_located_under_it(self):
        r = self.post_json("/api/v1/compare", {**SIDES, "right": {"featureGates": {"DRANoSuchGate": True}}})
        self.assertErrors(r, 400, field="right.featureGates")
        r = self.post_json("/api/v1/compare", {**SIDES, "left": {"inventory": "no-such-inventory"}})
        self.assertErrors(r, 400, type="Not found", field="left.inventory")
        r = self.post_json("/api/v1/compare", {**SIDES, "left": {"documents": "x"}})
        self.assertErrors(r, 400, field="left.documents")
        r = self.post_json("/api/v1/compare", {**SIDES, "left": "1.34"})
        self.assertErrors(r, 400, field="left")
        r = self.post_json("/api/v1/compare", {**SIDES, "right": {"kubernetesVersion": "0.1"}})
        self.assertErrors(r, 400, field="right.kubernetesVersion")

    def test_each_side_obeys_the_limits_of_one_analysis(self):
        r = self.post_json("/api/v1/compare", {**SIDES, "left": {"node": "n" * 254}})
        self.assertErrors(r, 400, field="left.node")
        r = self.post_json("/api/v1/compare", {**SIDES, "alternatives": 1000})
        self.assertErrors(r, 400, field="alternatives")

    def test_it_takes_json_only(self):
        self.assertErrors(self.post_yaml("/api/v1/compare", CLAIM_YAML), 415)


class CompareThrottlingTestCase(ThrottledAPITestCase):
    def test_a_comparison_counts_as_two_analyses(self):
        self.assertEqual(self.post_json("/api/v1/compare", SIDES).status_code, 200)
        self.assertEqual(self.post_json("/api/v1/analyze", SIDES).status_code, 200)  # 3 of 3
        self.assertErrors(self.post_json("/api/v1/analyze", SIDES), 429)

    def test_a_comparison_needs_room_for_both(self):
        for _ in range(2):
            self.assertEqual(self.post_json("/api/v1/analyze", SIDES).status_code, 200)
        self.assertErrors(self.post_json("/api/v1/compare", SIDES), 429)
        self.assertEqual(self.post_json("/api/v1/analyze", SIDES).status_code, 200)  # the refused one took none
