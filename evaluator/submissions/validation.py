"""`neghub validate`: the front door of the leaderboard, for `submissions/<id>/` folders.

A submission is read, never run: `metadata.yaml` goes through the strict YAML reader
(evaluator/fileio/safe_yaml.py) and the pydantic models of evaluator/submissions/format.py; every file in the
folder must be `metadata.yaml` or a prediction file a run lists (no symbolic links, no special
files, nothing outside the folder); each prediction file is capped in size and then checked by
its own task exactly as `neghub evaluate` checks it (strict UTF-8 and JSON, complete, no
duplicates, valid values). Every problem of a submission is collected and reported together,
one line each: `file:line: field: message`, paths shown from the submission folder's name.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import ValidationError

from ..core.benchmark import EvalOptions
from ..core.errors import EXIT_BAD_INPUT, EXIT_UNAVAILABLE, InputError, Problem, bounded
from ..core.registry import get_benchmark
from ..core.results import Result
from ..core.stats import BootstrapConfig
from ..fileio import safe_yaml
from ..fileio.logs import log_safe
from ..protocol.plans import PARTIAL_ITEMS, SAMPLE_SEED, SPLIT_ITEMS, without_trial_option
from ..releases.loading import DatasetUnavailable
from .format import (
    PATTERN_EXPECTATIONS,
    RESERVED_IDS,
    RUN_FILE_PATTERN,
    SUBMISSION_ID_PATTERN,
    Metadata,
    Run,
    recorded_settings,
)
from .identity import model_identity
from .rerun import rerun_command

METADATA_FILE = "metadata.yaml"
UNKNOWN_LICENSE = "unknown"  # what `neghub run` records without --license
_SAFE_NAME = re.compile(r"^[A-Za-z0-9._/-]+$")
# Validation discards the scores, so one resample is enough to exercise the scoring path cheaply.
_VALIDATION_BOOTSTRAP = BootstrapConfig(resamples=1, seed=0)


@dataclass(frozen=True)
class Limits:
    """Caps that bound the work a hostile submission can cause (stated in the README and on the Submit page)."""

    metadata_bytes: int = 64 * 1024
    prediction_file_bytes: int = 64 * 1024 * 1024
    submission_bytes: int = 256 * 1024 * 1024  # every file of the submission together
    entries: int = 2000  # files and folders in one submission
    depth: int = 6  # predictions/<task>/<run>.jsonl is depth 3


# Names Windows refuses for a file or folder, whatever the extension (a clone there would fail).
_WINDOWS_RESERVED = re.compile(r"^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$", re.IGNORECASE)
_RUN_FILE = re.compile(RUN_FILE_PATTERN)


def _shown(rel: str) -> str:
    """A path as a message shows it: odd characters (newlines, bidi controls) escaped, so a line stays one line."""
    return rel if _SAFE_NAME.match(rel) else ascii(rel)


@dataclass
class _Entry:
    kind: str  # "file", "dir", "link", "other"
    size: int
    links: int = 1  # names the file has (st_nlink): more than one is a hard link, perhaps to a file outside


def _walk(folder: Path, limits: Limits, prefix: str, problems: list[Problem]) -> dict[str, _Entry]:
    """Every entry under `folder` by POSIX relative path, without following any link."""
    entries: dict[str, _Entry] = {}
    pending: list[tuple[Path, str, int]] = [(folder, "", 0)]
    while pending:
        path, rel, depth = pending.pop()
        try:
            with os.scandir(path) as listing:
                children = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            problems.append(Problem(f"{prefix}/{_shown(rel)}", None, None, f"cannot be listed: {exc.strerror}"))
            continue
        for child in children:
            child_rel = f"{rel}{child.name}"
            if len(entries) >= limits.entries:
                problems.append(Problem(prefix, None, None, f"has more than {limits.entries} files and folders"))
                return entries
            info = child.stat(follow_symlinks=False)
            if stat.S_ISLNK(info.st_mode):
                entries[child_rel] = _Entry("link", 0)
            elif stat.S_ISDIR(info.st_mode):
                entries[child_rel] = _Entry("dir", 0)
                if depth + 1 >= limits.depth:
                    problems.append(Problem(f"{prefix}/{_shown(child_rel)}", None, None, "folder nested too deeply"))
                else:
                    pending.append((Path(child.path), child_rel + "/", depth + 1))
            elif stat.S_ISREG(info.st_mode):
                entries[child_rel] = _Entry("file", info.st_size, info.st_nlink)
            else:
                entries[child_rel] = _Entry("other", 0)
    return entries


def _decode(data: bytes, file: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        raise InputError.single(file, "starts with a UTF-8 byte-order mark (expected UTF-8 without BOM)", line=1)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise InputError.single(file, "is UTF-16 or binary (expected UTF-8 text)", line=1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError.single(file, f"invalid UTF-8 at byte {column} of the line", line=line) from None
    unix = text.replace("\r\n", "\n")  # CRLF is tolerated, as in prediction files
    if "\r" in unix:
        line = unix.count("\n", 0, unix.index("\r")) + 1
        raise InputError.single(file, "has a CR line end (expected LF line ends)", line=line)
    return text


def _path_problem(value: Any) -> str | None:
    """Why a run's `file` points outside the folder, if it does (checked before the pattern: a clearer message)."""
    if not isinstance(value, str):
        return None
    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value):
        return "absolute path (expected a path relative to the submission folder, like predictions/TASK/RUN.jsonl)"
    if ".." in PurePosixPath(value.replace("\\", "/")).parts:
        return "path leaves the submission folder (.. is not allowed)"
    return None


