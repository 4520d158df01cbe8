"""``python -m allocator sample``: the site's sample inventories and gallery examples as input files.

The files under ``playground/samples/`` describe a sample (slug, title, provenance...) around its
objects; the other commands read Kubernetes objects only. This prints a sample's objects, ready to
be saved and given to ``allocate``, ``validate`` or ``capacity``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from allocator.cli.common import EXIT_ERROR, EXIT_OK

if TYPE_CHECKING:
    from allocator.cli.common import Commands

# The checkout's samples, beside the engine (a data folder of the playground: no Django is imported).
SAMPLES = Path(__file__).resolve().parents[2] / "playground" / "samples"

HELP = """\
Print a sample of the playground as Kubernetes objects (multi-document YAML),
to save as an input file for the other commands:

  python -m allocator sample gpu-node > inventory.yaml        # an inventory
  python -m allocator sample count-two-gpus > claim.yaml      # a gallery example
  python -m allocator allocate inventory.yaml claim.yaml

NAME is the slug of a sample inventory (its Nodes, DeviceClasses and
ResourceSlices), of a gallery example (its claims, templates and pods; the
inventory it runs on is named on stderr), or of a sample cluster (generated
from its fixed parameters, as the site does). Without NAME, lists them all.
The same slugs are in the site's pickers and in GET /api/v1/inventories and
/api/v1/examples. Exit 2 for an unknown NAME (with the nearest slugs).
"""


def add(commands: Commands) -> None:
    parser = commands.add_parser("sample", help="print a sample inventory or example as an input file",
                                 description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", nargs="?", metavar="NAME", help="the sample's slug (default: list them)")


def _catalogue(folder: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """slug -> (what it is, its data): inventories, examples and sample clusters (with their examples)."""
    import yaml

    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for kind in ("inventories", "examples", "clusters"):
        for path in sorted((folder / kind).glob("*.yaml")):
            data = yaml.safe_load(path.read_text())
            if not isinstance(data, dict) or "slug" not in data:
                continue
            found[data["slug"]] = ({"inventories": "inventory", "examples": "example", "clusters": "cluster"}[kind],
                                   data)
            if kind == "clusters":
                for example in data.get("examples") or []:
                    found[example["slug"]] = ("example", {**example, "inventory": data["slug"]})
    return found


def run(args: argparse.Namespace, folder: Path = SAMPLES) -> int:
    if not folder.is_dir():
        print(f"error: the samples are not installed with this copy of the engine (looked in {folder}); "
              "they are in the project's source, under playground/samples/", file=sys.stderr)
        return EXIT_ERROR
    catalogue = _catalogue(folder)
    if args.name is None:
        for slug, (what, data) in catalogue.items():
            print(f"{slug}\t{what}\t{data.get('title', '')}")
        return EXIT_OK
    if args.name not in catalogue:
        import difflib  # deferred: only a misspelt name needs it (start-up)

        near = difflib.get_close_matches(args.name, list(catalogue), n=3, cutoff=0.5)
        said = f" (did you mean {', '.join(near)}?)" if near else ""
        print(f"error: no sample inventory, example or cluster is named {args.name!r}{said}; "
              "`python -m allocator sample` lists them", file=sys.stderr)
        return EXIT_ERROR
    what, data = catalogue[args.name]
    sys.stdout.write(_text(what, data))
    if what == "example":
        print(f"note: example {args.name!r} runs on the inventory {data.get('inventory')!r}: "
              f"python -m allocator sample {data.get('inventory')}", file=sys.stderr)
    return EXIT_OK


def _text(what: str, data: dict[str, Any]) -> str:
    import yaml

    if what == "example":
        documents: str = data["documents"]
        return documents
    if what == "cluster":
        from allocator.synthetic import cluster_yaml

        spec = data["generator"]
        return cluster_yaml(int(spec["nodes"]), gpus_per_node=int(spec.get("gpusPerNode", 8)), seed=int(spec["seed"]))
    dumped: str = yaml.safe_dump_all(data["objects"], sort_keys=False, default_flow_style=False, width=1 << 16)
    return dumped

