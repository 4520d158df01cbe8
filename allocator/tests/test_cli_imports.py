"""Start-up: ``allocate`` on a one-node inventory whose claims fit loads only what it uses.

Most of a small command's time is Python importing the engine (docs/performance.md, start-up), so the
modules for what does not fit (explanations, other grants, counter choices, proofs), for inputs this one does not
have (controllers read again with positions through PyYAML, generated names through hashlib, share ids
through uuid, regular expressions through RE2, extended resources and binding conditions), the other
commands, the warnings and CEL's hints and quick fixes (for selectors
that do not compile), difflib (for misspelt names) and Django are imported where they are used. This checks
which modules a real run loaded, not how long it took.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from allocator.synthetic import cluster_json, cluster_yaml, node_name
from allocator.tests.helpers import ROOT, write_files

# Never needed by a command whose claims fit on a one-node inventory of plain objects.
DEFERRED = (
    "allocator.allocation.explain",
    "allocator.allocation.counter_choices",
    "allocator.allocation.alternatives",
    "allocator.allocation.proofs",  # a search that decides in a few steps never engages the proofs
    "allocator.allocation.taint_rules",  # no DeviceTaintRule in the input: nothing to apply or validate
    "allocator.validation.taint_rules",
    "allocator.validation.pods",  # no Pod in the input
    "allocator.cel.explain",
    "re2",  # the claim has no matches(): RE2 loads with the first regular expression
    "allocator.validation.warnings",  # the command line validates but gives no warnings
    "allocator.cel.hints",  # hints and their quick fixes: for selectors that do not compile
    "allocator.cel.fixes",
    "difflib",  # "did you mean": for misspelt names
    "allocator.reading.yamlsource",
    "yaml",
    "hashlib",
    "uuid",
    "django",
    "allocator.workload.extended",  # extended resources: only pods ask for them
    "allocator.workload.binding",  # no granted device has binding conditions
    "allocator.cli.sample",  # the other commands' modules: only `allocate` runs
    "allocator.cli.validate",
    "allocator.cli.capacity",
    "argparse",  # a plain command line is read without it (allocator.cli.quick), nor its gettext, locale, shutil
    "gettext",
    "locale",
    "shutil",
    "threading",  # the engine's locks are _thread's (threading.Lock is _thread.allocate_lock)
    "dataclasses",  # the model's classes are records (allocator.reading.records), made without it
    "inspect",  # ... and so neither is what dataclasses imports: inspect, ast, dis, tokenize
    "ast",
    "dis",
    "tokenize",
    "typing",  # annotations only: allocator.reading.TYPE_CHECKING, records.NamedTuple, decode.AnyValue
    "decimal",  # only a capacity's requestPolicy is written back as an exact decimal
    "copy",  # records are copied by records.copy_of and deep_copy_of
    "allocator.kube.convert_back",  # objects written in v1 are answered in v1
    "allocator.kube.text_fixes",  # quick fixes: for texts that do not decode
    "allocator.validation.nodeselector",  # the slices name their node
    "allocator.workload.controllers",  # no Deployment, ReplicaSet, StatefulSet or Job in the input
    "allocator.workload.analysed",
)

CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: train}
spec:
  devices:
    requests:
    - name: big
      exactly:
        deviceClassName: gpu.nvidia.com
        count: COUNT
        selectors:
        - cel: {expression: "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0"}
    - name: one
      exactly: {deviceClassName: gpu.nvidia.com}
    constraints:
    - matchAttribute: gpu.nvidia.com/productName
"""

# Runs the command in a fresh interpreter, then says which of DEFERRED it loaded.
PROBE = """\
import contextlib, io, json, sys
from allocator.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(sys.argv[1:])
loaded = [m for m in MODULES if m in sys.modules]
print(json.dumps({"status": status, "answer": out.getvalue(), "loaded": loaded}))
"""


def _loaded(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", f"MODULES = {list(DEFERRED)!r}\n{PROBE}", "allocate", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_one_node_allocate_that_fits_loads_none_of_the_deferred_modules(tmp_path, fmt):
    inventory, claim = write_files(tmp_path, inventory="", claim=CLAIM.replace("COUNT", "2"))
    (tmp_path / "inventory.yaml").write_text(cluster_json(1) if fmt == "json" else cluster_yaml(1))
    for node in (["--node", node_name(0)], []):  # on the node given, and on every node
        found = _loaded(*node, inventory, claim)
        assert found["status"] == 0
        assert json.loads(found["answer"])["node"] == node_name(0)
        assert found["loaded"] == []


def test_a_claim_that_does_not_fit_loads_the_explanations(tmp_path):
    # The other side of the guard: the deferred modules are the ones a failure does use.
    inventory, claim = write_files(tmp_path, inventory=cluster_yaml(1), claim=CLAIM.replace("COUNT", "9"))
    found = _loaded("--node", node_name(0), inventory, claim)
    assert found["status"] == 1
    assert "allocator.allocation.explain" in found["loaded"]
    assert "django" not in found["loaded"]