def _clean_loc(value: Any, loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """Drop the parts of a pydantic location that name a union member rather than a key of the document."""
    out: list[str | int] = []
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(value, dict) and i > 0 and part == value.get("kind"):
            continue  # the tag pydantic adds after a union discriminated by `kind` (model: hub, baseline, ...)
        if isinstance(value, dict):
            if part in value:
                value = value[part]
            elif not last:
                continue
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        out.append(part)
    return tuple(out)


def _field_name(loc: tuple[str | int, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _message(error: Any) -> str:
    kind = error["type"]
    if kind == "missing":
        return "missing field"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "union_tag_invalid":
        tags = str(error["ctx"].get("expected_tags", "")).replace("'", "")
        given = error["ctx"].get("tag")
        why = (
            " (a rule's rows are NegHub's own: the leaderboard computes them from the data, and `neghub baseline` "
            "writes a rule's file for your own checks)"
            if given == "baseline"
            else ""
        )
        return f"kind {given!r} is not a kind of model (expected one of: {tags}){why}"
    if kind == "too_long" and error["loc"] == ("runs",):
        most = error["ctx"]["max_length"]
        return (
            f"expected at most {most} runs in one submission, got {len(error['input'])} (a reproduction re-runs every "
            f"item of every run: this bounds the GPU time one submission takes); split the runs into submissions of "
            f"{most} or fewer"
        )
    if kind == "string_pattern_mismatch":
        pattern = str(error["ctx"]["pattern"])
        expected = PATTERN_EXPECTATIONS.get(pattern, f"text matching {pattern}")
        value = str(error["input"])
        shown = repr(value if len(value) <= 60 else value[:57] + "...")
        return f"expected {expected}, got {shown}"
    return str(error["msg"]).removeprefix("Value error, ")


_Read = tuple[Metadata | None, safe_yaml.Document | None, list[Problem]]


def _read_metadata(folder: Path, prefix: str, limits: Limits) -> _Read:
    file = f"{prefix}/{METADATA_FILE}"
    path = folder / METADATA_FILE
    try:
        size = path.stat(follow_symlinks=False).st_size
        if size > limits.metadata_bytes:
            return (
                None,
                None,
                [Problem(file, None, None, f"file is {size} bytes, larger than the cap of {limits.metadata_bytes}")],
            )
        text = _decode(path.read_bytes(), file)
    except InputError as exc:
        return None, None, exc.problems
    except OSError as exc:
        return None, None, [Problem(file, None, None, f"cannot be read: {exc.strerror}")]
    try:
        document = safe_yaml.load(text)
    except safe_yaml.SafeYAMLError as exc:
        return None, None, [Problem(file, exc.line, None, exc.message)]
    raw = document.value
    if not isinstance(raw, dict):
        return (
            None,
            document,
            [Problem(file, document.line_of(()), None, "expected a mapping of fields at the top level")],
        )
    problems: list[Problem] = []
    bad_paths: set[int] = set()
    runs = raw.get("runs")
    if isinstance(runs, list):
        for i, run in enumerate(runs):
            why = _path_problem(run.get("file")) if isinstance(run, dict) else None
            if why is not None:
                bad_paths.add(i)
                problems.append(Problem(file, document.line_of(("runs", i, "file")), f"runs[{i}].file", why))
    try:
        return (Metadata.model_validate(raw) if not problems else None), document, problems
    except ValidationError as exc:
        for error in exc.errors():
            loc = _clean_loc(raw, tuple(error["loc"]))
            if error["type"] == "union_tag_invalid":
                loc = (*loc, str(error["ctx"].get("discriminator", "kind")).strip("'"))
            if len(loc) >= 3 and loc[0] == "runs" and loc[1] in bad_paths and loc[2] == "file":
                continue  # already reported with a clearer message
            problems.append(Problem(file, document.line_of(loc), _field_name(loc) or None, _message(error)))
    if not problems:  # only the pre-checked paths were wrong, and pydantic had nothing else to say
        problems.append(Problem(file, None, None, "invalid metadata"))
    return None, document, problems


def _check_run_setting(run: Run, index: int, file: str, document: safe_yaml.Document) -> list[Problem]:
    """The run's task, split and mode against what the task accepts; each problem on its field's own line."""
    problems: list[Problem] = []
    run_field = f"runs[{index}]"

    def problem(field: str, message: str) -> None:
        problems.append(Problem(file, document.line_of(("runs", index, field)), f"{run_field}.{field}", message))

    expected_folder = f"predictions/{run.task}/"
    if not run.file.startswith(expected_folder):
        problem("file", f"a {run.task} prediction file must be under {expected_folder}")
    task = get_benchmark(run.task)
    if task.default_split is not None and run.split is None:
        problem("split", f"{run.task} needs a split")
    if task.default_split is None and run.split is not None:
        problem("split", f"{run.task} has no splits (expected null)")
    if run.split is not None and task.default_split is not None and run.split not in task.scored_splits:
        problem("split", f"{run.task} has no split {run.split!r} (expected one of: {', '.join(task.scored_splits)})")
    if task.modes and run.mode not in task.modes:
        problem("mode", f"{run.task} needs a mode: one of {', '.join(task.modes)}")
    if not task.modes and run.mode is not None:
        problem("mode", f"{run.task} has a single mode (expected null)")
    return problems


def _escape_controls(text: str | None) -> str | None:
    """Control, format and line-break characters from a submission (a key, a tag) escaped: one problem, one line."""
    if text is None:
        return None
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text)


def validate_submission(folder: Path, *, data_dir: Path | None = None, limits: Limits | None = None) -> list[Problem]:
    """Every problem of one submission folder (empty when it is valid)."""
    return check_submission(folder, data_dir=data_dir, limits=limits).problems


@dataclass
class CheckedSubmission:
    """What validating a submission found: its problems, and on the way its metadata and (when asked
    for) each prediction file's whole result, so that the leaderboard need not read and score again."""

    problems: list[Problem]
    metadata: Metadata | None = None
    results: dict[str, Result] = field(default_factory=dict)  # run file -> result
    # run file -> its problems (also in `problems`) when they are only that the task's dataset cannot
    # be read on this machine: the leaderboard leaves such a run out instead of refusing the submission
    unavailable: dict[str, list[Problem]] = field(default_factory=dict)
    unavailable_reasons: dict[str, list[Problem]] = field(default_factory=dict)  # why, as the loader said it


def check_submission(
    folder: Path,
    *,
    data_dir: Path | None = None,
    limits: Limits | None = None,
    bootstrap: BootstrapConfig | None = None,
) -> CheckedSubmission:
    """Validate one submission folder. With `bootstrap`, also keep every prediction file's result
    (scored with that bootstrap); without, files are scored with one resample and the scores dropped."""
    checked = CheckedSubmission(problems=[])
    problems = _problems(folder, data_dir, limits or Limits(), checked, bootstrap)

    def escaped(p: Problem) -> Problem:
        return Problem(p.file, p.line, _escape_controls(p.field), _escape_controls(p.message) or "", advice=p.advice)

    checked.problems = bounded(escaped(p) for p in problems)
    checked.unavailable = {rel: [escaped(p) for p in found] for rel, found in checked.unavailable.items()}
    return checked


def _name_problems(entries: dict[str, _Entry]) -> dict[str, list[str]]:
    """What makes a name unportable, by entry: reserved on Windows, ending with a space or '.', or differing
    from a sibling only in letter case (macOS and Windows keep one of the two)."""
    found: dict[str, list[str]] = {}
    first_of_fold: dict[tuple[str, str], str] = {}
    for rel in sorted(entries):
        parent, _, name = rel.rpartition("/")
        reasons = found.setdefault(rel, [])
        if _WINDOWS_RESERVED.match(name):
            reasons.append(
                f"the name {name} is reserved on Windows (CON, PRN, AUX, NUL, COM1 to COM9 and LPT1 to LPT9, "
                "with any extension)"
            )
        if name.endswith((" ", ".")):
            reasons.append("the name ends with a space or '.' (Windows drops it)")
        other = first_of_fold.setdefault((parent, name.casefold()), rel)
        if other != rel:
            reasons.append(
                f"its name differs from {_shown(other)} only in letter case (a clone on macOS or Windows keeps only "
                "one of them)"
            )
    return found


def _problems(
    folder: Path, data_dir: Path | None, limits: Limits, checked: CheckedSubmission, bootstrap: BootstrapConfig | None
) -> list[Problem]:
    prefix = folder.resolve().name if folder.name in ("", ".", "..") else folder.name
    shown_prefix = _shown(prefix)
    if folder.is_symlink():
        return [Problem(shown_prefix, None, None, "is a symbolic link (expected a folder)")]
    if not folder.is_dir():
        return [Problem(shown_prefix, None, None, "not found or not a folder")]
    problems: list[Problem] = []
    if not re.match(SUBMISSION_ID_PATTERN, prefix):
        problems.append(
            Problem(
                shown_prefix,
                None,
                None,
                f"folder name is not a valid submission id (expected {PATTERN_EXPECTATIONS[SUBMISSION_ID_PATTERN]})",
            )
        )
    elif prefix in RESERVED_IDS:
        problems.append(
            Problem(
                shown_prefix,
                None,
                None,
                f"folder name {prefix} is taken by the site's own pages (reserved: choose another submission id)",
            )
        )
    entries = _walk(folder, limits, shown_prefix, problems)
    meta_file = f"{shown_prefix}/{METADATA_FILE}"
    metadata: Metadata | None = None
    document: safe_yaml.Document | None = None
    meta_entry = entries.get(METADATA_FILE)
    if meta_entry is None:
        problems.append(Problem(meta_file, None, None, "missing (every submission needs its metadata.yaml)"))
    elif meta_entry.kind == "file" and meta_entry.links == 1:
        metadata, document, meta_problems = _read_metadata(folder, shown_prefix, limits)
        problems.extend(meta_problems)
        checked.metadata = metadata

    listed: dict[str, int] = {}
    if metadata is not None and document is not None:
        for i, run in enumerate(metadata.runs):
            if run.file in listed:
                problems.append(
                    Problem(
                        meta_file,
                        document.line_of(("runs", i, "file")),
                        f"runs[{i}].file",
                        f"{run.file} is already the file of runs[{listed[run.file]}]",
                    )
                )
                continue
            listed[run.file] = i
            problems.extend(_check_run_setting(run, i, meta_file, document))
    unusable: set[str] = set()  # listed files whose run is already refused: not read

    names = _name_problems(entries)
    for rel in sorted(entries):
        entry = entries[rel]
        where = f"{shown_prefix}/{_shown(rel)}"
        problems.extend(Problem(where, None, None, reason) for reason in names[rel])
        expected_file = rel == METADATA_FILE or rel in listed
        if entry.kind == "link":
            problems.append(Problem(where, None, None, "is a symbolic link (not allowed in a submission)"))
        elif entry.kind == "other":
            problems.append(Problem(where, None, None, "is not a regular file"))
        elif entry.kind == "file" and entry.links > 1:
            problems.append(
                Problem(where, None, None, f"has {entry.links} names (a hard link; expected a file of its own)")
            )
        elif entry.kind == "dir" and rel == METADATA_FILE:
            problems.append(Problem(where, None, None, "is a folder (expected the file metadata.yaml)"))
        elif entry.kind == "file" and not expected_file:
            if metadata is not None:
                problems.append(
                    Problem(where, None, None, "is not listed in metadata.yaml (every file must be a run's file)")
                )
            elif not _RUN_FILE.match(rel):  # without the metadata, any file that could be a run's is let be
                problems.append(
                    Problem(
                        where,
                        None,
                        None,
                        "is not where a submission keeps files (expected metadata.yaml and "
                        "predictions/<task>/<run>.jsonl only)",
                    )
                )
        if names[rel]:
            unusable.add(rel)

    if metadata is None:
        return problems
    refused_runs = {int(str(p.field).split("]")[0].removeprefix("runs[")) for p in problems if _is_run_field(p)}
    total = sum(e.size for e in entries.values() if e.kind == "file")
    if total > limits.submission_bytes:
        problems.append(
            Problem(
                shown_prefix,
                None,
                None,
                f"its files hold {total} bytes together, more than the cap of {limits.submission_bytes} for one "
                "submission",
            )
        )
        return problems
    for rel, index in listed.items():
        run = metadata.runs[index]
        where = f"{shown_prefix}/{rel}"
        found = entries.get(rel)
        if found is None:
            problems.append(Problem(where, None, None, f"not found (listed as runs[{index}].file)"))
            continue
        if found.kind == "dir":
            problems.append(
                Problem(where, None, None, f"is a folder (expected the prediction file listed as runs[{index}].file)")
            )
            continue
        if found.kind != "file" or found.links > 1 or rel in unusable or index in refused_runs:
            continue  # reported above; never read
        partial = _partial_run(metadata, run)
        if partial is not None:  # not read: its missing items would only repeat this, less clearly
            problems.append(Problem(where, None, None, partial))
            continue
        if found.size > limits.prediction_file_bytes:
            problems.append(
                Problem(
                    where,
                    None,
                    None,
                    f"file is {found.size} bytes, larger than the cap of {limits.prediction_file_bytes}",
                )
            )
            continue
        try:
            file_problems, result = _check_predictions(folder / rel, where, run, data_dir, bootstrap)
        except DatasetUnavailable as exc:
            # said of this submission's file, so that a log of many submissions names the one concerned
            file_problems = [
                Problem(where, None, None, f"cannot be checked here: the {run.task} release cannot be read ({p})")
                for p in exc.problems
            ]
            result = None
            checked.unavailable[rel] = file_problems
            checked.unavailable_reasons[rel] = exc.problems
        problems.extend(file_problems)
        if result is not None:
            checked.results[rel] = result
    return problems


def _partial_run(metadata: Metadata, run: Run) -> str | None:
    """Why a run that `neghub run --max-items` sampled (recorded as partial in its provenance) is refused, with
    the command that runs the whole split; None for a complete run."""
    return _partial_message(
        metadata.recorded_settings(run), metadata.provenance or {}, "a submission runs every item", rerun_below=True
    )


# how a refused partial run points at the whole run's command, which `neghub validate` prints once per folder
RERUN_BELOW = "run the same command without --max-items (neghub validate prints it once, after `rerun:`)"


def _partial_message(
    recorded: dict[str, Any], provenance: dict[str, Any], needs: str, *, rerun_below: bool = False
) -> str | None:
    """`needs` and the whole split's command (`rerun_below`: a pointer to the `rerun:` line that `neghub validate`
    prints once for the folder, instead of the command in every run's line), where a run's recorded settings
    mark it partial; else None."""
    ran = recorded.get(PARTIAL_ITEMS)
    if ran is None:
        return None
    of = recorded.get(SPLIT_ITEMS)
    counted = f"{_count(ran)} of {_count(of)}" if of is not None else _count(ran)
    seed = recorded.get(SAMPLE_SEED)
    sampled = f", sampled with seed {seed}" if seed is not None else ""
    try:
        words = shlex.split(str(provenance.get("command") or ""))
    except ValueError:
        words = []
    kept = without_trial_option(words)
    if words and len(kept) < len(words):
        whole = RERUN_BELOW if rerun_below else f"run the same command without --max-items: {shlex.join(kept)}"
    elif "engine" in provenance or any(str(key).endswith(".engine") for key in provenance):
        # an import: the requests (neghub prompts) or the lm-eval tasks (neghub export lm-eval) were a trial's
        return (
            f"a partial run: {counted} items{sampled} (requests written with --max-items, for trying a model); "
            f"{needs}: write them again without --max-items, answer them and import the answers"
        )
    else:
        whole = "run neghub run without --max-items"
    why = "neghub run --max-items, for trying a model"
    return f"a partial run: {counted} items{sampled} ({why}); {needs}: {whole}"


def _count(value: Any) -> str:
    """A count as a message writes it: 8,640."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def partial_run_of_file(path: Path) -> str | None:
    """Why `neghub evaluate` cannot score `path`, where it is the file of a run that the metadata.yaml of its
    submission folder (FOLDER/predictions/<task>/<file>) records as partial: the scorers count over every item
    of a split (the minimal pairs, the multiple-choice items), and a sample would read as missing lines.
    None for any other file (a file on its own, a complete run, metadata that cannot be read). The metadata is
    read as plain YAML, not validated: validating it would load every plugin benchmark its runs might name."""
    resolved = path.resolve()
    if len(resolved.parents) < 3:
        return None
    folder = resolved.parents[2]
    meta_path = folder / METADATA_FILE
    try:
        if not meta_path.is_file() or meta_path.stat().st_size > Limits().metadata_bytes:
            return None
        raw = safe_yaml.load(meta_path.read_text(encoding="utf-8")).value
    except (OSError, UnicodeDecodeError, safe_yaml.SafeYAMLError):
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("runs"), list):
        return None
    found = raw.get("provenance")
    provenance: dict[str, Any] = {str(k): v for k, v in found.items()} if isinstance(found, dict) else {}
    rel = resolved.relative_to(folder).as_posix()
    for run in raw["runs"]:
        if isinstance(run, dict) and run.get("file") == rel:
            recorded = recorded_settings(provenance, str(run.get("task")), str(run.get("prompt")), run.get("mode"))
            return _partial_message(recorded, provenance, "neghub evaluate scores whole splits only")
    return None


def _is_run_field(problem: Problem) -> bool:
    return problem.field is not None and problem.field.startswith("runs[") and "]." in problem.field


def _check_predictions(
    path: Path, where: str, run: Run, data_dir: Path | None, bootstrap: BootstrapConfig | None
) -> tuple[list[Problem], Result | None]:
    """The benchmark's own checks of one prediction file (all of `neghub evaluate`'s, and the leaderboard's
    rules on top); and the file's result when `bootstrap` asks for it."""
    try:
        options = EvalOptions(
            split=run.split,
            mode=run.mode,
            data_dir=data_dir,
            bootstrap=bootstrap or _VALIDATION_BOOTSTRAP,
            display_name=where,
            for_leaderboard=True,
        )
        result = get_benchmark(run.task).evaluate(path, options)
    except DatasetUnavailable:
        raise  # not the file's fault: the caller records it apart
    except InputError as exc:
        return exc.problems, None
    return [], None if bootstrap is None else result


def _identity_fields(metadata: Metadata | None) -> dict[str, str | None]:
    """The model a submission is, as the leaderboard compares rows (submissions/identity.py): its key, and in
    words, so that a submitter sees before the pull request which model the rows will count as."""
    if metadata is None:
        return {"model_identity": None, "model": None}
    identity = model_identity(metadata)
    if identity is None:
        return {
            "model_identity": None,
            "model": f"{metadata.model.name}, not pinned (a local model with no sha256): the leaderboard cannot "
            "tell it from another model, so its rows never confirm or are confirmed by another",
        }
    return {"model_identity": identity.key, "model": identity.words}


def license_warning(folder: Path, metadata: Metadata | None) -> str | None:
    """The line `neghub validate` adds where metadata.yaml gives the model's licence as unknown (what `neghub run`
    records without --license): not a problem of the folder, which is valid, but the submitter's to state."""
    if metadata is None or metadata.model.license.strip().lower() != UNKNOWN_LICENSE:
        return None
    return (
        f"warning: {log_safe(folder.name)}/{METADATA_FILE}: model.license: {metadata.model.license!r}: the "
        "leaderboard shows the licence as unknown; write the licence the model card names (e.g. apache-2.0), or "
        "pass --license to neghub run"
    )


def run_validate(
    folders: Sequence[Path],
    *,
    data_dir: Path | None,
    as_json: bool,
    model: str | None = None,
) -> int:
    """The `neghub validate` command: exit 0 when every submission is valid, 3 when the only problems are that a
    dataset release cannot be read here (nothing found wrong with the submissions so far), 2 otherwise. A folder
    of a trial's partial runs gets the whole run's command once (`rerun:`), its machine paths filled from `model`
    and `data_dir` where given, else placeholders; a licence given as unknown, a warning line."""
    checked = [(folder, check_submission(folder, data_dir=data_dir)) for folder in folders]
    results = [(folder, found.problems) for folder, found in checked]
    reruns = {
        folder: None if found.metadata is None else rerun_command(found.metadata, model=model, data_dir=data_dir)
        for folder, found in checked
    }
    warnings = {folder: license_warning(folder, found.metadata) for folder, found in checked}
    if as_json:
        out = {
            "submissions": [
                {
                    "path": str(folder),
                    "valid": not found.problems,
                    "problems": [
                        {"file": p.file, "line": p.line, "field": p.field, "message": p.full_message}
                        for p in found.problems
                    ],
                    **_identity_fields(found.metadata),
                    "rerun": reruns[folder],
                    "warnings": [w.removeprefix("warning: ") for w in (warnings[folder],) if w is not None],
                }
                for folder, found in checked
            ]
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        for folder, found in checked:
            for problem in found.problems:
                print(f"error: {problem}", file=sys.stderr)
            if reruns[folder] is not None:
                print(f"rerun: {log_safe(str(reruns[folder]))}", file=sys.stderr)
            if warnings[folder] is not None:
                print(warnings[folder], file=sys.stderr)
            if not found.problems:
                print(f"ok: {log_safe(str(folder))}")
                print(f"  model: {log_safe(_identity_fields(found.metadata)['model'] or '')}")
    if not any(problems for _, problems in results):
        return 0
    unavailable = {p for _, found in checked for problems in found.unavailable.values() for p in problems}
    only_unavailable = all(p in unavailable for _, problems in results for p in problems)
    return EXIT_UNAVAILABLE if only_unavailable else EXIT_BAD_INPUT
