"""``python -m allocator``: the command line (``allocator.cli``, one module per command)."""

from __future__ import annotations

import gc
import os
import sys

if __name__ == "__main__":
    # One short run: Python's cyclic GC would only walk the millions of objects of a big dump again and again
    # (about a fifth of the time on 1,000 to 5,000 nodes) to free little; the process's end frees everything.
    # Off before the engine is imported too: its modules' objects are walked as well (2% of a one-node run).
    gc.disable()
    # The engine's modules from one file (allocator.startup): about 8% of a small command's time.
    from allocator import startup

    startup.use()

from allocator.cli import EXIT_OK, main  # noqa: E402 (after the GC is off)

__all__ = ["main"]

if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()
        sys.stderr.flush()
        startup.save()
    except BrokenPipeError:  # output piped into head and the like
        sys.stderr.close()
        sys.exit(EXIT_OK)
    # Done, and everything written: end here rather than free the objects of a big dump one by one on the
    # way out (about 15 ms of 1,000 nodes). Nothing of ours runs at exit.
    if not isinstance(status, int):
        sys.exit(status)  # what sys.exit makes of anything else (None: 0)
    os._exit(status)
