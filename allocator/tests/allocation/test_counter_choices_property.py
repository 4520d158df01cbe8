"""Property: the explanation blames shared counters only when they are the cause.

Random partitionable inventories and claims in the upstream table's shorthand
(``allocator.tests.helpers.allocate_table``): whenever an explanation names
counters for a combination (``Explanation.counters``, either the devices
other requests must take or a choice between devices, ``counter_choices``),

* the claims do not fit as they are (the answer is unchanged), and
* the same case with every shared counter removed (no counter sets, no
  device consuming any) does fit, checked by the allocator itself,

the numbers of every device in it add up (what is left is the total minus
what the named takers hold, and less than what the device needs), and a
choice explanation's own proof (``withoutCounters``) gives every request as
many distinct matching devices as it needs. About one draw in ten ends in
such an explanation.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from allocator.allocation import counter_choices
from allocator.allocation.capacity import quantity
from allocator.allocation.errors import AllocatorError
from allocator.allocation.switches import VARIANTS
from allocator.tests.helpers.allocate_table import (
    build_node,
    case_features,
)
from allocator.tests.helpers.counter_choices import allocator_for, claims_of, without_counters
from allocator.tests.helpers.strategies import BOUNDED, SELECTORS


@st.composite
def cases(draw):
    slices = []
    for si in range(draw(st.sampled_from([1, 1, 2]))):
        driver = ["driver-a", "driver-b"][si]
        devices = []
        for i in range(draw(st.integers(2, 6))):
            spec: dict = {"name": f"dev-{si}-{i}", "attributes": {"numa": draw(st.integers(0, 2))}}
            if draw(st.integers(0, 5)):
                counters = {"mem": draw(st.sampled_from([1, 2, 2, 3]))}
                if draw(st.integers(0, 2)) == 0:
                    counters["slot"] = 1
                spec["counters"] = [{"set": draw(st.sampled_from(["cs", "cs", "cs", "other"])), "counters": counters}]
            devices.append(spec)
        pool = {"name": f"pool-{si}", "count": 2}  # the devices, and the counters in a slice of their own
        slices.append({"name": f"slice-{si}", "driver": driver, "pool": pool, "devices": devices})
        slices.append({"name": f"counters-{si}", "driver": driver, "pool": pool,
                       "counterSets": {"cs": {"mem": draw(st.sampled_from([2, 3, 4, 5])), "slot": 2},
                                       "other": {"mem": draw(st.sampled_from([1, 2, 3])), "slot": 1}}})
    classes = ["class-a", "class-a", "class-a", "class-b"] if len(slices) > 2 else ["class-a"]
    claims = []
    for ci in range(draw(st.sampled_from([1, 1, 2]))):
        reqs = []
        for ri in range(draw(st.sampled_from([1, 2, 2, 3]))):
            req: dict = {"name": f"req-{ri}", "class": draw(st.sampled_from(classes)),
                         "count": draw(st.sampled_from([1, 1, 2]))}
            if draw(st.integers(0, 4)) == 0:
                req["selectors"] = [draw(st.sampled_from(SELECTORS[:2]))]
            reqs.append(req)
        constraints = []
        if len(reqs) > 1 and draw(st.integers(0, 5)) == 0:
            constraints.append({"match": "driver-a/numa", "requests": []})
        claims.append({"name": f"claim-{ci}", "requests": reqs, "constraints": constraints})
    every = [f"{s['driver']}/{s['pool']['name']}/{d['name']}" for s in slices for d in s.get("devices", ())]
    allocated = sorted(draw(st.sets(st.sampled_from(every), max_size=2))) if draw(st.integers(0, 3)) == 0 else []
    return {"features": ["partitionable"], "classes": {"class-a": "driver-a", "class-b": "driver-b"},
            "slices": slices, "claims": claims, "allocated": allocated}


def check_numbers(devices: list[dict]) -> None:
    for d in devices:
        assert d["why"], d
        for part in d["why"]:
            held = sum((quantity(t["amount"]) for t in part["takenBy"]), quantity("0"))
            assert (quantity(part["total"]) - held).cmp(quantity(part["left"])) == 0, part
            assert quantity(part["left"]).cmp(quantity(part["needs"])) < 0, part


@BOUNDED
@given(cases())
def test_counters_are_blamed_only_when_removing_them_makes_the_claims_fit(case):
    for variant in VARIANTS:
        if not case_features(case).enabled() <= variant.supported.enabled():
            continue
        node = build_node("node-1")
        try:
            explanation = allocator_for(case, variant).explain(node, claims_of(case))
        except AllocatorError:
            continue
        if explanation.error or not explanation.counters:
            continue
        assert not explanation.allocated
        relaxed = allocator_for(without_counters(case), variant)
        assert relaxed.allocate(node, claims_of(case), explain_failure=False).allocated, (variant.name, explanation.counters)
        matching = {(r.claim, r.request): {d.device for d in r.devices if d.matches} for r in explanation.requests}
        needed = {(r.claim, r.request): r.count for r in explanation.requests}
        for entry in (shortfall.to_dict() for shortfall in explanation.counters):
            check_numbers(entry["devices"])
            for branch in entry.get("branches", ()):
                check_numbers(branch["devices"])
            if entry["kind"] == "choices":
                # The witness: every request gets as many distinct matching devices as it needs.
                given_out = [d for w in entry["withoutCounters"] for d in w["devices"]]
                assert len(given_out) == len(set(given_out)) == sum(needed.values()), entry["withoutCounters"]
                for w in entry["withoutCounters"]:
                    assert len(w["devices"]) == needed[(w["claim"], w["request"])]
                    assert set(w["devices"]) <= matching[(w["claim"], w["request"])]
                assert 0 < entry["steps"] <= counter_choices.MAX_STEPS
