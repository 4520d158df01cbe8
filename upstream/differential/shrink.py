"""Reduce a case on which we and upstream disagree to a small one that still shows the disagreement.

Greedy deletion: drop a gate override, a whole object, then any list item or mapping key inside an object
(devices, requests, selectors, attributes, constraints, config, taints ...), shallow parts first, keeping
each deletion after which ``still_differs`` holds, until no single deletion keeps it or the budget of
trials is spent. What identifies an object (apiVersion, kind, metadata.name, metadata.namespace) is kept.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

KEPT = {("apiVersion",), ("kind",), ("metadata",), ("metadata", "name"), ("metadata", "namespace"), ("spec",)}


def shrink(case: dict, still_differs: Callable[[dict], bool], budget: int = 400) -> tuple[dict, int]:
    """The smallest case found and the number of trials it took."""
    current = copy.deepcopy(case)
    trials = 0
    progress = True
    while progress and trials < budget:  # passes over the candidates until one pass keeps nothing
        progress = False
        position = 0
        while trials < budget:
            # After a kept deletion the candidates are those of the smaller case, from the same position on.
            candidates = list(_smaller(current))
            if position >= len(candidates):
                break
            trials += 1
            if still_differs(candidates[position]):
                current, progress = candidates[position], True
            else:
                position += 1
    return current, trials


def _smaller(case: dict) -> Iterator[dict]:
    for gate in list(case.get("gates") or {}):
        trial = copy.deepcopy(case)
        del trial["gates"][gate]
        yield trial
    objects = case.get("objects") or []
    for index in range(len(objects)):
        trial = copy.deepcopy(case)
        del trial["objects"][index]
        yield trial
    paths = sorted(((index, path) for index, obj in enumerate(objects) for path in _paths(obj)),
                   key=lambda item: (len(item[1]), item[0]))
    for index, path in paths:
        if path in KEPT:
            continue
        trial = copy.deepcopy(case)
        parent = trial["objects"][index]
        for step in path[:-1]:
            parent = parent[step]
        del parent[path[-1]]
        yield trial


def _paths(node, prefix: tuple = ()) -> Iterator[tuple]:
    """Every key of a mapping and every item of a list inside ``node``, as a path of steps."""
    if isinstance(node, dict):
        for key, child in node.items():
            yield (*prefix, key)
            yield from _paths(child, (*prefix, key))
    elif isinstance(node, list):
        # From the end, so that deleting one item leaves the paths of the earlier ones unchanged.
        for index in reversed(range(len(node))):
            yield (*prefix, index)
            yield from _paths(node[index], (*prefix, index))
