# Sample inventories and shared snapshots will live here.
