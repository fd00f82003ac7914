"""What NegHub knows of a dataset release: identity, license, citation, pinned files and record schema.

These pydantic models are the source of the dataset cards (`cards.py`) and of what the loader
(`loading.py`) checks: one object per release, defined in the benchmark's own folder.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Revision = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
HubRepoId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")]
# a benchmark's name (the registry decides which exist): lowercase letters, digits and hyphens
TaskName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,39}$")]
# an ISO 639-1 (or 639-3) code, as the Hub's dataset cards write languages: any language a benchmark may come in
# (a plugin's Korean release is "ko"), not only those of the built-in benchmarks
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}$")]
License = Literal["cc-by-sa-4.0", "cc-by-nc-sa-4.0", "cc-by-4.0", "apache-2.0", "mit"]
# An upstream file's URL names the commit it was taken from (a branch name can move), e.g.
# https://raw.githubusercontent.com/ORG/REPO/<40-hex commit>/path/to/file
UpstreamUrl = Annotated[str, StringConstraints(pattern=r"^https://[^\s/]+/\S*/[0-9a-f]{40}/\S+$")]


class ReleaseFile(BaseModel):
    """One file of a release: where it sits in the release folder, its split and its pinned sha256."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = Field(description="POSIX path relative to the release folder")
    config: str = Field(default="default", description="Hub dataset configuration the file belongs to")
    split: str
    sha256: Sha256 | None = Field(
        description="pinned sha256 of the file; null only while the upstream release is not available "
        "to NegHub, in which case scoring needs --unverified"
    )
    n_records: int | None = Field(default=None, ge=0, description="number of records, where known")
    upstream_url: UpstreamUrl | None = Field(
        default=None,
        description="where the file lives upstream, pinned by commit in its path; NegHub downloads it from "
        "there (once, into its cache) when no mirror or Hub revision serves the release",
    )

    @model_validator(mode="after")
    def _upstream_needs_pin(self) -> ReleaseFile:
        if self.upstream_url is not None and self.sha256 is None:
            raise ValueError("a file with an upstream_url needs its sha256: a download is only kept when it matches")
        return self

    @field_validator("path")
    @classmethod
    def _relative_inside(cls, value: str) -> str:
        parts = PurePosixPath(value).parts
        if not parts or value.startswith("/") or ".." in parts or "\\" in value:
            raise ValueError("must be a relative POSIX path inside the release folder")
        return value


class LicenseFile(BaseModel):
    """The release's license text: shipped beside its files, pinned like them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = "LICENSE"
    sha256: Sha256
    upstream_url: UpstreamUrl | None = None


class RecordField(BaseModel):
    """One field of a record of the release, as documented on the card."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    type: str
    description: str


class CardText(BaseModel):
    """The prose of a dataset card that the other metadata fields cannot give (evaluator/releases/cards.py renders it).

    The vocabularies of `task_categories`, `task_ids` and `tags` are checked where the card's front
    matter is validated, against the Hugging Face dataset-card vocabulary.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_categories: tuple[str, ...] = ()
    task_ids: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    phenomena: str = Field(default="", description="the negation phenomena the benchmark covers (Markdown)")
    construction: str = Field(default="", description="how instances and minimal pairs are built (Markdown)")
    licensing: str = Field(default="", description="where the license comes from, what it obliges (Markdown)")
    limitations: tuple[str, ...] = Field(default=(), description="known limitations, one bullet each")


class DatasetMetadata(BaseModel):
    """What NegHub knows of a dataset release: identity, license, citation, pins and record schema."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: TaskName
    pretty_name: str
    version: str = Field(description="the upstream release version this metadata pins")
    languages: tuple[Language, ...]
    license: License
    homepage: Annotated[str, StringConstraints(pattern=r"^https://")]
    citation: str = Field(description="BibTeX")
    description: str
    hub_repo_id: HubRepoId
    revision: Revision | None = Field(
        description="the pinned Hub commit (40 lowercase hex); null until the release is published, "
        "and then only a local mirror can be read"
    )
    files: tuple[ReleaseFile, ...]
    license_file: LicenseFile | None = Field(
        default=None, description="the pinned license text of the release, where NegHub fetches it from upstream"
    )
    record_fields: tuple[RecordField, ...]
    is_sample: bool = Field(
        default=False, description="true for a NegHub-written sample standing in for an unavailable release"
    )
    card: CardText = Field(default_factory=CardText, description="the dataset card's prose")

    def files_for(self, split: str, config: str = "default") -> tuple[ReleaseFile, ...]:
        return tuple(f for f in self.files if f.split == split and f.config == config)

    @property
    def upstream(self) -> bool:
        """Whether every file of the release can be fetched from a pinned upstream URL."""
        return bool(self.files) and all(f.upstream_url is not None for f in self.files)

    @property
    def splits(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.split for f in self.files))
