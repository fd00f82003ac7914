"""`neghub datasets pin TASK --revision COMMIT`: pin a commit of a release its authors publish on the Hub.

The command downloads the release at that commit with huggingface_hub (`snapshot_download`; `HF_ENDPOINT`
and `HF_TOKEN` as the library reads them), reads which files make which configuration and split from the
release's own card (its `configs:`, as `datasets` does), counts the records of every split, and compares
them with what the paper reports (the metadata's `official_release.expected`: split sizes, and counts per
value of a field where the paper gives them). Only a release that matches is pinned: the commit and the
sha256 and size of every file in it are written to `hub_pin.yaml` beside the benchmark's metadata.

Why a file of its own, and YAML: the pin is machine-written, so it is written whole, in one canonical form
(`metadata.pin_text`), never edited into Python source by pattern; a review sees a diff of a commit hash and
a few sha256 lines. It is checked three ways: the metadata validates it when it is imported (the pinned
split sizes must be the paper's), a test compares the committed file with its canonical form (a hand edit
shows), and the cards print it, so a card not regenerated after a pin fails the cards' drift test.

Why not `neghub datasets publish --pin`: publish uploads NegHub's own copy of a release and pins the commit
it made (it needs a write token); pin only reads someone else's release and records what it found there.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ..core.errors import InputError, Problem
from ..fileio.files import read_bytes
from ..protocol.metadata import PIN_FILE_NAME, ExpectedSplit, HubPin, HubRelease, PinnedFile, pin_text
from .loading import DatasetUnavailable, sha256_file
from .statistics import count_records
from .tasks import metadata_module, metadata_of

COMMIT = re.compile(r"^[0-9a-f]{40}$")
CARD_FILE = "README.md"


def pin_path(task: str) -> Path:
    """Where a task's pin is kept: beside the module that defines its metadata."""
    return Path(str(metadata_module(task).__file__)).with_name(PIN_FILE_NAME)


