"""Helpers for writing claims: completion data for the editor, the CEL console on one device, and
objects rewritten in another resource.k8s.io version."""
