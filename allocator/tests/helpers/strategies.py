"""Hypothesis: the property tests' settings, and random devices and requests in the upstream table's shorthand
(``allocator.tests.helpers.allocate_table``)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st


def bounded(*also_suppressed: HealthCheck):
    """Hypothesis settings of the property tests: 100 examples unless ``PROPERTY_EXAMPLES`` says more, no
    deadline, no example database, derandomized when ``CI`` is set (so that CI does not depend on the draw)."""
    return settings(
        max_examples=int(os.environ.get("PROPERTY_EXAMPLES") or 100),
        deadline=None,
        database=None,
        derandomize=bool(os.environ.get("CI")),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, *also_suppressed],
    )


BOUNDED = bounded()


FEATURES = ["admin", "prioritized", "partitionable", "taints", "consumable", "list"]
SELECTORS = [
    'device.attributes["driver-a"].numa == 1',
    'device.attributes["driver-a"].numa != 2',
    # Fails at runtime on devices without a model: allocation must abort where the plain search would.
    'device.attributes["driver-a"].model == "m1"',
    '"model" in device.attributes["driver-a"]',
]


@st.composite
def devices(draw, index: int, features: list[str]):
    out = []
    for i in range(draw(st.integers(1, 7))):
        spec: dict = {"name": f"dev-{index}-{i}", "attributes": {}}
        if draw(st.integers(0, 5)):
            spec["attributes"]["numa"] = draw(st.integers(0, 2))
        if draw(st.booleans()):
            spec["attributes"]["model"] = draw(st.sampled_from(["m1", "m2"]))
        if "list" in features and draw(st.integers(0, 3)) == 0:
            spec["attributes"]["numa"] = {"ints": sorted(draw(st.sets(st.integers(0, 2), min_size=1, max_size=2)))}
        if "taints" in features and draw(st.integers(0, 4)) == 0:
            spec["taints"] = [draw(st.sampled_from(["noSchedule", "noExecute", "none"]))]
        if "partitionable" in features and draw(st.booleans()):
            spec["counters"] = [{"set": "cs", "counters": {"mem": draw(st.sampled_from([1, 2, 3]))}}]
        if "consumable" in features and draw(st.integers(0, 3)) == 0:
            spec["multi"] = True
            spec["capacity"] = {"capacity-0": draw(st.sampled_from([2, 4]))}
        out.append(spec)
    return out


@st.composite
def requests(draw, features: list[str], index: int, constrained: bool):
    def exact(name: str) -> dict:
        spec: dict = {"name": name, "class": draw(st.sampled_from(["class-a", "class-a", "class-b"]))}
        if draw(st.integers(0, 9)) == 0:
            spec["all"] = True
        else:
            spec["count"] = draw(st.sampled_from([1, 1, 1, 2, 2, 3]))
        if draw(st.integers(0, 3)) == 0:
            spec["selectors"] = [draw(st.sampled_from(SELECTORS))]
        if "taints" in features and draw(st.integers(0, 3)) == 0:
            spec["tolerations"] = [draw(st.sampled_from(["noSchedule", "noExecute"]))]
        if "consumable" in features and draw(st.integers(0, 3)) == 0:
            spec["capacity"] = draw(st.sampled_from([1, 2, 3]))
        return spec

    name = f"req-{index}"
    if "prioritized" in features and draw(st.integers(0, 3)) == 0:
        return {"name": name, "first": [exact(f"sub-{j}") for j in range(draw(st.integers(1, 3)))]}
    spec = exact(name)
    if "admin" in features and draw(st.integers(0, 5)) == 0:
        spec["admin"] = True
    return spec
