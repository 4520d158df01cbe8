"""The verdict's wording: said once, and an invalid input's first error named in it."""

from playground.tests.base import BaseTestCase

TYPO = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassNam: gpu.example.com
"""


class SummaryTextTestCase(BaseTestCase):
    def results(self, documents: str) -> str:
        r = self.client.post("/", self.form_data(documents=documents), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")
        self.assertEqual(r.status_code, 200)
        return r.content.decode()

    def test_nothing_to_allocate_is_said_once(self):
        text = self.results("")
        self.assertIn("<strong>Nothing to allocate.</strong> No pending ResourceClaim.</p>", text)
        self.assertEqual(text.lower().count("nothing to allocate"), 1)

    def test_the_first_error_is_in_the_verdict_linked_to_its_line(self):
        text = self.results(TYPO)
        first = text[text.index('<p id="first-error"'):]
        first = first[:first.index("</p>")]
        self.assertIn('data-line="10"', first)
        self.assertIn("data-repeat", first)
        self.assertIn("deviceClassNam", first)
        # Before the validation list, the allocation and the tools.
        self.assertLess(text.index('id="first-error"'), text.index('id="diagnostics"'))
        self.assertLess(text.index('id="allocation"'), text.index('id="result-tools"'))
