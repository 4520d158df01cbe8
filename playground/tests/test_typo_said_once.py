"""One misspelt name (``memroy``) is one warning with one Apply in the diagnostics, not a warning that it fails
at runtime and another that no device publishes it, each with the same hint and button."""

from playground.tests.base import BaseTestCase

HTMX = {"HX-Request": "true"}
TYPO = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: device.capacity['gpu.example.com'].memroy.compareTo(quantity('10Gi')) >= 0
"""


class TypoSaidOnceTestCase(BaseTestCase):
    def test_a_misspelt_capacity_is_one_warning_with_one_fix(self):
        r = self.client.post("/", self.form_data(documents=TYPO), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        warnings = [d for d in r.context["warnings"] if "memroy" in d["detail"]]
        self.assertEqual(len(warnings), 1, warnings)
        [warning] = warnings
        self.assertIn("no such key: memroy", warning["detail"])
        self.assertTrue(warning["hint"].startswith('did you mean "memory"?'))
        self.assertEqual([f["title"] for f in warning["fixes"]], ["Use memory"])
