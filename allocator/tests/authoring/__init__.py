"""Tests of allocator.authoring (the folders of the tests mirror the engine's)."""
