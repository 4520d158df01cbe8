"""The command line's start-up cache (``allocator.startup``): written when a command ends, then serving the
engine's modules from one file while their sources are unchanged, with the same answers. Each test runs
``python -m allocator`` in a copy of the engine, so that it may write the cache and change a source."""

from __future__ import annotations

import json
import marshal
import os
import shutil
import subprocess
import sys

import pytest

from allocator.synthetic import cluster_yaml, node_name
from allocator.tests.helpers import BENCH_CLAIM, ROOT

PROBE = """\
import contextlib, io, json, sys
from allocator import startup
startup.use()
from allocator.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(sys.argv[1:])
startup.save()
print(json.dumps({"status": status, "answer": out.getvalue(), "served": sorted(startup._finder.served)}))
"""


@pytest.fixture
def engine(tmp_path):
    """A copy of the engine (its tests left out) and the one-node inputs."""
    shutil.copytree(ROOT / "allocator", tmp_path / "allocator",
                    ignore=shutil.ignore_patterns("tests", "__pycache__"))
    (tmp_path / "cluster.yaml").write_text(cluster_yaml(1))
    (tmp_path / "claim.yaml").write_text(BENCH_CLAIM)
    return tmp_path


def _cache(engine) -> str:
    return str(engine / "allocator" / "__pycache__" / f"startup.{sys.implementation.cache_tag}.bundle")


def _run(engine, *, write: bool = True, probe: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    args = ["allocate", "--node", node_name(0), "cluster.yaml", "claim.yaml"]
    command = [sys.executable, "-c", PROBE, *args] if probe else [sys.executable, "-m", "allocator", *args]
    done = subprocess.run(command, cwd=engine, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_a_command_writes_the_cache_and_the_next_is_served_from_it_with_the_same_answer(engine):
    first = _run(engine)
    assert os.path.exists(_cache(engine))
    magic, entries = marshal.loads(open(_cache(engine), "rb").read())
    assert "allocator.kube.model" in entries and "allocator.cli.allocate" in entries
    assert not any(name.startswith("allocator.tests") for name in entries)
    served = json.loads(_run(engine, probe=True).stdout)
    assert "allocator.kube.model" in served["served"] and len(served["served"]) > 50
    assert served["answer"] == first.stdout
    assert _run(engine).stdout == first.stdout


def test_nothing_is_written_where_python_may_not_write_bytecode(engine):
    _run(engine, write=False)
    assert not os.path.exists(_cache(engine))


def test_a_changed_source_is_imported_from_its_file_and_the_cache_follows(engine):
    _run(engine)
    model = engine / "allocator" / "kube" / "model.py"
    text = model.read_text()
    model.write_text(text + "\nCHANGED_SINCE_THE_CACHE = True\n")
    probe = PROBE.replace('"served": sorted(startup._finder.served)',
                          '"served": sorted(startup._finder.served), '
                          '"changed": getattr(sys.modules["allocator.kube.model"], "CHANGED_SINCE_THE_CACHE", False)')
    done = subprocess.run([sys.executable, "-c", probe, "allocate", "--node", node_name(0), "cluster.yaml",
                           "claim.yaml"], cwd=engine, capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    found = json.loads(done.stdout)
    assert found["changed"] is True
    assert "allocator.kube.model" not in found["served"] and "allocator.cel.parser" in found["served"]
    # written again with the new source: the next command is served the changed module
    again = json.loads(subprocess.run([sys.executable, "-c", probe, "allocate", "--node", node_name(0),
                                       "cluster.yaml", "claim.yaml"], cwd=engine, capture_output=True,
                                      text=True, timeout=120, env=os.environ | {"PYTHONDONTWRITEBYTECODE": "1"}
                                      ).stdout)
    assert again["changed"] is True and "allocator.kube.model" in again["served"]


def test_an_unreadable_cache_is_ignored_and_written_again(engine):
    first = _run(engine)
    with open(_cache(engine), "wb") as handle:
        handle.write(b"not a cache")
    assert _run(engine).stdout == first.stdout
    magic, entries = marshal.loads(open(_cache(engine), "rb").read())
    assert "allocator.kube.model" in entries


def test_a_served_module_has_its_source_file_and_text(engine):
    _run(engine)
    done = subprocess.run([sys.executable, "-c",
                           "from allocator import startup; startup.use()\n"
                           "import allocator.kube.model as m, inspect\n"
                           "print(m.__spec__.loader.__class__.__module__, m.__file__)\n"
                           "print(inspect.getsource(m.ObjectMeta).splitlines()[0])"],
                          cwd=engine, capture_output=True, text=True, timeout=60)
    loader_module, path = done.stdout.splitlines()[0].split()
    assert loader_module == "allocator.startup" and path == str(engine / "allocator" / "kube" / "model.py")
    assert done.stdout.splitlines()[1] == "@record"  # its decorator, then the class ObjectMeta


def test_an_entry_holds_the_code_its_source_compiles_to(tmp_path):
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    from allocator import startup

    source = tmp_path / "plain.py"
    source.write_text("VALUE = 6 * 7\n")
    module = ModuleType("allocator.plain")
    module.__spec__ = ModuleSpec("allocator.plain", None, origin=str(source))
    _, is_package, mtime_ns, size, code = startup._entry("allocator.plain", module)  # no .pyc: compiled
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["VALUE"] == 42 and not is_package and size == source.stat().st_size
    assert mtime_ns == source.stat().st_mtime_ns and code.co_filename == str(source)


def test_an_optimised_run_neither_uses_nor_writes_the_cache(engine):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-O", "-m", "allocator", "allocate", "--node", node_name(0),
                           "cluster.yaml", "claim.yaml"], cwd=engine, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert not os.path.exists(_cache(engine))
