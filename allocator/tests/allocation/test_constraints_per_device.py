"""From 1.37 the claim constraints keep one entry per device taken and undo them one by one (v0.37.x):
distinctAttribute compares a device with every device taken before it, and matchAttribute over list
attributes widens its common values again when the search takes a device back. Before, distinctAttribute
kept one value per request name, so a request's later device replaced its earlier one. Found by the
differential run (allocate-1.37-verdict-01653ea6 and two more of seed 1)."""

from allocator.tests.helpers.constraints import allocate, claim, granted
from allocator.tests.helpers.inventory import device

TWO_MODELS = [device("first", attributes={"model": "a100"}), device("second", attributes={"model": "h100"}),
              device("third", attributes={"model": "a100"})]


def test_from_1_37_distinct_devices_of_one_request_are_all_compared():
    # Three devices, two models: no three of them are pairwise distinct.
    assert allocate("1.37", claim(3, "distinctAttribute"), TWO_MODELS)["status"] == "unsatisfiable"


def test_in_1_36_a_requests_later_device_replaced_its_earlier_one():
    # "second" replaced "first" as the request's value, so "third" was compared with h100 only.
    assert granted(allocate("1.36", claim(3, "distinctAttribute"), TWO_MODELS)) == ["first", "second", "third"]


NUMA_LISTS = [device("both", attributes={"numa": [1, 2]}), device("one", attributes={"numa": [1]}),
              device("two-a", attributes={"numa": [2]}), device("two-b", attributes={"numa": [2]})]


def test_from_1_37_match_over_lists_widens_again_when_a_device_is_taken_back():
    # "both" then "one" narrows the common values to {1}; no third device has 1, so "one" is taken back and
    # the common values are {1, 2} again, which "two-a" and "two-b" share.
    found = allocate("1.37", claim(3, "matchAttribute"), NUMA_LISTS, {"DRAListTypeAttributes": True})
    assert granted(found) == ["both", "two-a", "two-b"]
