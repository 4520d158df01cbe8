from unittest import TestCase
from unittest.mock import patch

from django.core.exceptions import ImproperlyConfigured

from playground.env import envbool, envchoice, envint, envlist


def env(**values):
    return patch.dict("os.environ", values)


class EnvBoolTestCase(TestCase):
    def test_it_reads_true_and_false(self):
        for raw, expected in [
            ("1", True),
            ("true", True),
            ("True", True),
            ("yes", True),
            ("on", True),
            ("0", False),
            ("false", False),
            ("FALSE", False),
            ("no", False),
            ("off", False),
        ]:
            with env(FLAG=raw):
                self.assertIs(envbool("FLAG", not expected), expected, raw)

    def test_it_uses_default_when_unset_or_empty(self):
        with patch.dict("os.environ", clear=True):
            self.assertIs(envbool("FLAG", True), True)
        with env(FLAG="  "):
            self.assertIs(envbool("FLAG", False), False)

    def test_it_rejects_maybe(self):
        with env(DEBUG="maybe"):
            with self.assertRaisesRegex(ImproperlyConfigured, "DEBUG='maybe' is not a boolean"):
                envbool("DEBUG", False)


class EnvIntTestCase(TestCase):
    def test_it_reads_int(self):
        with env(SIZE="2048"):
            self.assertEqual(envint("SIZE", 1), 2048)

    def test_it_uses_default(self):
        with patch.dict("os.environ", clear=True):
            self.assertEqual(envint("SIZE", 7), 7)

    def test_it_rejects_non_integer(self):
        for raw in ("1MiB", "1.5", "lots"):
            with env(SIZE=raw):
                with self.assertRaisesRegex(ImproperlyConfigured, "is not an integer"):
                    envint("SIZE", 1)

    def test_it_enforces_minimum(self):
        with env(SIZE="0"):
            with self.assertRaisesRegex(ImproperlyConfigured, "below the minimum of 1"):
                envint("SIZE", 1, minimum=1)


class EnvListTestCase(TestCase):
    def test_it_splits_on_commas(self):
        with env(HOSTS=" a.example , b.example,,"):
            self.assertEqual(envlist("HOSTS", []), ["a.example", "b.example"])

    def test_it_uses_default(self):
        with patch.dict("os.environ", clear=True):
            self.assertEqual(envlist("HOSTS", ["localhost"]), ["localhost"])


class EnvChoiceTestCase(TestCase):
    def test_it_reads_a_choice_without_case(self):
        with env(CACHE=" Database "):
            self.assertEqual(envchoice("CACHE", "local", ("local", "database")), "database")

    def test_it_uses_default(self):
        with patch.dict("os.environ", clear=True):
            self.assertEqual(envchoice("CACHE", "local", ("local", "database")), "local")

    def test_it_rejects_anything_else(self):
        with env(CACHE="redis"):
            with self.assertRaisesRegex(ImproperlyConfigured, "^CACHE='redis' is not one of: local, database$"):
                envchoice("CACHE", "local", ("local", "database"))
