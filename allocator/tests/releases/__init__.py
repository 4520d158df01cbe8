"""Tests of allocator.releases (the folders of the tests mirror the engine's)."""
