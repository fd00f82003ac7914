"""Prompts for any engine: `neghub prompts` and `neghub import`.

`neghub prompts TASK` writes the exact requests of one run (a protocol, a mode, a shot count and seed) as
JSONL, one request a line, in NegHub's order (protocol/requests.py says what each kind asks and the answer it
takes). Any engine answers them; `neghub import TASK ANSWERS.jsonl -o SUBMISSION_DIR`, given the same
options, applies NegHub's own post-processing (answer parsing, arg-max, the cloze test's triplet
selection) and writes the run's prediction file into a submission folder, adding the run and its
protocol to `metadata.yaml`. A folder with none yet is started with the weights that answered pinned
(`--repo-id`/`--revision`, or `--weights PATH` hashed as `neghub run` hashes it) and signed by whoever
imports (pinning.py); without them the import is refused before any answer is read.

Nothing here loads a model: the runs are built from the dataset and the options alone.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ..core.errors import InputError, Problem
from ..core.registry import get_benchmark
from ..fileio import safe_yaml
from ..fileio.files import atomic_write, read_bytes
from ..protocol.plans import DEFAULT_SEEDS, PARTIAL_ITEMS, Rows, RunPlan, RunSettings, partial_sample
from ..protocol.requests import Answer, Request, dumps, request_json
from ..runners.options import check_run_options
from ..runners.pinning import add_submitter_options, pinned_model, require_pinned, source_from_args, submitter_from_args
from ..submissions.format import Metadata, settings_prefix
from .answers import read_answers

MAX_ANSWERS_BYTES = 1024 * 1024 * 1024
MODEL_KINDS = ("causal", "masked", "classifier")


def settings_from_args(args: Any) -> RunSettings:
    """The run options of `prompts`, `import` and `export`, as `neghub run` takes them (one seed)."""
    from ..runners.run import parse_label_map

    seed = getattr(args, "seed", None)
    head = getattr(args, "head_labels", None)
    return RunSettings(
        split=getattr(args, "split", None),
        shots=getattr(args, "shots", 0),
        seeds=(seed if seed is not None else DEFAULT_SEEDS[0],),
        modes=(args.mode,) if getattr(args, "mode", None) else (),
        prompt=getattr(args, "prompt", None),
        data_dir=getattr(args, "data_dir", None),
        unverified=getattr(args, "unverified", False),
        max_pairs=getattr(args, "max_pairs", None),
        max_items=getattr(args, "max_items", None),
        sample_seed=seed if seed is not None else 0,
        chat_template=getattr(args, "chat_template", "auto"),
        label_map=parse_label_map(getattr(args, "label_map", None)),
        head_labels=None if head is None else tuple(h for h in head.split(",") if h),
    )


def expressible_plans(task: str, settings: RunSettings, model_kind: str) -> list[RunPlan]:
    """The runs of a task for these settings whose items are engine-neutral requests (a trial's sample of them
    with `max_items`, as `neghub run --max-items` samples its runs)."""
    benchmark = get_benchmark(task)
    if benchmark.plans is None:
        raise InputError.single("TASK", f"{task} has no runs (submit its predictions instead)")
    plans = [plan for plan in benchmark.plans(settings, model_kind) if plan.requests is not None]
    if settings.max_items is not None:
        plans = [partial_sample(plan, settings.max_items, settings.sample_seed) for plan in plans]
    return plans


def describe(plan: RunPlan) -> str:
    parts = [f"--prompt {plan.prompt}"]
    if plan.mode:
        parts.append(f"--mode {plan.mode}")
    if plan.seed is not None and plan.shots:
        parts.append(f"--seed {plan.seed}")
    return " ".join(parts)


def select_plan(task: str, args: Any) -> RunPlan:
    """The one run the options name; several (two protocols, two modes) are refused with their options. The
    options are checked against the task first, before its dataset is read."""
    check_run_options([task], args)
    plans = expressible_plans(task, settings_from_args(args), args.model_kind)
    if not plans:
        raise InputError.single("TASK", f"{task} has no run these options can express as requests")
    if len(plans) > 1:
        choices = "; ".join(describe(p) for p in plans)
        raise InputError.single("TASK", f"{task} has {len(plans)} runs for these options: choose one ({choices})")
    return plans[0]


def item_requests(plan: RunPlan) -> Iterator[tuple[Any, list[Request]]]:
    assert plan.requests is not None
    for item in plan.items:
        yield item, plan.requests(item)


def prompts_command(args: Any) -> int:
    """`neghub prompts`: the run's requests as JSONL, to a file (written whole or not at all) or stdout."""
    plan = select_plan(args.task, args)
    count = 0

    def write(handle: Any) -> None:
        nonlocal count
        for _, requests in item_requests(plan):
            for request in requests:
                handle.write(dumps(request_json(request)) + "\n")
                count += 1

    if args.output is None:
        write(sys.stdout)
    else:
        atomic_write(args.output, write)
    where = "stdout" if args.output is None else str(args.output)
    print(f"wrote {count:,} {plan.protocol} requests to {where} (the run {plan.file})", file=sys.stderr)
    if plan.requests_note:
        print(f"note: {plan.requests_note}", file=sys.stderr)
    return 0


