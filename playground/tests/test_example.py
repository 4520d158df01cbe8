from playground.tests.base import BaseTestCase


class ExampleTestCase(BaseTestCase):
    def test_it_opens_an_example(self):
        r = self.client.get("/examples/count-two-gpus")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<title>Two GPUs of one model · DRA Playground</title>", html=False)
        self.assertContains(r, 'id="example-banner"')
        self.assertContains(r, "name: two-gpus")
        self.assertContains(r, "<strong>Allocated</strong>", html=False)
        self.assertContains(r, '<a class="tag" href="/examples/?tag=count">count</a>', html=True)

    def test_it_restores_gates_and_version(self):
        self.example.kubernetes_version = "1.34"
        self.example.feature_gates = {"DRADeviceTaints": True}
        self.example.save()
        r = self.client.get("/examples/count-two-gpus")
        self.assertContains(r, '<option value="1.34" selected>', html=False)
        self.assertContains(r, '<option value="on" selected>on</option>', html=True)
        self.assertContains(r, "<code>DRADeviceTaints=true</code>", html=True)

    def test_it_404s_for_unknown_slug(self):
        r = self.client.get("/examples/nope")
        self.assertEqual(r.status_code, 404)

    def test_it_escapes_description(self):
        self.example.description = "<script>alert('x')</script>"
        self.example.save()
        r = self.client.get("/examples/count-two-gpus")
        self.assertNotContains(r, "<script>alert")
        self.assertContains(r, "&lt;script&gt;alert")

    def test_it_states_the_upstream_outcome(self):
        r = self.client.get("/examples/count-two-gpus")
        self.assertContains(r, 'id="example-expected"')
        self.assertContains(r, "allocated on <code>dra-example-driver-cluster-worker</code>", html=False)
