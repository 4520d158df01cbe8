"""Helpers for writing claims: completion data for the editor."""
