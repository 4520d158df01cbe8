"""The console's scratch device (issue 36, item 9): an expression evaluated on a device typed as YAML, checked as
a slice's device with errors located in its text; kept in exports and shares, the ids of older states unchanged."""

import yaml

from playground.models import Share
from playground.state import State
from playground.tests.base import BaseTestCase

PANEL = {"HX-Request": "true", "HX-Target": "console-result"}
SCRATCH = """\
driver: gpu.example.com
attributes:
  model: {string: H200}
  index: {int: 7}
capacity:
  memory: {value: 141Gi}
"""


class ScratchConsoleTestCase(BaseTestCase):
    def console(self, expression: str, scratch: str, **more):
        return self.client.post("/console", self.form_data(console_expression=expression, console_device="scratch",
                                                           console_scratch=scratch, **more), headers=PANEL)

    def test_an_expression_on_the_scratch_device(self):
        r = self.console('device.attributes["gpu.example.com"].model + "/" + device.driver', SCRATCH)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, '<code id="console-value-text">&quot;H200/gpu.example.com&quot;</code>', html=False)
        r = self.console('device.capacity["gpu.example.com"].memory.compareTo(quantity("100Gi")) > 0', SCRATCH)
        self.assertContains(r, '<code id="console-value-text">true</code>', html=False)

    def test_without_a_driver_line_names_belong_to_the_default_driver(self):
        r = self.console('device.driver + " " + device.attributes["scratch.example.com"].model',
                         "attributes:\n  model: {string: X}\n")
        self.assertContains(r, "&quot;scratch.example.com X&quot;", html=False)

    def test_an_invalid_device_is_refused_with_located_errors(self):
        r = self.console("device.driver", "attributes:\n  model: {string: A, int: 3}\ncapacity:\n"
                                          "  memory: {value: 12zz}\nbogus: 1\n")
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, 'id="console-value"')
        self.assertContains(r, 'id="console-scratch-errors"')
        errors = r.context["console_scratch_errors"]
        self.assertEqual([(e["line"], e["column"]) for e in errors], [(5, 1)])  # decoding stops at the field
        self.assertIn('unknown field "bogus"', errors[0]["message"])
        r = self.console("device.driver", "attributes:\n  model: {string: A, int: 3}\n")
        (error,) = r.context["console_scratch_errors"]
        self.assertEqual(error["where"], "line 2, column 10")
        self.assertIn("attributes[model]: Invalid value", error["message"])
        self.assertIn("exactly one value must be specified", error["message"])
        r = self.console("device.driver", "driver: Not A Driver\n")
        (error,) = r.context["console_scratch_errors"]
        self.assertEqual((error["line"], error["column"]), (1, 9))
        self.assertIn("driver: Invalid value", error["message"])
        r = self.console("device.driver", "attributes: [\n")
        self.assertEqual(r.context["console_scratch_errors"][0]["line"], 2)
        r = self.console("device.driver", "")
        self.assertIn("type the device's attributes", r.context["console_scratch_errors"][0]["message"])

    def test_the_page_offers_the_scratch_device_and_keeps_its_text(self):
        r = self.client.post("/", self.form_data(console_expression="device.driver", console_device="scratch",
                                                 console_scratch=SCRATCH))
        self.assertContains(r, '<option value="scratch" selected>', html=False)
        self.assertContains(r, 'id="id_console_scratch"')
        self.assertContains(r, "model: {string: H200}")
        self.assertContains(r, '<code id="console-value-text">&quot;gpu.example.com&quot;</code>', html=False)


class ScratchStateTestCase(BaseTestCase):
    def test_a_console_without_scratch_keeps_its_export_and_share_id(self):
        base = {**self.example.state().to_dict(), "console": {"expression": "device.driver", "device": "a/b/c"}}
        state = State.from_dict(base)
        self.assertEqual(state.to_dict()["console"], {"expression": "device.driver", "device": "a/b/c", "env": "claim"})
        with_empty = State.from_dict({**base, "console": {**base["console"], "scratch": ""}})
        self.assertEqual(with_empty.content_id(), state.content_id())
        with_scratch = State.from_dict({**base, "console": {**base["console"], "scratch": SCRATCH}})
        self.assertNotEqual(with_scratch.content_id(), state.content_id())

    def test_export_and_share_keep_the_scratch_device(self):
        form = self.form_data(console_expression="device.driver", console_device="scratch", console_scratch=SCRATCH)
        data = yaml.safe_load(self.client.post("/export", form).content)
        self.assertEqual(data["console"], {"expression": "device.driver", "device": "scratch", "env": "claim",
                                           "scratch": SCRATCH})
        r = self.client.post("/share", form)
        self.assertEqual(Share.objects.get().console["scratch"], SCRATCH)
        page = self.client.get(r["Location"])
        self.assertContains(page, '<option value="scratch" selected>', html=False)
        self.assertContains(page, '<code id="console-value-text">&quot;gpu.example.com&quot;</code>', html=False)

    def test_bad_scratch_values_are_refused_by_name(self):
        base = self.example.state().to_dict()
        from playground.state import StateError
        for value, words in [({"scratch": 3}, "console.scratch must be YAML text"),
                             ({"scratch": "x" * (64 * 1024 + 1)}, "console.scratch is too long")]:
            with self.assertRaisesMessage(StateError, words):
                State.from_dict({**base, "console": value})
