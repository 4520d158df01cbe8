"""``kubectl dra``: the command line, with kubectl's flags and manners.

Exit codes: 0 answered (``fit``: the claims fit); 1 ``fit``/``capacity``: they
do not fit; 2 bad usage or input; 3 the cluster could not be read (unreachable,
unauthorised, forbidden: the message names the missing permission).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

import yaml

from allocator.releases.gates import FeatureGateError, parse_gate_list
from kubectl_dra import cluster, commands, render, snapshot
from kubectl_dra.connection import ClusterError, Connection, kubeconfig_file
from kubectl_dra.release import read_release

EXAMPLES = """examples:
  kubectl dra why trainer-0 -n ml            why is this pod pending, down to the selector, counter or taint
  kubectl dra fit -f claim.yaml              would these claims (or this pod) fit now, where, with which devices
  kubectl dra capacity -f deployment.yaml    how many copies fit now
  kubectl dra snapshot -o cluster.yaml       the DRA objects, ready to paste into the playground
  kubectl dra snapshot --share https://dra-playground.example   a link to the snapshot on a playground site
"""


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--kubeconfig", help="path to the kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    common.add_argument("--context", help="the kubeconfig context to use")
    common.add_argument("-n", "--namespace", help="the namespace (default: the context's, else default)")
    common.add_argument("--request-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="give up on a request to the apiserver after this long (default 30)")
    common.add_argument("--kubernetes-version", metavar="V",
                        help="simulate this release instead of the apiserver's (1.31 ... 1.37)")
    common.add_argument("--feature-gates", metavar="K=V,...", default="",
                        help="gates over those read from the apiserver (the scheduler's may differ from its)")

    parser = argparse.ArgumentParser(
        prog="kubectl dra", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
        description="Dynamic Resource Allocation on a live cluster, answered by the DRA Playground engine: "
                    "why a pod is pending, what would fit, how many fit, and a snapshot for the playground.")
    commands_ = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    output = {"choices": ["text", "json", "yaml"], "default": "text", "help": "output format (default text)"}

    why = commands_.add_parser("why", parents=[common], help="why a pod is pending (or where it runs)")
    why.add_argument("pod", metavar="POD")
    why.add_argument("-o", "--output", **output)

    fit = commands_.add_parser("fit", parents=[common], help="would these claims or this pod fit now")
    fit.add_argument("-f", "--filename", action="append", required=True, metavar="FILE",
                     help="claims, templates and pods (YAML or JSON; - for stdin); repeatable")
    fit.add_argument("--node", help="only this node")
    fit.add_argument("-o", "--output", **output)

    capacity = commands_.add_parser("capacity", parents=[common], help="how many copies of a workload fit now")
    capacity.add_argument("-f", "--filename", action="append", required=True, metavar="FILE",
                          help="a pod, Deployment, ReplicaSet, StatefulSet or Job with its claims or templates")
    capacity.add_argument("--strategy", choices=["first", "spread", "pack"], default="first")
    capacity.add_argument("--max", type=int, help="place at most this many copies")
    capacity.add_argument("-o", "--output", **output)

    snap = commands_.add_parser("snapshot", parents=[common],
                                help="the DRA objects and the node fields the engine reads, ready to paste")
    snap.add_argument("-o", "--output-file", metavar="FILE", help="write the YAML here instead of stdout")
    snap.add_argument("-A", "--all-namespaces", action="store_true",
                      help="pending claims and templates of every namespace (default: the namespace's)")
    snap.add_argument("--share", metavar="URL",
                      help="store the snapshot on this playground site and print the link that opens it")
    return parser


def _namespace(args) -> str:
    """-n, else the context's namespace, else default: as kubectl."""
    if args.namespace:
        return args.namespace
    try:
        from kubernetes import config as kubeconfig

        contexts, active = kubeconfig.list_kube_config_contexts(config_file=kubeconfig_file(args.kubeconfig))
        if args.context:
            active = next((c for c in contexts if c["name"] == args.context), active)
        return (active or {}).get("context", {}).get("namespace") or "default"
    except Exception:  # the namespace is a convenience: an odd kubeconfig must not stop the command
        return "default"


def _print(answer: dict, output: str, text) -> None:
    if output == "json":
        sys.stdout.write(json.dumps(answer, indent=2) + "\n")
    elif output == "yaml":
        sys.stdout.write(yaml.safe_dump(answer, sort_keys=False, default_flow_style=False))
    else:
        sys.stdout.write(text(answer))


def _run(args) -> int:
    try:
        overrides = parse_gate_list(args.feature_gates) if args.feature_gates else {}
    except FeatureGateError as err:
        print(f"error: --feature-gates: {err.with_hint()}", file=sys.stderr)
        return commands.EXIT_INVALID
    connection = Connection.from_kubeconfig(args.kubeconfig, args.context, args.request_timeout)
    release = read_release(connection, args.kubernetes_version, overrides)
    session = commands.Session(connection, release, cluster.discover(connection))
    namespace = _namespace(args)
    if args.command == "why":
        answer, code = commands.why(session, namespace, args.pod)
        _print(answer, args.output, render.why_text)
    elif args.command == "fit":
        answer, code = commands.fit(session, args.filename, args.node)
        _print(answer, args.output, render.fit_text)
    elif args.command == "capacity":
        answer, code = commands.capacity(session, args.filename, args.strategy, args.max)
        _print(answer, args.output, render.capacity_text)
    else:
        code = _snapshot(args, session, namespace)
    return code


def _snapshot(args, session: commands.Session, namespace: str) -> int:
    stored, pending = commands.snapshot_objects(session, namespace, args.all_namespaces)
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    header = (f"# kubectl dra snapshot of {session.connection.server} ({session.release.server_version}) at "
              f"{stamp}\n# {len(stored)} stored objects (inventory and allocated claims), "
              f"{len(pending)} pending claims and templates\n")
    if args.share:
        shared = commands.share(args.share, snapshot.dump(stored), snapshot.dump(pending), session.release,
                                args.request_timeout)
        print(shared["url"] or shared["share"].get("id"))
        return commands.EXIT_OK
    text = snapshot.dump(stored + pending, header)
    if args.output_file:
        with open(args.output_file, "w", encoding="utf-8") as out:
            out.write(text)
        print(f"wrote {len(stored) + len(pending)} objects to {args.output_file}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return commands.EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except commands.InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return commands.EXIT_INVALID
    except FeatureGateError as err:
        print(f"error: feature gates: {err.with_hint()}", file=sys.stderr)
        return commands.EXIT_INVALID
    except ClusterError as err:
        print(f"error: {err}", file=sys.stderr)
        return commands.EXIT_CLUSTER
    except KeyboardInterrupt:
        return 130
