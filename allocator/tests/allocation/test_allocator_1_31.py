"""What the allocator of 1.31 (k8s.io/dynamic-resource-allocation v0.31) does differently from 1.32, found
by the differential run against the real 1.31 scheduler (allocate-1.31-config-eba100a4,
allocate-1.31-verdict-d2048755, schedule-1.31-verdict-a92f5316 and five more):

* each request adds its class's configs to the allocation again, naming no request;
* a device of an ``allocationMode: All`` request found in use is left out, the request done with the others;
* a search that fails after an All request's device ends with the error "stop allocation" (``errStop``
  returned as ``Allocate``'s error), where 1.32 ends it with no allocation and no error;
* an All request's devices are gathered before its class is known: the class's selectors are not checked.
"""

from allocator.engine import analyze
from allocator.tests.allocation.test_all_mode_before_1_33 import DRA_ON, TAKEN_FIRST

INVENTORY = """
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a}}
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: gpu}
spec:
  config:
  - opaque: {driver: gpu.example.com, parameters: {class: gpu}}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: first, basic: {attributes: {numa: {int: 1}}}}
  - {name: second, basic: {}}
"""

TWO_REQUESTS = """
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: a, deviceClassName: gpu}
    - {name: b, deviceClassName: gpu}
"""


def allocation(release: str, claims: str) -> dict:
    inventory = INVENTORY if release == "1.31" else INVENTORY.replace("v1alpha3", "v1beta1")
    claims = claims if release == "1.31" else claims.replace("v1alpha3", "v1beta1")
    return analyze(claims, inventory, feature_gates=DRA_ON, kubernetes_version=release).to_dict()["allocation"]


def configs(release: str) -> list[tuple[str, list[str]]]:
    [claim] = allocation(release, TWO_REQUESTS)["claims"]
    return [(c["source"], c.get("requests") or []) for c in claim["status"]["allocation"]["devices"]["config"]]


def test_in_1_31_each_request_adds_its_class_configs_naming_no_request():
    assert configs("1.31") == [("FromClass", []), ("FromClass", [])]


def test_from_1_32_a_class_config_is_written_once_naming_its_requests():
    assert configs("1.32") == [("FromClass", ["a", "b"])]


def test_in_1_31_an_all_request_leaves_out_a_device_in_use():
    # "one" takes "first"; "numa" wants every device with a numa attribute ("first" alone), finds it in
    # use and is done without it (1.32 ends the search with no allocation).
    found = allocation("1.31", TAKEN_FIRST.replace("v1beta1", "v1alpha3"))
    results = [(r["request"], r["device"]) for c in found["claims"]
               for r in c["status"]["allocation"]["devices"]["results"]]
    assert (found["status"], results) == ("allocated", [("one", "first")])


LATER_FAILS = TWO_REQUESTS.replace(
    "    - {name: a, deviceClassName: gpu}\n    - {name: b, deviceClassName: gpu}\n",
    "    - {name: all, deviceClassName: gpu, allocationMode: All}\n"
    "    - {name: more, deviceClassName: gpu}\n")


def test_in_1_31_a_search_failing_after_an_all_request_is_the_error_stop_allocation():
    # "all" takes both devices, so "more" finds none: 1.31's Allocate returns errStop as its error.
    found = allocation("1.31", LATER_FAILS)
    assert found["status"] == "error"
    assert "stop allocation" in str(found)


def test_in_1_32_the_same_search_does_not_fit_without_an_error():
    assert allocation("1.32", LATER_FAILS)["status"] == "unsatisfiable"


# A class that selects the device without attributes only; the All request's devices ignore it in 1.31.
CLASS_SELECTS_SECOND = """
---
apiVersion: resource.k8s.io/v1alpha3
kind: DeviceClass
metadata: {name: plain}
spec:
  selectors:
  - cel: {expression: '!has(device.attributes["gpu.example.com"].numa)'}
---
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: all, deviceClassName: plain, allocationMode: All}
"""


def test_in_1_31_an_all_request_ignores_its_class_selectors():
    [claim] = allocation("1.31", CLASS_SELECTS_SECOND)["claims"]
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == ["first", "second"]


def test_from_1_32_an_all_request_takes_only_what_its_class_selects():
    [claim] = allocation("1.32", CLASS_SELECTS_SECOND)["claims"]
    assert [r["device"] for r in claim["status"]["allocation"]["devices"]["results"]] == ["second"]


ADMIN = """
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: watch, deviceClassName: gpu, adminAccess: true}
"""


def test_in_1_31_admin_access_needs_no_gate_and_its_result_does_not_say_so():
    # adminAccess came before DRAAdminAccess (1.32); 1.31's result has no adminAccess field.
    [claim] = allocation("1.31", ADMIN)["claims"]
    [result] = claim["status"]["allocation"]["devices"]["results"]
    assert result["device"] == "first" and "adminAccess" not in result
