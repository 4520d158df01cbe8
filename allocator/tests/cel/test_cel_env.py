"""The DRA CEL environment: upstream compile_test.go scenarios in our own words, plus constructs."""

import time

import pytest

from allocator.cel import CELCompileError, CELRuntimeError, compile_selector
from allocator.kube.model import DeviceAttribute as A
from allocator.kube.model import DeviceCapacity as C

DRV = "dra.example.com"
LIST = frozenset({"DRAListTypeAttributes"})
CC = frozenset({"DRAConsumableCapacity"})
NESTED = ("".join(f"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(v{i}, " for i in range(7))
          + "int('1'.find('[0-9]*')) < 100" + ")" * 7)

# name: (expression, gates, attributes, capacity, expected result or exception text, expected cost)
UPSTREAM = {
    "true": ("true", frozenset(), {}, {}, True, 0),
    "false": ("false", frozenset(), {}, {}, False, 0),
    "lookup-identifier": ('device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))',
                          frozenset(), {}, {}, "no such key: noSuchAttr", 6),
    "lookup-map": ('device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))',
                   frozenset(), {}, {}, "no such key: noSuchAttr", 6),
    "domain-negative": ('"no-such-domain" in device.attributes', frozenset(), {}, {}, False, 3),
    "domain-positive": ('"dra.example.com" in device.attributes', frozenset(),
                        {"dra.example.com/something": A(bool=True)}, {}, True, 3),
    "real-driver": ('device.driver == "dra.example.com"', frozenset(), {}, {}, True, 4),
    "unqualified-name": ('device.attributes["dra.example.com"].name', frozenset(), {"name": A(bool=True)}, {},
                         True, 4),
    "map-lookup": ('device.attributes["dra.example.com"]["name"]', frozenset(), {"name": A(bool=True)}, {}, True, 4),
    "bind": ('cel.bind(dra, device.attributes["dra.example.com"], dra.name)', frozenset(),
             {"name": A(bool=True)}, {}, True, 15),
    "other-domain": ('device.attributes["other.example.com"].name', frozenset(),
                     {"other.example.com/name": A(bool=True)}, {}, True, 4),
    "int": ('device.attributes["dra.example.com"].name > 0', frozenset(), {"name": A(int=1)}, {}, True, 5),
    "string": ('device.attributes["dra.example.com"].name == "fish"', frozenset(), {"name": A(string="fish")}, {},
               True, 5),
    "exists-on-int": ('device.attributes["dra.example.com"].name.exists(x, x > 0)', frozenset(),
                      {"name": A(int=1)}, {}, "got 'types.Int', expected iterable type", 5 + 6 * 64),
    "exists-on-version": ('device.attributes["dra.example.com"].name.exists(x, x.isGreaterThan(semver("0.0.1")))',
                          frozenset(), {"name": A(version="1.0.0")}, {}, "got 'cel.Semver', expected iterable type",
                          5 + 7 * 64),
    "list-result": ('device.attributes["dra.example.com"].names', LIST, {"names": A(strings=["fish", "bird"])}, {},
                    "CEL result of type list could not be converted to bool", 4),
    "list-size": ('device.attributes["dra.example.com"].names.size() == 2', LIST,
                  {"names": A(versions=["1.0.0", "2.0.0"])}, {}, True, 6),
    "list-all-semver": ('device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1")))', LIST,
                        {"names": A(versions=["1.0.0", "2.0.0"])}, {}, True, 5 + 6 * 64),
    "list-all-string": ('device.attributes["dra.example.com"].names.all(x, x != "")', LIST,
                        {"names": A(strings=["fish"])}, {}, True, 5 + 4 * 64),
    "includes-list": ('device.attributes["dra.example.com"].name.includes("fish")', LIST,
                      {"name": A(strings=["fish", "bird"])}, {}, True, 52),
    "includes-scalar-false": ('device.attributes["dra.example.com"].name.includes(true)', LIST,
                              {"name": A(bool=False)}, {}, False, 52),
    "includes-semver": ('device.attributes["dra.example.com"].name.includes(semver("1.0.0"))', LIST,
                        {"name": A(versions=["1.0.0", "2.0.0"])}, {}, True, 53),
    "includes-48": ('device.attributes["dra.example.com"].name.includes("value-48")', LIST,
                    {"name": A(strings=[f"value-{i}" for i in range(48)])}, {}, False, 52),
    "includes-49": ('device.attributes["dra.example.com"].name.includes("value-49")', LIST,
                    {"name": A(strings=[f"value-{i}" for i in range(49)])}, {},
                    "'includes' function cannot be applied to lists longer than 48 values", 52),
    "in-list": ('1 in device.attributes["dra.example.com"].names', LIST, {"names": A(ints=[1, 2, 3])}, {}, True, 68),
    "version": ('device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))', frozenset(),
                {"name": A(version="1.0.0")}, {}, True, 6),
    "version-v": ('device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && '
                  'isSemver("v1.0.0", true)', frozenset(), {"name": A(version="1.0.0")}, {}, True, 7),
    "quantity": ('device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))', frozenset(), {},
                 {"name": C(value="1Mi")}, True, 6),
    "check-positive": ('"name" in device.capacity["dra.example.com"] && '
                       'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))', frozenset(), {},
                       {"name": C(value="1Mi")}, True, 10),
    "check-negative": ('!("name" in device.capacity["dra.example.com"]) || '
                       'device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))', frozenset(), {}, {},
                       True, 11),
    "many": ('device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && '
             'device.attributes["dra.example.com"].c', frozenset(),
             {"a": A(bool=True), "b": A(bool=True), "c": A(bool=True)}, {}, True, 12),
    "attribute-domains": ('device.attributes.exists_one(x, x == "dra.example.com")', frozenset(),
                          {"services": A(string="v")}, {}, True, 164),
    "attribute-ids": ('device.attributes["dra.example.com"].exists_one(x, x == "services")', frozenset(),
                      {"services": A(string="v")}, {}, True, 133),
    "capacity-domains": ('device.capacity.exists_one(x, x == "dra.example.com")', frozenset(), {},
                         {"memory": C(value="1Mi")}, True, 164),
    "split": ('device.attributes["dra.example.com"].services.split("example").size() >= 2', frozenset(),
              {"services": A(string="some_example_value")}, {}, True, 19),
    "regexp": ('device.attributes["dra.example.com"].services.matches("[^a]?sym")', frozenset(),
               {"services": A(string="asymetric")}, {}, True, 18),
    "multi-alloc": ("device.allowMultipleAllocations == true", CC, {}, {}, True, 3),
    "multi-alloc-default": ("device.allowMultipleAllocations == false", CC, {}, {}, False, 3),
}


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_upstream_scenarios(name):
    expr, gates, attrs, caps, expect, cost = UPSTREAM[name]
    sel = compile_selector(expr, gates=gates)
    assert sel.estimated_cost == cost
    multi = True if name == "multi-alloc" else None
    if isinstance(expect, str):
        with pytest.raises(CELRuntimeError) as e:
            sel.evaluate(DRV, attrs, caps, multi)
        assert expect in str(e.value)
    else:
        assert sel.evaluate(DRV, attrs, caps, multi) is (expect if name != "multi-alloc-default" else True)


