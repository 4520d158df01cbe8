from fractions import Fraction

import pytest

from allocator.kube.quantity import (
    BINARY_SI,
    DECIMAL_EXPONENT,
    DECIMAL_SI,
    ERR_FORMAT_WRONG,
    ERR_SUFFIX,
    Quantity,
)


def exact(q: Quantity) -> Fraction:
    return Fraction(q._m) * Fraction(10) ** q._e


@pytest.mark.parametrize(
    "text, value, fmt",
    [
        ("0", 0, DECIMAL_SI),
        ("0Ki", 0, BINARY_SI),
        ("0m", 0, DECIMAL_SI),
        ("1", 1, DECIMAL_SI),
        ("8Ki", 8 * 1024, BINARY_SI),
        ("3Ei", 3 * 2**60, BINARY_SI),
        ("5n", Fraction(5, 10**9), DECIMAL_SI),
        ("50k", 50_000, DECIMAL_SI),
        ("1E", 10**18, DECIMAL_SI),
        ("1E-3", Fraction(1, 1000), DECIMAL_EXPONENT),
        ("1.3E+6", 1_300_000, DECIMAL_EXPONENT),
        ("100.035k", 100_035, DECIMAL_SI),
        ("0.0005k", Fraction(1, 2), DECIMAL_SI),
        ("0.5e-2", Fraction(5, 1000), DECIMAL_EXPONENT),
        ("6.987654321G", 6_987_654_321, DECIMAL_SI),
        # rounding up to the nano unit, away from zero
        ("3.001n", Fraction(4, 10**9), DECIMAL_SI),
        ("0.0000000001", Fraction(1, 10**9), DECIMAL_SI),
        ("0.00000012354", Fraction(124, 10**9), DECIMAL_SI),
        # binary values are capped at the int64 maximum
        ("9Ei", 2**63 - 1, BINARY_SI),
        ("9223372036854775807Ki", 2**63 - 1, BINARY_SI),
        ("100.035Ki", Fraction(102435840, 1000), BINARY_SI),
        ("0.05Gi", Fraction(536870912, 10), BINARY_SI),
        # tiny binary values switch to decimal
        ("0.000000000001Ki", Fraction(2, 10**9), DECIMAL_SI),
        (".001", Fraction(1, 1000), DECIMAL_SI),
        ("1.", 1, DECIMAL_SI),
        ("1.G", 10**9, DECIMAL_SI),
        ("-", 0, DECIMAL_SI),
    ],
)
def test_parse_value_and_format(text, value, fmt):
    q = Quantity.parse(text)
    assert exact(q) == value
    assert q.format == fmt
    if value:
        neg = Quantity.parse("-" + text)
        assert exact(neg) == -value
        assert neg.format == fmt
        assert exact(Quantity.parse("+" + text)) == value


@pytest.mark.parametrize(
    "text",
    ["", "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ", "1e", "1Mi5"],
)
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        Quantity.parse(text)


def test_error_messages():
    with pytest.raises(ValueError) as e:
        Quantity.parse("abc")
    assert str(e.value) == ERR_FORMAT_WRONG
    assert str(e.value).startswith("quantities must match the regular expression '^([+-]?[0-9.]+)(")
    with pytest.raises(ValueError) as e:
        Quantity.parse("1e")
    assert str(e.value) == ERR_SUFFIX == "unable to parse quantity's suffix"


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("1Ki", "1Ki"),
        ("1Gi", "1Gi"),
        ("1024Mi", "1Gi"),
        ("307200Ki", "300Mi"),
        ("1025024Mi", "1001Gi"),
        ("1000M", "1G"),
        ("0.001T", "1G"),
        ("1.5Gi", "1536Mi"),
        ("1.5", "1500m"),
        ("0.5", "500m"),
        ("1.08", "1080m"),
        ("1080000000n", "1080m"),
        ("1000u", "1m"),
        ("5000m", "5"),
        ("2000m", "2"),
        (".001e12", "1e9"),
        ("0.001e0", "1e-3"),
        ("1000e-12", "1e-9"),
        ("00", "0"),
        ("0", "0"),
        ("0Gi", "0"),
        (".001Ki", "1024m"),
        (".000001Ki", "1024u"),
        (".000000001Ki", "1024n"),
        (".000000000001Ki", "2n"),
        ("0.5Ki", "512"),
        ("1.1Ki", "1126400m"),
        ("1000", "1k"),
        ("1023", "1023"),
        # already canonical input is kept verbatim (Go caches the string)
        ("100m", "100m"),
        ("1e3", "1e3"),
        ("1E3", "1E3"),
        ("+1", "+1"),
        ("1.500", "1.500"),
    ],
)
def test_canonical_string(text, canonical):
    assert str(Quantity.parse(text)) == canonical
    if canonical not in ("0",) and not canonical.startswith("+"):
        assert str(Quantity.parse("-" + text)) == "-" + canonical


