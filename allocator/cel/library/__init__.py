"""Function declarations and implementations of the DRA CEL environment.

Each overload has a static signature (for the checker) and a Python implementation working on
runtime values (see ``values``). Implementations raise ``CELError`` for CEL runtime errors.

One module per library. They are imported here in a fixed order: a function's overloads are tried
in the order they were declared.
"""

from __future__ import annotations

# isort: off
# (the order of these imports is the order of the declarations)
from allocator.cel.library import arithmetic  # noqa: F401
from allocator.cel.library import indexing  # noqa: F401
from allocator.cel.library import conversions  # noqa: F401
from allocator.cel.library import strings  # noqa: F401
from allocator.cel.library import lists  # noqa: F401
from allocator.cel.library import optional  # noqa: F401
from allocator.cel.library import quantity  # noqa: F401
from allocator.cel.library import semver  # noqa: F401
from allocator.cel.library import includes  # noqa: F401
from allocator.cel.library import network  # noqa: F401
from allocator.cel.library import url  # noqa: F401
from allocator.cel.library import named_formats  # noqa: F401
# isort: on
from allocator.cel.library.declarations import FUNCTIONS, Overload, decl
from allocator.cel.library.dispatch import value_matches
from allocator.cel.library.indexing import index_value, opt_index
from allocator.cel.library.lists import sort_values
from allocator.cel.library.strings import compile_regex

__all__ = ["FUNCTIONS", "Overload", "decl", "value_matches", "index_value", "opt_index", "sort_values",
           "compile_regex"]
