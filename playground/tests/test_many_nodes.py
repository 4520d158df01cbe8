"""Results that stay readable with many nodes: the node table grouped by reason, the picture condensed."""

from __future__ import annotations

from django.test import SimpleTestCase, override_settings

from allocator.engine import NodeRow
from allocator.synthetic import cluster_yaml
from playground import clusters
from playground.models import StoredInventory
from playground.picture import NodeView, Picture, PoolView, Tile, condense
from playground.results import LIST_LIMIT, NODE_ROWS, nodes_view, reason_shape
from playground.tests.base import BaseTestCase
from playground.tests.helpers import H200_PAIR


def node(name: str, fits: bool, reason: str | None = None) -> NodeRow:
    return NodeRow(name=name, fits=fits, reason=reason, error=False)


def miss(name: str, product: str) -> NodeRow:
    return node(name, False, f"claim default/pair, request train: needs 2 device(s), 0 of 8 in reach match "
                             f"(8 x request selector #0 is false: `...` is false (productName = \"{product}\"))")


class NodesViewTestCase(SimpleTestCase):
    def test_few_nodes_keep_a_row_each(self):
        view = nodes_view([node("a", True), miss("b", "X")])
        self.assertFalse(view["grouped"])
        self.assertEqual([n.name for n in view["rows"]], ["a", "b"])

    def test_many_nodes_are_counted_and_grouped_by_reason_whatever_the_values_read(self):
        nodes = ([node(f"fit-{i:03d}", True) for i in range(5)]
                 + [miss(f"h100-{i:03d}", "NVIDIA H100") for i in range(60)]
                 + [miss(f"l40s-{i:03d}", "NVIDIA L40S") for i in range(15)]
                 + [node("odd", False, "claim default/pair, request train: pool odd is incomplete")])
        view = nodes_view(nodes)
        self.assertTrue(view["grouped"])
        self.assertEqual((view["total"], view["fit_count"]), (81, 5))
        self.assertEqual([g["count"] for g in view["groups"]], [75, 1])
        self.assertTrue(view["groups"][0]["reason"].endswith("is false (productName))"))
        self.assertEqual(len(view["groups"][0]["names"]), LIST_LIMIT)
        self.assertEqual(view["groups"][0]["more"], 75 - LIST_LIMIT)

    def test_the_filter_narrows_by_name(self):
        nodes = [miss(f"h100-{i:03d}", "NVIDIA H100") for i in range(NODE_ROWS + 5)] + [node("h200-000", True)]
        view = nodes_view(nodes, node_filter=" H200 ")
        self.assertEqual((view["shown"], view["fit_count"], view["groups"], view["filter"]), (1, 1, [], "H200"))
        self.assertEqual(nodes_view(nodes, node_filter="h100-00")["shown"], 10)

    def test_the_node_name_is_not_part_of_the_reason(self):
        self.assertEqual(reason_shape("pool n-1 on n-1 is incomplete", "n-1"), "pool the node on the node is incomplete")


class CondenseTestCase(SimpleTestCase):
    def picture(self, names: list[str], chosen: str = "") -> Picture:
        def view(name):
            pool = PoolView(driver="d", name=name, devices=[Tile(driver="d", pool=name, name=f"g{i}") for i in range(2)])
            return NodeView(name=name, pools=[pool], chosen=name == chosen)
        return Picture(nodes=[view(n) for n in names] + [NodeView(name="All nodes", shared=True)])

    def test_it_draws_the_chosen_node_then_those_that_fit(self):
        names = [f"n{i:02d}" for i in range(30)]
        pic = condense(self.picture(names, chosen="n20"), fitting={"n20", "n25", "n29"}, limit=4)
        self.assertEqual([n.name for n in pic.nodes], ["n00", "n20", "n25", "n29", "All nodes"])
        self.assertEqual((pic.hidden_nodes, pic.hidden_devices, pic.hidden_fitting), (26, 52, 0))
        self.assertEqual(pic.device_count, 60)

    def test_a_small_inventory_is_drawn_whole(self):
        pic = condense(self.picture(["a", "b"]), fitting=set(), limit=4)
        self.assertEqual(pic.hidden_nodes, 0)
        self.assertEqual(len(pic.nodes), 3)


class ManyNodesPageTestCase(BaseTestCase):
    @override_settings(STORED_INVENTORIES_PER_DAY=0)
    def test_the_page_groups_a_stored_cluster(self):
        clusters._texts.clear()
        stored, _ = clusters.store(cluster_yaml(60, seed=3), "192.0.2.1")
        data = {"inventory_id": stored.id, "documents": H200_PAIR, "kubernetes_version": "1.35"}
        r = self.client.post("/", data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")
        nodes = r.context["nodes"]
        self.assertTrue(nodes["grouped"])
        fit = nodes["fit_count"]
        self.assertGreater(fit, 0)
        self.assertContains(r, f"{fit} of 60 nodes fit")
        self.assertContains(r, f'{60 - fit} nodes</span>')
        self.assertContains(r, "is false (productName)")
        drawn = self.client.post("/picture", data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="picture")
        self.assertContains(drawn, 'id="picture-more"')
        self.assertEqual(len([n for n in drawn.context["picture"].nodes if not n.shared]), 12)
        # The filter narrows the table to nodes whose name has it.
        r = self.client.post("/", {**data, "node_filter": "gpu-node-0000"}, HTTP_HX_REQUEST="true",
                             HTTP_HX_TARGET="results")
        self.assertEqual(r.context["nodes"]["shown"], 10)
        self.assertContains(r, "whose name contains <q>gpu-node-0000</q>")
        self.assertEqual(StoredInventory.objects.count(), 1)
