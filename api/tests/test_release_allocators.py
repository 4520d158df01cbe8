"""The API answers as each release's allocator did (issue 28 item 9): the same engine calls as the command line."""

import yaml

from allocator.tests.helpers import SAMPLES
from allocator.tests.helpers.release_allocators import CAPACITY, CAPACITY_STORED, SHARED
from api.tests.base import APITestCase


def _inventory(slug: str) -> str:
    objects = yaml.safe_load((SAMPLES / "inventories" / f"{slug}.yaml").read_text())["objects"]
    return yaml.safe_dump_all(objects, sort_keys=False)


def _example(slug: str) -> dict:
    return yaml.safe_load((SAMPLES / "examples" / f"{slug}.yaml").read_text())


class ReleaseAllocatorsTestCase(APITestCase):
    def _analyze(self, documents: str, release: str, gates: dict | None = None, node: str = "") -> dict:
        r = self.post_json("/api/v1/analyze", {"documents": documents, "kubernetesVersion": release,
                                               "featureGates": gates or {}, "node": node})
        self.assertEqual(r.status_code, 200, r.content[:2000])
        return r.json()["allocation"]

    def test_1_34_refuses_stored_capacity_requests_in_the_experimental_implementation(self):
        allocation = self._analyze(CAPACITY_STORED, "1.34")
        self.assertEqual(allocation["status"], "error")
        self.assertIn("has capacity requests, but the DRAConsumableCapacity feature is disabled",
                      allocation["error"])
        self.assertEqual(self._analyze(CAPACITY_STORED, "1.35")["status"], "allocated")
        # Created, not read from a cluster: the apiserver drops the capacity requests first.
        self.assertEqual(self._analyze(CAPACITY, "1.34")["status"], "allocated")

    def test_1_35_gives_one_request_two_shares_of_a_device_and_1_36_does_not(self):
        text = SHARED.replace("COUNT", "2")
        shares = self._analyze(text, "1.35", {"DRAConsumableCapacity": True})
        self.assertEqual(shares["status"], "allocated")
        devices = [r["device"] for r in shares["claims"][0]["status"]["allocation"]["devices"]["results"]]
        self.assertEqual(devices, ["gpu-0", "gpu-0"])
        self.assertEqual(self._analyze(text, "1.36")["status"], "unsatisfiable")

    def test_the_1_33_form_allocates_on_1_33_with_counters_of_each_slice(self):
        example = _example("mig-1-33-counters-held-by-claim")
        allocation = self._analyze(_inventory("nvidia-mig-1-33") + "---\n" + example["documents"], "1.33",
                                   example["featureGates"], "dgx-h100-01")
        self.assertEqual(allocation["status"], "allocated")
        granted = [r["device"] for c in allocation["claims"] for r in c["status"]["allocation"]["devices"]["results"]]
        self.assertEqual(granted, ["gpu-1-mig-3g40gb-9-0", "gpu-1-mig-3g40gb-9-4"])
