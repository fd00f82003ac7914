"""Deprecated since NegHub 0.2.0, removed in 0.3.0.

`neghub.evaluator.releases.licenses` moved to `neghub.evaluator.protocol.licenses`
(commit e607791). A plugin imports from `neghub.evaluator.plugin` (CHANGELOG.md, "Plugin API"); this module
re-exports what it held, for plugins written before the move, and warns once per process."""

from __future__ import annotations

from ..protocol.deprecation import warn_moved
from ..protocol.licenses import (
    HUB_LICENSES,
    NOT_SPECIFIED,
    License,
    hub_license_fields,
    spdx_id,
)

__all__ = [
    "HUB_LICENSES",
    "NOT_SPECIFIED",
    "License",
    "hub_license_fields",
    "spdx_id",
]

warn_moved("neghub.evaluator.releases.licenses", ("DatasetMetadata",), since="0.2.0", removal="0.3.0")
