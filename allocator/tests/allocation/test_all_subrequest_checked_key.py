"""Before 1.36 (k8s.io/dynamic-resource-allocation v0.33.x to v0.35.x) each ``firstAvailable`` subrequest after
the first was prepared while the request key still named the subrequest before it. Selector verdicts are
remembered per device and request key while the claims are prepared, so an ``All`` subrequest that follows
another ``All`` subrequest takes that one's verdicts instead of its own selectors'. Found by the differential
run against the real 1.33 allocator (allocate-1.33-verdict-1a7a5531)."""

import pytest

from allocator.engine import analyze
from allocator.tests.helpers.inventory import device_class, inventory, node, resource_slice

INVENTORY = inventory(
    node("node-a"),
    device_class("gpu"),
    resource_slice("node-a", driver="gpu.example.com", node="node-a",
                   devices=["{name: first, attributes: {numa: {int: 1}}}", "second"]),
)

NUMA_7 = "{cel: {expression: 'device.attributes[\"gpu.example.com\"].?numa.orValue(0) == 7'}}"


def claim(*subrequests: str) -> str:
    return """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
""" + "".join(f"      - {s}\n" for s in subrequests)


def outcome(release: str, documents: str):
    allocation = analyze(documents, INVENTORY, kubernetes_version=release).to_dict()["allocation"]
    results = [(r["request"], r["device"]) for c in allocation.get("claims") or []
               for r in c["status"]["allocation"]["devices"]["results"]]
    return allocation["status"], results


# "none" matches no device (no numa 7); "every" has no selector and would take both devices.
NONE_THEN_EVERY = claim(f"{{name: none, deviceClassName: gpu, allocationMode: All, selectors: [{NUMA_7}]}}",
                        "{name: every, deviceClassName: gpu, allocationMode: All}")


@pytest.mark.parametrize("release", ["1.34", "1.35"])
def test_before_1_36_an_all_subrequest_takes_the_verdicts_of_the_all_subrequest_before_it(release):
    # "every" is checked under "none"'s key, finds "none"'s verdicts (no device) and lists nothing.
    assert outcome(release, NONE_THEN_EVERY) == ("unsatisfiable", [])


def test_from_1_36_each_subrequest_is_checked_by_its_own_selectors():
    assert outcome("1.36", NONE_THEN_EVERY) == ("allocated", [("gpu/every", "first"), ("gpu/every", "second")])


def test_an_exact_count_subrequest_after_it_is_not_affected():
    # Verdicts are forgotten once the claims are prepared: a later exact-count subrequest checks its own.
    documents = claim(f"{{name: none, deviceClassName: gpu, allocationMode: All, selectors: [{NUMA_7}]}}",
                      "{name: one, deviceClassName: gpu}")
    assert outcome("1.35", documents) == ("allocated", [("gpu/one", "first")])
