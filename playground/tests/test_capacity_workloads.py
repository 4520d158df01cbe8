"""The "How many fit?" panel with workloads that carry a count (Deployments, StatefulSets, Jobs) and the list of
copies placed (playground.capacity.workload_rows, steps_view; partials capacity_steps.html)."""

from playground import capacity
from playground.tests.base import BaseTestCase
from playground.tests.helpers import TWO_GPU_TEMPLATE, workload_controller

PANEL = {"HX-Request": "true", "HX-Target": "capacity-result"}

class WorkloadsPanelTestCase(BaseTestCase):
    def run_panel(self, documents: str, **extra):
        r = self.client.post("/capacity", self.form_data(documents=documents, **extra), headers=PANEL)
        self.assertEqual(r.status_code, 200)
        return r

    def test_a_deployment_and_a_statefulset_each_get_their_row_and_the_one_that_ran_out_is_named(self):
        r = self.run_panel(TWO_GPU_TEMPLATE + workload_controller("Deployment", "web", "replicas: 2")
                           + workload_controller("StatefulSet", "db", "replicas: 3"))
        self.assertContains(r, '<span id="capacity-placed">4</span> copies placed', html=False)
        self.assertContains(r, "5 asked by 2 workloads")
        self.assertContains(r, "copy 5 (of <code>StatefulSet/db</code>) fits on no node", html=False)
        self.assertContains(r, '<table id="capacity-workloads"', html=False)
        rows = r.context["capacity"]["workloadRows"]
        self.assertEqual([(w["label"], w["asked"], w["placed"], w["short"], w["ranOut"]) for w in rows],
                         [("Deployment/web", 2, 2, 0, False), ("StatefulSet/db", 3, 2, 1, True)])
        self.assertContains(r, '<tr class="capacity-ran-out"><td><code>StatefulSet/db</code> <span class="badge">ran out'
                               '</span></td><td>3</td><td>2 <span class="muted">(1 short)</span></td></tr>', html=False)
        # The copies in order, with their workload, pod, node and devices.
        self.assertContains(r, '<table id="capacity-steps-first"', html=False)
        self.assertNotContains(r, 'id="capacity-steps-more"')
        self.assertContains(r, '<th scope="row">3</th><td><code>StatefulSet/db</code></td><td><code>db-0</code></td>'
                               '<td><code>dra-example-driver-cluster-worker</code></td>', html=False)
        self.assertContains(r, "<code>gpu.example.com/dra-example-driver-cluster-worker/gpu-6</code>")
        self.assertContains(r, "(<code>StatefulSet/db</code>, pod <code>db-2</code>)", html=False)

    def test_every_count_placed(self):
        r = self.run_panel(TWO_GPU_TEMPLATE + workload_controller("Job", "train", "parallelism: 3"))
        self.assertContains(r, "every workload has the copies it asks for")
        self.assertNotContains(r, 'id="capacity-next"')
        self.assertNotContains(r, "ran out")

    def test_a_long_list_shows_the_first_copies_and_the_rest_behind_show_all(self):
        claim = ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: shared}\nspec:\n  devices:\n"
                 "    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]\n")
        r = self.run_panel(claim + workload_controller("Deployment", "web", "replicas: 13", "[{name: gpu, resourceClaimName: shared}]"))
        self.assertContains(r, "every workload has the copies it asks for")
        view = r.context["capacity"]
        self.assertEqual((len(view["stepsShown"]), len(view["stepsRest"])), (capacity.STEPS_SHOWN, 3))
        self.assertContains(r, "Each copy, in placing order: copies 1 to 10 of 13")
        self.assertContains(r, "<summary>Show all 13 copies (3 more)</summary>", html=True)
        self.assertContains(r, "<caption>Copies 11 to 13</caption>", html=True)
        self.assertContains(r, '<th scope="row">13</th>', html=False)
        # Only the first copy allocates the shared claim; the others use it.
        self.assertEqual(r.content.decode().count("none new (shared claims only)"), 12)

    def test_a_bad_count_is_refused_with_its_place(self):
        r = self.run_panel(TWO_GPU_TEMPLATE + workload_controller("Deployment", "web", "replicas: -1"))
        self.assertContains(r, 'id="capacity-errors"')
        self.assertContains(r, "13:13: Deployment &#x27;web&#x27;: spec.replicas: Invalid value: -1: must be greater than or equal to 0")

    def test_without_a_count_there_is_no_workload_table(self):
        r = self.client.post("/capacity", self.form_data(), headers=PANEL)
        self.assertNotContains(r, 'id="capacity-workloads"')
        self.assertContains(r, '<table id="capacity-steps-first"', html=False)
        self.assertEqual([s["pods"] for s in r.context["capacity"]["stepsShown"]], [[]] * 4)

    def test_the_panel_says_which_objects_carry_a_count(self):
        r = self.client.get("/")
        self.assertContains(r, "Deployments, ReplicaSets and StatefulSets ask for <code>spec.replicas</code>", html=False)
