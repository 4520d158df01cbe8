"""Upstream's allocator test table, part 3: partitionable devices (shared counters, per-device
node selection), taints, binding conditions (shorthand: see helpers/allocate_table.py)."""

import pytest

from allocator.tests.helpers.allocate_table import run_case, table_params
from allocator.tests.helpers.partitionable_cases import CASES


@pytest.mark.parametrize(("case", "variant"), table_params(CASES))
def test_upstream_table_partitionable(case, variant):
    run_case(case, variant)
