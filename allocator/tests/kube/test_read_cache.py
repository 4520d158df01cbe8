"""read_documents caches by exact text: same objects for the same text, fresh lists, bounded size."""

import pytest

from allocator.kube import objects
from allocator.kube.objects import _ReadCache, read_documents
from allocator.reading.diagnostics import DiagnosticError

CLAIM = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ignored}
"""


def test_the_same_text_gives_the_same_objects_in_fresh_lists():
    first, second = read_documents(CLAIM), read_documents(CLAIM)
    assert first.documents[0].obj is second.documents[0].obj
    assert first.documents is not second.documents and first.ignored is not second.ignored
    first.documents.clear()
    first.ignored.clear()
    third = read_documents(CLAIM)
    assert [d.name for d in third.documents] == ["one"] and third.ignored == ["ConfigMap ignored"]


def test_another_text_or_namespace_is_read_anew():
    assert read_documents(CLAIM + "\n# edited").documents[0].obj is not read_documents(CLAIM).documents[0].obj
    other = read_documents(CLAIM, default_namespace="team-a")
    assert other.documents[0].namespace == "team-a"
    assert read_documents(CLAIM).documents[0].namespace == "default"


def test_syntax_errors_are_raised_every_time():
    for _ in range(2):
        with pytest.raises(DiagnosticError):
            read_documents("a: [")


def test_the_cache_is_bounded_in_entries_and_characters():
    cache = _ReadCache(entries=2, chars=10)
    for key in ("aaa", "bbb", "ccc"):
        cache.put((key, "default"), objects.ReadResult())
    assert cache.get(("aaa", "default")) is None and cache.get(("ccc", "default")) is not None
    cache.put(("x" * 8, "default"), objects.ReadResult())  # 3 + 8 > 10: the oldest goes
    assert cache.get(("bbb", "default")) is None and cache.get(("ccc", "default")) is None
    cache.put(("y" * 11, "default"), objects.ReadResult())  # larger than the whole cache: not kept
    assert cache.get(("y" * 11, "default")) is None


def test_results_are_cached_per_limits():
    from allocator.reading.limits import Limits

    assert read_documents(CLAIM).documents
    with pytest.raises(DiagnosticError) as info:
        read_documents(CLAIM, limits=Limits(max_values=5, advice={"max_values": "raise MAX_VALUES"}))
    assert info.value.diagnostics[0].detail == "document too large: more than 5 values; raise MAX_VALUES"
    assert read_documents(CLAIM).documents


def test_the_bounds_can_be_set_and_a_1000_node_cluster_fits_the_default():
    from allocator.synthetic import cluster_yaml

    assert objects._ReadCache().chars > len(cluster_yaml(1000))
    before = (objects._cache.entries, objects._cache.chars)
    try:
        objects.configure_read_cache(entries=4, chars=len(CLAIM) - 1)
        assert read_documents(CLAIM).documents[0].obj is not read_documents(CLAIM).documents[0].obj
        objects.configure_read_cache(entries=4, chars=len(CLAIM))
        assert read_documents(CLAIM).documents[0].obj is read_documents(CLAIM).documents[0].obj
    finally:
        objects.configure_read_cache(*before)