def test_all_kinds_together():
    expr = "\n".join([
        'device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&',
        'device.attributes["dra.example.com"].bool &&',
        'device.attributes["dra.example.com"].int > 0 &&',
        'device.attributes["dra.example.com"].string == "fish" &&',
        'device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&',
        'device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&',
        'device.attributes["dra.example.com"]["bool"] &&',
        'device.attributes["dra.example.com"]["int"] > 0 &&',
        'device.attributes["dra.example.com"]["string"] == "fish" &&',
        'device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))',
    ])
    sel = compile_selector(expr)
    assert sel.estimated_cost == 52
    attrs = {"bool": A(bool=True), "int": A(int=1), "string": A(string="fish"), "version": A(version="1.0.0")}
    assert sel.evaluate(DRV, attrs, {"quantity": C(value="1Mi")}) is True


@pytest.mark.parametrize(
    "expr, gates, reason, text",
    [
        ("?!", frozenset(), "syntax", "ERROR: <input>:1:1: Syntax error"),
        ("1", frozenset(), "result-type", "must evaluate to bool or the unknown type, not int"),
        ('"x"', frozenset(), "result-type", "not string"),
        ("device.allowMultipleAllocations == false", frozenset(), "type",
         "undefined field 'allowMultipleAllocations'"),
        ('device.attributes["d"].attr.includes("fish")', frozenset(), "type", "undeclared reference to 'includes'"),
        ("x == 1", frozenset(), "type", "undeclared reference to 'x'"),
        ('device.capacity["d"].x > 1', frozenset(), "type",
         "found no matching overload for '_>_' applied to '(kubernetes.Quantity, int)'"),
        ("device.attributes[true]", frozenset(), "type",
         "found no matching overload for '_[_]' applied to '(map(string, map(string, any)), bool)'"),
        (NESTED, frozenset(), "cost", "too complex, exceeds cost limit"),
        ("true || " * 1300 + "true", frozenset(), "length", "may not be more than 10240 bytes"),
    ],
)
def test_compile_errors(expr, gates, reason, text):
    with pytest.raises(CELCompileError) as e:
        compile_selector(expr, gates=gates)
    assert e.value.reason == reason
    assert text in str(e.value)


