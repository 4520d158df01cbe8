"""The Kubernetes IP and CIDR libraries."""

from __future__ import annotations

import ipaddress

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    CIDR,
    IP,
    CELError,
)


def _parse_ip(s):
    if "%" in s:
        raise CELError(f"IP Address {s!r} with zone value is not allowed".replace("'", '"'))
    try:
        a = ipaddress.ip_address(s)
    except ValueError:
        raise CELError(f'IP Address "{s}" parse error during conversion from string: ParseAddr("{s}"): '
                       "unable to parse IP") from None
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None and "." in s:
        raise CELError(f'IPv4-mapped IPv6 address "{s}" is not allowed')
    return IP(a)


def _is_ip(s):
    try:
        _parse_ip(s)
    except CELError:
        return False
    return True


def _parse_cidr(s):
    addr_s, sep, plen = s.partition("/")
    if not sep:
        raise CELError(f'network address parse error during conversion from string: network address "{s}" '
                       "must have a prefix length")
    ip = _parse_ip(addr_s).addr
    try:
        p = int(plen)
        net = ipaddress.ip_network(f"{ip}/{p}", strict=False)
    except ValueError:
        raise CELError(f'network address parse error during conversion from string: netip.ParsePrefix("{s}"): '
                       "bad bits after slash") from None
    return CIDR(ip, net)


def _is_cidr(s):
    try:
        _parse_cidr(s)
    except CELError:
        return False
    return True


def _family(ip):
    return 4 if ip.addr.version == 4 else 6


def _is_global_unicast(ip):
    a = ip.addr
    if a.is_multicast or a.is_loopback or a.is_link_local or a.is_unspecified:
        return False
    if a.version == 4 and a == ipaddress.ip_address("255.255.255.255"):
        return False
    return True


def _contains_ip(c, ip):
    if isinstance(ip, str):
        ip = _parse_ip(ip)
    return ip.addr.version == c.net.version and ip.addr in c.net


def _contains_cidr(c, other):
    if isinstance(other, str):
        other = _parse_cidr(other)
    return other.net.version == c.net.version and other.net.subnet_of(c.net)


decl("ip", ["string"], "net.IP", _parse_ip)
decl("isIP", ["string"], "bool", _is_ip)
decl("ip.isCanonical", ["string"], "bool", lambda s: str(_parse_ip(s)) == s)
decl("family", ["net.IP"], "int", _family, member=True)
decl("isUnspecified", ["net.IP"], "bool", lambda ip: ip.addr.is_unspecified, member=True)
decl("isLoopback", ["net.IP"], "bool", lambda ip: ip.addr.is_loopback, member=True)
decl("isLinkLocalMulticast", ["net.IP"], "bool",
     lambda ip: ip.addr.is_multicast and (ip.addr in ipaddress.ip_network("224.0.0.0/24") if ip.addr.version == 4
                                          else ip.addr in ipaddress.ip_network("ff02::/16")), member=True)
decl("isLinkLocalUnicast", ["net.IP"], "bool", lambda ip: ip.addr.is_link_local and not ip.addr.is_multicast,
     member=True)
decl("isGlobalUnicast", ["net.IP"], "bool", _is_global_unicast, member=True)
decl("cidr", ["string"], "net.CIDR", _parse_cidr)
decl("isCIDR", ["string"], "bool", _is_cidr)
decl("containsIP", ["net.CIDR", "net.IP"], "bool", _contains_ip, member=True)
decl("containsIP", ["net.CIDR", "string"], "bool", _contains_ip, member=True)
decl("containsCIDR", ["net.CIDR", "net.CIDR"], "bool", _contains_cidr, member=True)
decl("containsCIDR", ["net.CIDR", "string"], "bool", _contains_cidr, member=True)
decl("ip", ["net.CIDR"], "net.IP", lambda c: IP(c.addr), member=True)
decl("masked", ["net.CIDR"], "net.CIDR", lambda c: CIDR(c.net.network_address, c.net), member=True)
decl("prefixLength", ["net.CIDR"], "int", lambda c: c.net.prefixlen, member=True)
