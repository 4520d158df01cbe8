"""Tests of allocator.reading (the folders of the tests mirror the engine's)."""
