"""Tests of allocator.cel (the folders of the tests mirror the engine's)."""
