"""The real Kubernetes as a judge: run a case through one release's own code.

`upstream/` holds a Go program of ours (built from the Go modules of each
release) and this stdlib-only client for it. See README.md for the JSON
contract.
"""

from upstream.client import Harness, HarnessError, available_releases, build

__all__ = ["Harness", "HarnessError", "available_releases", "build"]
