from django.test import override_settings

from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX

BAD_YAML = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: x\nspec: [\n"


class IndexTestCase(BaseTestCase):
    def test_it_renders(self):
        r = self.client.get("/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<title>DRA Playground</title>", html=False)
        self.assertContains(r, "<h1>DRA Playground</h1>", html=True)

    def test_it_has_one_element_per_region(self):
        r = self.client.get("/")
        html = r.content.decode()
        for region in ("intro", "editor", "inventory", "settings", "results", "result-summary", "diagnostics",
                       "allocation", "picture", "assumptions", "imported", "playground-form", "share"):
            self.assertEqual(html.count(f'id="{region}"'), 1, region)

    def test_it_sends_csrf_token_once_in_hx_headers(self):
        r = self.client.get("/")
        self.assertContains(r, 'hx-headers=\'{"x-csrftoken": "', count=1)
        self.assertIn("csrftoken", r.cookies)

    def test_it_loads_vendored_htmx_and_codemirror(self):
        r = self.client.get("/")
        self.assertContains(r, "/static/vendor/htmx-2.0.11.min.js")
        self.assertContains(r, "/static/vendor/codemirror-5.65.21.js")
        self.assertContains(r, "/static/vendor/codemirror-5.65.21-mode-yaml.js")
        self.assertNotContains(r, "//cdn")

    def test_it_opens_with_the_default_example_allocated(self):
        r = self.client.get("/")
        self.assertContains(r, "kind: Pod")  # per-container-requests
        self.assertContains(r, 'id="allocated-node"')
        self.assertContains(r, "trainer/exporter")
        self.assertContains(r, 'id="containers"')

    def test_it_lists_inventories_and_versions(self):
        r = self.client.get("/")
        self.assertContains(r, '<option value="gpu-node" selected>One GPU node (dra-example-driver)</option>', html=True)
        self.assertContains(r, '<option value="mixed-cluster">', html=False)
        for version in ("1.31", "1.37"):
            self.assertContains(r, f'<option value="{version}"', html=False)
        self.assertContains(r, 'name="gate_DRAPrioritizedList"')

    def test_it_says_which_version_and_gates(self):
        r = self.client.get("/")
        self.assertContains(r, 'id="assumes"')
        self.assertContains(r, "Assumes Kubernetes <strong>1.37</strong> with")
        self.assertContains(r, "the release's default feature gates")

    def test_it_analyzes_a_plain_post(self):
        r = self.client.post("/", self.form_data())
        self.assertEqual(r.status_code, 200)
        self.assertTemplateUsed(r, "playground/index.html")
        self.assertContains(r, "<strong>Allocated</strong>", html=False)
        self.assertContains(r, "dra-example-driver-cluster-worker/gpu-1")  # status YAML
        self.assertContains(r, 'id="status-yaml"')

    def test_it_renders_only_results_for_htmx(self):
        r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertTemplateUsed(r, "playground/partials/results.html")
        self.assertTemplateNotUsed(r, "playground/index.html")
        self.assertNotContains(r, "<html")
        self.assertContains(r, 'id="result-summary"')
        self.assertContains(r, '<datalist id="node-names" hx-swap-oob="true">')

    def test_it_locates_errors(self):
        r = self.client.post("/", self.form_data(documents=BAD_YAML), headers=HTMX)
        self.assertContains(r, "<strong>Not valid:</strong>", html=False)
        self.assertContains(r, 'data-source="documents" data-line="6"')
        self.assertContains(r, "YAML syntax error")

    def test_it_explains_unsatisfiable(self):
        docs = self.example.documents.replace("count: 2 ", "count: 9 ")
        r = self.client.post("/", self.form_data(documents=docs), headers=HTMX)
        self.assertContains(r, "<strong>Cannot allocate</strong>", html=False)
        self.assertContains(r, 'id="explanation"')
        self.assertContains(r, 'id="nodes"')

    def test_it_honours_the_chosen_node(self):
        r = self.client.post("/", self.form_data(node="no-such-node"), headers=HTMX)
        self.assertContains(r, "<code>no-such-node</code> is not in the inventory")
        self.assertContains(r, "<strong>Cannot allocate</strong> on node <code>no-such-node</code>", html=False)

    def test_it_loads_a_sample_inventory(self):
        r = self.client.post("/", self.form_data(inventory_slug="mixed-cluster", action="load"))
        self.assertContains(r, "l40s-node-2")
        self.assertContains(r, '<option value="mixed-cluster" selected>', html=False)

    def test_it_imports_an_uploaded_inventory(self):
        from django.core.files.uploadedfile import SimpleUploadedFile

        upload = SimpleUploadedFile("inv.yaml", self.inventory.as_yaml().encode())
        r = self.client.post("/", {**self.form_data(inventory=""), "inventory_file": upload, "action": "import"})
        self.assertContains(r, "<strong>Allocated</strong>", html=False)
        self.assertContains(r, '<option value="" selected>Custom', html=False)

    def test_it_reports_what_it_imported_and_ignored(self):
        kubectl_list = (
            "apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n"
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: settings\n"
            "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n"
        )
        r = self.client.post("/", self.form_data(inventory=kubectl_list, inventory_slug=""), headers=HTMX)
        # A workload kind is never "not used by DRA": it is said not to be analysed.
        self.assertContains(r, '<p id="ignored">Ignored (not used by DRA): <code>ConfigMap settings</code>.</p>',
                            html=True)
        self.assertContains(r, 'id="not-analysed"')
        self.assertNotContains(r, "not used by DRA): <code>Deployment web", html=False)
        self.assertContains(r, "Inventory:\n    1 Node (<code>v1</code>)", html=False)

    def test_it_rejects_unknown_version(self):
        r = self.client.post("/", self.form_data(kubernetes_version="1.20"), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Nothing was analyzed")
        self.assertContains(r, "1.20 is not one of the available choices")

    def test_it_leaves_out_a_gate_missing_from_release(self):
        # The panel does not offer it in 1.32 (issue 24): an override left from another release does not apply.
        r = self.client.post(
            "/", self.form_data(kubernetes_version="1.32", gate_DRAPrioritizedList="on"), headers=HTMX
        )
        self.assertNotContains(r, "does not exist in Kubernetes 1.32")
        self.assertNotContains(r, "DRAPrioritizedList=true")

    def test_it_applies_gate_overrides(self):
        r = self.client.post("/", self.form_data(gate_DRAConsumableCapacity="off"), headers=HTMX)
        self.assertContains(r, "<code>DRAConsumableCapacity=false</code>", html=True)
        self.assertContains(r, "set by you")

    def test_it_escapes_user_text(self):
        docs = self.example.documents.replace("name: two-gpus", "name: <script>alert(1)</script>")
        inventory = self.inventory.as_yaml().replace("name: gpu-0", "name: gpu-0<script>x</script>")
        r = self.client.post("/", self.form_data(documents=docs, inventory=inventory, node="<script>n</script>"))
        self.assertNotContains(r, "<script>alert(1)</script>")
        self.assertNotContains(r, "<script>x</script>")
        self.assertNotContains(r, "<script>n</script>")
        self.assertContains(r, "&lt;script&gt;alert(1)&lt;/script&gt;")

    def test_it_rejects_put(self):
        r = self.client.put("/")
        self.assertEqual(r.status_code, 405)

    @override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
    def test_it_refuses_large_body_with_a_clear_message(self):
        r = self.client.post("/", self.form_data(documents="x" * 2000), HTTP_ACCEPT="text/html")
        self.assertContains(r, "over the site&#x27;s limit", status_code=413)
        self.assertTemplateUsed(r, "playground/too_large.html")
