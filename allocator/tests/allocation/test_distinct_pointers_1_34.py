"""1.34's distinctAttribute compared pointers, not values (v0.34.x experimental ``matchesAttribute``:
``attribute.StringValue == attr.StringValue``): two devices never clash on a distinct attribute, only the
same device taken twice would. kubernetes/kubernetes#135022 compares the values from 1.35 on. A device
without the attribute still breaks the constraint. Found by the differential run
(allocate-1.34-verdict-c56a396f)."""

from allocator.engine import analyze
from allocator.tests.helpers.constraints import claim, granted, inventory
from allocator.tests.helpers.inventory import device

SAME_MODEL = [device("first", attributes={"model": "a100"}), device("second", attributes={"model": "a100"}),
              device("bare")]


def allocate(release: str, count: int, gates=None) -> dict:
    report = analyze(claim(count, "distinctAttribute"), inventory(SAME_MODEL), kubernetes_version=release,
                     feature_gates=gates).to_dict()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []
    return report["allocation"]


def test_in_1_34_two_devices_with_one_value_are_distinct():
    assert granted(allocate("1.34", 2)) == ["first", "second"]


def test_from_1_35_equal_values_clash():
    # 1.35's default implementation has no distinctAttribute; DRAConsumableCapacity picks one that has.
    assert allocate("1.35", 2, {"DRAConsumableCapacity": True})["status"] == "unsatisfiable"
    assert allocate("1.36", 2)["status"] == "unsatisfiable"


def test_in_1_34_a_device_without_the_attribute_still_breaks_it():
    found = allocate("1.34", 3)
    assert found["status"] == "unsatisfiable"
    text = str(found)
    assert "gpu.example.com/model" in text and "differ from it" not in text