def test_error_format_with_position():
    with pytest.raises(CELCompileError) as e:
        compile_selector('device.driver == "a" &&\n  device.nope')
    assert e.value.message == ("ERROR: <input>:2:9: undefined field 'nope'\n |   device.nope\n | ........^")
    assert e.value.errors == [(2, 9, "undefined field 'nope'")]


def test_runtime_cost_limit_stops_hostile_expression_fast():
    sel = compile_selector(NESTED, estimate_cost=False)
    assert sel.estimated_cost is None
    start = time.monotonic()
    with pytest.raises(CELRuntimeError, match="operation cancelled: actual cost limit exceeded"):
        sel.evaluate(DRV, {}, {})
    assert time.monotonic() - start < 5


def test_memory_blow_up_is_stopped():
    # forty nested bindings each doubling a string would need terabytes; the size guard stops it
    expr = "cel.bind(s, 'xxxxxxxxxx', " + "".join("cel.bind(s, s + s, " for _ in range(40)) + \
        "s.size() > 0" + ")" * 41
    sel = compile_selector(expr, estimate_cost=False)
    start = time.monotonic()
    with pytest.raises(CELRuntimeError, match="cost limit"):
        sel.evaluate(DRV, {}, {})
    assert time.monotonic() - start < 5


def test_logical_operators_absorb_errors():
    missing = 'device.attributes["d"].missing'
    assert compile_selector(f"false && {missing}").evaluate(DRV, {}, {}) is False
    assert compile_selector(f"{missing} && false").evaluate(DRV, {}, {}) is False
    assert compile_selector(f"{missing} || true").evaluate(DRV, {}, {}) is True
    with pytest.raises(CELRuntimeError, match="no such key: missing. consider using CEL optional chaining"):
        compile_selector(f"{missing} || false").evaluate(DRV, {}, {})


def test_version_attribute_is_not_a_string():
    # cel-go asks the semver on the left to compare itself with a string: "no such overload".
    attrs = {"v": A(version="1.0.0")}
    with pytest.raises(CELRuntimeError, match="^no such overload$"):
        compile_selector('device.attributes["dra.example.com"].v == "1.0.0"').evaluate(DRV, attrs, {})
    assert compile_selector('device.attributes["dra.example.com"].v == semver("1.0.0")').evaluate(
        DRV, attrs, {}) is True


