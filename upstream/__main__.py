"""python -m upstream run|build: the harness from the command line.

    python -m upstream run --release 1.37 [--gates K=V,...] [--node N] [--mode create,allocate] FILE...
    python -m upstream build --release 1.37|all
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from upstream.client import CURRENT_RELEASE, Harness, HarnessError, available_releases, build, built_modes


def parse_gates(text: str) -> dict[str, bool]:
    gates = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        if value.lower() not in ("true", "false"):
            raise argparse.ArgumentTypeError(f"{item!r}: a gate is NAME=true or NAME=false")
        gates[name] = value.lower() == "true"
    return gates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m upstream")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the files through one release's own code")
    run.add_argument("--release", default=CURRENT_RELEASE)
    run.add_argument("--gates", type=parse_gates, default={}, help="K=V,... over the release's defaults")
    run.add_argument("--node", default=None)
    run.add_argument("--mode", default=None,
                     help="any of gates,create,schedule,allocate (comma separated); default "
                          "gates,create,allocate, as far as the release's harness builds them")
    run.add_argument("files", nargs="+", metavar="FILE", help="YAML or JSON documents, - for stdin")
    make = commands.add_parser("build", help="build (or find cached) the harness of a release")
    make.add_argument("--release", default=CURRENT_RELEASE, help="a release or all")
    args = parser.parse_args(argv)

    try:
        if args.command == "build":
            releases = available_releases() if args.release == "all" else [args.release]
            for release in releases:
                started = time.monotonic()
                path = build(release)
                print(f"{release}: {path} ({time.monotonic() - started:.1f}s)")
            return 0
        modes = args.mode.split(",") if args.mode else [
            m for m in ("gates", "create", "allocate") if m in built_modes(args.release)]
        text = "\n---\n".join(sys.stdin.read() if name == "-" else open(name).read() for name in args.files)
        with Harness(args.release, args.gates) as harness:
            answer = harness.run({"id": "cli", "node": args.node, "documents": text,
                                  "run": [mode for mode in modes if mode]})
        print(json.dumps(answer, indent=2))
        return 1 if answer.get("error") else 0
    except HarnessError as error:
        print(error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
