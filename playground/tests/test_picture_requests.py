"""The picture marks, per request, the devices its selectors let through (playground.picture.request_marks):
a selector that filters is shown as such there, beside the request, not as a warning."""

from __future__ import annotations

import re

from playground import picture
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX, PICTURE

# On the gpu-node sample (gpu-0 ... gpu-7, attribute index 0 ... 7): a selector true on two GPUs only,
# and a request of another claim that every GPU matches.
FILTERING = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: last-two}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        count: 2
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].index >= 6"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: any}
spec:
  devices:
    requests:
    - name: one
      exactly: {deviceClassName: gpu.example.com}
"""


def tiles(html: str) -> dict[str, str]:
    """Device name -> its tile's opening tag."""
    return {re.search(r'data-device="[^"]*/([^"/]+)"', tag).group(1): tag
            for tag in re.findall(r'<li class="tile[^>]*>', html)}


class RequestMarksTestCase(BaseTestCase):
    def post(self, documents: str):
        return self.client.post("/", self.form_data(documents=documents), headers=HTMX)

    def drawn(self, documents: str):
        """The picture as the page fetches it after a live update (``POST /picture``)."""
        return self.client.post("/picture", self.form_data(documents=documents), headers=PICTURE)

    def test_each_request_lists_what_its_selectors_let_through(self):
        r = self.drawn(FILTERING)
        marks = r.context["picture"].requests
        self.assertEqual([(m.label, m.total, m.matching, m.filtered) for m in marks],
                         [("last-two / gpu", 8, 2, 6), ("any / one", 8, 8, 0)])
        self.assertContains(r, 'id="request-marks"')
        self.assertContains(r, "seen from node <code>dra-example-driver-cluster-worker</code>", html=False)
        self.assertContains(r, 'data-request-mark="r0" aria-pressed="false"', html=False)
        self.assertContains(r, "2 of 8 match, 6 filtered out by a selector", html=False)
        self.assertContains(r, '<span class="muted request-mark-count">8 of 8 match</span>', html=False)
        # The granted request's button carries its colour, as the legend does.
        colors = {g.label: g.color for g in r.context["picture"].legend}
        self.assertContains(r, f'<span class="swatch grant-{colors["last-two / gpu"]}" aria-hidden="true"></span>'
                               f'last-two / gpu</button>', html=False)

    def test_the_tiles_name_the_requests_they_match_and_those_that_filter_them_out(self):
        found = tiles(self.drawn(FILTERING).content.decode())
        self.assertEqual(sorted(found), [f"gpu-{i}" for i in range(8)])
        for i in range(6):
            self.assertIn('data-matches="r1" data-filtered="r0"', found[f"gpu-{i}"])
        for i in (6, 7):
            self.assertIn('data-matches="r0 r1"', found[f"gpu-{i}"])
            self.assertNotIn("data-filtered", found[f"gpu-{i}"])

    def test_a_filtering_selector_is_no_warning(self):
        r = self.post(FILTERING)
        self.assertEqual(r.context["warnings"], [])
        self.assertEqual(r.context["errors"], [])

    def test_nothing_to_mark_without_an_explanation(self):
        r = self.drawn("")
        self.assertEqual(r.context["picture"].requests, [])
        self.assertNotContains(r, 'id="request-marks"')
        self.assertNotContains(r, "data-matches=")


class CondenseTestCase(BaseTestCase):
    def test_the_node_the_marks_are_seen_from_is_drawn(self):
        nodes = [picture.NodeView(name=f"node-{i}") for i in range(5)]
        nodes[4].explained = True
        pic = picture.condense(picture.Picture(nodes=nodes), fitting={"node-0", "node-1"}, limit=2)
        self.assertEqual([n.name for n in pic.nodes], ["node-0", "node-4"])
        self.assertEqual(pic.hidden_nodes, 3)
