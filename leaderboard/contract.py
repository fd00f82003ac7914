"""The data contract: every file the site publishes for readers' code, under one version.

The files: `data/leaderboard.json` (every verdict: board_file.py), `data/<board slug>.csv` (one board, one
record per row), `data/results-long.parquet` (every row and figure of the site, long format) and
`data/benchmarks/<benchmark>.csv` (the same long records, one benchmark's, for the figures its pages label). Each
is described by a JSON Schema in `schemas/` whose `$id` carries the version (`.../schemas/data-contract-<N>/<file>`,
where the site serves it):

- `leaderboard.schema.json`: the leaderboard file;
- `board.schema.json`: one record of a board's download (its `metric.<path>` and `sd.<path>` columns by pattern): a
  line of its CSV;
- `results-long.schema.json`: one record of the long format, its columns in file order (`LONG_COLUMNS`): the
  Parquet's columns and each benchmark CSV's header.

Every figure is in the unit the benchmark's pages show it in (`unit`: percent and points ×100, counts and
correlations as computed; a figure no page shows, unit "as computed", as the scorer computed it), to 6 significant
digits (exports.SIGNIFICANT_DIGITS; a whole number whole).

The submitters' contract is another: the submission, result and prediction-file schemas describe what a submitter
writes, versioned by the submission format (`schema_version` in metadata.yaml, the prediction files' own models),
and change on other terms (a new benchmark adds a prediction schema; no reader of the site's files needs to know).
Their `$id` stays unversioned.

`schemas/data-contract.json` holds each version's fingerprint: the sha256 of the site schemas' shape (their
canonical JSON without `$id` and without the annotation keywords `title`, `description` and `examples`: words may
improve within a version, a field, type or constraint may not). tests/test_data_contract.py fails when the
generated schemas' fingerprint is not the one recorded for `DATA_CONTRACT_VERSION`. While that version is
unreleased, re-record it with `python -m neghub.leaderboard.contract --record schemas`; a released version's
fingerprint is never re-recorded (the command refuses): bump `DATA_CONTRACT_VERSION` and say in CHANGELOG.md's
"Data contract" section what a reader of the files must change. A version is released when the release that first
publishes it is tagged: the maintainers then set its `"released": true` (version 1 was the site's before this
module, released).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from ..evaluator.submissions.schemas import BASE_ID, schema_of, write_or_check

DATA_CONTRACT_VERSION: Final = 2
FINGERPRINTS_FILE = "data-contract.json"
BOARD_SCHEMA = "board.schema.json"
LONG_SCHEMA = "results-long.schema.json"
LONG_PARQUET = "data/results-long.parquet"
BENCHMARK_CSV_FOLDER = "data/benchmarks"
ANNOTATIONS = ("$id", "title", "description", "examples")
RECORD_COMMAND = "python -m neghub.leaderboard.contract --record schemas"
SCHEMA_COMMAND = "python -m neghub.leaderboard.contract --schema schemas"


def schema_id(file_name: str, version: int = DATA_CONTRACT_VERSION) -> str:
    """The `$id` of a site file's schema: where the site serves it, under its contract version."""
    return f"{BASE_ID}data-contract-{version}/{file_name}"


def benchmark_csv(task: str) -> str:
    """The path, in the site, of a benchmark's long CSV."""
    return f"{BENCHMARK_CSV_FOLDER}/{task}.csv"


UNRANKED = (
    "why the row is not ranked, in its own words; a listed row (submitted, not run by NegHub) gives its place in "
    "NegHub's queue or why it is not queued, without the explanation every listed row shares: only a figure NegHub "
    "computed from its own run's answers is ranked; a submitted row is listed, unnumbered, with the submitter's "
    "figure until NegHub runs it. The whole sentence is the row's `why` in data/leaderboard.json"
)


class LongRecord(BaseModel):
    """One record of the long format: one figure of one row (`data/results-long.parquet`,
    `data/benchmarks/<benchmark>.csv`). The columns are in this order in both files. The board's settings are
    columns (split, mode, shots, prompt, chat_template, ...); its title on the pages, which words them, is
    `boards[].title` in data/leaderboard.json (one line for the board, not one for each of its figures)."""

    model_config = ConfigDict(extra="forbid", title="NegHub long-format record")
    task: str = Field(description="the benchmark")
    board: str = Field(description="the board's slug (data/<board>.csv, the board's anchor on its page)")
    row: str = Field(description="the row's id in data/leaderboard.json")
    dataset: str = Field(description="the data it was scored on, as the page names it")
    is_sample: bool = Field(description="scored on a sample NegHub wrote, standing in for an unavailable release")
    split: str | None
    mode: str | None
    shots: int | None
    prompt: str
    chat_template: str = Field(description="yes, no or not stated")
    fine_tuned_on: str | None
    test: str = Field(description="which test of the benchmark (base: its own)")
    seeds: int | None = Field(description="how many seeds the board's figures average (null: not stated)")
    seed: int | None
    model: str = Field(description="the model's name as its submitter or paper gives it (a claim)")
    submission_id: str | None
    source: str | None = Field(description="a paper's row: its table")
    trust: str = Field(description="reported, re-scored, reproduced, neghub-run or rule (board_file.Trust)")
    status: str = Field(
        description="ranked, listed, unranked, held, reference, reported or duplicate (board_file.Status)"
    )
    rank_low: int | None
    rank_high: int | None
    unranked: str | None = Field(description=UNRANKED)
    holds: str | None = Field(description="the row's holds in words, joined with '; '")
    baseline_for: str | None = Field(
        description="a baseline computed on one row's own items (SCN): that row's id; it is that row's floor, "
        "not a row of the board's table"
    )
    rules_version: str
    parameters: int | None
    n_runs: int
    metric: str = Field(description="the figure's path in the result (evaluator)")
    label: str = Field(description="the figure's label on the pages")
    unit: str = Field(description="percent, points, count, correlation, or 'as computed' where no page shows it")
    value: float | None = Field(
        description="the figure, in `unit` (percent and points ×100), to 6 significant digits (a whole number whole)"
    )
    ci_low: float | None = Field(description="its 95% interval's lower bound, in `unit`, to 6 significant digits")
    ci_high: float | None
    sd: float | None = Field(description="the standard deviation over seeds, in `unit`, to 6 significant digits")


