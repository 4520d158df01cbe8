from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate


def create_cache_tables(using: str, **kwargs) -> None:
    """`migrate` also creates the table of a database cache (CACHE=database), so
    deployments need no extra step; createcachetable skips existing tables."""
    call_command("createcachetable", database=using, verbosity=0)


class PlaygroundConfig(AppConfig):
    name = "playground"
    verbose_name = "DRA Playground"

    def ready(self) -> None:
        post_migrate.connect(create_cache_tables, sender=self)
