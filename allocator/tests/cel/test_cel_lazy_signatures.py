"""The library's overloads parse their signatures at first read (start-up): what a reader sees is what parsing
them at declaration gave."""

from __future__ import annotations

import subprocess
import sys

import pytest

from allocator.cel import types as T
from allocator.cel.library import FUNCTIONS, decl
from allocator.cel.library.declarations import Overload


def test_every_overload_reads_the_signature_it_was_declared_with():
    count = 0
    for name, overloads in FUNCTIONS.items():
        for ov in overloads:
            args, result = ov._signature
            assert ov.fn == name
            assert ov.args == tuple(T.parse_type(a) for a in args)
            assert ov.result == T.parse_type(result)
            assert ov.oid  # given, or made from the name and the argument types
            count += 1
    assert count > 200


def test_default_oid_is_the_name_and_argument_types_without_spaces():
    ov = Overload("f", None, False, ["map(string, int)", "list(A)"], "bool", impl=None)
    assert ov.oid == "f_map(string,int)_list(A)"
    assert Overload("f", "given", False, ["int"], "int", impl=None).oid == "given"


def test_args_and_result_are_parsed_together_and_kept():
    ov = Overload("g", None, True, ["string", "int"], "optional_type(string)", impl=None)
    assert ov.result == T.opt_of(T.STRING)
    first = ov.args
    assert first == (T.STRING, T.INT)
    assert ov.args is first


def test_unknown_attribute_is_still_an_attribute_error():
    ov = Overload("h", None, False, [], "int", impl=None)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = ov.nope


def test_decl_returns_the_overload_it_adds():
    try:
        ov = decl("__lazy_signature_probe__", ["int"], "int", impl=abs)
        assert FUNCTIONS["__lazy_signature_probe__"] == [ov]
        assert ov.oid == "__lazy_signature_probe___int"
    finally:
        FUNCTIONS.pop("__lazy_signature_probe__", None)


def test_importing_the_library_parses_no_signature():
    # A slot never set raises AttributeError from its descriptor: count those instead.
    code = ("import allocator.cel.library as L\n"
            "from allocator.cel.library.declarations import Overload\n"
            "unset = 0\n"
            "for ovs in L.FUNCTIONS.values():\n"
            "    for o in ovs:\n"
            "        try:\n"
            "            Overload.args.__get__(o, Overload)\n"
            "        except AttributeError:\n"
            "            unset += 1\n"
            "print(unset, sum(len(v) for v in L.FUNCTIONS.values()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[1]
