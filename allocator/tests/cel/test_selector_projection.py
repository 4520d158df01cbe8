"""Selector answers shared between devices that differ only in what an expression does not read.

``SelectorEvaluator`` answers and explains an expression that reads only
some attributes and capacities (``static_reads``) once per projection of the
device onto them. Every answer must be the one evaluating the whole device
gives, including where nothing may be shared: other values, missing entries,
plain names in the driver's domain against qualified ones, other drivers, and
devices CEL cannot be shown (a bad version anywhere in the device).
"""

from __future__ import annotations

import itertools

import pytest

from allocator.cel import CELCompileError, CELRuntimeError, build_device, compile_selector
from allocator.cel.explain import explain_false
from allocator.cel.selectors import SelectorEvaluator, _SeenDevice, static_reads
from allocator.kube import model

A = model.DeviceAttribute
GATES = frozenset({"DRAConsumableCapacity", "DRAListTypeAttributes"})  # as the scheduler compiles from 1.37 on


def _device(name: str, attributes: dict, capacity: dict | None = None) -> model.Device:
    return model.Device(name=name, attributes=dict(attributes),
                        capacity={k: model.DeviceCapacity(value=v) for k, v in (capacity or {}).items()})


@pytest.mark.parametrize(("expression", "reads"), [
    ("device.driver == 'd'", set()),
    ("device.allowMultipleAllocations", set()),
    ("device.attributes['d'].model == 'a'", {("attributes", "d", "model")}),
    ("device.attributes['d']['model'] == 'a'", {("attributes", "d", "model")}),
    ("has(device.attributes['d'].model)", {("attributes", "d", "model")}),
    ("device.capacity['d'].memory.compareTo(quantity('1Gi')) > 0", {("capacity", "d", "memory")}),
    ("device.attributes['d'].n > 1 && device.attributes['x.io'].n < 3 || device.driver == 'e'",
     {("attributes", "d", "n"), ("attributes", "x.io", "n")}),
    ("device.attributes['d'].list.exists(v, v > 2)", {("attributes", "d", "list")}),
    ("cel.bind(m, device.attributes['d'].model, m == 'a')", {("attributes", "d", "model")}),
])
def test_static_reads_names_what_the_expression_reads(expression, reads):
    assert static_reads(compile_selector(expression, gates=GATES).root) == frozenset(reads)


@pytest.mark.parametrize("expression", [
    "device.attributes['d'].exists(k, k == 'model')",  # a map as a value
    "'model' in device.attributes['d']",
    "size(device.attributes) > 0",
    "device.attributes.d.model == 'a'",  # a domain by field: a missing one fails, not empty
    "has(device.attributes.d)",
    "device.attributes['d'][device.driver] == 1",  # a computed key
    "device.attributes['d'].?model.orValue('') == 'a'",
    "device.attributes[?'d'].orValue({}).size() == 0",
    "[1].exists(device, device == 1)",  # a variable named device
    "cel.bind(device, 1, device == 1)",
    "cel.bind(m, device.attributes['d'], m.model == 'a')",
    "device.attributes == {}",
])
def test_static_reads_gives_up_on_anything_else(expression):
    assert static_reads(compile_selector(expression, gates=GATES).root) is None


EXPRESSIONS = [
    "device.attributes['d'].model == 'a'",
    "device.attributes['d'].model == 'a' && device.attributes['d'].n > 1",
    "has(device.attributes['d'].model) || device.driver == 'e'",
    "device.attributes['d']['n'] % 2 == 0",
    "device.attributes['x.io'].n == 1",
    "device.attributes['d'].v.isGreaterThan(semver('1.0.0'))",
    "device.capacity['d'].memory.compareTo(quantity('1Gi')) >= 0",
    "device.attributes['d'].list.exists(v, v > 2)",
    "device.allowMultipleAllocations",
    # dynamic: answered per whole device, as before
    "device.attributes['d'].exists(k, k == 'model')",
    "'n' in device.attributes['d'] && device.attributes['d'].n > 1",
]


