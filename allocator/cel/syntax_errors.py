"""The words of cel-go's parser errors, as its ANTLR-generated parser and default error strategy put them.

cel-go parses with a grammar (CEL.g4) compiled by ANTLR; a token it cannot use is reported in one of four
forms, with the set of tokens the grammar would take there listed in token-type order:

- ``mismatched input 'X' expecting {...}``: the token does not fit and dropping it would not help;
- ``extraneous input 'X' expecting {...}``: the token after it fits, so ANTLR drops this one (single-token
  deletion); also what a run of ``!`` followed by something that cannot follow it gets;
- ``missing 'T' at 'X'``: the closing token ``T`` is absent and ``X`` may follow it (single-token insertion;
  at the end of the input, only when nothing else is left open);
- ``no viable alternative at input '...'``: no rule can start with the tokens seen (``device.`` at the end).

Our parser is recursive descent, not ANTLR: it stops at the first error, where ANTLR recovers and may report
more; the first error's words are the same.
"""

from __future__ import annotations

# The lexer's token types in order (CEL.g4): a set of expected tokens is written in this order.
TOKEN_ORDER = ("'=='", "'!='", "'in'", "'<'", "'<='", "'>='", "'>'", "'&&'", "'||'", "'['", "']'", "'{'", "'}'",
               "'('", "')'", "'.'", "','", "'-'", "'!'", "'?'", "':'", "'+'", "'*'", "'/'", "'%'", "'true'",
               "'false'", "'null'", "NUM_FLOAT", "NUM_INT", "NUM_UINT", "STRING", "BYTES", "IDENTIFIER",
               "ESC_IDENTIFIER")

# What can start an expression (or a member, after a run of `!`): the set of a missing operand.
EXPRESSION_START = ("'['", "'{'", "'('", "'.'", "'-'", "'!'", "'true'", "'false'", "'null'", "NUM_FLOAT",
                    "NUM_INT", "NUM_UINT", "STRING", "BYTES", "IDENTIFIER")
# Where more than an expression may come: an index may be optional (`[?`), call arguments may be none, a list
# or map literal may be empty, have optional elements and a trailing comma.
AFTER_INDEX = (*EXPRESSION_START, "'?'")
AFTER_CALL = (*EXPRESSION_START, "')'")
AFTER_LIST = (*EXPRESSION_START, "'?'", "']'", "','")
AFTER_MAP = (*EXPRESSION_START, "'?'", "'}'", "','")

BINARY_OPERATORS = frozenset(("==", "!=", "<", "<=", ">=", ">", "&&", "||", "+", "-", "*", "/", "%"))


def expected(names) -> str:
    """A set of token names as ANTLR writes it: alone, or in braces in token-type order."""
    ordered = sorted(set(names), key=TOKEN_ORDER.index)
    return ordered[0] if len(ordered) == 1 else "{" + ", ".join(ordered) + "}"


def shown(tok) -> str:
    """A token as ANTLR quotes it in a message."""
    if tok.kind == "eof":
        return "'<EOF>'"
    text = tok.text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f"'{text}'"


def name_of(tok) -> str | None:
    """The token's name in TOKEN_ORDER (its literal or its type), None for the end of the input."""
    if tok.kind == "eof":
        return None
    if tok.kind == "op" or (tok.kind == "ident" and tok.text in ("in", "true", "false", "null")):
        return f"'{tok.text}'"
    if tok.kind == "float":
        return "NUM_FLOAT"
    if tok.kind in ("int", "hex"):
        return "NUM_UINT" if tok.text[-1] in "uU" else "NUM_INT"
    if tok.kind == "string":
        return "STRING"
    if tok.kind == "bytes":
        return "BYTES"
    return "IDENTIFIER"


def mismatched(tok, names) -> str:
    return f"Syntax error: mismatched input {shown(tok)} expecting {expected(names)}"


def extraneous(tok, names) -> str:
    return f"Syntax error: extraneous input {shown(tok)} expecting {expected(names)}"


def missing(name: str, tok) -> str:
    return f"Syntax error: missing {name} at {shown(tok)}"


def unwanted(tok, after, names) -> str:
    """ANTLR's choice for a token that does not fit where ``names`` would: dropped when the next one fits."""
    if tok.kind != "eof" and name_of(after) in names:
        return extraneous(tok, names)
    return mismatched(tok, names)
