"""A CEL parser producing a small AST with source offsets, macros expanded to comprehension nodes.

Written for this project (not derived from cel-go's ANTLR grammar text); it follows the CEL language
definition: operator precedence, literals and escapes, optional syntax (``.?field``, ``[?index]``,
``{?key: v}``, ``[?e]``), the standard macros plus cel-go's two-variable comprehensions, ``cel.bind``
and ``optMap``/``optFlatMap``.
"""

from __future__ import annotations

import re

from allocator.cel import syntax_errors as antlr
from allocator.cel.nodes import (
    Bind,
    Call,
    Comprehension,
    Ident,
    ListLiteral,
    Literal,
    MapEntry,
    MapLiteral,
    Node,
    Select,
    StructField,
    StructLiteral,
    children,
)

__all__ = ["Node", "ParseError", "children", "parse", "tokenize"]
MAX_RECURSION = 250

RESERVED = frozenset(
    "as break const continue else for function if import let loop package namespace return var void while".split()
)


class ParseError(Exception):
    def __init__(self, errors):
        super().__init__(errors[0][1])
        self.errors = errors  # list of (offset, message)


_TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n\f]+|//[^\n]*)
  | (?P<float>(?:[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+|\.[0-9]+(?:[eE][+-]?[0-9]+)?))
  | (?P<hex>0[xX][0-9a-fA-F]+[uU]?)
  | (?P<int>[0-9]+[uU]?)
  | (?P<str>(?:[rR][bB]?|[bB][rR]?)?(?:\"\"\"|'''|"|'))
  | (?P<ident>[_a-zA-Z][_a-zA-Z0-9]*)
  | (?P<op>==|!=|<=|>=|&&|\|\||[-+*/%!<>?:.,()\[\]{}])
    """,
    re.VERBOSE,
)

_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\",
            "'": "'", '"': '"', "`": "`", "?": "?"}


class Tok:
    __slots__ = ("kind", "text", "pos", "value")

    def __init__(self, kind, text, pos, value=None):
        self.kind = kind
        self.text = text
        self.pos = pos
        self.value = value


def _decode_string(body: str, raw: bool, is_bytes: bool, pos: int):
    if raw:
        return body.encode("utf-8") if is_bytes else body
    out: list = []
    index = 0
    length = len(body)
    buf = bytearray() if is_bytes else None
    while index < length:
        char = body[index]
        if char != "\\":
            if is_bytes:
                buf.extend(char.encode("utf-8"))
            else:
                out.append(char)
            index += 1
            continue
        if index + 1 >= length:
            raise ParseError([(pos, "Syntax error: invalid escape sequence")])
        escape = body[index + 1]
        if escape in _ESCAPES:
            ch = _ESCAPES[escape]
            if is_bytes:
                buf.extend(ch.encode())
            else:
                out.append(ch)
            index += 2
        elif escape in "xXuU" or escape in "01234567":
            if escape in "xX":
                digits, base, width = body[index + 2:index + 4], 16, 2
            elif escape == "u":
                digits, base, width = body[index + 2:index + 6], 16, 4
            elif escape == "U":
                digits, base, width = body[index + 2:index + 10], 16, 8
            else:
                digits, base, width = body[index + 1:index + 4], 8, 3
            if len(digits) != width or not all(d in "0123456789abcdefABCDEF"[: 16 if base == 16 else 8]
                                               for d in digits):
                raise ParseError([(pos, "Syntax error: invalid escape sequence")])
            code = int(digits, base)
            if is_bytes and escape in "xX01234567":
                buf.append(code & 0xFF)
            else:
                if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                    raise ParseError([(pos, "Syntax error: invalid unicode code point")])
                if is_bytes:
                    buf.extend(chr(code).encode("utf-8"))
                else:
                    out.append(chr(code))
            index += (2 + width) if escape in "xXuU" else (1 + width)
        else:
            raise ParseError([(pos, "Syntax error: invalid escape sequence")])
    return bytes(buf) if is_bytes else "".join(out)


def tokenize(src: str) -> list[Tok]:
    toks: list[Tok] = []
    pos = 0
    length = len(src)
    while pos < length:
        match = _TOKEN_RE.match(src, pos)
        if not match:
            raise ParseError([(pos, f"Syntax error: token recognition error at: '{src[pos]}'")])
        kind = match.lastgroup
        text = match.group()
        if kind == "ws":
            pos = match.end()
            continue
        if kind == "str":
            prefix = text.rstrip("'\"")
            quote = text[len(prefix):]
            raw = "r" in prefix.lower()
            is_bytes = "b" in prefix.lower()
            start = match.end()
            if len(quote) == 3:
                end = src.find(quote, start)
                while end != -1 and not raw and _escaped(src, start, end):
                    end = src.find(quote, end + 1)
                if end == -1:
                    raise ParseError([(pos, f"Syntax error: token recognition error at: '{src[pos:pos + 3]}'")])
                body = src[start:end]
                stop = end + 3
            else:
                index = start
                while index < length and src[index] != quote and src[index] != "\n":
                    if src[index] == "\\" and not raw:
                        index += 1
                    index += 1
                if index >= length or src[index] != quote:
                    raise ParseError([(pos, f"Syntax error: token recognition error at: '{src[pos:index]}'")])
                body = src[start:index]
                stop = index + 1
            toks.append(Tok("bytes" if is_bytes else "string", src[pos:stop], pos,
                            _decode_string(body, raw, is_bytes, pos)))
            pos = stop
            continue
        toks.append(Tok(kind, text, pos))
        pos = match.end()
    toks.append(Tok("eof", "<EOF>", length))
    return toks


def _escaped(src, start, end):
    index = end - 1
    count = 0
    while index >= start and src[index] == "\\":
        count += 1
        index -= 1
    return count % 2 == 1


_REL_OPS = {"==": "_==_", "!=": "_!=_", "<": "_<_", "<=": "_<=_", ">": "_>_", ">=": "_>=_", "in": "@in"}
_ADD_OPS = {"+": "_+_", "-": "_-_"}
_MUL_OPS = {"*": "_*_", "/": "_/_", "%": "_%_"}

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1


class Parser:
    def __init__(self, src: str):
        self.src = src
        self.toks = tokenize(src)
        self.i = 0
        self.depth = 0
        self.next_id = 1
        self.errors: list[tuple[int, str]] = []
        # The constructs open around the current token ("paren", "call", "index", "list", "map", "struct",
        # "ternary"), innermost last: they decide whether a closing token is "missing" or "mismatched".
        self.open: list[str] = []
        # (token index, expected set): where an operand that cannot start gets a wider set than an expression's
        self.operand_set: tuple[int, tuple[str, ...]] = (-1, antlr.EXPRESSION_START)

    # -- helpers
    def peek(self, ahead=0) -> Tok:
        return self.toks[min(self.i + ahead, len(self.toks) - 1)]

    def take(self) -> Tok:
        tok = self.toks[self.i]
        if self.i < len(self.toks) - 1:
            self.i += 1
        return tok

    def is_op(self, text, ahead=0):
        tok = self.peek(ahead)
        return tok.kind == "op" and tok.text == text

    def fail(self, tok: Tok, expecting: str | None = None):
        shown = tok.text if tok.kind != "eof" else "<EOF>"
        msg = f"Syntax error: mismatched input '{shown}' expecting {expecting}" if expecting else \
            f"Syntax error: extraneous input '{shown}'"
        raise ParseError([(tok.pos, msg)])

    def expect(self, text):
        """Take the closing token ``text`` or fail as ANTLR's ``match`` does: drop one token, insert the
        missing one, or say it does not match."""
        tok = self.peek()
        if tok.kind == "op" and tok.text == text:
            return self.take()
        name = f"'{text}'"
        if tok.kind != "eof" and self.is_op(text, 1):
            raise ParseError([(tok.pos, antlr.extraneous(tok, [name]))])
        if self._may_follow(text, tok):
            raise ParseError([(tok.pos, antlr.missing(name, tok))])
        raise ParseError([(tok.pos, antlr.mismatched(tok, [name]))])

    def _may_follow(self, closing: str, tok: Tok) -> bool:
        """Whether ``tok`` may come right after ``closing`` here (ANTLR's single-token insertion test)."""
        if closing == ":":
            return self._can_start(tok)
        enclosing = self.open[-2] if len(self.open) >= 2 else None
        if tok.kind == "eof":
            return enclosing is None
        if tok.kind == "op" and (tok.text in antlr.BINARY_OPERATORS or tok.text in (".", "[", "?")):
            return True
        if tok.kind == "ident" and tok.text == "in":
            return True
        closers = {"paren": ")", "call": ")", "index": "]", "list": "]", "map": "}", "struct": "}", "ternary": ":"}
        if enclosing is not None and tok.kind == "op" and tok.text == closers[enclosing]:
            return True
        return tok.kind == "op" and (tok.text == "," and enclosing in ("call", "list", "map", "struct")
                                     or tok.text == ":" and enclosing == "map")

    @staticmethod
    def _can_start(tok: Tok) -> bool:
        """Whether an expression may start with ``tok``."""
        if tok.kind in ("int", "hex", "float", "string", "bytes"):
            return True
        if tok.kind == "ident":
            return tok.text != "in"
        return tok.kind == "op" and tok.text in ("[", "{", "(", ".", "-", "!")

    def inside(self, construct: str, parse):
        """``parse()`` with ``construct`` open around it."""
        self.open.append(construct)
        try:
            return parse()
        finally:
            self.open.pop()

    def operand(self, names: tuple[str, ...]):
        """An expression where ``names`` (wider than an expression's start) could come instead."""
        self.operand_set = (self.i, names)
        return self.expr()

    def node(self, made: Node) -> Node:
        """``made`` numbered and given its span."""
        made.id = self.next_id
        self.next_id += 1
        # Nodes are made once their last token is read: the span ends there and starts at the
        # earliest of the node's own token and its children.
        pos = made.pos
        last = self.toks[self.i - 1] if self.i > 0 else None
        made.end = max(pos, last.pos + len(last.text)) if last is not None else pos
        made.start = min([pos, *(child.start for child in made.children())])
        return made

    def enter(self, pos):
        self.depth += 1
        if self.depth > MAX_RECURSION:
            raise ParseError([(pos, f"Syntax error: expression recursion limit exceeded: {MAX_RECURSION}")])

    # -- grammar
    def parse(self) -> Node:
        root = self.expr()
        tok = self.peek()
        if tok.kind != "eof":
            # ANTLR drops the token when the input ends right after it
            how = "extraneous" if self.peek(1).kind == "eof" else "mismatched"
            raise ParseError([(tok.pos, f"Syntax error: {how} input {antlr.shown(tok)} expecting <EOF>")])
        return root

    def expr(self) -> Node:
        self.enter(self.peek().pos)
        try:
            cond = self.logical("||")
            if self.is_op("?"):
                question = self.take()

                def middle():
                    found = self.logical("||")
                    self.expect(":")
                    return found
                if_true = self.inside("ternary", middle)
                if_false = self.expr()
                return self.node(Call(question.pos, "_?_:_", None, [cond, if_true, if_false]))
            return cond
        finally:
            self.depth -= 1

    def logical(self, op):
        sub = (lambda: self.logical("&&")) if op == "||" else self.relation
        fn = "_||_" if op == "||" else "_&&_"
        items = [sub()]
        positions = []
        while self.is_op(op):
            positions.append(self.take().pos)
            items.append(sub())
        if len(items) == 1:
            return items[0]
        return self._balance(fn, items, positions, 0, len(items) - 1)

    def _balance(self, fn, items, positions, lo, hi):
        # cel-go builds a balanced tree for chains of && / ||
        if lo == hi:
            return items[lo]
        mid = (lo + hi + 1) // 2
        left = self._balance(fn, items, positions, lo, mid - 1)
        right = self._balance(fn, items, positions, mid, hi)
        call = self.node(Call(positions[mid - 1], fn, None, [left, right]))
        call.start, call.end = left.start, right.end
        return call

    def _binary_chain(self, ops, sub):
        left = sub()
        chain = 0
        while True:
            tok = self.peek()
            name = None
            if tok.kind == "op" and tok.text in ops:
                name = ops[tok.text]
            elif tok.kind == "ident" and tok.text == "in" and "in" in ops:
                name = ops["in"]
            if name is None:
                return left
            self.take()
            chain += 1
            if self.depth + chain > MAX_RECURSION:
                raise ParseError([(tok.pos, f"Syntax error: expression recursion limit exceeded: {MAX_RECURSION}")])
            right = sub()
            left = self.node(Call(tok.pos, name, None, [left, right]))

    def relation(self):
        return self._binary_chain(_REL_OPS, self.calc)

    def calc(self):
        return self._binary_chain(_ADD_OPS, self.mult)

    def mult(self):
        return self._binary_chain(_MUL_OPS, self.unary)

    def unary(self):
        tok = self.peek()
        if tok.kind == "op" and tok.text in ("!", "-"):
            ops = []
            while self.is_op(tok.text):
                ops.append(self.take())
            after = self.peek()
            if tok.text == "!" and not self._can_start(after):
                # The run of `!` is a loop in the grammar: what cannot follow it is dropped as extraneous.
                raise ParseError([(after.pos, antlr.extraneous(after, antlr.EXPRESSION_START))])
            if tok.text == "-" and len(ops) == 1 and after.kind == "eof":
                # A minus sign could start a negative number or a negation: at the end, neither is viable.
                raise ParseError([(after.pos, "Syntax error: no viable alternative at input '-'"),
                                  (after.pos, antlr.mismatched(after, antlr.EXPRESSION_START))])
            if tok.text == "-" and len(ops) % 2 == 1 and self.peek().kind in ("int", "float") and \
                    not self._continues_member(1):
                # negative literal folding
                lit = self.take()
                # The folded literal is located at its minus sign, as cel-go locates it (and its errors).
                operand = self._number(lit, negate=True, at=ops[-1].pos)
                ops = ops[:-1]
            else:
                operand = self.member()
            for op in reversed(ops):
                operand = self.node(Call(op.pos, "!_" if op.text == "!" else "-_", None, [operand]))
            return operand
        return self.member()

    def _continues_member(self, ahead):
        return self.is_op(".", ahead) or self.is_op("[", ahead)

    def member(self):
        operand = self.primary()
        while True:
            tok = self.peek()
            if tok.kind != "op":
                return operand
            if tok.text == ".":
                self.take()
                opt = False
                if self.is_op("?"):
                    self.take()
                    opt = True
                name_tok = self.take()
                if name_tok.kind != "ident":
                    if opt:
                        errors = [(name_tok.pos, antlr.mismatched(name_tok, ["IDENTIFIER", "ESC_IDENTIFIER"]))]
                        if name_tok.kind == "eof":  # cel-go's visitor then meets the half-built name
                            errors.append((name_tok.pos, "unsupported ident kind"))
                        raise ParseError(errors)
                    seen = "." + (name_tok.text if name_tok.kind != "eof" else "")
                    raise ParseError([(name_tok.pos, f"Syntax error: no viable alternative at input '{seen}'")])
                if not opt and self.is_op("("):
                    open_tok = self.take()
                    args = self.inside("call", lambda: self.args(")"))
                    operand = self.make_call(name_tok.text, operand, args, open_tok.pos)
                else:
                    operand = self.node(Select(tok.pos, operand, name_tok.text, "opt" if opt else ""))
            elif tok.text == "[":
                self.take()
                opt = False
                if self.is_op("?"):
                    self.take()
                    opt = True

                def index(opt=opt):
                    found = self.expr() if opt else self.operand(antlr.AFTER_INDEX)
                    self.expect("]")
                    return found
                idx = self.inside("index", index)
                operand = self.node(Call(tok.pos, "_[?_]" if opt else "_[_]", None, [operand, idx]))
            else:
                return operand

    def args(self, close):
        items = []
        if self.is_op(close):
            self.take()
            return items
        while True:
            items.append(self.operand(antlr.AFTER_CALL) if not items else self.expr())
            if self.is_op(","):
                self.take()
                if self.is_op(close):
                    self.take()
                    return items
                continue
            self.expect(close)
            return items

    def _number(self, tok: Tok, negate=False, at: int | None = None):
        """The literal of token ``t`` (negated, with its minus sign at ``at``)."""
        text = tok.text
        pos = tok.pos if at is None else at
        if tok.kind == "float":
            value = float(text)
            return self._literal(pos, -value if negate else value)
        unsigned = text[-1] in "uU"
        body = text[:-1] if unsigned else text
        value = int(body, 16) if body[:2].lower() == "0x" else int(body)
        if unsigned:
            if negate or value > UINT64_MAX:
                raise ParseError([(pos, f"Syntax error: invalid uint literal: {text}")] if not negate else
                                 [(pos, "Syntax error: unsigned literal cannot be negated")])
            from allocator.cel.values import UInt  # local import: values has no parser dependency

            return self._literal(pos, UInt(value))
        if negate:
            value = -value
        if value < INT64_MIN or value > INT64_MAX:
            raise ParseError([(pos, f"Syntax error: invalid int literal: {'-' if negate else ''}{text}")])
        return self._literal(pos, value)

    def _literal(self, pos: int, value):
        literal = self.node(Literal(pos, value))
        literal.start = pos
        return literal

    def primary(self):
        tok = self.peek()
        kind = tok.kind
        if kind in ("int", "hex", "float"):
            self.take()
            return self._number(tok)
        if kind == "string" or kind == "bytes":
            self.take()
            return self.node(Literal(tok.pos, tok.value))
        if kind == "ident":
            name = tok.text
            if name in ("true", "false"):
                self.take()
                return self.node(Literal(tok.pos, name == "true"))
            if name == "null":
                self.take()
                return self.node(Literal(tok.pos, None))
            if name in RESERVED or name == "in":
                raise ParseError([(tok.pos, f"Syntax error: reserved identifier: {name}")])
            self.take()
            if self.is_op("("):
                open_tok = self.take()
                args = self.inside("call", lambda: self.args(")"))
                call = self.make_call(name, None, args, open_tok.pos)
                call.start = min(call.start, tok.pos)
                return call
            if self.is_op("{") and self._looks_like_struct():
                return self.struct(name, tok.pos)
            return self.node(Ident(tok.pos, name))
        if kind == "op":
            if tok.text == "(":
                self.take()

                def nested():
                    found = self.expr()
                    self.expect(")")
                    return found
                return self.inside("paren", nested)
            if tok.text == "[":
                self.take()
                return self.inside("list", lambda: self.list_literal(tok.pos))
            if tok.text == "{":
                self.take()
                return self.inside("map", lambda: self.map_literal(tok.pos))
            if tok.text == "." and self.peek(1).kind == "ident":
                self.take()
                return self.primary()
        # No expression starts here: cel-go's parser drops the token when the next one could start it.
        at, names = self.operand_set
        names = names if at == self.i else antlr.EXPRESSION_START
        raise ParseError([(tok.pos, antlr.unwanted(tok, self.peek(1), names))])

    def _looks_like_struct(self):
        # Name{ field: ... } or Name{}
        return (self.peek(1).kind == "ident" and self.is_op(":", 2)) or self.is_op("}", 1) or \
            (self.is_op("?", 1) and self.peek(2).kind == "ident")

    def struct(self, name, pos):
        self.expect("{")
        fields = []
        while not self.is_op("}"):
            opt = False
            if self.is_op("?"):
                self.take()
                opt = True
            field_tok = self.take()
            if field_tok.kind != "ident":
                self.fail(field_tok, "IDENTIFIER")
            self.expect(":")
            fields.append(StructField(field_tok.text, self.expr(), opt))
            if not self.is_op(","):
                break
            self.take()
        self.expect("}")
        return self.node(StructLiteral(pos, name, fields))

    def list_literal(self, pos):
        elems = []
        opts = set()
        while not self.is_op("]"):
            if self.is_op("?"):
                self.take()
                opts.add(len(elems))
            elems.append(self.operand(antlr.AFTER_LIST) if not elems and not opts else self.expr())
            if not self.is_op(","):
                break
            self.take()
            if not self._can_start(self.peek()) and not self.is_op("?"):
                self.expect("]")  # the comma was a trailing one: only the closing bracket may come
                return self.node(ListLiteral(pos, elems, frozenset(opts)))
        self._close_literal("]")
        return self.node(ListLiteral(pos, elems, frozenset(opts)))

    def map_literal(self, pos):
        entries = []
        while not self.is_op("}"):
            opt = False
            if self.is_op("?"):
                self.take()
                opt = True
            key = self.operand(antlr.AFTER_MAP) if not entries and not opt else self.expr()
            self.expect(":")
            value = self.expr()
            entries.append(MapEntry(key, value, opt))
            if not self.is_op(","):
                break
            self.take()
            if not self._can_start(self.peek()) and not self.is_op("?"):
                self.expect("}")  # the comma was a trailing one: only the closing brace may come
                return self.node(MapLiteral(pos, entries))
        self._close_literal("}")
        return self.node(MapLiteral(pos, entries))

    def _close_literal(self, close: str) -> None:
        """A list or map literal's end: its optional trailing comma makes the expected set {close, ','}."""
        tok = self.peek()
        if tok.kind == "op" and tok.text == close:
            self.take()
            return
        raise ParseError([(tok.pos, antlr.unwanted(tok, self.peek(1), [f"'{close}'", "','"]))])

    # -- macros
    def make_call(self, name, target, args, pos):
        count = len(args)
        if target is None:
            if name == "has" and count == 1:
                arg = args[0]
                if arg.kind != "select" or arg.mode:
                    raise ParseError([(arg.pos if arg.kind != "select" else arg.pos,
                                       "invalid argument to has() macro")])
                arg.mode = "has"
                arg.start = min(arg.start, pos - len("has"))
                last = self.toks[self.i - 1]
                arg.end = last.pos + len(last.text)
                return arg
            return self.node(Call(pos, name, None, args))
        # cel.bind(var, init, body)
        if name == "bind" and count == 3 and target.kind == "ident" and target.name == "cel":
            variable = args[0]
            if variable.kind != "ident":
                raise ParseError([(variable.pos, "cel.bind() variable names must be simple identifiers")])
            bind = self.node(Bind(pos, variable.name, args[1], args[2]))
            bind.start = target.start  # the span of `cel.bind(...)` starts at `cel`
            return bind
        macro = None
        if name in ("all", "exists", "exists_one") and count in (2, 3):
            macro = name
        elif name == "existsOne" and count in (2, 3):
            macro = "exists_one"
        elif name == "map" and count in (2, 3):
            macro = "map"
        elif name == "filter" and count == 2:
            macro = "filter"
        elif name in ("transformList", "transformMap", "transformMapEntry") and count in (3, 4):
            macro = name
        elif name == "sortBy" and count == 2:
            macro = "sortBy"
        if macro is None:
            return self.node(Call(pos, name, target, args))
        two_var = macro in ("transformList", "transformMap", "transformMapEntry") or \
            (macro in ("all", "exists", "exists_one") and count == 3)
        nvars = 2 if two_var else 1
        names = []
        for a in args[:nvars]:
            if a.kind != "ident":
                raise ParseError([(a.pos, "argument must be a simple name")])
            names.append(a.name)
        if two_var and names[0] == names[1]:
            raise ParseError([(args[1].pos, f"overlapping declarations of name '{names[0]}'")])
        for nm in names:
            if nm in ("__result__", "@result", "@it"):
                raise ParseError([(pos, "iteration variable overwrites accumulator variable")])
        if macro == "map" and count == 3:
            macro = "map_filter"
        return self.node(Comprehension(pos, macro, target, tuple(names), args[nvars:], name))


def parse(src: str) -> Node:
    return Parser(src).parse()
