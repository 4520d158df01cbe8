"""The DRA engine: typed objects, validation, CEL and allocation. Imports no Django."""
