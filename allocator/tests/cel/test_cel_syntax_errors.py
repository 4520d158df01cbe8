"""cel-go's parser messages for selectors cut short or with a token too many, word for word.

cel-go parses with an ANTLR-generated parser, whose default error strategy chooses between "mismatched
input", "extraneous input", "missing" and "no viable alternative", and lists the tokens it would take there
(``allocator/cel/syntax_errors.py``). Each expected answer below is what the Kubernetes 1.37.2 apiserver
returned for the expression as a selector (run through its create path by ``upstream/``): the column and
the message of each error.
"""

from __future__ import annotations

import pytest

from allocator.cel.parser import ParseError, parse

CASES = [  # (expression, [(column, message), ...])
    ('device.attributes[', [(19, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.attributes["x"', [(22, "Syntax error: missing ']' at '<EOF>'")]),
    ('device.attributes["x"].', [(24, "Syntax error: no viable alternative at input '.'")]),
    ('device.attributes["x"].model ==', [(32, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver ==', [(17, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver == "a" &&', [(24, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver == "a" ||', [(24, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('(device.driver', [(15, "Syntax error: missing ')' at '<EOF>'")]),
    ('[1, 2', [(6, "Syntax error: mismatched input '<EOF>' expecting {']', ','}")]),
    ('{"a": 1', [(8, "Syntax error: mismatched input '<EOF>' expecting {'}', ','}")]),
    ('device.driver.startsWith(', [(26, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver.startsWith("a"', [(29, "Syntax error: missing ')' at '<EOF>'")]),
    ('device.driver.startsWith("a",', [(30, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('!', [(2, "Syntax error: extraneous input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('-', [(2, "Syntax error: no viable alternative at input '-'"), (2, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver == "a" ?', [(23, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver == "a" ? true :', [(30, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('has(', [(5, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('has(device.attributes', [(22, "Syntax error: missing ')' at '<EOF>'")]),
    ('device.attributes["x"].?', [(25, "Syntax error: mismatched input '<EOF>' expecting {IDENTIFIER, ESC_IDENTIFIER}"), (25, 'unsupported ident kind')]),
    ('device.capacity["x"].memory.compareTo(quantity("1Gi")) >=', [(58, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver in [', [(19, "Syntax error: mismatched input '<EOF>' expecting {'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.attributes["x"].model in', [(32, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.', [(8, "Syntax error: no viable alternative at input '.'")]),
    ('device.attributes[]', [(19, "Syntax error: mismatched input ']' expecting {'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver ==  == "a"', [(19, "Syntax error: extraneous input '==' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    (')', [(1, "Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver)', [(14, "Syntax error: extraneous input ')' expecting <EOF>")]),
    ('[1,', [(4, "Syntax error: missing ']' at '<EOF>'")]),
    ('{"a":', [(6, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('{"a"', [(5, "Syntax error: mismatched input '<EOF>' expecting ':'")]),
    ('{', [(2, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('[', [(2, "Syntax error: mismatched input '<EOF>' expecting {'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('[1 2]', [(4, "Syntax error: extraneous input '2' expecting {']', ','}")]),
    ('device.attributes["x"].model == "a" b', [(37, "Syntax error: extraneous input 'b' expecting <EOF>")]),
    ('(device.driver == "a"', [(22, "Syntax error: missing ')' at '<EOF>'")]),
    ('[(device.driver]', [(16, "Syntax error: missing ')' at ']'")]),
    ('device.attributes["x"', [(22, "Syntax error: missing ']' at '<EOF>'")]),
    ('device.driver.startsWith("a" "b")', [(30, 'Syntax error: extraneous input \'"b"\' expecting \')\'')]),
    ('device.driver == "a" ? true', [(28, "Syntax error: mismatched input '<EOF>' expecting ':'")]),
    ('!)', [(2, "Syntax error: extraneous input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('device.driver == "a" &&)', [(24, "Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('x[?', [(4, "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}")]),
    ('x[1 2]', [(5, "Syntax error: extraneous input '2' expecting ']'")]),
    ('device.driver ))', [(15, "Syntax error: mismatched input ')' expecting <EOF>")]),
    ('{"a": 1,', [(9, "Syntax error: missing '}' at '<EOF>'")]),
    ('[1, )', [(5, "Syntax error: mismatched input ')' expecting ']'")]),
]


# A trailing comma is part of the grammar: no syntax error there (the apiserver refused them for their type).
VALID = ["[1, 2,]", '{"a": 1,}']


@pytest.mark.parametrize("expression", VALID)
def test_a_trailing_comma_is_no_syntax_error(expression):
    parse(expression)


@pytest.mark.parametrize(("expression", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_parser_words_a_syntax_error_as_cel_go_does(expression, expected):
    with pytest.raises(ParseError) as raised:
        parse(expression)
    assert [(offset + 1, message) for offset, message in raised.value.errors] == expected
