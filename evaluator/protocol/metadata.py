"""What NegHub knows of a dataset release: identity, license, citation, pinned files and record schema.

These pydantic models are the source of the dataset cards (releases/cards.py) and of what the loader
(releases/loading.py) checks: one object per release, defined in the benchmark's own folder. They sit in the
protocol because every `Benchmark` (core/benchmark.py) carries one.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from .licenses import License

Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Revision = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
HubRepoId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")]
# a benchmark's name (the registry decides which exist): lowercase letters, digits and hyphens
TaskName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,39}$")]
# an ISO 639-1 (or 639-3) code, as the Hub's dataset cards write languages: any language a benchmark may come in
# (a plugin's Korean release is "ko"), not only those of the built-in benchmarks
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}$")]
# An upstream file's URL names the commit it was taken from (a branch name can move), e.g.
# https://raw.githubusercontent.com/ORG/REPO/<40-hex commit>/path/to/file
UpstreamUrl = Annotated[str, StringConstraints(pattern=r"^https://[^\s/]+/\S*/[0-9a-f]{40}/\S+$")]


_RAW_HTML = re.compile(r"<[A-Za-z/!?]")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def raw_html(text: str) -> str | None:
    """The first raw HTML tag in Markdown `text` outside its code spans, or None."""
    found = _RAW_HTML.search(_CODE_SPAN.sub("", text))
    return None if found is None else text[found.start() : found.start() + 20]


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
        return relative_inside(value)


def relative_inside(value: str) -> str:
    """`value`, a relative POSIX path that stays inside its folder; ValueError otherwise."""
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

    @field_validator("phenomena", "construction", "licensing", "limitations")
    @classmethod
    def _no_raw_html(cls, value: str | tuple[str, ...]) -> str | tuple[str, ...]:
        # the card prints this prose as Markdown, and the site embeds the card: Markdown yes, HTML no
        for text in (value,) if isinstance(value, str) else value:
            found = raw_html(text)
            if found is not None:
                raise ValueError(f"Markdown without raw HTML expected, found {found!r} (put it in `code`)")
        return value


class ExpectedSplit(BaseModel):
    """One split of an upstream release as its paper reports it: what `neghub datasets pin` checks a Hub
    release against before it pins it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    config: str
    split: str
    n_records: int = Field(ge=0)
    source: str = Field(description="where the paper gives the number, e.g. 'Table 5'")
    count_field: str | None = Field(default=None, description="a field whose values the paper counts too")
    counts: dict[str, int] = Field(default_factory=dict, description="records per value of count_field")

    @model_validator(mode="after")
    def _counts_add_up(self) -> ExpectedSplit:
        if bool(self.counts) != (self.count_field is not None):
            raise ValueError("counts and count_field go together")
        if self.counts and sum(self.counts.values()) != self.n_records:
            raise ValueError(f"the counts add up to {sum(self.counts.values())}, not {self.n_records}")
        return self


class PinnedFile(BaseModel):
    """One file of a Hub release at the pinned commit; a data file also names its config, split and rows."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    size: int = Field(ge=0)
    sha256: Sha256
    config: str | None = None
    split: str | None = None
    n_records: int | None = Field(default=None, ge=0)

    @field_validator("path")
    @classmethod
    def _relative_inside(cls, value: str) -> str:
        return relative_inside(value)

    @model_validator(mode="after")
    def _data_file_complete(self) -> PinnedFile:
        if len({self.config is None, self.split is None, self.n_records is None}) != 1:
            raise ValueError("a data file names its config, split and n_records; any other file none of them")
        return self


class HubPin(BaseModel):
    """What `neghub datasets pin` recorded: the commit of a Hub release and every file in it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    repo_id: HubRepoId
    revision: Revision
    files: tuple[PinnedFile, ...] = Field(min_length=1)

    def split_sizes(self) -> dict[tuple[str, str], int]:
        sizes: dict[tuple[str, str], int] = {}
        for f in self.files:
            if f.config is not None and f.split is not None and f.n_records is not None:
                sizes[f.config, f.split] = sizes.get((f.config, f.split), 0) + f.n_records
        return sizes


PIN_FILE_NAME = "hub_pin.yaml"  # beside the benchmark's metadata module
PIN_HEADER = (
    "# Written by `neghub datasets pin`: the Hub commit of the release and the sha256 of every file in it,\n"
    "# checked against the paper's split sizes when written. Do not edit; pin again instead.\n"
)


def pin_text(pin: HubPin) -> str:
    """The pin file's text: one canonical form, so a review sees only what changed and a test can tell a
    hand edit from what the command writes."""
    import yaml  # only where a pin is written or read: not on every command's start

    body = yaml.safe_dump(
        pin.model_dump(mode="json", exclude_none=True), sort_keys=False, allow_unicode=True, width=1000
    )
    return PIN_HEADER + body


def read_pin(path: Path) -> HubPin | None:
    """The pin in `path`, or None where the release was never pinned (no file)."""
    if not path.is_file():
        return None
    import yaml

    return HubPin.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


class HubRelease(BaseModel):
    """A release its authors publish on the Hugging Face Hub (not a copy of NegHub's): what the paper says
    it holds, and the commit NegHub pinned, if any."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pretty_name: str
    repo_id: HubRepoId
    license: License
    gated: bool = Field(
        default=False, description="the Hub asks for the user's contact details before it serves the files"
    )
    expected: tuple[ExpectedSplit, ...] = Field(min_length=1)
    pin: HubPin | None = None

    @property
    def url(self) -> str:
        return f"https://huggingface.co/datasets/{self.repo_id}"

    @model_validator(mode="after")
    def _pin_matches(self) -> HubRelease:
        if self.pin is None:
            return self
        if self.pin.repo_id != self.repo_id:
            raise ValueError(f"the pin is of {self.pin.repo_id}, not {self.repo_id}")
        expected = {(e.config, e.split): e.n_records for e in self.expected}
        if self.pin.split_sizes() != expected:
            raise ValueError(f"the pinned split sizes {self.pin.split_sizes()} differ from the paper's {expected}")
        return self


class DatasetMetadata(BaseModel):
    """What NegHub knows of a dataset release: identity, license, citation, pins and record schema."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: TaskName
    pretty_name: str
    version: str = Field(description="the upstream release version this metadata pins")
    languages: tuple[Language, ...]
    license: License
    license_terms: str | None = Field(
        default=None,
        description="what the license allows, in a sentence or two: said beside every download of the data "
        "(the card, the dataset page, the leaderboard's downloads)",
    )
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
    official_release: HubRelease | None = Field(
        default=None,
        description="the authors' own release on the Hub, where this metadata describes another (NegHub's sample)",
    )

    def files_for(self, split: str, config: str = "default") -> tuple[ReleaseFile, ...]:
        return tuple(f for f in self.files if f.split == split and f.config == config)

    @property
    def upstream(self) -> bool:
        """Whether every file of the release can be fetched from a pinned upstream URL."""
        return bool(self.files) and all(f.upstream_url is not None for f in self.files)

    @property
    def splits(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.split for f in self.files))