LONG_COLUMNS: tuple[str, ...] = tuple(LongRecord.model_fields)


class BoardRecord(BaseModel):
    """One record of a board's download, a line of `data/<board>.csv` (its cells read as the types named here: an
    empty cell is null, `True`/`False` a boolean): one row, every figure a column
    (`metric.<path>`, and `sd.<path>` for a mean over seeds), in the unit the pages show (see `unit` of the long
    format: percent and points ×100), to 6 significant digits (a whole number whole)."""

    model_config = ConfigDict(extra="allow", title="NegHub board record")
    __pydantic_extra__: dict[str, float | None] = Field(init=False)
    task: str
    board: str
    row: str
    dataset: str
    model: str
    submission_id: str | None
    source: str | None
    trust: str
    reproduction: str | None
    status: str
    rank_low: int | None
    rank_high: int | None
    unranked: str | None = Field(description=UNRANKED)
    holds: str | None
    rules_version: str
    also_submitted_by: str | None
    account: str | None
    landing: int | None
    floor_comparison: str | None
    identity: str | None
    fine_tuned_on: str | None
    test: str
    seeds: int | None
    seed: int | None
    baseline_for: str | None
    dataset_licence: str
    dataset_licence_terms: str | None
    parameters: int | None
    open_weights: bool | None
    n_runs: int
    headline_metric: str
    headline: float | None = Field(
        description="the headline figure, in the unit the pages show it, to 6 significant digits"
    )
    predictions_sha256: str | None


FIGURE_COLUMN = r"^(metric|sd)\."


def _board_schema() -> dict[str, Any]:
    schema = schema_of(BoardRecord, BOARD_SCHEMA)
    extra = schema.pop("additionalProperties")
    schema["patternProperties"] = {FIGURE_COLUMN: extra}
    schema["additionalProperties"] = False
    return schema


def site_schemas() -> dict[str, dict[str, Any]]:
    """File name -> every published schema of a site file, with its versioned `$id`."""
    from .board_file import SCHEMA_FILE, LeaderboardFile

    schemas = {
        SCHEMA_FILE: schema_of(LeaderboardFile, SCHEMA_FILE),
        BOARD_SCHEMA: _board_schema(),
        LONG_SCHEMA: schema_of(LongRecord, LONG_SCHEMA),
    }
    return {name: {**schema, "$id": schema_id(name)} for name, schema in schemas.items()}


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _shape(node: Any, in_names: bool = False) -> Any:
    """A schema without its annotations: in a schema object, the keywords of ANNOTATIONS are dropped; in a map of
    names to schemas (`properties`, `patternProperties`, `$defs`) every name is kept (a field may be called
    `title`)."""
    if isinstance(node, dict):
        return {
            key: _shape(value, in_names=not in_names and key in ("properties", "patternProperties", "$defs"))
            for key, value in node.items()
            if in_names or key not in ANNOTATIONS
        }
    if isinstance(node, list):
        return [_shape(item) for item in node]
    return node


def fingerprint(schemas: dict[str, dict[str, Any]]) -> str:
    """The sha256 of the schemas' shape (see the module docstring)."""
    shape = {name: _shape(schema) for name, schema in sorted(schemas.items())}
    return hashlib.sha256(json.dumps(shape, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def recorded(folder: Path) -> dict[str, Any]:
    """schemas/data-contract.json: {"versions": {"<N>": {"fingerprint": ..., "released": bool}}}."""
    path = folder / FINGERPRINTS_FILE
    if not path.is_file():
        return {"versions": {}}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def record(folder: Path, version: int = DATA_CONTRACT_VERSION) -> str | None:
    """Record the generated schemas' fingerprint for `version` in `folder`; the reason it refuses, or None."""
    document = recorded(folder)
    entry = document["versions"].get(str(version))
    current = fingerprint(site_schemas())
    if entry is not None and entry.get("released") and entry.get("fingerprint") != current:
        return (
            f"{FINGERPRINTS_FILE}: data contract {version} is released, its fingerprint stays; the site schemas "
            f"changed: bump DATA_CONTRACT_VERSION (leaderboard/contract.py) to {version + 1}, say what a reader "
            f"must change in CHANGELOG.md's 'Data contract' section, then run `{RECORD_COMMAND}`"
        )
    document["versions"][str(version)] = {"fingerprint": current, "released": bool(entry and entry.get("released"))}
    document["versions"] = dict(sorted(document["versions"].items(), key=lambda item: int(item[0])))
    (folder / FINGERPRINTS_FILE).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """`--schema DIR [--check]`: write (or compare) the site files' schemas; `--record DIR`: record their
    fingerprint for the unreleased DATA_CONTRACT_VERSION."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    if len(args) != 2 or args[0] not in ("--schema", "--record"):
        print("usage: python -m neghub.leaderboard.contract --schema DIR [--check] | --record DIR", file=sys.stderr)
        return 2
    folder = Path(args[1])
    if args[0] == "--record":
        refused = record(folder)
        if refused is not None:
            print(refused, file=sys.stderr)
            return 2
        return 0
    return write_or_check({name: schema_text(schema) for name, schema in site_schemas().items()}, folder, check)


if __name__ == "__main__":
    sys.exit(main())
