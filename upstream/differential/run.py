"""The differential run: generated cases (and the gallery) through the engine and the harness, compared.

For each release: case N of the seed is generated (``generate``), answered by the engine (``ours``) and by
the real components of that release (``upstream.client.Harness``), and compared (``compare``). A
disagreement whose case as found is recorded is known; the others are shrunk (``shrink``, up to a number per
category) and, when the minimal input is not a recorded regression case yet, written as one (``regressions``,
which also lists the case as found, so that later runs know it unshrunk). One past the shrink limit and not
known as found is new: it fails the run. The tally per release feeds the summary table (``report``).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from upstream.client import built_modes
from upstream.differential import ours, regressions
from upstream.differential.compare import differences
from upstream.differential.crashes import panic_words
from upstream.differential.generate import generate_case
from upstream.differential.shrink import shrink
from upstream.differential.stored import as_stored, stored_case

SAMPLES = Path(__file__).resolve().parents[2] / "playground" / "samples"
# Upstream asked again on a difference, in case its answer varies from run to run. With two orders equally
# likely, six asks missed the engine's one time in 128 and failed CI on an agreement; thirty miss it one time
# in a billion and cost about 0.3 s on a real disagreement.
REASKS = 30
# While upstream keeps giving answers not seen before, it is asked on, up to this many times: a scheduler case
# with three nodes that fit draws the node at random and each node's devices in the slices' order, so the
# engine's answer can be one of seven or more (1.33 case 1637 of seed 1: once in twenty asks).
MAX_REASKS = 300
# The scheduler draws among equal nodes at random and each node's pools come rotated, so one answer of many can
# come back as rarely as 4 times in 40 (1.34 scheduler cases 574, 1218, 1801 of seed 1): thirty asks with
# nothing new can miss it (case 574, in one run of two). 150 miss a one-in-sixteen answer about once in 16,000.
SCHEDULE_REASKS = 150
# A first answer that is a panic the engine does not name is asked again until upstream answers without one:
# its pools come in map order, and another order often does not crash (1.34 stored case 10: 5 of 15 asks;
# 1.34 scheduler case 1876: 8 of 15 panic). Thirteen asks once all panicked on a scheduler case; sixty miss an
# answer that comes one time in five about once in a million. An ask costs about 50 ms, restart included.
PANIC_REASKS = 60
SHRINK_BUDGET = 120  # trials per disagreement, each a run of both sides
SCHEDULE_SHRINK_BUDGET = 30
SHRUNK_PER_CATEGORY = 3  # disagreements shrunk per release and category; the rest fail unless known as found


@dataclass
class Tally:
    release: str
    cases: int = 0
    agree: int = 0
    not_compared: Counter = field(default_factory=Counter)  # why a case could not be compared
    disagree: Counter = field(default_factory=Counter)  # by the category of its first difference
    new: list[str] = field(default_factory=list)  # regression files written for disagreements not recorded
    known: int = 0  # disagreements whose minimal case is already recorded
    varies: int = 0  # agreements with one of several answers upstream gives to the same case
    crashes: int = 0  # agreements where upstream panics and the engine says the scheduler crashes there
    seconds: float = 0.0
    start_seconds: float = 0.0  # harness start-ups (builds included when cold)
    examples: int = 0

    @property
    def disagreements(self) -> int:
        return sum(self.disagree.values())


class Harnesses:
    """Open harness processes, one per release and gate set, started when first needed, a few kept."""

    def __init__(self, factory: Callable[..., object], keep: int = 4):
        self.factory, self.keep = factory, keep
        self.open: dict[tuple, object] = {}
        self.start_seconds = 0.0

    def run(self, case: dict) -> dict:
        key = (case["release"], tuple(sorted((case.get("gates") or {}).items())))
        harness = self.open.pop(key, None)
        if harness is None:
            if len(self.open) >= self.keep:
                oldest = next(iter(self.open))
                self.open.pop(oldest).__exit__(None, None, None)
            began = time.monotonic()
            harness = self.factory(release=case["release"], gates=dict(case.get("gates") or {}))
            harness.__enter__()
            self.start_seconds += time.monotonic() - began
        self.open[key] = harness  # most recently used last
        try:
            return harness.run(case)
        except (RuntimeError, OSError, ValueError) as err:  # the process died or answered nonsense
            with contextlib.suppress(RuntimeError, OSError, ValueError):
                self.open.pop(key).__exit__(None, None, None)
            return {"id": case.get("id"), "error": f"the harness failed: {err}"}

    def close(self) -> None:
        for harness in self.open.values():
            harness.__exit__(None, None, None)
        self.open.clear()


def same_panic(mine: dict, theirs: dict) -> bool:
    """Whether upstream panicked and the engine says the scheduler crashes with the same runtime error (the
    engine names the panics of 1.34 and 1.35 that crash kube-scheduler), in its allocation or its
    scheduling answer."""
    words = panic_words(theirs.get("error"))
    if words is None:
        return False
    said = [(mine.get(part) or {}).get("error") or "" for part in ("allocate", "schedule")]
    return any(f"which panics: {words} (" in error for error in said)


def not_comparable(case: dict, mine: dict, theirs: dict) -> str | None:
    """Why a case cannot be compared, or None."""
    if theirs.get("error") and not same_panic(mine, theirs):
        words = panic_words(theirs["error"])
        if words is not None:
            return f"upstream panics in every order asked ({words})"
        return "harness error"
    for part in ("allocate", "schedule"):
        if part in case.get("run", []) and (mine.get(part) or {}).get("refused"):
            return "engine refuses the input"
    return None


def compare_case(case: dict, harnesses: Harnesses) -> tuple[dict, dict, list]:
    """Our answer, upstream's and what differs. Upstream's answer can vary from one run to the next (its
    informers list slices in map order, and the allocator takes them as listed), so on a difference
    upstream is asked again: an answer it gives at least once that equals ours is agreement, marked
    ``varies`` in upstream's answer; otherwise every answer it gave is kept (``alternatives``). A panic the
    engine does not name is one of those answers: when upstream's first answer is one, it is asked again
    until it answers without panicking, and a case where it panics every time is not compared."""
    mine = ours.answer(case)
    theirs = harnesses.run(case)
    if same_panic(mine, theirs):
        return mine, theirs, []
    if panic_words(theirs.get("error")) is not None:
        theirs = _past_panics(case, mine, theirs, harnesses)
        if theirs.get("error"):  # the engine's crash (agreement), or a panic in every order asked
            return mine, theirs, []
    found = differences(case, mine, theirs)
    if not found or not_comparable(case, mine, theirs):
        return mine, theirs, found
    if _left_waiting(theirs):
        # The pod was neither bound nor refused in the harness's time: asked again it waits as long again
        # (thirty asks cost ten minutes), and a wait is not an answer that varies with the slices' order.
        return mine, theirs, found
    seen = [theirs]
    asked = last_new = 0
    patience = SCHEDULE_REASKS if "schedule" in case.get("run", []) else REASKS
    while asked < MAX_REASKS and asked - last_new < patience:
        asked += 1
        again = harnesses.run(case)
        if same_panic(mine, again) or (not again.get("error") and not differences(case, mine, again)):
            return mine, {**again, "varies": True}, []
        if again.get("error") and panic_words(again["error"]) is None:
            return mine, again, found  # the harness failed otherwise: not compared
        if all(_other_answer(case, again, other) for other in seen):
            seen.append(again)
            last_new = asked
    if len(seen) > 1:
        theirs = {**theirs, "varies": True, "alternatives": seen[1:]}
    return mine, theirs, found


def _other_answer(case: dict, one: dict, other: dict) -> bool:
    if one.get("error") or other.get("error"):  # a panic: the same only as the same panic
        return panic_words(one.get("error")) != panic_words(other.get("error"))
    return bool(differences(case, one, other))


def _past_panics(case: dict, mine: dict, first: dict, harnesses: Harnesses) -> dict:
    """Upstream's first answer without a panic, asked up to the panic budget; else the panic it gave. A
    panic the engine names ends the asking: that is the engine's answer (``varies`` unless it came first)."""
    for _ in range(PANIC_REASKS):
        again = harnesses.run(case)
        if same_panic(mine, again):
            return {**again, "varies": True}
        if panic_words(again.get("error")) is None:
            return {**again, "varies": True, "panicked": first["error"]} if not again.get("error") else again
    return first


