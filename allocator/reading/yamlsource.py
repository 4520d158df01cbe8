"""Reading YAML or JSON text into Python data that remembers where it came from.

Mappings become ``PosDict`` and sequences ``PosList`` (``positions``):
ordinary dicts and lists that also hold the 1-based line and column of
themselves, of each key and of each value.

The reader is defensive: alias expansion, nesting depth and total size are
bounded by the caller's ``Limits`` (see ``limits``), and every failure is a
located ``Diagnostic``, never an exception from the YAML library.

This reader is the exact one, with positions; ``plainyaml`` reads the same
data faster without them and falls back to this one when it cannot be sure.
"""

from __future__ import annotations

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from allocator.reading.diagnostics import PARSE, Diagnostic, DiagnosticError
from allocator.reading.indentation import indentation_problem
from allocator.reading.limits import DEFAULT, MAX_ALIAS_VALUES, MAX_DEPTH, MAX_VALUES, Limits
from allocator.reading.positions import PosDict, Position, PosList, position_in
from allocator.reading.records import record
from allocator.reading.syntaxhints import syntax_hint
from allocator.reading.textcheck import check_text, offset_position

__all__ = ["Position", "PosDict", "PosList", "RawDocument", "check_text", "load_yaml_stream", "position_in"]

# libyaml's parser when present (about 10x faster); it reports the same marks.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):
    """SafeLoader without timestamp resolution: Kubernetes reads them as strings."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@record
class RawDocument:
    data: object
    index: int  # position of the document in the stream, 0-based
    pos: Position


def _mark(node) -> Position:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    def __init__(self, loader: _Loader, limits: Limits):
        self.loader = loader
        self.limits = limits
        self.count = 0
        self.aliased = 0  # values built again because an alias refers to them
        self.seen: set[int] = set()  # ids of the nodes built once: meeting one again is an alias
        self.container = None  # the mapping or sequence whose values are being built (outside aliases)
        self.first_alias = None  # the mapping or sequence where the first alias was met

    def build(self, node, depth: int = 0, aliased: bool = False):
        limits = self.limits
        self.count += 1
        if self.count > limits.max_values:
            if aliased and 2 * self.aliased > self.count:  # most of it repeated by aliases: say that, not "too large"
                raise self._alias_bomb(node, self.count - 1)
            raise _Limit(node, limits.refusal(
                MAX_VALUES, f"document too large: more than {limits.max_values} values (or an alias bomb)"))
        if depth > limits.max_depth:
            raise _Limit(node, limits.refusal(MAX_DEPTH, f"document nested more than {limits.max_depth} levels deep"))
        if not aliased and not isinstance(node, ScalarNode):
            aliased = id(node) in self.seen
            self.seen.add(id(node))
            if aliased and self.first_alias is None:
                self.first_alias = self.container
        if aliased:
            self.aliased += 1
            if self.aliased > limits.max_alias_values:
                raise self._alias_bomb(node, limits.max_alias_values)
        if isinstance(node, ScalarNode):
            try:
                return self.loader.construct_object(node, deep=False)
            except yaml.YAMLError:
                raise
            except (ValueError, TypeError, OverflowError, ArithmeticError) as exc:
                # A resolvable but unreadable scalar: "!!int abc", a 5000-digit integer.
                raise _Limit(node, f"cannot read value {_short(node.value)}: {exc}") from None
        if isinstance(node, SequenceNode):
            out = PosList(pos=_mark(node))
            for item in node.value:
                if not aliased:
                    self.container = node
                out.append(self.build(item, depth + 1, aliased))
                out.item_pos.append(_mark(item))
            return out
        if isinstance(node, MappingNode):
            self.loader.flatten_mapping(node)
            out = PosDict(pos=_mark(node))
            for key_node, value_node in node.value:
                if not aliased:
                    self.container = node
                key = self.build(key_node, depth + 1, aliased)
                if not isinstance(key, str | int | float | bool) or key is None:
                    raise _Limit(key_node, "mapping keys must be strings")
                key = str(key) if not isinstance(key, bool) else ("true" if key else "false")
                if key in out:
                    raise _Limit(key_node, f'duplicate field "{key}"')
                out[key] = self.build(value_node, depth + 1, aliased)
                out.key_pos[key] = _mark(key_node)
                out.value_pos[key] = _mark(value_node)
            return out
        raise _Limit(node, "unsupported YAML node")

    def _alias_bomb(self, node, values: int) -> _Limit:
        """The refusal of aliases that repeat values too often, at the first mapping or list that uses one."""
        return _Limit(self.first_alias or node, self.limits.refusal(MAX_ALIAS_VALUES, (
            f"YAML aliases expand to more than {values} values (an alias bomb): each *name repeats the whole "
            "value anchored as &name, and these repeat one another; write the values out instead")))


def _short(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "...")


def _count_nodes(loader, limits: Limits) -> None:
    """Walk the event stream once, refusing more than ``max_values`` nodes before any is built.

    Composing a document builds all its nodes first, so a huge document must be
    refused here, at the event level, to stay fast and small.
    """
    count = 0
    while loader.check_event():
        event = loader.get_event()
        if isinstance(event, _NODE_EVENTS):
            count += 1
            if count > limits.max_values:
                mark = event.start_mark
                raise DiagnosticError([Diagnostic(
                    field="", type=PARSE, line=mark.line + 1, column=mark.column + 1,
                    detail=limits.refusal(MAX_VALUES, f"document too large: more than {limits.max_values} values"))])


_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)


def _clamp(text: str, line: int, column: int) -> Position:
    """Keep an end-of-input mark on the last line of the text (libyaml puts it one line further)."""
    lines = text.split("\n")
    if line > len(lines):
        return len(lines), len(lines[-1]) + 1
    return line, column


def _syntax_error(text: str, detail: str, line: int | None, column: int | None) -> Diagnostic:
    """The located syntax error; when a key is out of line there, it says which and with what."""
    problem = indentation_problem(text, line)
    if problem is None:
        hint = syntax_hint(text, line)  # a value that needs quotes, a tab in the indentation
        if hint is not None:
            return Diagnostic(field="", type=PARSE, detail=detail, line=line, column=column, hint=hint[0],
                              fixes=hint[1])
        return Diagnostic(field="", type=PARSE, detail=detail, line=line, column=column)
    message, fix = problem
    return Diagnostic(field="", type=PARSE, detail=f"{detail}: {message}", line=line, column=column, hint=fix)


def _fail(line: int | None, column: int | None, detail: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(field="", type=PARSE, detail=detail, line=line, column=column)])


class _Limit(Exception):
    def __init__(self, node, message: str):
        super().__init__(message)
        self.node = node
        self.message = message


def load_yaml_stream(text: str, source: str = "<input>", limits: Limits = DEFAULT) -> list[RawDocument]:
    """Parse a YAML/JSON stream into positioned documents; empty documents are skipped.

    Raises DiagnosticError with a located message when the text cannot be read
    or goes beyond ``limits``.
    """
    check_text(text, limits)
    try:
        _count_nodes(_Loader(text), limits)
    except DiagnosticError:
        raise
    except yaml.YAMLError:
        pass  # reported with its location by the real parse below
    loader = _Loader(text)
    docs: list[RawDocument] = []
    builder = _Builder(loader, limits)
    try:
        index = 0
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            data = builder.build(node)
            if data is not None:
                docs.append(RawDocument(data=data, index=index, pos=_mark(node)))
            index += 1
    except _Limit as exc:
        line, column = _mark(exc.node)
        raise DiagnosticError([Diagnostic(field="", type=PARSE, detail=exc.message, line=line, column=column)]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = _clamp(text, mark.line + 1, mark.column + 1) if mark else (None, None)
        detail = f"YAML syntax error: {exc.problem or exc.context}"
        if exc.context and exc.problem:
            detail = f"YAML syntax error: {exc.problem} ({exc.context})"
        raise DiagnosticError([_syntax_error(text, detail, line, column)]) from None
    except yaml.reader.ReaderError as exc:
        line, column = offset_position(text, exc.position)
        raise _fail(line, column, f"YAML error: unacceptable character #x{exc.character:04x}: {exc.reason}") from None
    except yaml.YAMLError as exc:
        raise DiagnosticError([Diagnostic(field="", type=PARSE, detail=f"YAML error: {exc}", line=1, column=1)]) from None
    except RecursionError:
        raise DiagnosticError([Diagnostic(field="", type=PARSE, detail="document nested too deeply", line=1, column=1)]) from None
    finally:
        loader.dispose()
    return docs
