"""The API names CEL types as the apiserver does for the release and gates asked: `any`, or `dyn` with
DRAListTypeAttributes."""

from allocator.tests.helpers.type_names import INVENTORY, MIXED
from api.tests.base import APITestCase


class CelTypeNamesTestCase(APITestCase):
    def test_validate_and_allocate_follow_the_list_attributes_gate(self):
        for path in ("/api/v1/validate", "/api/v1/allocate"):
            for gates, name in (({}, "any"), ({"DRAListTypeAttributes": True}, "dyn")):
                with self.subTest(path=path, gates=gates):
                    r = self.post_json(path, {"documents": INVENTORY + "---\n" + MIXED, "featureGates": gates})
                    # validate answers 200 with valid: false; allocate refuses the input, 400
                    self.assertEqual(r.status_code, 200 if path.endswith("validate") else 400, r.content[:500])
                    (error,) = r.json()["errors"]
                    self.assertEqual(error["field"], "spec.devices.requests[0].exactly.selectors[0].cel.expression")
                    self.assertIn(f"expected type '{name}' but found 'int'", error["detail"])
