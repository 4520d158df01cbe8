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


def _parse_url(text):
    try:
        parts = urllib.parse.urlsplit(text)
    except ValueError:
        parts = None
    if parts is None or not parts.scheme or (not parts.netloc and not parts.path.startswith("/")) or " " in text:
        if parts is None or not (text.startswith("/") or parts.scheme):
            raise CELError(f"URL parse error during conversion from string: parse \"{text}\": invalid URI for request")
    hostname = parts.hostname or ""
    try:
        port = str(parts.port) if parts.port is not None else ""
    except ValueError:
        raise CELError(f"URL parse error during conversion from string: parse \"{text}\": invalid port") from None
    host = parts.netloc.rpartition("@")[2]
    return URL(text, parts.scheme, host, hostname.strip("[]"), port, parts.path, parts.query)


def _is_url(text):
    try:
        _parse_url(text)
    except CELError:
        return False
    return True


def _query(parsed):
    out: dict[str, list[str]] = {}
    for k, v in urllib.parse.parse_qsl(parsed.query, keep_blank_values=True):
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
