"""The playground's sample files (``playground/samples/``) given where Kubernetes objects are expected.

Each describes a sample (slug, title, provenance...) around its objects; read as objects, it fails with
"Object 'Kind' is missing". This says what it is and how to get its objects (``python -m allocator sample``).
"""

from __future__ import annotations

import re


def sample_file_note(text: str) -> str | None:
    """What to do when ``text`` is one of the sample files itself (a slug around objects), not objects."""
    head = text[:20000]
    if "slug:" not in head:  # what the pattern below needs, without compiling it (start-up)
        return None
    slug = re.search(r"^slug:[ \t]*['\"]?([\w.-]+)", head, re.MULTILINE)
    if slug is None or re.search(r"^kind:", head, re.MULTILINE) or not re.search(
            r"^(objects|documents|generator|examples):", text, re.MULTILINE):
        return None
    return (f"this is the playground's description of the sample {slug.group(1)!r}, not Kubernetes objects; "
            f"print its objects with: python -m allocator sample {slug.group(1)}")
