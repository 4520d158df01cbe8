# REST views over the allocator engine will live here (see DESIGN.md).
