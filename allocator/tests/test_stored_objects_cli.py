"""The command line reads objects with metadata.uid or metadata.resourceVersion as stored (issue 33 item 4):
``storedObjects`` in the output (only when there are any), a note beside an error."""

from __future__ import annotations

import json

import pytest

from allocator.tests.helpers import cli, write_files
from allocator.tests.helpers.stored_objects import CREATED, STORED, claim, first_available, inventory

GATES = ("--kubernetes-version", "1.34", "--feature-gates", "DRAPrioritizedList=false")
STORED_CLAIM = claim("v1", STORED, first_available("v1"))
LISTED = [{"kind": "ResourceClaim", "namespace": "default", "name": "c"}]


@pytest.fixture
def files(tmp_path):
    return lambda *texts: write_files(tmp_path, **{f"f{i}": t for i, t in enumerate(texts)})


@pytest.mark.parametrize("node", [[], ["--node", "n1"]])
def test_allocate_refuses_a_stored_claim_with_upstream_s_words_and_notes_it(files, node):
    proc = cli("allocate", *GATES, *node, *files(inventory("v1"), STORED_CLAIM))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == ("error: claim default/c, request r: has subrequests, but the DRAPrioritizedList feature "
                           "is disabled\nnote: ResourceClaim default/c: read as stored: created earlier in the cluster\n")


def test_allocate_lists_the_stored_objects_when_it_allocates(files):
    proc = cli("allocate", "--kubernetes-version", "1.34", "--node", "n1", *files(inventory("v1"), STORED_CLAIM))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == ["node", "claims", "storedObjects"]
    assert out["storedObjects"] == LISTED


def test_allocate_without_stored_objects_has_no_such_key(files):
    proc = cli("allocate", "--kubernetes-version", "1.34", "--node", "n1",
               *files(inventory("v1"), claim("v1", CREATED, first_available("v1"))))
    assert proc.returncode == 0, proc.stderr
    assert list(json.loads(proc.stdout)) == ["node", "claims"]


def test_validate_checks_a_stored_claim_with_the_stored_object_rules(files):
    proc = cli("validate", *GATES, *files(inventory("v1"), STORED_CLAIM))
    assert proc.returncode == 0, proc.stdout
    assert json.loads(proc.stdout) == {"valid": True, "errors": [], "warnings": [], "storedObjects": LISTED}


def test_validate_refuses_the_same_claim_as_a_create(files):
    proc = cli("validate", *GATES, *files(inventory("v1"), claim("v1", CREATED, first_available("v1"))))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert list(out) == ["valid", "errors", "warnings"]
    assert [e["detail"] for e in out["errors"]] == ["exactly one of `exactly` or `firstAvailable` is required"]


def test_validate_text_notes_the_stored_objects(files):
    inv, stored = files(inventory("v1"), STORED_CLAIM)
    proc = cli("validate", "-o", "text", *GATES, inv, stored)
    assert proc.returncode == 0
    assert proc.stdout.startswith(
        f'{stored}: note: ResourceClaim "default/c": read as stored: created earlier in the cluster\nvalid: ')
