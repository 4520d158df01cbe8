"""The Kubernetes URL library."""

from __future__ import annotations

import urllib.parse

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    URL,
    CELError,
)


def _parse_url(s):
    try:
        p = urllib.parse.urlsplit(s)
    except ValueError:
        p = None
    if p is None or not p.scheme or (not p.netloc and not p.path.startswith("/")) or " " in s:
        if p is None or not (s.startswith("/") or p.scheme):
            raise CELError(f"URL parse error during conversion from string: parse \"{s}\": invalid URI for request")
    hostname = p.hostname or ""
    try:
        port = str(p.port) if p.port is not None else ""
    except ValueError:
        raise CELError(f"URL parse error during conversion from string: parse \"{s}\": invalid port") from None
    host = p.netloc.rpartition("@")[2]
    return URL(s, p.scheme, host, hostname.strip("[]"), port, p.path, p.query)


def _is_url(s):
    try:
        _parse_url(s)
    except CELError:
        return False
    return True


def _query(u):
    out: dict[str, list[str]] = {}
    for k, v in urllib.parse.parse_qsl(u.query, keep_blank_values=True):
        out.setdefault(k, []).append(v)
    return out


decl("url", ["string"], "kubernetes.URL", _parse_url)
decl("isURL", ["string"], "bool", _is_url)
decl("getScheme", ["kubernetes.URL"], "string", lambda u: u.scheme, member=True)
decl("getHost", ["kubernetes.URL"], "string", lambda u: u.host, member=True)
decl("getHostname", ["kubernetes.URL"], "string", lambda u: u.hostname, member=True)
decl("getPort", ["kubernetes.URL"], "string", lambda u: u.port, member=True)
decl("getEscapedPath", ["kubernetes.URL"], "string", lambda u: urllib.parse.quote(u.path, safe="/:@!$&'()*+,;="),
     member=True)
decl("getQuery", ["kubernetes.URL"], "map(string, list(string))", _query, member=True)
