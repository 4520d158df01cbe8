"""Tests of allocator.kube (the folders of the tests mirror the engine's)."""
