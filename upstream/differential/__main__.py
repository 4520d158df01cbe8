"""``python -m upstream.differential`` (``./dev conformance``): the engine against the real components.

Exit 0 when every compared case agrees or its minimal disagreement is a recorded regression case; 1 when
there is a new disagreement (written as a regression case unless --no-record); 2 on a usage error or when
the harness cannot run at all.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from upstream.differential.generate import ALL_WHATS

HARNESS_RELEASES = ("1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
# The harness's run modes each comparison needs.
NEEDS = {"allocate": {"allocate"}, "create": {"gates", "create"}, "schedule": {"gates", "create", "schedule"},
         "stored": {"create", "allocate"}}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="./dev conformance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", default="1.37",
                        help=f"a release, or all ({', '.join(HARNESS_RELEASES)}); default %(default)s")
    parser.add_argument("--cases", type=int, default=200, help="random cases per release (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default %(default)s)")
    parser.add_argument("--what", choices=(*ALL_WHATS, "stored", "all"), default="all",
                        help="what to compare: the allocator alone, the apiserver's create, the scheduler, "
                             "or all three in turn (default %(default)s); stored: claims created with every "
                             "movable gate on, then allocated as stored objects with one gate off")
    parser.add_argument("--examples", action="store_true",
                        help="also every gallery example written for the release")
    parser.add_argument("--no-record", dest="record", action="store_false",
                        help="do not write new regression cases")
    parser.add_argument("--shrink", type=int, default=3, metavar="N",
                        help="disagreements shrunk per release and category (default %(default)s); one "
                             "past it is new unless its case as found is listed in a regression case")
    parser.add_argument("--json", metavar="FILE", help="also write the tallies as JSON to FILE")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    releases = HARNESS_RELEASES if args.release == "all" else (args.release,)
    if any(r not in HARNESS_RELEASES for r in releases):
        print(f"error: the harness runs {', '.join(HARNESS_RELEASES)}, not {args.release}", file=sys.stderr)
        return 2
    try:
        from upstream.client import Harness, HarnessError
    except ImportError as err:
        print(f"error: the harness's client (upstream/client.py) is not available: {err}", file=sys.stderr)
        return 2
    from upstream.client import available_releases, built_modes

    if args.release == "all":  # the releases the harness has a module file for; the others are named
        built = available_releases()
        missing = [r for r in releases if r not in built]
        if missing:
            print(f"note: no harness for {', '.join(missing)} (see upstream/README.md)", flush=True)
        releases = tuple(r for r in releases if r in built)
    from upstream.differential.crashes import CrashReadingHarness
    from upstream.differential.report import as_dict, table
    from upstream.differential.run import Harnesses, run_release

    asked = list(ALL_WHATS) if args.what == "all" else [args.what]

    def whats_for(release: str) -> list[str]:
        return [w for w in asked if NEEDS[w] <= set(built_modes(release))]

    if args.release != "all" and not whats_for(args.release):
        print(f"error: the {args.release} harness runs only {', '.join(built_modes(args.release))}, "
              f"not {args.what} (see upstream/README.md)", file=sys.stderr)
        return 2
    harnesses = Harnesses(CrashReadingHarness)  # reads kube-scheduler's crashes
    tallies = []
    try:
        for release in releases:
            whats = whats_for(release)
            if not whats:
                print(f"note: the {release} harness does not run {args.what}", flush=True)
                continue
            began = time.monotonic()
            try:  # built (or found in the cache) before the clock of the release starts
                with Harness(release=release):
                    pass
            except HarnessError as err:
                print(f"error: {err}", file=sys.stderr)
                return 2
            print(f"==> {release}: harness ready in {time.monotonic() - began:.1f}s", flush=True)
            print(f"==> {release}: {args.cases} cases, seed {args.seed}, {'/'.join(whats)}"
                  f"{' and the gallery' if args.examples else ''}", flush=True)
            tallies.append(run_release(release, args.cases, args.seed, whats, harnesses,
                                       examples=args.examples, record=args.record, shrink_limit=args.shrink,
                                       log=lambda line: print(line, flush=True)))
            harnesses.close()
    finally:
        harnesses.close()
    print(table(tallies))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([as_dict(t) for t in tallies], out, indent=2)
    new = sum(len(t.new) for t in tallies)
    if new:
        print(f"{new} new disagreement(s) with upstream: see the regression cases above", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