def lines_from_answers(plan: RunPlan, answers: Sequence[Answer]) -> Rows:
    """Every item's prediction lines from the answers of all its requests, in request order."""
    assert plan.lines is not None
    rows: Rows = []
    start = 0
    for item, requests in item_requests(plan):
        rows += plan.lines(item, list(answers[start : start + len(requests)]))
        start += len(requests)
    return rows


def check_lines(plan: RunPlan, rows: Rows, source: str) -> None:
    """Every line as the validator will see it (the benchmark's line model): an import that would be refused
    later is refused now, before anything is written."""
    model = get_benchmark(plan.task).prediction_line(plan.mode)
    problems: list[Problem] = []
    for number, row in enumerate(rows, start=1):
        try:
            model.model_validate(row)
        except ValidationError as exc:
            problems.append(
                Problem(source, number, None, f"the line made from it is refused: {exc.errors()[0]['msg']}")
            )
            if len(problems) >= 20:
                break
    if problems:
        raise InputError(problems)


def import_command(args: Any) -> int:
    """`neghub import TASK ANSWERS.jsonl`: an engine's answers through NegHub's post-processing."""
    plan = select_plan(args.task, args)
    model, submitter = signed_model(args, args.output, model_from_args(args))  # before any answer is read
    path: Path = args.answers
    data = read_bytes(path, max_bytes=MAX_ANSWERS_BYTES)
    requests = [r for _, rs in item_requests(plan) for r in rs]
    answers = read_answers(str(path), data, requests)
    rows = lines_from_answers(plan, answers)
    check_lines(plan, rows, str(path))
    provenance = {
        "engine": args.engine,
        "answers": f"{path.name} (sha256 {hashlib.sha256(data).hexdigest()}), imported by neghub import",
    }
    write_runs(args.output, [(plan, rows)], provenance, model=model, submitter=submitter, args=args)
    print(f"wrote {args.output / plan.file} ({len(rows):,} lines, protocol {plan.protocol})", file=sys.stderr)
    print_import_next_steps(args.output, [plan])
    return 0


# what an import of a trial's answers says next: the requests of the whole runs are written without --max-items
IMPORTED_TRIAL = (
    "these runs are a trial's (requests written with --max-items: validate refuses them); the whole runs: write "
    "the requests again without --max-items, answer them and import the answers"
)


def print_import_next_steps(out: Path, plans: Sequence[RunPlan]) -> None:
    """`neghub run`'s closing lines (`run.print_next_steps`), for the runs an import wrote."""
    from ..runners.run import print_next_steps

    trial = any(PARTIAL_ITEMS in plan.settings for plan in plans)
    print_next_steps(out, IMPORTED_TRIAL if trial else None)


# --- the submission folder an import writes into -------------------------------------------------------