def _left_waiting(theirs: dict) -> bool:
    """Whether the harness gave up on the pod: neither bound nor refused within its time."""
    message = (theirs.get("schedule") or {}).get("message") or ""
    return message.startswith("the pod was neither bound nor refused")


def run_release(release: str, cases: int, seed: int, whats: list[str], harnesses: Harnesses, *,
                examples: bool = False, record: bool = True, shrink_limit: int = SHRUNK_PER_CATEGORY,
                log=print) -> Tally:
    tally = Tally(release)
    known: dict[str, Path | None] = dict(regressions.recorded())  # fingerprint -> its record
    shrunk = Counter()
    began = time.monotonic()
    started = harnesses.start_seconds
    todo = [stored_case(seed, index, release) if whats[index % len(whats)] == "stored"
            else generate_case(seed, index, release, whats[index % len(whats)]) for index in range(cases)]
    if examples:
        found = gallery_cases(release)
        tally.examples = len(found)
        todo += found
    for number, case in enumerate(todo, 1):
        if number % 250 == 0:
            log(f"  {number} of {len(todo)} cases, {tally.agree} agree, {tally.disagreements} disagree")
        tally.cases += 1
        if "created_gates" in case:  # stored objects: first created with the gates on (``stored``)
            case, why = as_stored(case, harnesses.run)
            if case is None:
                tally.not_compared[why] += 1
                continue
        mine, theirs, found = compare_case(case, harnesses)
        reason = not_comparable(case, mine, theirs)
        if reason:
            tally.not_compared[reason] += 1
            if reason == "harness error":
                log(f"  {case['id']}: harness error: {theirs.get('error')}")
            elif reason != "engine refuses the input":
                log(f"  {case['id']}: not compared: {reason}")
            continue
        if not found:
            tally.agree += 1
            tally.varies += bool(theirs.get("varies"))
            tally.crashes += bool(theirs.get("error"))
            continue
        category = found[0].category
        tally.disagree[category] += 1
        log(f"  {case['id']}: {category} ({found[0].where}): ours {found[0].ours!r} upstream {found[0].theirs!r}")
        # Every disagreement counts: it is known when the case as found, or the minimal case it shrinks to,
        # is recorded; one that is not shrunk (past the limit) and not known as found fails the run.
        as_found = regressions.fingerprint(case)
        if as_found in known:
            tally.known += 1
            continue
        if case.get("example"):
            # A gallery example is recorded as it is: it is small and written to be read, and a scheduling
            # trial may cost the harness's whole wait.
            minimal, minimal_theirs, minimal_found = case, theirs, found
        elif shrunk[category] >= shrink_limit:
            tally.new.append(f"{case['id']} (not shrunk: past --shrink {shrink_limit} for {category}, "
                             f"so not matched with the recorded cases; a larger --shrink records it)")
            log(f"  {case['id']}: not shrunk, and not recorded as found: counted as new")
            continue
        else:
            shrunk[category] += 1
            minimal, minimal_theirs, minimal_found = _shrunk(case, found[0], harnesses)
            if not minimal_found:
                # Upstream answered the smaller case as we do when asked once more (its choice varies from
                # run to run): the case as found is recorded instead, with the difference it showed.
                minimal, minimal_theirs, minimal_found = case, theirs, found
        reduced = as_found if minimal is not case else None  # the case as found, when it shrank
        minimal_print = regressions.fingerprint(minimal)
        if minimal_print in known:
            tally.known += 1
            path = known[minimal_print]
            if record and path is not None and reduced:
                regressions.add_found(path, reduced)  # later runs know it without shrinking it
            continue
        if record:
            path = regressions.write(minimal, minimal_theirs, [d.to_dict() for d in minimal_found], found=reduced)
            tally.new.append(str(path.relative_to(regressions.ROOT)))
        else:
            path = None
            tally.new.append(f"{case['id']} (not recorded)")
        known[minimal_print] = known[as_found] = path
    tally.seconds = time.monotonic() - began
    tally.start_seconds = harnesses.start_seconds - started
    return tally


