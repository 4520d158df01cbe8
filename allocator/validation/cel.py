"""CEL selector checks of the apiserver, and CEL error positions in the YAML.

``check_selector`` applies what ``validateCELExpression`` does for a new
object: the length limit (``Too long``, compile skipped), compilation in the
environment of the enabled feature gates (``Invalid`` with the cel-go message)
and the estimated cost limit (``Forbidden``). The compiler itself lives in
``allocator.cel``; ``compile_outcome`` is the one place that talks to it.

``ExpressionLocator`` turns a line and column inside an expression into the
line and column of the YAML text, for plain, quoted and block scalars.
"""

from __future__ import annotations

import functools

from allocator.reading import diagnostics as dg
from allocator.reading.records import field, record
from allocator.validation.errors import FieldError

MAX_EXPRESSION_LENGTH = 10 * 1024  # CELSelectorExpressionMaxLength, in bytes
MAX_EXPRESSION_COST = 1_000_000  # CELSelectorExpressionMaxCost


@record
class Outcome:
    """What compiling one expression gave: nothing wrong, or one field error."""

    type: str | None = None  # a diagnostics error type; None when fine
    detail: str = ""
    # (line, column) 1-based inside the expression, where cel-go put the error.
    where: list[tuple[int, int]] = field(default_factory=list)
    compiled: object = None
    hint: str | None = None  # the playground's advice beside the message


def compiler_available() -> bool:
    try:
        from allocator.cel import compile_selector  # noqa: F401
    except ImportError:
        return False
    return True


def apiserver_cel_gates(gates) -> frozenset[str]:
    """What the apiserver's CEL compile of ``gates``' release depends on: the enabled gates and, from 1.37,
    that ``includes()`` is the lists library's (``ReleaseRules.includes_from_lists``, which changes its cost)."""
    enabled = frozenset(gates.enabled_set())
    if not gates.release_rules.includes_from_lists:
        return enabled
    from allocator.cel import INCLUDES_FROM_LISTS

    return enabled | {INCLUDES_FROM_LISTS}


def compile_outcome(expression: str, enabled_gates: frozenset[str]) -> Outcome | None:
    """Compile like the apiserver does for new expressions; None when no compiler is installed."""
    try:
        from allocator.cel import CELCompileError, compile_selector
    except ImportError:
        return None
    try:
        compiled = compile_selector(expression, gates=enabled_gates, estimate_cost=True)
    except CELCompileError as exc:
        reason = getattr(exc, "reason", "syntax")
        message = getattr(exc, "message", str(exc))
        hint = getattr(exc, "hint", None)
        where = [(line, col) for line, col, *_ in getattr(exc, "errors", []) or []]
        if reason == "length":
            return Outcome(dg.TOO_LONG, f"may not be more than {MAX_EXPRESSION_LENGTH} bytes")
        if reason == "cost":
            return Outcome(dg.FORBIDDEN, "too complex, exceeds cost limit", hint=hint)
        if reason in ("program", "internal"):
            # The apiserver reports a program it cannot build as field.InternalError.
            return Outcome(dg.INTERNAL, message, hint=hint)
        if message.startswith("ERROR:"):
            message = "compilation failed: " + message
        return Outcome(dg.INVALID, message, where, hint=hint)
    cost = getattr(compiled, "estimated_cost", None)
    if cost is not None and cost > MAX_EXPRESSION_COST:
        return Outcome(dg.FORBIDDEN, "too complex, exceeds cost limit", compiled=compiled)
    return Outcome(compiled=compiled)


def check_selector(errs, expression: str, path: str, enabled_gates: frozenset[str], locator=None) -> None:
    """Append the apiserver's errors for one ``cel.expression`` at ``path``."""
    if len(expression.encode()) > MAX_EXPRESSION_LENGTH:
        errs.too_long(path, MAX_EXPRESSION_LENGTH)
        return
    outcome = compile_outcome(expression, enabled_gates)
    if outcome is None or outcome.type is None:
        return
    pos = None
    if locator is not None:
        line, col = outcome.where[0] if outcome.where else (1, 1)
        pos = locator.locate(path, expression, line, col)
    if outcome.type == dg.INVALID:
        fix = locator.fix(path, expression, _compile_fix(expression, outcome)) if locator is not None else None
        errs.add(FieldError(path, dg.INVALID, expression, outcome.detail, pos=pos, hint=outcome.hint,
                            fixes=[fix] if fix else []))
    elif outcome.type == dg.TOO_LONG:
        errs.too_long(path, MAX_EXPRESSION_LENGTH)
    else:
        errs.add(FieldError(path, outcome.type, detail=outcome.detail, pos=pos, hint=outcome.hint))


def expression_offset(expression: str, line: int, col: int) -> int:
    """Character offset of a 1-based (line, column) inside ``expression``."""
    lines = expression.split("\n")
    line = max(1, min(line, len(lines)))
    offset = sum(len(text) + 1 for text in lines[: line - 1])
    return offset + max(0, min(col - 1, len(lines[line - 1])))


