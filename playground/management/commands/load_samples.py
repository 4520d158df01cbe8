"""Load or update the sample inventories and the example gallery.

Reads ``playground/samples/inventories/*.yaml`` and
``playground/samples/examples/*.yaml`` (format: playground/samples/README.md)
and creates or updates one row per slug, so running it again is harmless.
``--prune`` also deletes rows whose file is gone. Then it runs
``load_sample_clusters`` (the generated sample clusters and their examples).
"""

from pathlib import Path

import yaml
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from playground.management.commands.load_sample_clusters import CLUSTERS, read_cluster_files
from playground.models import Example, SampleInventory

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SAMPLES = Path(settings.BASE_DIR) / "playground" / "samples"
INVENTORY_KEYS = ("slug", "title", "objects")
EXAMPLE_KEYS = ("slug", "title", "inventory", "documents")


def read_samples(folder: Path, required: tuple[str, ...]) -> list[dict]:
    out = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)
        except yaml.YAMLError as exc:
            raise CommandError(f"{path.name}: not valid YAML: {exc}") from None
        if not isinstance(data, dict):
            raise CommandError(f"{path.name}: expected a mapping at the top")
        missing = [key for key in required if key not in data]
        if missing:
            raise CommandError(f"{path.name}: missing {', '.join(missing)}")
        out.append(data)
    return out


class Command(BaseCommand):
    help = "Create or update the sample inventories and examples from playground/samples/."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=SAMPLES, help="samples folder (default: %(default)s)")
        parser.add_argument("--prune", action="store_true", help="delete samples whose file is gone")
        parser.add_argument("--no-clusters", action="store_true",
                            help="skip load_sample_clusters (generating them takes seconds)")

    def handle(self, *args, dir: Path, prune: bool, no_clusters: bool = False, **options):
        inventories = read_samples(dir / "inventories", INVENTORY_KEYS)
        examples = read_samples(dir / "examples", EXAMPLE_KEYS)
        slugs = {data["slug"] for data in inventories}
        for data in examples:
            if data["inventory"] not in slugs and not SampleInventory.objects.filter(slug=data["inventory"]).exists():
                raise CommandError(f"example {data['slug']}: unknown inventory {data['inventory']!r}")
        with transaction.atomic():
            created_inv = sum(
                SampleInventory.objects.update_or_create_from_sample(data, position)[1]
                for position, data in enumerate(inventories)
            )
            created_ex = sum(
                Example.objects.update_or_create_from_sample(data, position)[1]
                for position, data in enumerate(examples)
            )
            if prune:
                generated = read_cluster_files(CLUSTERS) if dir == SAMPLES else []
                keep_examples = [d["slug"] for d in examples] + [e["slug"] for c in generated for e in c["examples"]]
                Example.objects.exclude(slug__in=keep_examples).delete()
                SampleInventory.objects.exclude(slug__in=slugs | {c["slug"] for c in generated}).delete()
        self.stdout.write(
            f"Loaded {len(inventories)} inventories ({created_inv} new) "
            f"and {len(examples)} examples ({created_ex} new)."
        )
        if dir == SAMPLES and not no_clusters:  # a folder of one's own (tests) brings no clusters
            call_command("load_sample_clusters", stdout=self.stdout)
