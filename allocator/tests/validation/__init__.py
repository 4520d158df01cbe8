"""Tests of allocator.validation (the folders of the tests mirror the engine's)."""
