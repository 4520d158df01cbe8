"""The "start here" path: three gallery examples, in order, for someone new to DRA. Each step says what it
teaches; the gallery lists them first and each example's page links to the next step."""

from __future__ import annotations

from dataclasses import dataclass

from playground.models import Example

# (example slug, what the step teaches): a claim and the devices it gets, how a Pod's containers use
# the claim, and what the page says when it does not fit.
STEPS = (
    ("count-two-gpus", "A ResourceClaim asks for devices; the scheduler picks which ones, and you see them."),
    ("per-container-requests", "A Pod gets its claim from a template, and each container the devices of its request."),
    ("tpu-count-too-high", "When a claim cannot fit, the results say why, device by device."),
)


@dataclass(frozen=True)
class Step:
    number: int
    total: int
    example: Example
    lesson: str


def steps() -> list[Step]:
    """The path's steps whose example is loaded (``load_samples``), numbered in order."""
    examples = {ex.slug: ex for ex in Example.objects.with_inventory().filter(slug__in=[s for s, _ in STEPS])}
    found = [(examples[slug], lesson) for slug, lesson in STEPS if slug in examples]
    return [Step(number, len(found), example, lesson) for number, (example, lesson) in enumerate(found, start=1)]


def step_of(slug: str) -> tuple[Step | None, Step | None]:
    """The step an example is on the path (or None), and the one after it (or None)."""
    path = steps()
    for index, step in enumerate(path):
        if step.example.slug == slug:
            return step, path[index + 1] if index + 1 < len(path) else None
    return None, None
