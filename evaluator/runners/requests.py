"""Deprecated since NegHub 0.2.0, removed in 0.3.0.

`neghub.evaluator.runners.requests` moved to `neghub.evaluator.protocol.requests`
(commit e607791). A plugin imports from `neghub.evaluator.plugin` (CHANGELOG.md, "Plugin API"); this module
re-exports what it held, for plugins written before the move, and warns once per process."""

from __future__ import annotations

from ..protocol.deprecation import warn_moved
from ..protocol.requests import (
    BROKEN_CHARACTER,
    MASK_PLACEHOLDER,
    REQUEST_KINDS,
    Answer,
    Request,
    RequestKind,
    cut_at,
    dumps,
    execute,
    request_from_json,
    request_json,
    requests_process,
)

__all__ = [
    "BROKEN_CHARACTER",
    "MASK_PLACEHOLDER",
    "REQUEST_KINDS",
    "Answer",
    "Request",
    "RequestKind",
    "cut_at",
    "dumps",
    "execute",
    "request_from_json",
    "request_json",
    "requests_process",
]

warn_moved("neghub.evaluator.runners.requests", ("Request", "Answer"), since="0.2.0", removal="0.3.0")
