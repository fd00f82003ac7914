"""Deprecated since NegHub 0.2.0, removed in 0.3.0.

`neghub.evaluator.releases.metadata` moved to `neghub.evaluator.protocol.metadata`
(commit e607791). A plugin imports from `neghub.evaluator.plugin` (CHANGELOG.md, "Plugin API"); this module
re-exports what it held, for plugins written before the move, and warns once per process."""

from __future__ import annotations

from ..protocol.deprecation import warn_moved
from ..protocol.metadata import (
    PIN_FILE_NAME,
    PIN_HEADER,
    CardText,
    DatasetMetadata,
    ExpectedSplit,
    HubPin,
    HubRelease,
    HubRepoId,
    Language,
    LicenseFile,
    PinnedFile,
    RecordField,
    ReleaseFile,
    Revision,
    TaskName,
    UpstreamUrl,
    pin_text,
    read_pin,
    relative_inside,
)

__all__ = [
    "PIN_FILE_NAME",
    "PIN_HEADER",
    "CardText",
    "DatasetMetadata",
    "ExpectedSplit",
    "HubPin",
    "HubRelease",
    "HubRepoId",
    "Language",
    "LicenseFile",
    "PinnedFile",
    "RecordField",
    "ReleaseFile",
    "Revision",
    "TaskName",
    "UpstreamUrl",
    "pin_text",
    "read_pin",
    "relative_inside",
]

warn_moved(
    "neghub.evaluator.releases.metadata",
    ("DatasetMetadata", "ReleaseFile", "LicenseFile", "RecordField", "CardText"),
    since="0.2.0",
    removal="0.3.0",
)