@pytest.mark.parametrize(
    "expr",
    [
        'has(device.attributes["dra.example.com"].model)',
        'device.attributes["dra.example.com"].?model.orValue("") == "a100"',
        'device.attributes["dra.example.com"].?nope.orValue("x") == "x"',
        '!device.attributes["dra.example.com"][?"nope"].hasValue()',
        "optional.of(1).value() == 1 && !optional.none().hasValue()",
        'quantity("1Gi") == quantity("1024Mi") && quantity("1").add(quantity("500m")).isGreaterThan(quantity("1"))',
        'quantity("1k").add(1).asInteger() == 1001 && quantity("1.5").asApproximateFloat() == 1.5',
        'sign(quantity("-1")) == -1 && !quantity("1000m").isInteger() && isQuantity("1Gi") && !isQuantity("x")',
        'quantity("2").sub(1).compareTo(quantity("1")) == 0 && quantity("1").isLessThan(quantity("2"))',
        'semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3',
        'semver("1.0.0-rc.1").isLessThan(semver("1.0.0")) && semver("1.10.0").compareTo(semver("1.9.0")) == 1',
        '"abc".charAt(1) == "b" && "abcb".indexOf("b") == 1 && "abcb".lastIndexOf("b") == 3',
        '"AbC".lowerAscii() == "abc" && "abc".upperAscii() == "ABC" && "aXa".replace("a", "b") == "bXb"',
        '"a,b".split(",") == ["a", "b"] && "hello".substring(1, 3) == "el" && "  x ".trim() == "x"',
        '["a", "b"].join("-") == "a-b" && "%s-%s".format(["x", "y"]) == "x-y" && "%d".format([3]) == "3" && strings.quote("a\\"b") == "\\"a\\\\\\"b\\""',
        "[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [3, 1].min() == 1 && [3, 1].max() == 3",
        "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2",
        "lists.range(3) == [0, 1, 2] && [1, 1, 2].distinct() == [1, 2] && [[1], [2]].flatten() == [1, 2]",
        "[1, 2, 3].slice(1, 2) == [2] && [3, 1, 2].sort() == [1, 2, 3] && [1, 2].reverse() == [2, 1]",
        "[1, 2].first().value() == 1 && [1, 2].last().value() == 2 && [].first().hasValue() == false",
        "[3, 1, 2].sortBy(x, -x) == [3, 2, 1]",
        '"abc123".find("[0-9]+") == "123" && "a1b2".findAll("[0-9]") == ["1", "2"] && "abc".matches("^a")',
        "sets.contains([1, 2], [2]) && sets.equivalent([1, 2], [2, 1]) && sets.intersects([1], [1, 3])",
        'isURL("https://example.com:80/p?q=1") && url("https://example.com:80/p").getHost() == "example.com:80"',
        'url("https://example.com:80/p").getPort() == "80" && url("https://a.b/p?x=1").getQuery()["x"] == ["1"]',
        'ip("10.0.0.1").family() == 4 && isIP("::1") && !isIP("x") && cidr("10.0.0.0/8").containsIP(ip("10.1.2.3"))',
        'cidr("10.0.0.0/8").containsIP("10.1.2.3") && cidr("10.1.0.0/16").prefixLength() == 16',
        'ip("127.0.0.1").isLoopback() && string(ip("::1")) == "::1"',
        '!format.dns1123Label().validate("abc").hasValue() && format.named("dns1123Label").hasValue()',
        "cel.bind(x, 2, x * x == 4)",
        "[1, 2].all(i, v, v > i) && {'a': 1}.exists(k, v, k == 'a' && v == 1)",
        "[1, 2].transformList(i, v, v * 2) == [2, 4] && {'a': 1}.transformMap(k, v, v + 1) == {'a': 2}",
        "[1, 2, 3].map(x, x * 2) == [2, 4, 6] && [1, 2, 3].filter(x, x > 1) == [2, 3]",
        "[1, 2, 3].exists_one(x, x == 2) && [1, 2, 3].map(x, x > 1, x) == [2, 3]",
        "1 == 1 && 1 < 2.5 && 2u > 1 && 7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3 && 1.0 / 2.0 == 0.5",
        "int('12') == 12 && string(12) == '12' && double('1.5') == 1.5 && type(1) == int && dyn(1) == 1",
        "'x' in {'x': 1} && 2 in [1, 2] && size('abc') == 3 && 'abc'.size() == 3 && b'ab'.size() == 2",
        "true ? true : false",
        "{'a': 1}[?'b'].orValue(5) == 5 && [?optional.none(), ?optional.of(1)] == [1]",
        "device.driver.startsWith('dra') && device.driver.endsWith('.com') && device.driver.contains('example')",
    ],
)
def test_constructs(expr):
    # Evaluated as the allocator compiles (no cost estimate): a few of these the apiserver would refuse
    # as too complex (see test_constructs_the_apiserver_refuses_as_too_complex).
    attrs = {"model": A(string="a100")}
    assert compile_selector(expr, estimate_cost=False).evaluate(DRV, attrs, {}) is True


@pytest.mark.parametrize(
    "expr",
    [
        '["a", "b"].join("-") == "a-b"',  # the elements of a list literal have no size estimate
        "type(1) == int",  # == on values of unknown size: the smaller maximum is unbounded
    ],
)
def test_constructs_the_apiserver_refuses_as_too_complex(expr):
    with pytest.raises(CELCompileError, match="too complex"):
        compile_selector(expr)
    assert compile_selector(expr, estimate_cost=False).evaluate(DRV, {}, {}) is True


@pytest.mark.parametrize(
    "expr, message",
    [
        ("1 / 0 == 1", "division by zero"),
        ("1 % 0 == 1", "modulus by zero"),
        ("9223372036854775807 + 1 > 0", "integer overflow"),
        ('sign(quantity("x")) == 0', "quantities must match the regular expression"),
        ('semver("1.0") == semver("1.0.0")', "No Major.Minor.Patch elements found"),
        ('device.attributes["dra.example.com"].model > 1', "no such overload"),
        ("[1][5] == 1", "index out of bounds"),
        ('"a".matches("(") ', "error parsing regexp"),
    ],
)
def test_runtime_errors(expr, message):
    attrs = {"model": A(string="a100")}
    try:
        sel = compile_selector(expr)
    except CELCompileError as e:  # a literal bad regex is rejected when compiling, like cel-go's validator
        assert "error parsing regexp" in message and "invalid matches argument" in str(e)
        return
    with pytest.raises(CELRuntimeError) as e:
        sel.evaluate(DRV, attrs, {})
    assert message in str(e.value)


def test_cache_returns_same_object_per_gate_set():
    a = compile_selector("device.driver == 'x'")
    assert compile_selector("device.driver == 'x'") is a
    assert compile_selector("device.driver == 'x'", gates=LIST) is not a
    assert compile_selector("device.driver == 'x'", gates=frozenset({"Unrelated"})) is a
