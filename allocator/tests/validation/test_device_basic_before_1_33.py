"""Up to 1.32 a device's only type is ``basic`` (resource.k8s.io v1beta1, v1alpha3) and the apiserver requires
it (kubernetes v1.32.13 ``validateDevice``: "spec.devices[i].basic: Required value", nothing else of that
device checked). From 1.33 the device's fields are the device's own, and a v1beta1 device without ``basic``
is a plain device. Found by the differential run against the real 1.32 apiserver
(create-1.32-create-verdict-625c4b83)."""

import pytest

from allocator.engine import analyze
from allocator.kube.objects import read_documents

SLICE = """
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: node-a-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-a
  pool: {name: node-a, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: plain}
  - {name: typed, basic: {}}
  - {name: BAD}
"""


def errors(release: str) -> list[tuple[str, str]]:
    diagnostics = analyze(SLICE, "", feature_gates={"DynamicResourceAllocation": True},
                          kubernetes_version=release).to_dict()["diagnostics"]
    return [(d["field"], d["type"]) for d in diagnostics if d.get("severity", "error") == "error"]


def test_the_reader_notes_the_devices_written_without_basic():
    (document,) = read_documents(SLICE).documents
    assert document.without_basic == ("spec.devices[0]", "spec.devices[2]")


def test_in_1_32_a_device_without_basic_is_refused():
    assert errors("1.32") == [("spec.devices[0].basic", "Required value"),
                              ("spec.devices[2].name", "Invalid value"),
                              ("spec.devices[2].basic", "Required value")]


@pytest.mark.parametrize("release", ["1.33", "1.34"])
def test_from_1_33_it_is_a_plain_device(release):
    assert errors(release) == [("spec.devices[2].name", "Invalid value")]
