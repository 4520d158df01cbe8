"""The devices of the CEL corpus (``data/cel_corpus.py``), as model attributes and capacities."""

from __future__ import annotations

from allocator.kube.model import DeviceAttribute as A
from allocator.kube.model import DeviceCapacity as C

DRV = "x.example.com"
ATTRS = {"a": A(int=1), "s": A(string="abc"), "v": A(version="1.2.3"), "b": A(bool=True)}
CAPACITY = {"mem": C(value="1Gi"), "bw": C(value="10G")}


def corpus_devices() -> dict[str, tuple[dict, dict]]:
    """``full`` and ``bare`` as the corpus describes them: name -> (attributes, capacity)."""
    full = dict(ATTRS)
    full.update({
        "big": A(int=9223372036854775807), "e": A(string=""), "pre": A(version="1.0.0-rc.1+build.5"),
        "k8s.io/numa": A(int=0), "ints": A(ints=[1, 2, 3]), "strs": A(strings=["a", "b"]),
        "vers": A(versions=["1.0.0", "2.0.0"]),
    })
    capacity = dict(CAPACITY)
    capacity["cores"] = C(value="500m")
    return {"full": (full, capacity), "bare": ({}, {})}
