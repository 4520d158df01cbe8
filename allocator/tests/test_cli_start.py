"""A newcomer's first commands: the top-level help (and no command at all), ``sample`` to get input files,
a sample file given as input, and ``validate -o text`` saying when all is valid (allocator.cli)."""

from __future__ import annotations

import json

from allocator.tests.helpers import cli, write_files


def test_the_top_level_help_names_every_command_and_how_to_get_an_input_file():
    done = cli("--help")
    assert done.returncode == 0
    for command in ("allocate", "validate", "convert", "eval", "capacity", "sample"):
        assert f"    {command} " in done.stdout
    assert "python -m allocator sample gpu-node > inventory.yaml" in done.stdout
    # No command: the same help, on stderr, and exit 2 (not only "the following arguments are required").
    bare = cli()
    assert bare.returncode == 2 and "python -m allocator sample gpu-node" in bare.stderr


def test_sample_prints_input_files_the_other_commands_take(tmp_path):
    listing = cli("sample")
    assert listing.returncode == 0
    rows = [line.split("\t") for line in listing.stdout.splitlines()]
    assert ["gpu-node", "inventory"] in [row[:2] for row in rows]
    assert ["count-two-gpus", "example"] in [row[:2] for row in rows]
    inventory, claim = cli("sample", "gpu-node"), cli("sample", "count-two-gpus")
    assert inventory.returncode == claim.returncode == 0
    assert "python -m allocator sample gpu-node" in claim.stderr  # the inventory the example runs on
    paths = write_files(tmp_path, inventory=inventory.stdout, claim=claim.stdout)
    done = cli("allocate", *paths)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["node"] == "dra-example-driver-cluster-worker"


def test_an_unknown_sample_gets_the_nearest_slugs():
    done = cli("sample", "gpu-nod")
    assert done.returncode == 2 and done.stdout == ""
    assert "no sample inventory, example or cluster is named 'gpu-nod' (did you mean gpu-node" in done.stderr


def test_a_sample_file_given_as_input_says_how_to_get_its_objects():
    from allocator.cli.sample import SAMPLES

    path = str(SAMPLES / "examples" / "count-two-gpus.yaml")
    for command in (("allocate",), ("validate", "-o", "text")):
        done = cli(*command, path)
        assert done.returncode == 2
        said = done.stdout + done.stderr
        assert "not Kubernetes objects; print its objects with: python -m allocator sample count-two-gpus" in said
        assert "Object 'Kind' is missing" not in said


def test_validate_text_says_when_everything_is_valid_and_prints_hints(tmp_path):
    inventory = cli("sample", "gpu-node").stdout
    [good] = write_files(tmp_path, good=inventory)
    done = cli("validate", "-o", "text", good)
    assert done.returncode == 0
    assert done.stdout.startswith("valid: 3 objects in 1 file, as Kubernetes 1.37's apiserver checks them")
    [bad] = write_files(tmp_path, bad="apiVersion: v1\nkind: Node\nmetadata:\nname: n1\n")
    done = cli("validate", "-o", "text", bad)
    assert done.returncode == 1
    assert done.stdout.splitlines()[1].startswith('  hint: "name" is a field of metadata: indent it two spaces')