@functools.lru_cache(maxsize=8)
def _line_starts(text: str) -> tuple[int, ...]:
    """Offsets where each line of ``text`` starts (one scan per text, shared by all its documents)."""
    starts = [0]
    newline = text.find("\n")
    while newline >= 0:
        starts.append(newline + 1)
        newline = text.find("\n", newline + 1)
    return tuple(starts)


class ExpressionLocator:
    """Maps positions inside a scalar's value back to the YAML source text."""

    _SKIPPABLE = " \t\r\n\\'\""

    def __init__(self, document, text: str | None):
        self.document = document
        self.text = text

    @property
    def _starts(self) -> tuple[int, ...]:
        # Only needed to place a CEL message: most documents never ask.
        return _line_starts(self.text)

    def _index(self, line: int, col: int) -> int:
        return self._starts[line - 1] + col - 1

    def _line_col(self, index: int) -> tuple[int, int]:
        from bisect import bisect_right  # (placing a CEL message only: most commands never do)

        line = bisect_right(self._starts, index)
        return line, index - self._starts[line - 1] + 1

    def locate(self, path: str, expression: str, line: int, col: int) -> tuple[int, int] | None:
        start = self.document.positions.get(path)
        if start is None:
            return self.document.position(path)
        if self.text is None or start[0] > len(self._starts):
            return start if line == 1 and col == 1 else (start[0] + line - 1, (start[1] + col - 1) if line == 1 else col)
        index = self._index(*start)
        head = self.text[index:index + 1]
        if head in ('"', "'"):
            index += 1
        elif head in ("|", ">"):
            newline = self.text.find("\n", index)
            if newline < 0:
                return start
            index = newline + 1
        target = expression_offset(expression, line, col)
        return self._line_col(self._align(expression, index, target))

    def fix(self, path: str, expression: str, edit) -> dg.Fix | None:
        """The ``cel.fixes.ExprFix`` ``edit`` (expression offsets) as a ``diagnostics.Fix`` in the YAML
        text: its span mapped like the diagnostics' carets, its replacement escaped for the scalar's
        style. None when the expression's place in the text is not known."""
        start = self.document.positions.get(path)
        if start is None or self.text is None or start[0] > len(self._starts) or edit is None:
            return None
        index = self._index(*start)
        style = self.text[index:index + 1]
        if style in ('"', "'"):
            index += 1
        elif style in ("|", ">"):
            newline = self.text.find("\n", index)
            if newline < 0:
                return None
            index = newline + 1
        else:
            style = ""
        replacement = edit.replacement
        if style == '"':
            replacement = replacement.replace("\\", "\\\\").replace('"', '\\"')
        elif style == "'":
            replacement = replacement.replace("'", "''")
        elif style == "" and (replacement.startswith(("'", '"')) and edit.start == 0 or ": " in replacement
                              or " #" in replacement):
            return None  # a plain scalar would be read differently
        src_start = self._align(expression, index, edit.start)
        if style == '"' and src_start > 0 and self.text[src_start - 1] == "\\" and \
                expression[edit.start:edit.start + 1] in ('"', "\\"):
            src_start -= 1
        if edit.end > edit.start:
            src_end = self._align(expression, index, edit.end - 1) + 1
            if style == "'" and self.text[src_end - 1:src_end + 1] == "''":
                src_end += 1
        else:
            src_end = src_start
        if style in ('"', "'") and "\n" in self.text[src_start:src_end]:
            return None  # a folded quoted scalar: the edit would change the folding
        (line, column), (end_line, end_column) = self._line_col(src_start), self._line_col(src_end)
        return dg.Fix(edit.title, {"line": line, "column": column}, {"line": end_line, "column": end_column},
                      replacement)

    def _align(self, expression: str, index: int, target: int) -> int:
        """Source index of expression[target]: walk both, skipping what YAML folding or escaping added."""
        src = self.text
        i = index
        end = index  # just after the last non-blank character matched so far
        if target >= len(expression):
            target = -1  # past the end: the caret goes after the last character
        for k, ch in enumerate(expression):
            j = i
            while j < len(src) and src[j] != ch and src[j] in self._SKIPPABLE and j - i < 256:
                j += 1
            matched = j < len(src) and src[j] == ch
            if k == target:
                return j if matched else i
            if matched:
                i = j + 1
                if not ch.isspace():
                    end = i
        return end


def _compile_fix(expression: str, outcome: Outcome):
    """``a >= b`` on quantities or versions as ``a.compareTo(b) >= 0`` (``cel.fixes.compare_to``)."""
    # Deferred: only a selector that does not compile gets a fix (start-up).
    from allocator.cel.fixes import compare_to
    from allocator.cel.hints import no_overload

    found = no_overload(outcome.detail)
    if found is None:
        return None
    operator, types = found
    opaque = ("kubernetes.Quantity", "kubernetes.Semver")
    if operator not in ("_<_", "_<=_", "_>_", "_>=_") or len(types) != 2 or not any(t in opaque for t in types):
        return None
    wrap = None
    if not all(t in opaque or t in ("any", "dyn") for t in types):
        if "string" not in types:
            return None
        wrap = "quantity" if "kubernetes.Quantity" in types else "semver"
    offset = expression_offset(expression, *outcome.where[0]) if outcome.where else None
    return compare_to(expression, operator, types[0] in opaque, wrap, offset)