def _signature(difference) -> tuple:
    """What a smaller case must keep showing: the category, and for a verdict both sides' verdicts."""
    if difference.category in ("verdict", "node verdicts", "create verdict", "gates"):
        return difference.category, repr(difference.ours)[:40], repr(difference.theirs)[:40]
    return (difference.category,)


def _shrunk(case: dict, first, harnesses: Harnesses) -> tuple[dict, dict, list]:
    """The minimal case showing a difference like ``first``, with upstream's answer and the differences."""

    wanted = _signature(first)
    # Unless the difference is the apiserver's (or the components') own answer, a smaller case must stay one
    # the apiserver would take, as the case found was: the allocator-only mode checks nothing, the scheduler
    # runs on whatever objects it is given, and a disagreement on an input no cluster stores says little
    # (a scheduler error once shrank to an engine that refuses a slice without a driver).
    guarded = first.category not in CREATE_CATEGORIES and _accepted(case)
    waited = _left_waiting(compare_case(case, harnesses)[1]) if "schedule" in case.get("run", []) else False

    had_nodes = _has_nodes(case)

    def still_differs(trial: dict) -> bool:
        if guarded and not _accepted(trial):
            return False
        if had_nodes and not _has_nodes(trial):
            return False  # without Node objects the engine stands in the nodes its slices name; no scheduler does
        mine, theirs, found = compare_case(trial, harnesses)
        if _left_waiting(theirs) and not waited:
            return False  # a smaller case the scheduler leaves waiting is another question, and costs 20 s each
        return not not_comparable(trial, mine, theirs) and any(_signature(d) == wanted for d in found)

    # A scheduling case costs up to the harness's timeout when a trial leaves the pod waiting: fewer trials.
    budget = SCHEDULE_SHRINK_BUDGET if "schedule" in case.get("run", []) else SHRINK_BUDGET
    minimal, _ = shrink(case, still_differs, budget=budget)
    mine, theirs, found = compare_case(minimal, harnesses)
    return minimal, theirs, found


