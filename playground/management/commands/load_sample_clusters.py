"""Generate the sample clusters and store them, with their examples.

Each ``playground/samples/clusters/*.yaml`` names a cluster too large to ship
as objects: ``generator`` gives ``allocator.synthetic``'s parameters (nodes,
GPUs a node, a fixed seed), so every run, on every machine, generates the
same text and so the same stored inventory (content-addressed: running it
again stores nothing new). The file's ``examples`` become gallery examples on
that inventory. ``load_samples`` runs this command.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from allocator.synthetic import cluster_yaml
from playground import clusters
from playground.models import Example, SampleInventory

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CLUSTERS = Path(settings.BASE_DIR) / "playground" / "samples" / "clusters"
REQUIRED = ("slug", "title", "generator", "examples")
# Sample clusters come after the sample inventories in the picker.
FIRST_POSITION = 1000


def read_cluster_files(folder: Path) -> list[dict]:
    out = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=SafeLoader)
        except yaml.YAMLError as exc:
            raise CommandError(f"{path.name}: not valid YAML: {exc}") from None
        missing = [key for key in REQUIRED if not isinstance(data, dict) or key not in data]
        if missing:
            raise CommandError(f"{path.name}: missing {', '.join(missing)}")
        out.append(data)
    return out


def generate(spec: dict) -> str:
    """The cluster's text, the same for the same parameters."""
    try:
        return cluster_yaml(int(spec["nodes"]), gpus_per_node=int(spec.get("gpusPerNode", 8)), seed=int(spec["seed"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise CommandError(f"generator needs integer nodes, seed (and gpusPerNode): {exc}") from None


class Command(BaseCommand):
    help = "Generate the sample clusters of playground/samples/clusters/ (fixed seeds) and store them."

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=CLUSTERS, help="cluster files (default: %(default)s)")

    def handle(self, *args, dir: Path, **options):
        specs = read_cluster_files(dir)
        for offset, spec in enumerate(specs):
            try:
                # A site command, not a visitor: no quota (the address is only what the rows record).
                stored, created = clusters.store(generate(spec["generator"]), "load_sample_clusters", quota=False)
            except clusters.ClusterRefused as refused:
                found = "; ".join(str(d) for d in refused.diagnostics[:3])
                raise CommandError(f"{spec['slug']}: {refused.detail} {found}".strip()) from None
            with transaction.atomic():
                inventory, _ = SampleInventory.objects.update_or_create_from_sample(
                    {**spec, "objects": []}, FIRST_POSITION + offset)
                inventory.cluster = stored
                inventory.objects_yaml = ""
                inventory.save(update_fields=["cluster", "objects_yaml"])
                for position, example in enumerate(spec["examples"]):
                    Example.objects.update_or_create_from_sample(
                        {**example, "inventory": spec["slug"], "expect": example.get("expect") or {}},
                        FIRST_POSITION + position)
            self.stdout.write(f"{spec['slug']}: {stored.nodes} nodes, {stored.devices} devices, stored as "
                              f"{stored.id}{' (new)' if created else ''}; {len(spec['examples'])} examples.")
