import yaml
from django.core.files.uploadedfile import SimpleUploadedFile

from playground.state import State
from playground.tests.base import BaseTestCase


class ExportTestCase(BaseTestCase):
    def test_it_downloads_the_state_as_yaml(self):
        r = self.client.post("/export", self.form_data(gate_DRAConsumableCapacity="off"))
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r["Content-Type"], "application/yaml; charset=utf-8")
        self.assertIn('attachment; filename="dra-playground.yaml"', r["Content-Disposition"])
        data = yaml.safe_load(r.content)
        self.assertEqual(data["kind"], "DRAPlaygroundState")
        self.assertEqual(data["featureGates"], {"DRAConsumableCapacity": False})
        self.assertEqual(data["documents"], self.example.documents)

    def test_it_rejects_bad_input(self):
        r = self.client.post("/export", self.form_data(kubernetes_version="9.9"))
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Nothing was analyzed")

    def test_it_rejects_get(self):
        self.assertEqual(self.client.get("/export").status_code, 405)


class ImportTestCase(BaseTestCase):
    def upload(self, text: str):
        return self.client.post("/import", {"state_file": SimpleUploadedFile("s.yaml", text.encode())})

    def test_it_restores_an_export(self):
        exported = self.client.post("/export", self.form_data(node="dra-example-driver-cluster-worker")).content
        r = self.upload(exported.decode())
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="import-status"')
        self.assertContains(r, "Imported the state")
        self.assertContains(r, 'id="id_node" maxlength="253" list="node-names" value="dra-example-driver-cluster-worker"', html=False)
        self.assertContains(r, "<strong>Allocated</strong>", html=False)

    def test_it_round_trips_exactly(self):
        exported = self.client.post("/export", self.form_data()).content.decode()
        self.assertEqual(State.from_yaml(exported), self.example.state())

    def test_it_explains_a_wrong_file(self):
        r = self.upload("kind: ResourceClaim\n")
        self.assertContains(r, "not a DRA Playground export")
        r = self.upload("a: [")
        self.assertContains(r, "not YAML")

    def test_it_asks_for_a_file(self):
        r = self.client.post("/import", {})
        self.assertContains(r, "Choose a file exported from DRA Playground")

    def test_it_escapes_errors(self):
        r = self.upload("kind: DRAPlaygroundState\nkubernetesVersion: '<script>x</script>'\n")
        self.assertContains(r, "Unsupported Kubernetes version")
        self.assertNotContains(r, "<script>x</script>")