CREATE_CATEGORIES = ("gates", "create verdict", "create errors")


def _has_nodes(case: dict) -> bool:
    return any(obj.get("kind") == "Node" for obj in case.get("objects") or [])


def _accepted(case: dict) -> bool:
    """Whether the apiserver would store every object of ``case`` (the engine's create path)."""
    return all(not e["errors"] and not e["error"] for e in ours.create(case))


def gallery_cases(release: str) -> list[dict]:
    """Every gallery example written for ``release``, on its inventory, as a case of its own."""
    inventories = {}
    for path in sorted((SAMPLES / "inventories").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        inventories[data["slug"]] = data["objects"]
    out = []
    for path in sorted((SAMPLES / "examples").glob("*.yaml")):
        example = yaml.safe_load(path.read_text(encoding="utf-8"))
        if str(example.get("kubernetesVersion")) != release:
            continue
        documents = list(yaml.safe_load_all(example["documents"]))
        objects = [*inventories.get(example.get("inventory"), []), *(d for d in documents if d)]
        # With a pod, the scheduler schedules it; claims alone go to the allocator, on the example's node or
        # on each node in turn.
        has_pod = any(d.get("kind") == "Pod" for d in documents if d)
        run = ["gates", "create", "schedule" if has_pod else "allocate"]
        if run[-1] not in built_modes(release):
            continue  # the release's harness cannot run it (upstream/README.md)
        out.append({"id": f"example-{example['slug']}", "example": example["slug"], "release": release,
                    "gates": example.get("featureGates") or {}, "node": example.get("node"),
                    "objects": objects, "run": [mode for mode in run if mode in built_modes(release)]})
    return out
