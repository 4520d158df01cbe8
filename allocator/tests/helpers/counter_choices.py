"""A counter-choice case of the allocate table, read as an allocator and its claims, or without counters."""

from __future__ import annotations

from allocator.allocation.allocator import Allocator
from allocator.allocation.inputs import Forced, SearchInputs
from allocator.tests.helpers.allocate_table import (
    build_claim,
    build_class,
    build_slice,
    build_state,
    case_features,
)


def without_counters(case: dict) -> dict:
    slices = [{**s, "counterSets": {}, "devices": [{k: v for k, v in d.items() if k != "counters"}
                                                   for d in s.get("devices", ())]} for s in case["slices"]]
    return {**case, "slices": slices}


def allocator_for(case: dict, variant) -> Allocator:
    return Allocator(SearchInputs([build_class(n, s) for n, s in case["classes"].items()],
                                  [build_slice(s) for s in case["slices"]], state=build_state(case)),
                     forced=Forced(case_features(case), variant))


def claims_of(case: dict):
    return [build_claim(c) for c in case["claims"]]
