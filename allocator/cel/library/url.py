"""The Kubernetes URL library (``urllib.parse`` imported where used: a selector without URLs does not load it,
start-up)."""

from __future__ import annotations

from allocator.cel.library.declarations import (
    decl,
)
from allocator.cel.values import (
    URL,
    CELError,
)


def _parse_url(text):
    import urllib.parse

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
    import urllib.parse

    out: dict[str, list[str]] = {}
    for k, v in urllib.parse.parse_qsl(parsed.query, keep_blank_values=True):
        out.setdefault(k, []).append(v)
    return out


def _escaped_path(parsed):
    import urllib.parse

    return urllib.parse.quote(parsed.path, safe="/:@!$&'()*+,;=")


decl("url", ["string"], "kubernetes.URL", _parse_url)
decl("isURL", ["string"], "bool", _is_url)
decl("getScheme", ["kubernetes.URL"], "string", lambda u: u.scheme, member=True)
decl("getHost", ["kubernetes.URL"], "string", lambda u: u.host, member=True)
decl("getHostname", ["kubernetes.URL"], "string", lambda u: u.hostname, member=True)
decl("getPort", ["kubernetes.URL"], "string", lambda u: u.port, member=True)
decl("getEscapedPath", ["kubernetes.URL"], "string", _escaped_path, member=True)
decl("getQuery", ["kubernetes.URL"], "map(string, list(string))", _query, member=True)
