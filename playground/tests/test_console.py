"""The expression console on the page (playground.console): the device picker, the answer, the environment,
and the console's place in the state (export, share, the API's shares)."""

import yaml
from django.core.files.uploadedfile import SimpleUploadedFile

from playground import console
from playground.models import Share
from playground.state import State, StateError
from playground.tests.base import BaseTestCase
from playground.tests.helpers import GPU3, POOL

PANEL = {"HX-Request": "true", "HX-Target": "console-result"}
MEMORY = 'device.capacity["gpu.example.com"].memory'


class ConsoleViewTestCase(BaseTestCase):
    def console(self, expression: str, device: str = GPU3, **more):
        return self.client.post("/console", self.form_data(console_expression=expression, console_device=device,
                                                           **more), headers=PANEL)

    def test_value_type_parts_and_cost(self):
        r = self.console(f'{MEMORY}.compareTo(quantity("40Gi")) > 0')
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, "<html")
        self.assertContains(r, '<code id="console-value-text">true</code>', html=False)
        self.assertContains(r, '<code id="console-type">bool</code>', html=False)
        answer = r.context["console"]
        self.assertEqual(answer["cost"]["limit"], 1_000_000)
        self.assertGreater(answer["cost"]["estimated"], 0)
        self.assertContains(r, 'id="console-cost-value"')
        # The part tree: the root, and the memory capacity with its own value.
        root = answer["parts"][0]
        self.assertEqual(root["value"], "true")

        def walk(part):
            yield part
            for child in part["children"]:
                yield from walk(child)

        memory = next(p for p in walk(root) if p["text"] == MEMORY)
        self.assertEqual((memory["value"], memory["type"]), ("80Gi", "kubernetes.Quantity"))
        self.assertContains(r, f'<code class="part-text">{MEMORY.replace(chr(34), "&quot;")}</code>', html=False)

    def test_any_result_type(self):
        r = self.console('device.attributes["gpu.example.com"].index')
        self.assertContains(r, '<code id="console-value-text">3</code>', html=False)
        self.assertContains(r, '<code id="console-type">int</code>', html=False)

    def test_a_runtime_error_and_a_compile_error_with_the_caret(self):
        r = self.console('device.attributes["gpu.example.com"].nosuch == 1')
        self.assertContains(r, 'id="console-runtime-error"')
        self.assertContains(r, "no such key")
        self.assertNotContains(r, 'id="console-value"')
        r = self.console("device.driver ==")
        self.assertContains(r, 'id="console-compile-error"')
        self.assertContains(r, '<pre class="caret-diagram">', html=False)
        self.assertIn("^", r.context["console"]["diagnostics"][0]["diagram"])

    def test_no_device_or_an_unknown_one_says_so(self):
        r = self.console("1 + 1", device="")
        self.assertContains(r, 'id="console-errors"')
        self.assertContains(r, "Pick a device")
        r = self.console("1 + 1", device=f"gpu.example.com/{POOL}/gpu-99")
        self.assertIn("has no device 'gpu-99'; it has gpu-0, gpu-1", r.context["console_error"])
        r = self.console("1 + 1", device="gpu-3")
        self.assertIn("DRIVER/POOL/DEVICE", r.context["console_error"])

    def test_an_invalid_form_is_a_located_error_not_a_500(self):
        r = self.console("1", console_env="nowhere")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Not evaluated")
        self.assertContains(r, "Environment")
        r = self.client.post("/console", self.form_data(console_expression="1", console_device=GPU3,
                                                        console_env="nowhere"))
        self.assertEqual(r.status_code, 400)

    def test_a_plain_post_gets_the_page_with_the_answer(self):
        r = self.client.post("/console", self.form_data(console_expression="device.driver", console_device=GPU3))
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<html")
        self.assertContains(r, '<code id="console-value-text">&quot;gpu.example.com&quot;</code>', html=False)

    def test_the_page_lists_devices_by_node_and_pool_and_keeps_the_choice(self):
        r = self.client.post("/", self.form_data(console_expression="device.driver", console_device=GPU3))
        self.assertContains(r, f'<optgroup label="{POOL} · gpu.example.com / {POOL}">', html=False)
        self.assertContains(r, f'<option value="{GPU3}" selected>gpu-3</option>', html=False)
        self.assertContains(r, 'id="console-value-text"')
        # No expression: the panel is there, no answer.
        r = self.client.get("/")
        self.assertContains(r, 'id="console-panel"')
        self.assertNotContains(r, 'id="console-value"')

    def test_the_deviceclass_environment_has_the_release_s_options(self):
        # The gate is off: a new claim's selector may not read allowMultipleAllocations; a stored class's may.
        expression = "device.allowMultipleAllocations"
        gate = {"gate_DRAConsumableCapacity": "off"}
        r = self.console(expression, **gate)
        self.assertContains(r, 'id="console-compile-error"')
        r = self.console(expression, console_env="class", **gate)
        self.assertNotContains(r, 'id="console-compile-error"')
        self.assertContains(r, '<code id="console-type">bool</code>', html=False)
        # Before 1.37 the scheduler compiles a class's selectors with the gates too.
        r = self.console(expression, console_env="class", kubernetes_version="1.36", **gate)
        self.assertContains(r, 'id="console-compile-error"')

    def test_a_slice_written_in_the_documents_is_offered_too(self):
        own = ("\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: mine\nspec:\n"
               "  driver: my.example.com\n  nodeName: my-node\n  pool:\n    name: p\n    resourceSliceCount: 1\n"
               "  devices:\n  - name: d0\n    attributes:\n      x:\n        int: 7\n")
        documents = self.example.state().documents + own
        r = self.client.post("/", self.form_data(documents=documents, console_device="my.example.com/p/d0",
                                                 console_expression='device.attributes["my.example.com"].x'))
        self.assertContains(r, '<optgroup label="my-node · my.example.com / p">', html=False)
        self.assertContains(r, '<code id="console-value-text">7</code>', html=False)

    def test_a_refused_form_keeps_the_console_s_fields(self):
        r = self.client.post("/", self.form_data(console_expression="device.driver", console_device=GPU3,
                                                 capacity_max="0"))
        self.assertContains(r, "Nothing was analyzed")
        self.assertContains(r, f'<option value="{GPU3}" selected>{GPU3}</option>', html=False)
        self.assertContains(r, ">device.driver</textarea>", html=False)

    def test_the_embed_view_has_no_console(self):
        share, _ = Share.objects.get_or_create_for(State.from_dict({**self.example.state().to_dict(),
                                                                    "console": {"expression": "1"}}))
        r = self.client.get(f"/s/{share.id}/embed")
        self.assertNotContains(r, 'id="console-panel"')


