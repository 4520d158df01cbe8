"""Live round trip benchmark (a script, not a test): ``python bench/live_bench.py [--edits N] [--profile]``.

For every gallery example it simulates typing in the claims editor: the page
posts the whole form to ``/`` with htmx (``hx-post``, ``hx-target="#results"``,
so the headers ``HX-Request: true`` and ``HX-Target: results``) after each
burst of input, and the server answers with the results partial. Each edit
appends one more character to a trailing YAML comment, so every request
carries new content, as a keystroke would. The first request of an example is
a warm-up (it compiles that example's CEL) and is not counted.

Reported per example and overall: p50, p95 and max of the server time (the
Django test client's request, middleware, view, engine and templates, in
this process; no network), of its CPU time (steadier on a busy machine),
and of ``allocator.engine.analyze()`` alone on the same inputs. The target (issue "The playground", item 9) is a p95 under
150 ms. The machine and its load are printed first.

It runs on a throwaway SQLite database (migrated, samples loaded) and never
touches the project's own database; the pages' rate limit is off for it. ``--profile`` prints where the time of
the timed requests goes (cProfile, top functions by cumulative time). Each edit says the inventory picture
is in view (``picture_in_view=1``, as the page sends it with the picture on screen), so the live update
draws it. ``--off-screen`` says it is not: the update then carries only the picture's outline. ``--drawn``
is ``--off-screen`` with the drawing fetched too (``POST /picture``), as when the picture is scrolled into
view after each edit.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import math
import os
import platform
import pstats
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_MS = 150.0
HTMX_HEADERS = {
    # What htmx sends for the editor form's live request (see playground/templates/playground/index.html).
    "HTTP_HX_REQUEST": "true",
    "HTTP_HX_TARGET": "results",
    "HTTP_HX_TRIGGER": "playground-form",
    "HTTP_HX_CURRENT_URL": "http://localhost/",
}
# The request the outline of the picture makes once in view (playground/templates/playground/partials/picture.html).
PICTURE_HEADERS = {**HTMX_HEADERS, "HTTP_HX_TARGET": "picture", "HTTP_HX_TRIGGER": "picture"}


# A gate list's key as the page holds it (playground/templates/playground/partials/gate_list.html).
SHOWN = re.compile(r'<input type="hidden" name="((?:compare_)?gates_shown)" value="([^"]*)">')


def setup_django(db_path: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "playground.settings"
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(32)
    os.environ["DEBUG"] = "1"
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # One client posting hundreds of edits a minute: the pages' per-client rate limit would answer 429.
    os.environ["PAGE_ANALYSES_PER_MINUTE"] = "0"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_samples", verbosity=0, stdout=io.StringIO())


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} CPUs; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()} ({platform.python_implementation()})")


def load() -> str:
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def form_data(state, documents: str) -> dict:
    """The fields the editor form posts (the browser sends them all on every live request)."""
    from allocator.releases.gates import KNOWN_GATES
    from playground.forms import gate_field

    data = {
        "inventory_slug": state.inventory_slug,
        "inventory": state.inventory,
        "documents": documents,
        "node": state.node,
        "kubernetes_version": state.kubernetes_version,
    }
    for gate in KNOWN_GATES:
        on = state.feature_gates.get(gate)
        data[gate_field(gate)] = "" if on is None else ("on" if on else "off")
    return data


def edits(documents: str, count: int) -> list[str]:
    """``count`` versions of the documents, each one character longer (a trailing comment being typed)."""
    base = documents if documents.endswith("\n") else documents + "\n"
    return [base + "# " + "x" * i for i in range(1, count + 1)]


def bench_example(client, example, count: int, profiler: cProfile.Profile | None,
                  in_view: bool = True, drawn: bool = False) -> tuple[list[float], list[float], list[float]]:
    """(server times, server CPU times, analyze() times) in ms for ``count`` edits of one example; ``in_view``:
    the edits say the picture is on screen; ``drawn``: each edit's picture is fetched too, as when it comes
    into view."""
    from allocator.engine import analyze

    state = example.state()
    kwargs = state.analyze_kwargs()
    warm = client.post("/", form_data(state, state.documents), **HTMX_HEADERS)
    if warm.status_code != 200:
        raise SystemExit(f"{example.slug}: the live request answered {warm.status_code}")
    # The page posts back what its gate list shows (the list comes with the first answer), as a browser does.
    shown = dict(SHOWN.findall(warm.content.decode()))
    server, cpu, engine = [], [], []
    for text in edits(state.documents, count):
        data = {**form_data(state, text), **shown, "picture_in_view": "1" if in_view else "0"}
        if profiler:
            profiler.enable()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.post("/", data, **HTMX_HEADERS)
        if drawn and response.status_code == 200:
            picture = client.post("/picture", data, **PICTURE_HEADERS)
            if picture.status_code != 200 or b'<section id="picture"' not in picture.content:
                raise SystemExit(f"{example.slug}: the picture answered {picture.status_code}")
        server.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - start_cpu) * 1e3)
        if profiler:
            profiler.disable()
        if response.status_code != 200 or b'id="results' not in response.content:
            raise SystemExit(f"{example.slug}: unexpected answer {response.status_code}")
        start = time.perf_counter()
        analyze(**{**kwargs, "documents": text})
        engine.append((time.perf_counter() - start) * 1e3)
    return server, cpu, engine


def row(name: str, server: list[float], cpu: list[float], engine: list[float]) -> str:
    return (f"| {name} | {len(server)} | {percentile(server, 50):.1f} | {percentile(server, 95):.1f} | "
            f"{max(server):.1f} | {percentile(cpu, 50):.1f} | {percentile(cpu, 95):.1f} | {percentile(engine, 50):.1f} | "
            f"{percentile(engine, 95):.1f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20, help="timed edits per example (default 20)")
    parser.add_argument("--example", action="append", default=[], help="only this example (slug); repeatable")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary of the timed requests")
    parser.add_argument("--off-screen", action="store_true",
                        help="the edits say the picture is out of view: their answers carry its outline only")
    parser.add_argument("--drawn", action="store_true",
                        help="as --off-screen, and each edit's picture fetched too (POST /picture), as when it "
                             "comes into view")
    args = parser.parse_args()
    in_view = not (args.off_screen or args.drawn)

    start_load = load()
    with tempfile.TemporaryDirectory(prefix="live-bench-") as tmp:
        setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.test import Client

        from playground.models import Example

        examples = list(Example.objects.with_inventory())
        if args.example:
            examples = [e for e in examples if e.slug in args.example]
        if not examples:
            raise SystemExit("no gallery example to run")
        client = Client(HTTP_HOST="localhost")
        profiler = cProfile.Profile() if args.profile else None

        print(f"machine: {machine()}")
        print(f"load average at start: {start_load}")
        print(f"{len(examples)} gallery examples, {args.edits} timed edits each (after one warm-up request"
              f"{'; picture on screen' if in_view else '; picture off screen'}"
              f"{', the picture of each edit fetched' if args.drawn else ''}); "
              f"server time = Django test client, in process; target p95 < {TARGET_MS:.0f} ms")
        print()
        print("| example | n | server p50 ms | server p95 ms | server max ms | server CPU p50 ms | server CPU p95 ms "
              "| analyze p50 ms | analyze p95 ms |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        all_server, all_cpu, all_engine = [], [], []
        for example in examples:
            server, cpu, engine = bench_example(client, example, args.edits, profiler, in_view, args.drawn)
            all_server += server
            all_cpu += cpu
            all_engine += engine
            print(row(example.slug, server, cpu, engine), flush=True)
        print(row("**all examples**", all_server, all_cpu, all_engine))
        print()
        p95 = percentile(all_server, 95)
        verdict = "meets" if p95 < TARGET_MS else "misses"
        print(f"overall server p95 {p95:.1f} ms ({percentile(all_cpu, 95):.1f} ms CPU): {verdict} the "
              f"{TARGET_MS:.0f} ms target; load average at end: {load()}")
        if profiler:
            print()
            pstats.Stats(profiler).strip_dirs().sort_stats("cumulative").print_stats(40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
