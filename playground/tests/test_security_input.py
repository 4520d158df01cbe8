"""Hostile input on the pages: markup is always escaped, garbage gets a clear 4xx, never a 500."""

import os

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from playground.models import Example, SampleInventory, Share
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX, PICTURE

# Breaks out of text, of double- and single-quoted attributes, and of <textarea>.
PAYLOAD = "\"'></textarea><img src=x onerror=alert(1)><script>alert(2)</script>"
RAW = ("<img src=x", "<script>alert(2)", "\"'>", "</textarea><img")


class EscapingTestCase(BaseTestCase):
    def assertEscaped(self, response, status_code=200):
        self.assertEqual(response.status_code, status_code)
        html = response.content.decode()
        for raw in RAW:
            self.assertNotIn(raw, html)
        return html

    def test_it_escapes_inventory_titles_and_descriptions_from_the_admin(self):
        SampleInventory.objects.filter(slug="gpu-node").update(title=PAYLOAD, description=PAYLOAD)
        html = self.assertEscaped(self.client.get("/"))
        self.assertIn("&lt;script&gt;alert(2)&lt;/script&gt;", html)  # picker option and description
        self.assertEscaped(self.client.get("/examples/"))  # "Inventory: <title>" on the cards
        self.assertEscaped(self.client.post("/", self.form_data(), headers=HTMX))

    def test_it_escapes_examples_titles_descriptions_and_tags(self):
        Example.objects.filter(slug="count-two-gpus").update(title=PAYLOAD, description=PAYLOAD, tags=[PAYLOAD])
        for url in ["/examples/", f"/examples/?tag={PAYLOAD}", self.example.get_absolute_url()]:
            with self.subTest(url=url):
                self.assertEscaped(self.client.get(url))

    def test_the_admin_escapes_titles(self):
        SampleInventory.objects.filter(slug="gpu-node").update(title=PAYLOAD)
        admin = User.objects.create_superuser("admin", "admin@example.org", "pw")
        self.client.force_login(admin)
        self.assertEscaped(self.client.get("/admin/playground/sampleinventory/"))

    def test_it_escapes_share_content(self):
        docs = self.example.documents.replace("name: two-gpus", f"name: '{PAYLOAD}'")
        inventory = self.inventory.as_yaml().replace("name: gpu-0", "name: 'gpu-0<script>alert(2)</script>'")
        state = self.example.state().with_inputs(documents=docs, inventory=inventory, node=PAYLOAD)
        share, _ = Share.objects.get_or_create_for(state)
        for url in [share.get_absolute_url(), f"{share.get_absolute_url()}/embed"]:
            with self.subTest(url=url):
                self.assertEscaped(self.client.get(url))

    def test_it_escapes_user_values_echoed_in_diagnostics(self):
        # Invalid values come back in the messages, in the text and in data-message attributes.
        docs = self.example.documents.replace("deviceClassName: gpu.example.com", f"deviceClassName: '{PAYLOAD}'")
        html = self.assertEscaped(self.client.post("/", self.form_data(documents=docs), headers=HTMX))
        self.assertIn('class="diagnostic"', html)
        self.assertIn("data-message=", html)
        docs = f"apiVersion: resource.k8s.io/v1\nkind: '{PAYLOAD}'\nmetadata: {{name: x}}\n"
        self.assertEscaped(self.client.post("/", self.form_data(documents=docs), headers=HTMX))
        # A YAML syntax error quotes the line.
        self.assertEscaped(self.client.post("/", self.form_data(documents=f"a: [{PAYLOAD}\n"), headers=HTMX))

    def test_it_escapes_the_inventory_pictures_tooltips(self):
        quoted = PAYLOAD.replace("'", "''")
        inventory = self.inventory.as_yaml().replace("string: LATEST-GPU-MODEL", f"string: '{quoted}'", 1)
        html = self.assertEscaped(self.client.post("/picture", self.form_data(inventory=inventory), headers=PICTURE))
        # In the tile's title attribute and in its tooltip text.
        self.assertEqual(html.count("model: &quot;&#x27;&gt;&lt;/textarea&gt;&lt;img src=x"), 2)

    def test_it_escapes_form_errors_of_shares_and_imports(self):
        r = self.client.post("/share", self.form_data(kubernetes_version=PAYLOAD), headers={"HX-Request": "true"})
        self.assertEscaped(r, status_code=400)
        upload = SimpleUploadedFile(f"{PAYLOAD}.yaml", b"\xff\xfe\x00not text")
        self.assertEscaped(self.client.post("/import", {"state_file": upload}))
        upload = SimpleUploadedFile("s.yaml", f"kind: DRAPlaygroundState\nnode: 1\ninventorySlug: [{PAYLOAD}]\n".encode())
        self.assertEscaped(self.client.post("/import", {"state_file": upload}))