def write_lines(path: Path, lines: Iterable[str]) -> None:
    """Write text to `path` whole or not at all (a temporary file renamed into place)."""

    def write(handle: Any) -> None:
        handle.writelines(lines)

    atomic_write(path, write)


def model_from_args(args: Any, parameters: int | None = None) -> dict[str, Any] | None:
    """metadata.yaml's model entry for the weights `--repo-id`/`--revision` or `--weights` pin (with
    `--parameters`, else `parameters` where the engine recorded them, `--model-name`, `--license`), or None
    when neither names the weights."""
    source = source_from_args(args)
    if source is None:
        return None
    count = args.parameters if args.parameters is not None else parameters
    if count is None:
        raise InputError.single("--parameters", "give the model's parameter count (metadata.yaml's model entry)")
    return pinned_model(source, name=args.model_name, parameters=count, license_=args.license)


def signed_model(args: Any, out: Path, model: dict[str, Any] | None) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """(the model entry, the submitter) of an import into `out`. A folder with metadata.yaml keeps its
    submitter, and its model unless one is given; a new folder needs both: the model pinned, the import
    signed (`pinning.submitter_from_args`)."""
    meta_path = out / "metadata.yaml"
    if meta_path.exists():
        if model is None:
            loaded = safe_yaml.load(meta_path.read_text(encoding="utf-8")).value
            if isinstance(loaded, dict) and isinstance(loaded.get("model"), dict):
                require_pinned(loaded["model"], str(meta_path))
        return model, {}
    if model is None:
        raise InputError.single(
            "-o",
            f"{out} has no metadata.yaml: name the weights that answered, pinned: --repo-id ORG/NAME --revision "
            "COMMIT (a Hub model) or --weights PATH (its folder or GGUF file), with --parameters N",
        )
    return model, submitter_from_args(args)


def write_runs(
    out: Path,
    runs: Sequence[tuple[RunPlan, Rows]],
    provenance: dict[str, Any],
    *,
    model: dict[str, Any] | None,
    submitter: dict[str, str],
    args: Any,
    run_provenance: dict[str, dict[str, Any]] | None = None,
) -> None:
    """Write the runs' prediction files into the submission folder `out` and add them to its metadata.yaml
    (a run with the same file is replaced); the metadata is checked before anything is written. `model` and
    `submitter` are `signed_model`'s: a folder's own are kept where they are None and empty."""
    from ..runners.run import run_provenance as settings_provenance

    meta_path = out / "metadata.yaml"
    if meta_path.exists():
        loaded = safe_yaml.load(meta_path.read_text(encoding="utf-8"))
        metadata: dict[str, Any] = dict(loaded.value) if isinstance(loaded.value, dict) else {}
        if model is not None:
            metadata["model"] = model
    else:
        assert model is not None and submitter, "signed_model starts a folder with both"
        metadata = {
            "model": model,
            "submitter": submitter,
            "date": dt.date.today().isoformat(),
            "description": "Answers of another engine imported by neghub import; protocols in provenance.",
            "links": [],
            "runs": [],
            "provenance": {},
        }
    files = {plan.file for plan, _ in runs}
    entries = [p.run_entry() for p, _ in runs]
    if getattr(args, "chat_template", "auto") == "auto":
        # whether the engine applied its model's template is not known here: not stated, rather than guessed
        for entry in entries:
            entry.pop("chat_template", None)
    metadata["runs"] = [r for r in metadata.get("runs") or [] if r.get("file") not in files] + entries
    prov = dict(metadata.get("provenance") or {})
    prov.update(settings_provenance([p for p, _ in runs], **provenance))
    for plan, _ in runs:
        prefix = settings_prefix(plan.task, plan.prompt, plan.mode)
        for key, value in (run_provenance or {}).get(plan.file, {}).items():
            prov[f"{prefix}.{key}"] = value
    if getattr(args, "unverified", False):
        prov["data_unverified"] = True
    metadata["provenance"] = prov
    try:
        Metadata.model_validate(metadata)
    except ValidationError as exc:
        raise InputError(
            [Problem(str(meta_path), None, ".".join(map(str, e["loc"])) or None, e["msg"]) for e in exc.errors()]
        ) from None
    out.mkdir(parents=True, exist_ok=True)
    for plan, rows in runs:
        target = out / plan.file
        target.parent.mkdir(parents=True, exist_ok=True)
        write_lines(target, (dumps(row) + "\n" for row in rows))
    text = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True, width=1000)
    write_lines(meta_path, [text])


