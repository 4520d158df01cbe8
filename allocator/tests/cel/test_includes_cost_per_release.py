"""The estimated cost of ``includes()`` as each release's apiserver computes it.

1.36 declares ``includes`` in DRA's own environment and costs it at most one comparison per attribute value
(48). From 1.37 it is the lists library's function, and library.CostEstimator charges each element of a list
of strings its size: for a list literal that size is unknown, so the estimate has no bound and the apiserver
answers "too complex, exceeds cost limit". Found by the differential run (create-1.37-create-verdict-4c67aba6)."""

from __future__ import annotations

import pytest

from allocator.cel import INCLUDES_FROM_LISTS, MAX_COST, CELCompileError, compile_selector

RELEASE_1_36 = frozenset({"DRAListTypeAttributes"})
RELEASE_1_37 = RELEASE_1_36 | {INCLUDES_FROM_LISTS}


def test_1_37_finds_a_string_list_literal_too_complex():
    with pytest.raises(CELCompileError) as caught:
        compile_selector('["a"].includes("a")', gates=RELEASE_1_37)
    assert caught.value.reason == "cost"


def test_1_36_accepts_the_same_expression():
    assert compile_selector('["a"].includes("a")', gates=RELEASE_1_36).estimated_cost <= MAX_COST


@pytest.mark.parametrize("expression", [
    "[1, 2].includes(2)",  # elements other than strings cost one comparison each
    'device.attributes["gpu.example.com"].models.includes("a100")',  # an attribute: its declared size
])
@pytest.mark.parametrize("gates", [RELEASE_1_36, RELEASE_1_37], ids=["1.36", "1.37"])
def test_both_accept_bounded_targets(expression, gates):
    assert compile_selector(expression, gates=gates).estimated_cost <= MAX_COST


def test_a_selector_without_includes_is_compiled_once_for_both_releases(monkeypatch):
    import allocator.cel as cel

    compiled: list[str] = []
    real = cel._compile

    def counting(expression, gates, estimate_cost, any_result=False):
        compiled.append(expression)
        return real(expression, gates, estimate_cost, any_result)

    monkeypatch.setattr(cel, "_CACHE", type(cel._CACHE)())
    monkeypatch.setattr(cel, "_compile", counting)
    plain = 'device.driver == "gpu.example.com"'
    first = compile_selector(plain, gates=RELEASE_1_37)  # (validation: its cost estimated)
    assert compile_selector(plain, gates=RELEASE_1_36) is first
    assert compile_selector(plain, gates=RELEASE_1_36, estimate_cost=False) is first  # (the search)
    assert compiled == [plain]
    # where includes() is called the releases cost it differently: compiled for each
    with pytest.raises(CELCompileError):
        compile_selector('["a"].includes("a")', gates=RELEASE_1_37)
    assert compile_selector('["a"].includes("a")', gates=RELEASE_1_36).estimated_cost <= MAX_COST
    # and a compile that failed on its cost is no answer for a search that does not check it
    assert compile_selector('["a"].includes("a")', gates=RELEASE_1_37, estimate_cost=False).estimated_cost is None
    assert compiled == [plain] + ['["a"].includes("a")'] * 3
