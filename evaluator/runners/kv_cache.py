"""A model's key-value cache, passed and read under the name its transformers version uses.

transformers 5 renamed the cache a model's `forward` takes and returns from `past_key_values` to `cache`.
5.24 still takes the old name but warns, on every run a submitter watches, that 5.40 removes it; 4.56, the
floor pyproject.toml allows, knows only the old name. Both are in the range NegHub supports, so the name is
read from the forward's own signature, once per model class.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

NEW_NAME = "cache"
OLD_NAME = "past_key_values"


@functools.cache
def cache_keyword(module_type: Any) -> str:
    """The keyword `module_type.forward` takes its key-value cache by (`module_type`: a class)."""
    try:
        parameters = inspect.signature(module_type.forward).parameters
    except (TypeError, ValueError):  # a forward without a readable signature: the name every version took
        return OLD_NAME
    return NEW_NAME if NEW_NAME in parameters else OLD_NAME


def cache_argument(module: Any, cache: Any) -> dict[str, Any]:
    """`cache` as the keyword argument `module`'s forward takes (nothing for no cache: the forward's default)."""
    return {} if cache is None else {cache_keyword(module.__class__): cache}


def returned_cache(output: Any) -> Any:
    """The key-value cache a forward call returned: `output.cache` where the output has that field (None too), else
    `output.past_key_values` (read only then: in transformers 5 reading it logs the deprecation as well)."""
    if NEW_NAME in getattr(type(output), "__dataclass_fields__", {}):
        return getattr(output, NEW_NAME)
    cache = output.get(NEW_NAME) if hasattr(output, "get") else None
    return cache if cache is not None else output.past_key_values
