"""Kubernetes 1.31 to 1.37 as data: the release table, fields per version, served versions, feature gates."""
