from collections.abc import Mapping
from typing import Any

import yaml
from rest_framework.renderers import BaseRenderer


class YAMLRenderer(BaseRenderer):
    """YAML text as is (an inventory's documents); anything else (an error) dumped as YAML."""

    media_type = "application/yaml"
    format = "yaml"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:  # Any: whatever a view answered
        if data is None:
            return b""
        text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        return text.encode(self.charset)
