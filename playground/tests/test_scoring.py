"""The page's node table shows the scheduler's DRA scores, and a grant with binding conditions says it is not final
(issue 28, items 4 and 8)."""

from allocator.tests.helpers import ROOT
from allocator.tests.helpers.samples import sample
from playground.models import Example
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX

FABRIC = (ROOT / "allocator/tests/data/scoring/fabric.yaml").read_text()
TWO_ACCELERATORS = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two}
spec:
  devices:
    requests: [{name: accel, exactly: {deviceClassName: accel, count: 2}}]
"""


class ScoringPageTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        Example.objects.update_or_create_from_sample(sample("examples", "node-scoring"), 10)
        cls.scoring = Example.objects.get(slug="node-scoring")

    def post(self, **overrides):
        state = self.scoring.state()
        data = {"inventory_slug": state.inventory_slug, "inventory": state.inventory, "documents": state.documents,
                "node": state.node or "", "kubernetes_version": state.kubernetes_version}
        data.update(overrides)
        r = self.client.post("/", data, headers=HTMX)
        self.assertEqual(r.status_code, 200)
        return r.content.decode()

    def test_it_shows_a_score_column_and_chooses_the_best(self):
        html = self.post()
        self.assertIn('<code id="allocated-node">h200-node-3</code>', html)
        self.assertIn('title="The scheduler\'s DynamicResources score, normalised 0-100 (raw score in brackets)">'
                      'Score</th>', html)
        self.assertIn('<td class="node-score">100 <span class="muted">(raw 8)</span></td>', html)
        self.assertIn('<td class="node-score">75 <span class="muted">(raw 6)</span></td>', html)
        self.assertIn("(automatic: the best DRA score among those that fit)", html)
        self.assertIn('<p id="node-scoring" class=""><strong>Node scores:</strong> h200-node-3 has the best DRA score',
                      html)

    def test_on_1_34_there_is_no_score_column_and_the_note_says_why(self):
        html = self.post(kubernetes_version="1.34")
        self.assertNotIn('class="node-score"', html)
        self.assertIn('<code id="allocated-node">a100-node-1</code>', html)
        self.assertIn("<strong>Not scored:</strong> Kubernetes 1.34 does not score nodes for DRA", html)
        self.assertIn("at random, we show the first by name", html)

    def test_ties_are_said_to_be_random(self):
        any_nvidia = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: any}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.nvidia.com}}]
"""
        html = self.post(documents=any_nvidia)
        self.assertIn('<code id="allocated-node">a100-node-1</code>', html)
        self.assertIn('<td class="node-score">0 <span class="muted">(raw 0)</span></td>', html)
        self.assertIn('<p id="node-scoring" class="scoring-tie"><strong>Node scores:</strong> 3 nodes share the best '
                      'DRA score 0: the scheduler picks one of them at random', html)

    def test_binding_conditions_note(self):
        html = self.post(inventory_slug="", inventory=FABRIC, documents=TWO_ACCELERATORS, kubernetes_version="1.36")
        self.assertIn('<div id="binding-note" class="binding-note">', html)
        self.assertIn("<strong>Not final yet:</strong> The allocation is not final", html)
        self.assertIn("waits for <code>dra.example.net/is-attached</code>; fails on "
                      "<code>dra.example.net/attach-failed</code>", html)
        self.assertIn('waits for binding conditions</span>', html)
        html = self.post(inventory_slug="", inventory=FABRIC, documents=TWO_ACCELERATORS, kubernetes_version="1.35")
        self.assertNotIn("binding-note", html)


class ManyNodesScoringTestCase(BaseTestCase):
    def test_the_grouped_table_counts_the_nodes_per_score(self):
        # 25 nodes (the table groups above 20): node-07 alone has the big GPU the claim prefers.
        objects = ["apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec:\n"
                   "  selectors: [{cel: {expression: device.driver == 'gpu.example.com'}}]\n"]
        for i in range(25):
            size = "big" if i == 7 else "small"
            objects.append(f"apiVersion: v1\nkind: Node\nmetadata: {{name: node-{i:02}}}\n")
            objects.append(
                "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
                f"metadata: {{name: node-{i:02}}}\nspec:\n  driver: gpu.example.com\n  nodeName: node-{i:02}\n"
                f"  pool: {{name: node-{i:02}, generation: 1, resourceSliceCount: 1}}\n"
                f"  devices: [{{name: gpu-0, attributes: {{size: {{string: {size}}}}}}}]\n")
        documents = """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: big, deviceClassName: gpu, selectors: [{cel: {expression: "device.attributes['gpu.example.com'].size == 'big'"}}]}
      - {name: small, deviceClassName: gpu, selectors: [{cel: {expression: "device.attributes['gpu.example.com'].size == 'small'"}}]}
"""
        r = self.client.post("/", {"inventory_slug": "", "inventory": "---\n".join(objects), "documents": documents,
                                   "node": "", "kubernetes_version": "1.37"}, headers=HTMX)
        html = r.content.decode()
        self.assertIn('<code id="allocated-node">node-07</code>', html)
        self.assertIn('<p id="node-score-groups" class="node-scores">DRA scores: 100 on 1 node, 87 on 24 nodes</p>',
                      html)
        self.assertIn("node-07 has the best DRA score (100)", html)
