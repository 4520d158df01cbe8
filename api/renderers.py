import yaml
from rest_framework.renderers import BaseRenderer


class YAMLRenderer(BaseRenderer):
    """YAML text as is (an inventory's documents); anything else (an error) dumped as YAML."""

    media_type = "application/yaml"
    format = "yaml"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        if data is None:
            return b""
        text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        return text.encode(self.charset)