def download(release: HubRelease, revision: str) -> Path:
    """The release's files at `revision`, through huggingface_hub's cache."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError, RevisionNotFoundError
    from huggingface_hub.utils import disable_progress_bars  # type: ignore[attr-defined]

    disable_progress_bars()  # one line per file is printed instead, after the checks
    where = f"hf://datasets/{release.repo_id}@{revision}"
    try:
        return Path(snapshot_download(repo_id=release.repo_id, repo_type="dataset", revision=revision))
    except GatedRepoError:
        raise DatasetUnavailable.single(
            where,
            f"the repository is gated: accept its conditions at {release.url} while logged in, then log in here "
            "as that account (`hf auth login`, or set HF_TOKEN)",
        ) from None
    except RevisionNotFoundError:
        raise InputError.single(where, f"no commit {revision} in {release.repo_id}", field="--revision") from None
    except RepositoryNotFoundError:
        raise DatasetUnavailable.single(where, f"no dataset repository {release.repo_id} on the Hub") from None
    except Exception as exc:  # the library raises many kinds; each becomes one line
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatasetUnavailable.single(
            where, f"cannot download the release ({type(exc).__name__}: {first_line[:300]})"
        ) from None


def card_splits(folder: Path, files: list[str]) -> dict[tuple[str, str], list[str]]:
    """(config, split) -> the files that hold it, from the `configs:` of the release's card."""
    from .cards import split_front_matter

    card = folder / CARD_FILE
    if not card.is_file():
        raise InputError.single(CARD_FILE, "missing: the release's card says which files hold which split")
    try:
        matter, _ = split_front_matter(card.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError.single(CARD_FILE, f"unreadable front matter: {exc}") from None
    configs = matter.get("configs")
    if not isinstance(configs, list) or not configs:
        raise InputError.single(CARD_FILE, "no `configs:` in the front matter: which file holds which split?")
    found: dict[tuple[str, str], list[str]] = {}
    for config in configs:
        name = str(config.get("config_name", "default"))
        entries = config.get("data_files")
        if isinstance(entries, str) or (isinstance(entries, list) and not all(isinstance(e, dict) for e in entries)):
            entries = [{"split": "train", "path": entries}]  # data_files without splits: all of it is train
        for entry in entries or []:
            patterns = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
            matched = sorted(f for f in files if any(_matches(f, str(p)) for p in patterns))
            if not matched:
                raise InputError.single(
                    CARD_FILE, f"{name}/{entry['split']}: no file of the release matches {', '.join(patterns)}"
                )
            found[name, str(entry["split"])] = matched
    return found


def _matches(path: str, pattern: str) -> bool:
    """A `data_files` pattern as `datasets` reads it: `*` and `?` stay within a folder, `**` crosses folders."""
    regex = re.escape(pattern).replace(r"\*\*", "\0").replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
    return re.fullmatch(regex.replace("\0", ".*"), path) is not None


def _values(path: Path, field: str) -> list[Any]:
    """The values of one field in a data file, record by record."""
    if path.suffix == ".parquet":
        return list(_parquet(path).read(columns=[field]).column(field).to_pylist())
    if path.suffix == ".jsonl":
        lines = read_bytes(path).decode("utf-8").splitlines()
        return [json.loads(line).get(field) for line in lines if line.strip()]
    raise InputError.single(str(path), f"cannot read the field {field!r} of a {path.suffix} file")


def _parquet(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError.single(str(path), "reading Parquet needs pyarrow: pip install 'neghub[site]'") from None
    return pq.ParquetFile(path)


def count_rows(path: Path) -> int:
    """The records of a data file, as `datasets` loads them."""
    if path.suffix == ".parquet":
        return int(_parquet(path).metadata.num_rows)
    if path.suffix in (".jsonl", ".txt", ".tsv"):
        return count_records(path)
    raise InputError.single(str(path), f"cannot count the records of a {path.suffix} file (Parquet, JSON Lines, text)")


def check_against_paper(
    release: HubRelease, splits: dict[tuple[str, str], list[str]], folder: Path, rows: dict[str, int]
) -> list[Problem]:
    """One problem per split whose size (or count per value) differs from the paper's, or that the paper lacks."""
    problems: list[Problem] = []
    expected: dict[tuple[str, str], ExpectedSplit] = {(e.config, e.split): e for e in release.expected}
    where = f"hf://datasets/{release.repo_id}"
    for key, e in expected.items():
        if key not in splits:
            message = f"no {e.config}/{e.split}: the paper has {e.n_records:,} records ({e.source})"
            problems.append(Problem(where, None, None, message))
            continue
        found = sum(rows[f] for f in splits[key])
        if found != e.n_records:
            message = f"{e.config}/{e.split} has {found:,} records, the paper {e.n_records:,} ({e.source})"
            problems.append(Problem(where, None, None, message))
        elif e.count_field is not None:
            values = Counter(str(v) for f in splits[key] for v in _values(folder / f, e.count_field))
            for value in sorted(set(values) | set(e.counts)):
                if values.get(value, 0) != e.counts.get(value, 0):
                    problems.append(
                        Problem(
                            where,
                            None,
                            e.count_field,
                            f"{e.config}/{e.split} has {values.get(value, 0):,} records with {e.count_field} "
                            f"{value!r}, the paper {e.counts.get(value, 0):,} ({e.source})",
                        )
                    )
    for config, split in splits:
        if (config, split) not in expected:
            n = sum(rows[f] for f in splits[config, split])
            problems.append(Problem(where, None, None, f"{config}/{split} ({n:,} records) is not in the paper"))
    return problems


def pin_of(release: HubRelease, revision: str, folder: Path) -> HubPin:
    """The pin of the release in `folder` (downloaded at `revision`), or InputError naming each mismatch."""
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    splits = card_splits(folder, files)
    data = {f: key for key, matched in splits.items() for f in matched}
    rows = {f: count_rows(folder / f) for f in data}
    problems = check_against_paper(release, splits, folder, rows)
    if problems:
        raise InputError(problems)
    return HubPin(
        repo_id=release.repo_id,
        revision=revision,
        files=tuple(
            PinnedFile(
                path=f,
                size=(folder / f).stat().st_size,
                sha256=sha256_file(folder / f),
                config=data[f][0] if f in data else None,
                split=data[f][1] if f in data else None,
                n_records=rows.get(f),
            )
            for f in files
        ),
    )


def pin(task: str, revision: str, *, output: Path | None = None, dry_run: bool = False) -> HubPin:
    """Download, check and (unless `dry_run`) write the pin of `task`'s official release; one line per file."""
    release = metadata_of(task).official_release
    if release is None:
        raise InputError.single(task, "its metadata names no release of its authors on the Hub (official_release)")
    if not COMMIT.match(revision):
        raise InputError.single("--revision", f"expected a commit hash (40 lowercase hex digits), got {revision!r}")
    result = pin_of(release, revision, download(release, revision))
    HubRelease.model_validate({**release.model_dump(), "pin": result.model_dump()})  # as the metadata will read it
    for f in result.files:
        what = f"{f.config}/{f.split} {f.n_records:,} records" if f.n_records is not None else "not data"
        print(f"OK        {f.path}  {f.sha256}  ({what})")
    path = output or pin_path(task)
    if dry_run:
        print(f"would pin {task} to {release.repo_id}@{revision} in {path}")
        return result
    from .cards import write_text

    write_text(path, pin_text(result))
    print(f"pinned {task} to {release.repo_id}@{revision} in {path}; regenerate the cards with `nox -s cards`")
    return result