class ConsoleStateTestCase(BaseTestCase):
    def test_an_untouched_console_leaves_the_export_and_the_share_id_alone(self):
        state = self.example.state()
        self.assertNotIn("console", state.to_dict())
        with_empty = State.from_dict({**state.to_dict(), "console": {"expression": "", "device": None}})
        self.assertEqual(with_empty.content_id(), state.content_id())
        data = yaml.safe_load(self.client.post("/export", self.form_data()).content)
        self.assertNotIn("console", data)

    def test_export_and_import_keep_the_console(self):
        r = self.client.post("/export", self.form_data(console_expression="device.driver", console_device=GPU3,
                                                       console_env="class"))
        data = yaml.safe_load(r.content)
        self.assertEqual(data["console"], {"expression": "device.driver", "device": GPU3, "env": "class"})
        state = State.from_yaml(r.content.decode())
        self.assertEqual((state.console.expression, state.console.device, state.console.env),
                         ("device.driver", GPU3, "class"))
        self.assertNotEqual(state.content_id(), self.example.state().content_id())
        page = self.client.post("/import", {"state_file": SimpleUploadedFile("s.yaml", r.content)})
        self.assertContains(page, '<code id="console-value-text">&quot;gpu.example.com&quot;</code>', html=False)
        self.assertContains(page, '<option value="class" selected>', html=False)

    def test_a_share_keeps_the_console(self):
        r = self.client.post("/share", self.form_data(console_expression="device.driver", console_device=GPU3))
        share = Share.objects.get()
        self.assertEqual(share.console, {"expression": "device.driver", "device": GPU3, "env": "claim"})
        page = self.client.get(r["Location"])
        self.assertContains(page, f'<option value="{GPU3}" selected>gpu-3</option>', html=False)
        self.assertContains(page, '<code id="console-value-text">&quot;gpu.example.com&quot;</code>', html=False)
        self.client.post("/share", self.form_data(console_expression="device.driver", console_device=GPU3))
        self.assertEqual(Share.objects.count(), 1)
        self.client.post("/share", self.form_data(console_expression="device.name", console_device=GPU3))
        self.assertEqual(Share.objects.count(), 2)

    def test_the_api_s_shares_take_and_give_the_console(self):
        body = {"documents": self.example.documents, "inventory": "gpu-node",
                "console": {"expression": "device.name", "device": GPU3, "env": "class"}}
        r = self.client.post("/api/v1/shares", body, content_type="application/json")
        self.assertEqual(r.status_code, 201, r.content)
        share = Share.objects.get(pk=r.json()["id"])
        self.assertEqual(share.console, {"expression": "device.name", "device": GPU3, "env": "class"})
        detail = self.client.get(f"/api/v1/shares/{share.id}").json()
        self.assertEqual(detail["console"], {"expression": "device.name", "device": GPU3, "env": "class"})
        bad = self.client.post("/api/v1/shares", {**body, "console": {"env": "pod"}}, content_type="application/json")
        self.assertEqual(bad.status_code, 400)

    def test_bad_console_values_are_refused_by_name(self):
        base = self.example.state().to_dict()
        for console_value, words in [("x", "console must be a mapping"), ({"expression": 3}, "console.expression"),
                                     ({"env": "pod"}, "console.env"), ({"device": ["a"]}, "console.device"),
                                     ({"expression": "x" * 10241}, "too long")]:
            with self.assertRaisesMessage(StateError, words):
                State.from_dict({**base, "console": console_value})

    def test_the_device_list_is_capped(self):
        state = self.example.state()
        old = console.MAX_LISTED
        console.MAX_LISTED = 3
        try:
            groups = console.device_groups(State.from_dict({**state.to_dict(), "console": {"device": GPU3}}))
        finally:
            console.MAX_LISTED = old
        self.assertEqual(groups["more"], 5)
        self.assertEqual(sum(len(p["devices"]) for g in groups["groups"] for p in g["pools"]), 3)
        self.assertEqual(groups["picked"], GPU3)  # past the cap, the picked device stays an option

    def test_openapi_documents_the_console_of_shares(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        schema = r.json()
        components = schema["components"]["schemas"]
        request = schema["paths"]["/api/v1/shares"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        self.assertEqual(request, {"$ref": "#/components/schemas/ShareRequest"})
        self.assertIn("console", components["ShareRequest"]["properties"])
        self.assertIn("console", components["Share"]["properties"])
        self.assertEqual(set(components["SharedConsole"]["properties"]), {"expression", "device", "env", "scratch"})


class ConsoleDeepTestCase(BaseTestCase):
    def test_a_deep_expression_renders(self):
        expression = "1" + " + 1" * 240  # CEL refuses more than 250 levels
        r = self.client.post("/console", self.form_data(console_expression=expression, console_device=GPU3),
                             headers=PANEL)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, '<code id="console-value-text">241</code>', html=False)
        self.assertTrue(r.context["console"]["truncated"])

    def test_a_huge_value_is_cut(self):
        # Each bind doubles the string: 2^16 characters, well within the cost limit.
        expression = '"ab"'
        for i in range(15):
            expression = f"cel.bind(s{i}, {expression}, s{i} + s{i})"
        r = self.client.post("/console", self.form_data(console_expression=expression, console_device=GPU3),
                             headers=PANEL)
        answer = r.context["console"]
        self.assertTrue(answer["value"].endswith(f"… ({2 ** 16 + 2 - 20_000} more characters)"), answer["value"][-60:])
        self.assertTrue(all(len(row["value"] or "") < 2_100 for row in answer["rows"]))
        self.assertLess(len(r.content), 200_000)
