"""The structured-parameters allocator, piece by piece (see ``allocator.allocate`` for the entry point)."""
