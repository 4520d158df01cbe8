"""How much input the engine agrees to read, chosen by the caller.

The engine has no fixed caps of its own: ``load_yaml_stream``,
``read_documents``, ``analyze`` and the command line take a ``Limits``. The
defaults (``Limits()``) suit the command line, which reads real clusters'
``kubectl get -o yaml`` dumps of hundreds of megabytes on the user's own
machine; a server passes tighter ones for anonymous text.

Whatever the sizes, hostile shapes stay refused: nesting deeper than
``max_depth``, and aliases that expand to more than ``max_alias_values``
values in all (an alias bomb is a few hundred bytes that expand to millions
of values, so it is caught by what aliases add, not by the document's size).

Each refusal names the limit, and, when the caller says how to change it
(``advice``: the command line names its flag, the site its setting), says so.
"""

from __future__ import annotations

from collections.abc import Mapping

from allocator.reading.records import field, record

MAX_INPUT_BYTES = "max_input_bytes"
MAX_VALUES = "max_values"
MAX_DEPTH = "max_depth"
MAX_ALIAS_VALUES = "max_alias_values"
NAMES = (MAX_INPUT_BYTES, MAX_VALUES, MAX_DEPTH, MAX_ALIAS_VALUES)


@record(frozen=True)
class Limits:
    """Bounds on one input text. Hashable: results read under some limits are cached per limits."""

    max_input_bytes: int = 1024 * 1024 * 1024  # UTF-8 bytes of one text
    max_values: int = 100_000_000  # scalars, mappings and sequences of one text, aliases expanded
    max_depth: int = 64  # mappings and sequences inside each other
    max_alias_values: int = 1_000_000  # values that aliases add by expanding
    # limit name -> how the reader can change it, e.g. "raise it with --max-values"
    advice: tuple[tuple[str, str], ...] = field(default=(), compare=True)

    def __post_init__(self):
        if isinstance(self.advice, Mapping):
            object.__setattr__(self, "advice", tuple(sorted(self.advice.items())))
        for name in NAMES:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        unknown = {name for name, _ in self.advice} - set(NAMES)
        if unknown:
            raise ValueError(f"advice for unknown limits: {', '.join(sorted(unknown))}")

    def refusal(self, name: str, message: str) -> str:
        """``message`` (which states the limit) followed by the caller's advice for ``name``, if any."""
        how = dict(self.advice).get(name)
        return f"{message}; {how}" if how else message


def cli_advice() -> dict[str, str]:
    """The command line's wording: each limit is one flag of ``allocate`` and ``validate``."""
    return {name: f"change it with --{name.replace('_', '-')}" for name in NAMES}


def from_flags(flags) -> Limits:
    """The limits of the command line's flags (``--max-values`` is ``flags.max_values``, ...), named in refusals.

    Flags left out (an older caller's namespace) keep the defaults.
    """
    given = {name: getattr(flags, name) for name in NAMES if getattr(flags, name, None) is not None}
    return Limits(**given, advice=cli_advice())


DEFAULT = Limits()