def _devices() -> list[tuple[str, model.Device, bool]]:
    """Devices that agree on some entries and differ in others, in the ways that must not be shared."""
    base = {"model": A(string="a"), "n": A(int=2), "uuid": A(string="u-0")}
    out = []
    for i, (model_value, n) in enumerate(itertools.product(("a", "b"), (1, 2))):
        attrs = dict(base, model=A(string=model_value), n=A(int=n), uuid=A(string=f"u-{i}"))
        out.append(("d", _device(f"g{i}", attrs, {"memory": "2Gi"}), False))
    out += [
        ("d", _device("other-uuid", dict(base, uuid=A(string="u-x")), {"memory": "2Gi"}), False),
        ("d", _device("no-model", {"n": A(int=2), "uuid": A(string="u-1")}, {"memory": "512Mi"}), False),
        ("e", _device("other-driver", dict(base), {"memory": "2Gi"}), False),  # plain names land in domain e
        ("d", _device("qualified", {"d/model": A(string="b"), "d/n": A(int=2)}), False),
        # a plain and a qualified name for one entry: the last one wins, in the order of the device
        ("d", _device("both-plain-last", {"d/model": A(string="b"), "model": A(string="a"),
                                          "uuid": A(string="u-p")}), False),
        ("d", _device("both-qualified-last", {"model": A(string="a"), "d/model": A(string="b"),
                                              "uuid": A(string="u-q")}), False),
        ("d", _device("other-domain", {"x.io/n": A(int=1), "model": A(string="a")}), False),
        ("d", _device("versions", {"v": A(version="1.2.0"), "model": A(string="a")}), False),
        ("d", _device("versions-low", {"v": A(version="0.9.0"), "model": A(string="a")}), False),
        # a bad version anywhere: the whole device cannot be shown to CEL
        ("d", _device("bad-version-unread", {"model": A(string="a"), "w": A(version="x.y")}), False),
        ("d", _device("bad-version-read", {"model": A(string="a"), "v": A(version="1.x")}), False),
        ("d", _device("bad-version-list", {"model": A(string="a"), "vs": A(versions=["1.0.0", "z"])}), False),
        ("d", _device("two-bad", {"model": A(string="a"), "w1": A(version="1.x"), "w2": A(version="2.x"),
                                  "uuid": A(string="u-1")}), False),
        ("d", _device("two-bad-swapped", {"model": A(string="a"), "w2": A(version="2.x"), "w1": A(version="1.x"),
                                          "uuid": A(string="u-2")}), False),
        ("d", _device("no-value", {"model": A(string="a"), "empty": A()}), False),
        ("d", _device("bad-capacity", {"model": A(string="a")}, {"memory": "lots"}), False),
        ("d", _device("lists", {"list": A(ints=[1, 3]), "model": A(string="a")}), False),
        ("d", _device("lists-low", {"list": A(ints=[1, 2]), "model": A(string="a")}), False),
        ("d", _device("shared", dict(base), {"memory": "2Gi"}), True),
    ]
    return out


def _reference(expression: str, driver: str, device: model.Device, multi: bool):
    """The answer and explanation from the whole device, as the evaluator gave them before sharing."""
    compiled = compile_selector(expression, gates=GATES, estimate_cost=False)
    try:
        built = build_device(driver, device.attributes, device.capacity, multi)
    except (CELRuntimeError, ValueError) as err:
        return ("error", str(err)), []
    try:
        outcome = ("value", bool(compiled.evaluate_device(built)))
    except CELRuntimeError as err:
        outcome = ("error", str(err))
    try:
        parts = [p.to_dict() for p in explain_false(compiled, built)]
    except CELRuntimeError:
        parts = []
    return outcome, parts


def _shown(outcome) -> tuple:
    if isinstance(outcome, (CELRuntimeError, CELCompileError)):
        return "error", str(outcome)
    return "value", outcome


@pytest.mark.parametrize("order", ["forward", "backward"])
def test_shared_answers_are_those_of_the_whole_device(order):
    evaluator = SelectorEvaluator(GATES)
    devices = _devices()
    if order == "backward":
        devices.reverse()
    for _round in range(2):  # the second round answers from memory
        for expression in EXPRESSIONS:
            for driver, device, multi in devices:
                want_outcome, want_parts = _reference(expression, driver, device, multi)
                got = evaluator.outcome(expression, driver, device, multi)
                assert _shown(got) == want_outcome, (expression, device.name)
                assert evaluator.explain(expression, driver, device, multi) == want_parts, (expression, device.name)
    memory = evaluator._memory
    assert memory.shared_results, "static expressions are answered per projection"
    assert len(memory.shared_results) < len(memory.results)


CLASS_EXPRESSION = "has(device.attributes['d'].model)"


def test_verdicts_with_shared_answers_match_the_whole_device():
    """Verdicts are shared per projection onto what all the selectors read, when each reads only some entries."""
    evaluator = SelectorEvaluator(GATES)
    device_class = model.DeviceClass(metadata=model.ObjectMeta(name="c"), spec=model.DeviceClassSpec(
        selectors=[model.DeviceSelector(cel=model.CELDeviceSelector(expression=CLASS_EXPRESSION))]))
    for driver, device, multi in _devices():
        for expressions in ((EXPRESSIONS[0],), (EXPRESSIONS[1], EXPRESSIONS[5]), (EXPRESSIONS[6],),
                            (EXPRESSIONS[2], EXPRESSIONS[9])):  # the last one with a selector that reads a map
            want = None
            for what, selectors in (("class", (CLASS_EXPRESSION,)), ("request", expressions)):
                for i, expression in enumerate(selectors):
                    outcome, _ = _reference(expression, driver, device, multi)
                    if want is None and outcome != ("value", True):
                        want = (what, i, outcome)
            try:
                got = evaluator.verdict(device_class, expressions, driver, device, multi, device.name, "ns/c")
            except Exception as err:  # noqa: BLE001 - compared with the reference below
                assert want is not None and want[2][0] == "error", (device.name, expressions, str(err))
                assert want[2][1] in str(err)
                continue
            if want is None:
                assert got == ("", -1)
            else:
                assert want[2] == ("value", False) and got == want[:2], (device.name, expressions)
    assert evaluator._memory.shared_verdicts