# --- command line ---------------------------------------------------------------------------------


def add_run_options(parser: Any, *, task: bool = True) -> None:
    """The options that pick one run, shared by `prompts`, `import` and `export`."""
    from ..runners.run import add_chat_template_option

    if task:
        parser.add_argument("task", metavar="TASK")
    parser.add_argument("--split", default=None)
    parser.add_argument("--mode", default=None, help="for benchmarks with modes: which one")
    parser.add_argument("--prompt", default=None, help="the prompt style (the protocol, for minimal-pair benchmarks)")
    parser.add_argument("--shots", type=int, default=0)
    parser.add_argument("--seed", type=int, default=None, help="the few-shot seed (the cloze test: its sample seed)")
    add_chat_template_option(parser)
    parser.add_argument(
        "--model-kind",
        choices=MODEL_KINDS,
        default="causal",
        help="the kind of model that answers (the cloze test: masked or causal; classifier: fine-tuned heads)",
    )
    parser.add_argument("--head-labels", default=None, metavar="L0,L1,...", help="a classifier's labels in order")
    parser.add_argument("--label-map", default=None, metavar="HEAD=LABEL,...")
    from ..runners.run import positive_int

    parser.add_argument(
        "--max-pairs", type=int, default=None, help="the cloze test: a seeded sample of this many name/profession pairs"
    )
    parser.add_argument(
        "--max-items",
        type=positive_int,
        default=None,
        help="a trial: each run's requests for a seeded sample of this many items (the cloze test: pairs, and "
        "candidate verbs within each), recorded as partial on import, as neghub run --max-items",
    )
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--unverified", action="store_true", help="read dataset files that differ from their pins")


def add_model_options(parser: Any) -> None:
    """The weights that answered, pinned, and who signs, when an import starts a submission folder."""
    parser.add_argument("--repo-id", default=None, help="a Hub model's repo id (with --revision)")
    parser.add_argument("--revision", default=None, help="its 40-hex commit")
    parser.add_argument(
        "--weights", type=Path, default=None, help="the model's local folder or GGUF file (pinned by its sha256)"
    )
    parser.add_argument("--parameters", type=int, default=None, help="the model's parameter count")
    parser.add_argument("--model-name", default=None, help="display name (default: the repo id or file name)")
    parser.add_argument("--license", default="unknown")
    add_submitter_options(parser)


def add_parsers(sub: Any) -> None:
    pp = sub.add_parser("prompts", help="write the exact requests of one run as JSONL, for any engine")
    add_run_options(pp)
    pp.add_argument("-o", "--output", type=Path, default=None, help="the JSONL file (default: stdout)")

    ip = sub.add_parser(
        "import",
        help="turn an engine's answers (TASK ANSWERS.jsonl) or lm-eval's --log_samples output (lm-eval "
        "RESULTS_DIR) into a submission run",
    )
    ip.add_argument("task", metavar="TASK|lm-eval")
    ip.add_argument("answers", type=Path, metavar="ANSWERS.jsonl|RESULTS_DIR")
    add_run_options(ip, task=False)
    add_model_options(ip)
    ip.add_argument("--engine", default="unknown engine", help="what answered (name and version), recorded")
    ip.add_argument(
        "--tasks",
        type=lambda s: s.split(","),
        default=["all"],
        help="lm-eval: import only the runs of these benchmarks (default: every exported task found)",
    )
    ip.add_argument("-o", "--output", type=Path, required=True, help="the submission folder to write into")


def replace_settings(settings: RunSettings, **changes: Any) -> RunSettings:
    return dataclasses.replace(settings, **changes)
