"""An alias bomb in the claims editor is said as one, at its line, without the site's settings or the advice to
store a cluster (allocator.reading.yamlsource: the refusal of values repeated by aliases)."""

from playground.tests.base import BaseTestCase

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


class AliasBombTestCase(BaseTestCase):
    def test_the_editor_names_the_alias_bomb_at_its_line_and_nothing_else(self):
        r = self.client.post("/", self.form_data(documents=BOMB), headers={"HX-Request": "true"})
        self.assertEqual(r.status_code, 200)
        [error] = r.context["report"].errors
        self.assertTrue(error.detail.startswith("YAML aliases expand to more than 200000 values (an alias bomb)"))
        self.assertEqual((error.line, error.column), (2, 4))
        html = r.content.decode()
        self.assertNotIn("Use my cluster, or POST", html)
        self.assertNotIn("TEXT_MAX_VALUES", html)
