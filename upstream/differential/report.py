"""The summary table of a differential run: one row per release."""

from __future__ import annotations

from upstream.differential.compare import CATEGORIES


def table(tallies: list) -> str:
    used = [c for c in CATEGORIES if any(t.disagree.get(c) for t in tallies)]
    header = ["release", "cases", "examples", "agree", "disagree", "not compared", *used, "new", "seconds"]
    rows = [header]
    for tally in tallies:
        skipped = sum(tally.not_compared.values())
        rows.append([tally.release, str(tally.cases), str(tally.examples), str(tally.agree),
                     str(tally.disagreements), str(skipped), *(str(tally.disagree.get(c, 0)) for c in used),
                     str(len(tally.new)), f"{tally.seconds:.0f}"])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(width) if n else cell.ljust(width) for n, (cell, width) in
                       enumerate(zip(row, widths, strict=True))) for row in rows]
    for tally in tallies:
        for reason, count in sorted(tally.not_compared.items()):
            lines.append(f"{tally.release}: not compared, {reason}: {count}")
        if tally.varies:
            lines.append(f"{tally.release}: agreements where upstream's answer varies from run to run: {tally.varies}")
        if tally.crashes:
            lines.append(f"{tally.release}: agreements where upstream panics and the engine says kube-scheduler "
                         f"crashes there: {tally.crashes}")
        if tally.start_seconds:
            lines.append(f"{tally.release}: harness start-ups {tally.start_seconds:.1f}s")
        for path in tally.new:
            lines.append(f"{tally.release}: new regression case {path}")
    return "\n".join(lines)


def as_dict(tally) -> dict:
    return {"release": tally.release, "cases": tally.cases, "examples": tally.examples, "agree": tally.agree,
            "disagree": dict(tally.disagree), "notCompared": dict(tally.not_compared), "known": tally.known, "varies": tally.varies,
            "crashes": tally.crashes,
            "new": tally.new, "seconds": round(tally.seconds, 1), "startSeconds": round(tally.start_seconds, 1)}
