"""Pods, templates and claims as the controllers make them: what a set of documents asks to allocate,
and how many copies of it fit (planning)."""
