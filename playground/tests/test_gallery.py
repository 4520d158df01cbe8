from playground.tests.base import BaseTestCase


class GalleryTestCase(BaseTestCase):
    def test_it_lists_examples(self):
        r = self.client.get("/examples/")
        self.assertEqual(r.status_code, 200)
        for slug in ("count-two-gpus", "per-container-requests", "prioritized-list"):
            self.assertContains(r, f'id="example-{slug}"')
            self.assertContains(r, f'href="/examples/{slug}"')
        self.assertContains(r, 'id="tags"')

    def test_it_filters_by_tag(self):
        r = self.client.get("/examples/?tag=prioritized-list")
        self.assertContains(r, 'id="example-prioritized-list"')
        self.assertNotContains(r, 'id="example-count-two-gpus"')
        self.assertContains(r, 'aria-current="page">prioritized-list</a>', html=False)

    def test_it_handles_unknown_tag(self):
        r = self.client.get("/examples/?tag=<script>")
        self.assertContains(r, 'id="no-examples"')
        self.assertContains(r, "&lt;script&gt;")
        self.assertNotContains(r, "<code><script>")

    def test_it_rejects_post(self):
        r = self.client.post("/examples/")
        self.assertEqual(r.status_code, 405)

    def test_it_states_each_outcome(self):
        r = self.client.get("/examples/")
        self.assertContains(r, "Upstream outcome:", count=3)
        self.assertContains(r, "allocated on <code>l40s-node-2</code>", html=False)
