"""What several playground test modules share (no Django imports here: the browser tests use it too)."""

from __future__ import annotations

import socket
from pathlib import Path
from unittest import mock

# The checkout (or clone) and the sample inventories and examples in it.
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "playground" / "samples"

# The headers htmx sends with a live analysis (``self.client.post(..., headers=HTMX)``).
HTMX = {"HX-Request": "true", "HX-Target": "results"}


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def freeze_mid_minute(test) -> None:
    """Mid-minute, and frozen: a test never straddles two counting windows."""
    clock = mock.patch("playground.ratelimit.time.time", return_value=1_800_000_030.0)
    clock.start()
    test.addCleanup(clock.stop)
