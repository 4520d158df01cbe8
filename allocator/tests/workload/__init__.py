"""Tests of allocator.workload (the folders of the tests mirror the engine's)."""
