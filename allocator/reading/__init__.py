"""Text to documents: input files, limits, the YAML/JSON readers, formatting and located diagnostics."""