def test_equality_ordering_hash():
    a, b = Quantity.parse("1Gi"), Quantity.parse("1024Mi")
    assert a == b and hash(a) == hash(b)
    assert Quantity.parse("1k") == Quantity.parse("1000") == Quantity.parse("1e3")
    assert hash(Quantity.parse("1k")) == hash(Quantity.parse("1e3"))
    assert Quantity.parse("999m") < Quantity.parse("1") < Quantity.parse("1001m")
    assert Quantity.parse("-1Gi") < Quantity.parse("0") < Quantity.parse("1n")
    assert sorted(map(Quantity.parse, ["1Gi", "1G", "1Mi", "1M"])) == list(
        map(Quantity.parse, ["1M", "1Mi", "1G", "1Gi"])
    )
    assert Quantity.parse("1e1000000000") > Quantity.parse("9Ei")
    assert Quantity.parse("1") != "1"
    assert Quantity.parse("1").cmp(Quantity.parse("2")) == -1


def test_sign():
    assert Quantity.parse("-5m").sign() == -1
    assert Quantity.parse("0Ki").sign() == 0
    assert Quantity.parse("5m").sign() == 1


def test_integer_conversion_follows_int64_form():
    assert Quantity.parse("1Gi").as_integer() == 2**30
    assert Quantity.parse("1k").as_integer() == 1000
    assert Quantity.parse("5").is_integer()
    # like Go's AsInt64: a negative scale or the arbitrary precision form fails
    assert Quantity.parse("1000m").as_integer() is None
    assert not Quantity.parse("1.0").is_integer()
    assert not Quantity.parse("1.5Ki").is_integer()
    assert not Quantity.parse("12345678901234567890").is_integer()
    assert Quantity.parse("9E").as_integer() == 9 * 10**18
    assert Quantity.parse("10E").as_integer() is None  # overflows int64


def test_approximate_float():
    assert Quantity.parse("1.5").as_approximate_float() == 1.5
    assert Quantity.parse("1Gi").as_approximate_float() == 1073741824.0
    assert Quantity.parse("-250m").as_approximate_float() == -0.25
    assert Quantity.parse("1e400").as_approximate_float() == float("inf")


def test_add_sub():
    one = Quantity.parse("1")
    assert str(one.add(Quantity.parse("500m"))) == "1500m"
    assert not one.add(Quantity.parse("500m")).is_integer()
    assert str(Quantity.parse("1k").add(1)) == "1001"
    assert Quantity.parse("1k").add(1).as_integer() == 1001
    assert str(Quantity.parse("1Gi").sub(Quantity.parse("512Mi"))) == "512Mi"
    assert str(Quantity.parse("1").sub(2)) == "-1"
    # adding to zero takes the other operand's format
    assert Quantity.parse("0").add(Quantity.parse("1Ki")).format == BINARY_SI
    assert str(Quantity.parse("0").add(Quantity.parse("1Ki"))) == "1Ki"
    # overflow of the int64 form moves to arbitrary precision without losing the value
    big = Quantity.parse("9E").add(Quantity.parse("9E"))
    assert exact(big) == 18 * 10**18
    assert not big.is_integer()
    assert Quantity.parse("1") + Quantity.parse("1") == Quantity.parse("2")
    assert Quantity.parse("3") - 1 == Quantity.parse("2")


def test_milli_value_rounds_away_from_zero():
    assert Quantity.parse("1").milli_value == 1000
    assert Quantity.parse("1.5").milli_value == 1500
    assert Quantity.parse("1n").milli_value == 1
    assert Quantity.parse("-1n").milli_value == -1
    assert Quantity.parse("1Ki").value == 1024
