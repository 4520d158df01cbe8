"""The site's time budget on each analysis (``ANALYSIS_TIME_BUDGET``, docs/configuration.md).

The engine stops cooperatively when the budget runs out (``allocator.reading.deadline``) and raises
``BudgetExceeded``, which says where it was. The page, its panels and the API each turn it into an
answer (``answer`` here for the page's htmx requests; ``api.errors`` for the API), so the worker is
free again and the visitor learns what ran out instead of waiting.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.http import JsonResponse

from allocator.reading.deadline import BudgetExceeded, Deadline, time_budget

__all__ = ["BudgetExceeded", "analysis_budget", "answer", "HEADER", "advice"]

# The header that tells the page's script a 503 is the time budget's answer (static/time-budget.js).
HEADER = "X-Time-Budget"


def seconds() -> int:
    budget: int = settings.ANALYSIS_TIME_BUDGET
    return budget


@contextmanager
def analysis_budget() -> Iterator[Deadline | None]:
    """The block runs with the site's budget (none when ``ANALYSIS_TIME_BUDGET`` is 0)."""
    with time_budget(seconds() or None) as deadline:
        yield deadline


def advice() -> str:
    return ("Make the selector cheaper (fewer nested comprehensions over long lists), narrow the search "
            "with Node, or run it on your own machine with `python -m allocator ... --time-budget SECONDS`.")


def answer(err: BudgetExceeded) -> JsonResponse:
    """The page's htmx answer: 503 with the message and where, which the script shows over the old results."""
    response = JsonResponse({**err.to_dict(), "advice": advice()}, status=503)
    response[HEADER] = "exceeded"
    return response
