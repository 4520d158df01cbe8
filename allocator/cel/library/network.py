"""The Kubernetes IP and CIDR libraries (``ipaddress`` imported where used: a selector without IPs does not
load it, start-up)."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    CIDR,
    IP,
    CELError,
)


def _parse_ip(text):
    if "%" in text:
        raise CELError(f"IP Address {text!r} with zone value is not allowed".replace("'", '"'))
    import ipaddress

    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise CELError(f'IP Address "{text}" parse error during conversion from string: ParseAddr("{text}"): '
                       "unable to parse IP") from None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None and "." in text:
        raise CELError(f'IPv4-mapped IPv6 address "{text}" is not allowed')
    return IP(address)


def _is_ip(text):
    try:
        _parse_ip(text)
    except CELError:
        return False
    return True


def _parse_cidr(text):
    addr_s, sep, plen = text.partition("/")
    if not sep:
        raise CELError(f'network address parse error during conversion from string: network address "{text}" '
                       "must have a prefix length")
    ip = _parse_ip(addr_s).addr
    import ipaddress

    try:
        prefix = int(plen)
        net = ipaddress.ip_network(f"{ip}/{prefix}", strict=False)
    except ValueError:
        raise CELError(f'network address parse error during conversion from string: netip.ParsePrefix("{text}"): '
                       "bad bits after slash") from None
    return CIDR(ip, net)


def _is_cidr(text):
    try:
        _parse_cidr(text)
    except CELError:
        return False
    return True


def _family(ip):
    return 4 if ip.addr.version == 4 else 6


def _is_global_unicast(ip):
    address = ip.addr
    if address.is_multicast or address.is_loopback or address.is_link_local or address.is_unspecified:
        return False
    import ipaddress

    if address.version == 4 and address == ipaddress.ip_address("255.255.255.255"):
        return False
    return True


def _is_link_local_multicast(ip):
    import ipaddress

    return ip.addr.is_multicast and (ip.addr in ipaddress.ip_network("224.0.0.0/24") if ip.addr.version == 4
                                     else ip.addr in ipaddress.ip_network("ff02::/16"))


def _contains_ip(cidr, ip):
    if isinstance(ip, str):
        ip = _parse_ip(ip)
    return ip.addr.version == cidr.net.version and ip.addr in cidr.net


def _contains_cidr(cidr, other):
    if isinstance(other, str):
        other = _parse_cidr(other)
    return other.net.version == cidr.net.version and other.net.subnet_of(cidr.net)


decl("ip", ["string"], "net.IP", _parse_ip)
decl("isIP", ["string"], "bool", _is_ip)
decl("ip.isCanonical", ["string"], "bool", lambda s: str(_parse_ip(s)) == s)
decl("family", ["net.IP"], "int", _family, member=True)
decl("isUnspecified", ["net.IP"], "bool", lambda ip: ip.addr.is_unspecified, member=True)
decl("isLoopback", ["net.IP"], "bool", lambda ip: ip.addr.is_loopback, member=True)
decl("isLinkLocalMulticast", ["net.IP"], "bool", _is_link_local_multicast, member=True)
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
