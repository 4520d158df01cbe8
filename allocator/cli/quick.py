"""A plain command line read without argparse (start-up).

Importing argparse and building a command's parser loads ``gettext``,
``locale`` and ``shutil`` too: about a tenth of a one-node ``allocate``
(docs/performance.md, start-up, fourth round). A command whose module has
``QUICK`` (its options: flag -> (destination, conversion), and their
defaults) is read here when its line is plain: each option spelt in full,
given once, with its value (``--node NAME`` or ``--node=NAME``, the value not
starting with ``-``), and the files in one run. Anything else (help, an
error, an abbreviation, ``--``, an option twice, files split by options, a
value the conversion refuses) is left to argparse, which gives its own
answer or error; so the answer here is argparse's whenever there is one
(``allocator/tests/test_cli_quick.py`` compares the two).
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

from allocator.reading import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TypeAlias

    # A command's options: each flag (every spelling) -> (the destination, the conversion of its value or None).
    Options: TypeAlias = dict[str, tuple[str, Callable[[str], Any] | None]]


def parse(command: str, given: list[str], options: Options, defaults: dict[str, Any]) -> SimpleNamespace | None:
    """``given`` (the arguments after the command's name) as argparse would read them into ``command``'s
    namespace, with the input files as ``files``; None when the line is not plain (argparse reads it)."""
    values = dict(defaults)
    files: list[str] = []
    seen: set[str] = set()
    files_ended = False  # an option came after the files: argparse takes them in one run only
    rest = iter(given)
    for arg in rest:
        if arg.startswith("-") and arg != "-":  # "-" alone is a file: stdin
            flag, equals, value = arg.partition("=")
            if flag not in options or (equals and not flag.startswith("--")):
                return None
            if not equals:
                value = next(rest, "-")
                if value.startswith("-"):  # missing, or an option where its value should be
                    return None
            files_ended = bool(files)
            dest, convert = options[flag]
            if dest in seen:
                return None
            seen.add(dest)
            try:
                values[dest] = convert(value) if convert else value
            except Exception:  # argparse says what is wrong with it
                return None
        elif files_ended:
            return None
        else:
            files.append(arg)
    if not files:
        return None
    return SimpleNamespace(command=command, **values, files=files)

