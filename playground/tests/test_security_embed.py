"""/s/<id>/embed: a shared snapshot's results that other sites may frame, and nothing else."""

import re

from playground.models import Share
from playground.tests.base import BaseTestCase


class EmbedTestCase(BaseTestCase):
    def setUp(self):
        self.share, _ = Share.objects.get_or_create_for(self.example.state())
        self.url = f"/s/{self.share.id}/embed"

    def test_it_shows_the_results(self):
        r = self.client.get(self.url)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="result-summary"')
        self.assertContains(r, "Allocated")
        self.assertContains(r, 'id="claims-table"')
        self.assertContains(r, f'href="/s/{self.share.id}"')

    def test_it_has_no_editor_form_or_script(self):
        html = self.client.get(self.url).content.decode()
        self.assertNotIn("<form", html)
        self.assertNotIn("<textarea", html)
        self.assertNotIn("<select", html)
        self.assertNotIn("<input", html)
        self.assertNotIn("<script", html)
        self.assertNotIn("csrfmiddlewaretoken", html)
        self.assertNotRegex(html, r"\shx-")

    def test_it_may_be_framed_by_any_site(self):
        r = self.client.get(self.url)
        self.assertNotIn("X-Frame-Options", r)
        policy = r["Content-Security-Policy"]
        self.assertIn("frame-ancestors *", policy)
        self.assertNotIn("'none' *", policy)
        # The rest of the policy stays strict.
        self.assertIn("script-src 'self'", policy)
        self.assertNotIn("unsafe", policy)

    def test_the_share_page_itself_may_not_be_framed(self):
        r = self.client.get(self.share.get_absolute_url())
        self.assertEqual(r["X-Frame-Options"], "DENY")
        self.assertIn("frame-ancestors 'none'", r["Content-Security-Policy"])

    def test_it_is_read_only(self):
        r = self.client.post(self.url, self.form_data())
        self.assertEqual(r.status_code, 405)

    def test_it_answers_404_for_an_unknown_share(self):
        r = self.client.get("/s/doesnotexist/embed")
        self.assertEqual(r.status_code, 404)
        self.assertEqual(r["X-Frame-Options"], "DENY")

    def test_it_escapes_the_snapshot(self):
        docs = self.example.documents.replace("name: two-gpus", "name: <script>alert(1)</script>")
        state = self.example.state().with_inputs(documents=docs)
        hostile, _ = Share.objects.get_or_create_for(state)
        r = self.client.get(f"/s/{hostile.id}/embed")
        self.assertEqual(r.status_code, 200)
        self.assertNotRegex(r.content.decode(), re.compile(r"<script>alert", re.I))
        self.assertContains(r, "&lt;script&gt;alert(1)&lt;/script&gt;")

    def test_sharing_offers_the_embed_code(self):
        r = self.client.post("/share", self.form_data(), headers={"HX-Request": "true"})
        share = Share.objects.latest("created")
        self.assertContains(r, 'id="share-embed"')
        self.assertContains(r, f"""value='<iframe src="http://testserver/s/{share.id}/embed" """)
