"""URL converters.

A share id is base62 (playground.state): matching only that keeps other
text, NUL bytes above all (PostgreSQL refuses them in a query: a 500), out
of the database lookup; anything else is a plain 404.
"""

from django.urls import register_converter

from playground.state import ID_MAX_LENGTH


class ShareIdConverter:
    regex = f"[0-9A-Za-z]{{1,{ID_MAX_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ShareIdConverter, "share_id")
