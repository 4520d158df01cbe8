"""Tests of allocator.allocation (the folders of the tests mirror the engine's)."""