def test_devices_that_differ_only_in_the_order_of_a_plain_and_a_qualified_name_are_not_confused():
    """build_device keeps the last of ``model`` and ``d/model``: the order is part of what CEL sees."""
    evaluator = SelectorEvaluator(GATES)
    plain_last = _device("plain-last", {"d/model": A(string="b"), "model": A(string="a")})
    qualified_last = _device("qualified-last", {"model": A(string="a"), "d/model": A(string="b")})
    for expression in ("device.attributes['d'].model == 'a'", "device.attributes['d'].exists(k, k == 'model') && "
                       "device.attributes['d'].model == 'a'"):
        for _round in range(2):
            assert evaluator.outcome(expression, "d", plain_last, False) is True
            assert evaluator.outcome(expression, "d", qualified_last, False) is False


def _corpus_variants() -> list[tuple[str, model.Device, bool]]:
    """The CEL corpus's devices and neighbours of them: one value changed, one entry gone, a qualified name,
    another driver, a bad version in an entry nobody reads, shared."""
    from allocator.tests.helpers.cel_corpus import DRV, corpus_devices

    full_attrs, full_capacity = corpus_devices()["full"]
    capacity = {name: c.value for name, c in full_capacity.items()}
    variants = [
        ("full", full_attrs, capacity),
        ("bare", {}, {}),
        ("other-a", dict(full_attrs, a=A(int=2)), capacity),
        ("other-s", dict(full_attrs, s=A(string="abd")), capacity),
        ("no-s", {k: v for k, v in full_attrs.items() if k != "s"}, capacity),
        ("qualified-s", {**{k: v for k, v in full_attrs.items() if k != "s"}, f"{DRV}/s": A(string="abc")}, capacity),
        ("other-mem", full_attrs, dict(capacity, mem="2Gi")),
        ("bad-unread", dict(full_attrs, zz=A(version="not.a.version")), capacity),
        ("other-numa", dict(full_attrs, **{"k8s.io/numa": A(int=1)}), capacity),
    ]
    out = [(DRV, _device(name, attrs, caps), False) for name, attrs, caps in variants]
    out.append(("y.example.com", _device("other-driver", full_attrs, capacity), False))
    out.append((DRV, _device("shared", full_attrs, capacity), True))
    return out


def test_every_corpus_expression_answers_as_on_the_whole_device():
    """The corpus of ``test_cel_upstream_table`` (maps, macros, optionals, errors...) on devices that differ a little."""
    from allocator.tests.data.cel_corpus import CORPUS

    evaluator = SelectorEvaluator(GATES)
    devices = _corpus_variants()
    static = 0
    for expression in dict.fromkeys(expression for _, expression, _ in CORPUS):
        try:
            compiled = compile_selector(expression, gates=GATES, estimate_cost=False)
        except CELCompileError:
            continue
        static += static_reads(compiled.root) is not None
        for driver, device, multi in devices:
            want_outcome, want_parts = _reference(expression, driver, device, multi)
            assert _shown(evaluator.outcome(expression, driver, device, multi)) == want_outcome, (
                expression, device.name)
            assert evaluator.explain(expression, driver, device, multi) == want_parts, (expression, device.name)
    assert static > 50  # most of the corpus is shared by projection, the rest by whole device


@pytest.mark.parametrize("gates", [GATES, frozenset()])  # without DRAListTypeAttributes lists cannot be built
def test_device_keys_of_unseen_devices_are_those_of_the_content_keys(gates):
    """``DeviceKeys.key`` works out an unseen device's projection without its content key (node views of a
    cluster): the key must be the number ``_projection`` gives the same device, failures included."""
    reads_of = {e: static_reads(compile_selector(e, gates=GATES).root) for e in EXPRESSIONS}
    reads_sets = {r for r in reads_of.values() if r is not None} | {frozenset()}
    for reads in reads_sets:
        fresh, seen = SelectorEvaluator(gates), SelectorEvaluator(gates)
        for driver, device, multi in _devices():
            fresh_key = fresh.device_keys().key(reads, driver, device, multi)
            memory = seen._current()
            content = SelectorEvaluator._content_key(memory, driver, device, multi)
            seen_device = _SeenDevice(memory, content, driver, device, multi)
            assert fresh_key == ("projected", SelectorEvaluator._projection(seen_device, reads)), (reads, device.name)
            assert fresh._current().shared_devices[fresh_key[1]] == memory.shared_devices[fresh_key[1]], device.name
            assert fresh.device_keys().key(reads, driver, device, multi) == fresh_key  # and again, from memory
