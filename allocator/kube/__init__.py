"""The internal model of resource.k8s.io objects: decoding, conversion between versions, quantity, semver."""
