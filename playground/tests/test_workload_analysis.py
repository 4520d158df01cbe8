"""A Deployment, ReplicaSet, StatefulSet or Job in the page's analysis: one pod of its template analysed, the
replicas left to How many fit? (partials results/workloads.html), and workload kinds never "not used by DRA"."""

from playground.tests.base import BaseTestCase
from playground.tests.helpers import TWO_GPU_TEMPLATE, workload_controller

HTMX = {"HX-Request": "true"}


class WorkloadAnalysisTestCase(BaseTestCase):
    def analyse(self, documents: str):
        r = self.client.post("/", self.form_data(documents=documents), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        return r

    def test_a_deployment_s_first_pod_is_allocated_and_its_replicas_point_to_how_many_fit(self):
        r = self.analyse(TWO_GPU_TEMPLATE + workload_controller("Deployment", "trainer", "replicas: 5"))
        self.assertContains(r, "<strong>Allocated</strong>", html=False)
        report = r.context["report"]
        [workload] = report.workloads
        self.assertContains(r, f"Deployment <code>trainer</code>: one pod analysed, <code>{workload.pod.name}</code>. "
                               '<strong>×5 replicas</strong>: see <a href="#capacity-panel">How many fit?</a>.',
                            html=False)
        self.assertNotContains(r, 'id="ignored"')
        self.assertContains(r, "Deployment <code>trainer</code> (its pod template)", html=False)
        # The claim from the template is named after that pod.
        self.assertTrue(report.allocation.claims[0].name.startswith(workload.pod.name + "-gpu-"))

    def test_one_replica_has_no_pointer_and_a_daemonset_is_not_called_unused(self):
        daemonset = workload_controller("DaemonSet", "agent", "updateStrategy: {type: RollingUpdate}")
        r = self.analyse(TWO_GPU_TEMPLATE + workload_controller("StatefulSet", "db", "replicas: 1") + daemonset)
        self.assertContains(r, "StatefulSet <code>db</code>: one pod analysed, <code>db-0</code>.", html=False)
        self.assertNotContains(r, "×1 replicas")
        self.assertContains(r, "<code>DaemonSet agent</code>", html=False)
        self.assertNotContains(r, 'id="ignored"')
        self.assertContains(r, 'id="not-analysed"')

    def test_documents_with_only_a_deployment_list_it_and_not_none(self):
        r = self.analyse(workload_controller("Deployment", "web", "replicas: 0"))
        self.assertContains(r, "Your documents:\n    Deployment <code>web</code> (its pod template).", html=False)
        self.assertContains(r, "asks for no pod now (0 replicas, or a suspended Job): nothing to analyse", html=False)