class GarbageTestCase(BaseTestCase):
    URLS = ["/", "/share", "/export", "/import"]

    def test_binary_bodies_get_a_4xx_or_a_page(self):
        bodies = [
            ("application/x-www-form-urlencoded", b"documents=%ff%fe%00&inventory=%c3%28&node=%00"),
            ("application/x-www-form-urlencoded", os.urandom(2048)),
            ("multipart/form-data; boundary=zzz", os.urandom(2048)),
            ("multipart/form-data", b"--x\r\n\r\n"),
            ("application/octet-stream", os.urandom(2048)),
            ("application/json", b'{"documents": ' * 500),
        ]
        for url in self.URLS:
            for content_type, body in bodies:
                with self.subTest(url=url, content_type=content_type):
                    r = self.client.post(url, body, content_type=content_type, headers=HTMX)
                    self.assertLess(r.status_code, 500)

    def test_binary_uploads_are_refused_with_a_message(self):
        garbage = b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe"
        r = self.client.post("/", {**self.form_data(), "action": "import",
                                   "inventory_file": SimpleUploadedFile("cluster.yaml", garbage)})
        self.assertContains(r, "cluster.yaml is not UTF-8 text.")
        r = self.client.post("/import", {"state_file": SimpleUploadedFile("state.yaml", garbage)})
        self.assertContains(r, "state.yaml is not UTF-8 text.")

    def test_nul_and_control_characters_in_yaml_are_reported(self):
        for text in ["a: \x00\x01", "\x1b[31m: red", "\ufeff\ufffe: x", "kind: \x85"]:
            with self.subTest(text=text):
                r = self.client.post("/", self.form_data(documents=text), headers=HTMX)
                self.assertEqual(r.status_code, 200)
                self.assertContains(r, 'id="result-summary"')

    def test_deep_and_aliased_yaml_is_answered(self):
        bomb = ["a0: &a0 [x,x,x,x,x,x,x,x,x]"]
        bomb += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 8)]
        for text in ["[" * 5000 + "]" * 5000, "a: " + "{b: " * 3000 + "1" + "}" * 3000, "\n".join(bomb)]:
            with self.subTest(text=text[:20]):
                r = self.client.post("/", self.form_data(documents=text), headers=HTMX)
                self.assertEqual(r.status_code, 200)

    @override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000)
    def test_huge_bodies_get_413_everywhere(self):
        big = "x" * 20_000
        for url in [*self.URLS, "/s/abc/embed"]:
            for headers in ({}, HTMX, {"Accept": "text/html"}):
                with self.subTest(url=url, headers=headers):
                    r = self.client.post(url, self.form_data(documents=big), headers=headers)
                    self.assertEqual(r.status_code, 413)

    def test_too_many_fields_get_400(self):
        body = "&".join(f"f{i}=1" for i in range(2000))
        r = self.client.post("/", body, content_type="application/x-www-form-urlencoded")
        self.assertEqual(r.status_code, 400)

    def test_garbage_in_urls_gets_404(self):
        for url in ["/s/" + "a" * 5000, "/s/%00%ff", "/s/%00%ff/embed", "/examples/%ff", "/s/..%2f..%2fetc"]:
            with self.subTest(url=url):
                self.assertEqual(self.client.get(url).status_code, 404)
        self.assertEqual(self.client.get("/examples/?tag=%00%ff").status_code, 200)

    def test_a_bad_csrf_cookie_gets_403(self):
        client = Client(enforce_csrf_checks=True)
        client.cookies["csrftoken"] = "\x00" * 10
        self.assertEqual(client.post("/", self.form_data()).status_code, 403)


class FuzzTestCase(HypothesisTestCase):
    """Random text in every field of the editor's form: always an answer, never a 500."""

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        documents=st.text(max_size=300),
        inventory=st.text(max_size=300),
        node=st.text(max_size=30),
        version=st.text(max_size=8),
        slug=st.text(max_size=20),
    )
    def test_the_editor_never_fails(self, documents, inventory, node, version, slug):
        data = {"documents": documents, "inventory": inventory, "node": node,
                "kubernetes_version": version, "inventory_slug": slug}
        data = {k: v.replace("\x00", "") for k, v in data.items()}  # the test client refuses NUL in form values
        for url, headers in [("/", HTMX), ("/share", {"HX-Request": "true"}), ("/export", {})]:
            r = self.client.post(url, data, headers=headers)
            self.assertLess(r.status_code, 500, url)
