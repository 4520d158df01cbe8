import pytest

from allocator.kube.semver import Version


@pytest.mark.parametrize(
    "text",
    ["0.0.0", "1.2.3", "1.2.3-alpha", "1.2.3-alpha.1", "1.2.3-0.alpha", "1.2.3+build.5", "1.2.3-rc.1+b-7",
     "10.20.30", "1.0.0-x-y-z.--"],
)
def test_strict_parse_round_trips(text):
    assert str(Version.parse(text)) == text


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Version string empty"),
        ("1", "No Major.Minor.Patch elements found"),
        ("1.2", "No Major.Minor.Patch elements found"),
        ("v1.2.3", 'Invalid character(s) found in major number "v1"'),
        ("01.2.3", 'Major number must not contain leading zeroes "01"'),
        ("1.x.3", 'Invalid character(s) found in minor number "x"'),
        ("1.02.3", 'Minor number must not contain leading zeroes "02"'),
        ("1.2.x", 'Invalid character(s) found in patch number "x"'),
        ("1.2.03", 'Patch number must not contain leading zeroes "03"'),
        ("1.2.3-", "Prerelease is empty"),
        ("1.2.3-01", 'Numeric PreRelease version must not contain leading zeroes "01"'),
        ("1.2.3-a_b", 'Invalid character(s) found in prerelease "a_b"'),
        ("1.2.3+", "Build meta data is empty"),
        ("1.2.3+a_b", 'Invalid character(s) found in build meta data "a_b"'),
        ("1..3", 'strconv.ParseUint: parsing "": invalid syntax'),
        ("99999999999999999999.0.0", 'strconv.ParseUint: parsing "99999999999999999999": value out of range'),
    ],
)
def test_strict_parse_errors(text, message):
    with pytest.raises(ValueError) as e:
        Version.parse(text)
    assert str(e.value) == message
    assert not Version.is_valid(text)


@pytest.mark.parametrize(
    "text, expect",
    [("v1.2.3", "1.2.3"), ("1", "1.0.0"), ("v1.2", "1.2.0"), ("01.002.0003", "1.2.3"), ("v0.0.1", "0.0.1"),
     ("1.00.0", "1.0.0"), ("1.2.3-rc.1", "1.2.3-rc.1")],
)
def test_normalize(text, expect):
    assert str(Version.parse(text, normalize=True)) == expect


def test_normalize_rejects_short_version_with_metadata():
    with pytest.raises(ValueError, match="short version cannot contain PreRelease/Build meta data"):
        Version.parse("1.2-rc", normalize=True)


def test_ordering_follows_semver_precedence():
    chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
             "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "1.10.0", "2.0.0"]
    versions = [Version.parse(v) for v in chain]
    for a, b in zip(versions, versions[1:], strict=False):
        assert a < b and a.compare(b) == -1 and b.compare(a) == 1
    assert sorted(reversed(versions)) == versions


def test_build_metadata_has_no_precedence():
    a, b = Version.parse("1.0.0+a"), Version.parse("1.0.0+b")
    assert a == b and a.compare(b) == 0 and hash(a) == hash(b)
    assert Version.parse("1.2.3") != "1.2.3"
