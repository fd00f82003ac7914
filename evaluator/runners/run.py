"""`neghub run`: run a model on the benchmarks and write a complete submission folder.

Each run writes its prediction file, resuming an interrupted one (execution.py); a generation run and a
log-likelihood run of the same prompts run together, batch by batch, in float32 (execution.py's `fused_pairs`).
`metadata.yaml` is written last, when every run is final.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import importlib.metadata
import importlib.util
import os
import platform
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import InputError
from ..core.registry import benchmark_names, get_benchmark
from ..fileio.files import prepare_output_folder
from ..protocol.plans import DEFAULT_SEEDS, PARTIAL_ITEMS, RunPlan, RunSettings, partial_sample, without_trial_option
from ..releases.loading import DatasetUnavailable, find_release
from ..submissions.format import PATH_PLACEHOLDER, Metadata, absolute_path, settings_prefix
from ..submissions.reproduction import NumericSetting
from ..submissions.rerun import submission_folder, with_output
from ..submissions.validation import UNKNOWN_LICENSE
from .backend import Backend
from .execution import execute_pair, execute_plan, fused_pairs, write_text
from .loading import DEFAULT_PACK_LINEARS, DEVICE_MAPS, DEVICES, DTYPES, load_backend, resolve_source, run_setting
from .options import check_run_options
from .pinning import add_submitter_options, pinned_model, signer
from .setting import DEFAULT_BATCH_SIZE, setting_provenance
from .trial import TrialRun, print_trial_report

# the import names of the `models` extra (pyproject.toml), which the base install leaves out
MODELS_EXTRA_MODULES = ("torch", "transformers", "safetensors", "tqdm", "gguf", "accelerate")
MODELS_EXTRA_INSTALL = "pip install torch==2.13.0 'neghub[models]'"
# neghub run's token budget per batch (--batch-tokens): it bounds a batch of long prompts (JNLI-Neg's through a chat
# template, about 480 tokens: 17 rows), not SCN's short texts (64 rows of about 13 tokens). Measured with SmolLM2 on
# 2 cores (128 consecutive JNLI-Neg items, CPU time, load 5-10): greedy runs 0.53 s an item in batches of 8 and 0.46
# in 64, the log-likelihood run 0.32 and 0.36 (wider padded rows): the budget keeps the rows between the two. Twice
# the budget (about 35 rows) lost on both (68 items, load 12-14: greedy 0.415 -> 0.429 s an item, log-likelihood 0.290
# -> 0.354): the greedy run's 7 one-token steps gain less from more rows than its prompt pass loses
DEFAULT_BATCH_TOKENS = 8192
# the cloze test's name/profession pairs under `--tasks all` where --max-pairs is not given: the Submit page's run
# (a seeded sample; all 44,240 pairs would take hundreds of hours on a CPU); recorded as max_pairs, as if given
ALL_TASKS_MAX_PAIRS = 20
# what metadata.yaml records without --license (UNKNOWN_LICENSE), said as a warning at the run and a line of
# neghub validate: a licence is the submitter's to state (a model card's), never guessed
LICENSE_WARNING = (
    f"warning: --license not given: metadata.yaml records the model's licence as {UNKNOWN_LICENSE!r}; give the "
    "licence its model card names (e.g. --license apache-2.0), or write it into metadata.yaml's model.license"
)


def require_models_extra() -> None:
    """Refuse to start a run, in one line, where the `models` extra is not installed."""
    missing = [name for name in MODELS_EXTRA_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise InputError.single(
            "neghub run", f"needs the models extra ({', '.join(missing)} not installed): {MODELS_EXTRA_INSTALL}"
        )


def execute_plans(
    backend: Backend, plans: Sequence[RunPlan], out: Path, setting: NumericSetting, *, progress: bool
) -> dict[int, dict[str, float]]:
    """Every run's prediction file written (`execute_plan`), a fused pair's two runs together (`execute_pair`), each
    run's figures printed as it ends; returns them by `id(plan)`."""
    figures: dict[int, dict[str, float]] = {}
    partner = {id(gen): ll for gen, ll in fused_pairs(plans, setting)}
    for plan in plans:
        if id(plan) in figures:
            continue  # a log-likelihood run written with its generation run
        ll = partner.get(id(plan))
        both = execute_pair(backend, plan, ll, out, setting, progress=progress) if ll is not None else None
        if ll is not None and both is not None:
            figures[id(plan)], figures[id(ll)] = both
            if both[1]["items"]:
                print(f"{ll.file}: {both[1]['items']} items, with {plan.file}", file=sys.stderr)
        else:
            figures[id(plan)] = execute_plan(backend, plan, out, setting, progress=progress)
        t = figures[id(plan)]
        if t["items"]:
            rate = t["items"] / t["seconds"] if t["seconds"] else 0.0
            print(f"{plan.file}: {t['items']} items in {t['seconds']:.1f}s ({rate:.2f} items/s)", file=sys.stderr)
    return figures


def _library_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for dist in ("neghub", "torch", "transformers", "tokenizers", "gguf", "accelerate"):
        try:
            out[f"{dist}_version"] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[f"{dist}_version"] = None
    return out


def parse_label_map(text: str | None) -> tuple[tuple[str, str], ...]:
    """`--label-map HEAD=LABEL,HEAD=LABEL,...` as pairs; a pair without "=" is refused."""
    if not text:
        return ()
    pairs: list[tuple[str, str]] = []
    for part in text.split(","):
        head, sep, label = part.partition("=")
        if not sep or not head.strip() or not label.strip():
            raise InputError.single("--label-map", f"expected HEAD=LABEL pairs separated by commas, got {part!r}")
        pairs.append((head.strip(), label.strip()))
    return tuple(pairs)


def settings_from(args: Any) -> RunSettings:
    """The command line's options, as every benchmark's runs take them."""
    head_labels = getattr(args, "head_labels", None)
    return RunSettings(
        split=args.split,
        shots=args.shots,
        seeds=tuple(args.seeds or DEFAULT_SEEDS),
        modes=tuple(args.mode or ()),
        prompt=args.prompt,
        data_dir=args.data_dir,
        batch_size=args.batch_size,
        batch_tokens=getattr(args, "batch_tokens", None),
        unverified=args.unverified,
        max_pairs=getattr(args, "max_pairs", None),
        max_items=getattr(args, "max_items", None),
        sample_seed=args.sample_seed,
        chat_template=getattr(args, "chat_template", "auto"),
        label_map=parse_label_map(getattr(args, "label_map", None)),
        head_labels=None if head_labels is None else tuple(h for h in head_labels.split(",") if h),
    )


def for_model(settings: RunSettings, backend: Backend) -> RunSettings:
    """The settings as this model runs them: a chat template where `auto` finds one, a classifier's labels."""
    chat = settings.chat_template
    if chat == "auto":
        chat = "on" if backend.has_chat_template else "off"
    elif chat == "on" and not backend.has_chat_template:
        raise InputError.single("--chat-template", "on, but the model's tokenizer has no chat template")
    head = backend.head_labels() if backend.kind == "classifier" else None
    return dataclasses.replace(settings, chat_template=chat, head_labels=head)


def build_plans(args: Any, backend_kind: str, settings: RunSettings | None = None) -> list[RunPlan]:
    settings = settings or settings_from(args)
    plans: list[RunPlan] = []
    for task in requested_tasks(args):
        task_plans = get_benchmark(task).plans
        assert task_plans is not None  # requested_tasks refuses a task neghub run cannot run
        plans += task_plans(settings, backend_kind)
    if settings.max_items is not None:
        plans = [partial_sample(plan, settings.max_items, settings.sample_seed) for plan in plans]
    for plan in plans:
        plan.batch_tokens = settings.batch_tokens  # every run's batches follow the setting's token budget
    return plans


def requested_tasks(args: Any) -> list[str]:
    """The benchmarks `--tasks` names (`all`: every one `neghub run` can run), each refused if it cannot be run."""
    runnable = [name for name in benchmark_names() if get_benchmark(name).plans is not None]
    tasks = runnable if args.tasks == ["all"] else list(args.tasks)
    for task in tasks:
        if get_benchmark(task).plans is None:
            raise InputError.single("--tasks", f"{task} cannot be run by neghub run (submit its predictions instead)")
    return tasks


def choose_all_tasks(args: Any) -> str:
    """`--tasks all` made concrete, before a model is loaded: every task `neghub run` can run whose release can be
    read here (`check_releases`), the cloze test on ALL_TASKS_MAX_PAIRS pairs unless --max-pairs is given; sets
    `args.tasks` (and `args.max_pairs`) and returns the one line that says so, naming each task left out and why.
    Only a release that cannot be found is left out: one that is found and differs from its pin still stops the
    run (exit 2), as it would for a task named."""
    settings = settings_from(args)
    kept: list[str] = []
    left_out: list[str] = []
    for task in requested_tasks(args):
        try:
            check_releases([task], settings)
        except DatasetUnavailable as exc:
            left_out.append(f"{task} ({exc.problems[0].message})")
        else:
            kept.append(task)
    if not kept:
        raise DatasetUnavailable.single("--tasks all", f"no task's release can be read here: {'; '.join(left_out)}")
    args.tasks = kept
    notes = []
    for task in kept:
        if get_benchmark(task).family != "cloze":
            continue
        if getattr(args, "max_pairs", None) is None:
            args.max_pairs = ALL_TASKS_MAX_PAIRS
            notes.append(
                f"{task} on {ALL_TASKS_MAX_PAIRS} name/profession pairs, seeded, as the Submit page's run: give "
                "--max-pairs N for another number"
            )
        else:
            notes.append(f"{task} on {args.max_pairs} name/profession pairs (--max-pairs)")
    running = ", ".join(kept) + (f" ({'; '.join(notes)})" if notes else "")
    return f"--tasks all: running {running}" + (f"; left out: {', '.join(left_out)}" if left_out else "")


def check_releases(tasks: Sequence[str], settings: RunSettings) -> None:
    """Every task's release found, and the files of the split its runs score read (each checked against its
    sha256), before a model is loaded: a machine that cannot reach a release fails in a moment with what is
    missing (exit 3), not after minutes of loading. The plans read the same files through the same loader
    (`find_release`) once the model is known. A release from its pinned upstream is downloaded whole, as its
    first use does; the few-shot split of a local mirror is still read by the plans only."""
    for task in tasks:
        benchmark = get_benchmark(task)
        release = find_release(
            benchmark.metadata,
            data_dir=settings.data_dir,
            unverified=settings.unverified,
            bundled=benchmark.bundled_release,
        )
        split = settings.split or benchmark.default_split
        files = [f for f in benchmark.metadata.files if f.split == split] or benchmark.metadata.files
        for release_file in files:
            release.file(release_file)


def refuse_whole_run_over_trial(out: Path, settings: RunSettings) -> None:
    """Refuse a whole run into a folder that holds a trial's runs: a run keeps each prediction file already
    written (that is how an interrupted run resumes), so the trial's samples would stay, under a metadata.yaml
    that no longer says they are partial."""
    meta = out / "metadata.yaml"
    if settings.max_items is not None or not meta.is_file():
        return
    try:
        recorded = yaml.safe_load(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return  # not a metadata.yaml neghub run wrote: the run writes its own over it
    provenance = recorded.get("provenance") if isinstance(recorded, dict) else None
    if isinstance(provenance, dict) and any(str(key).endswith("." + PARTIAL_ITEMS) for key in provenance):
        raise InputError.single(
            str(out),
            "holds a trial's partial runs (--max-items), which a whole run would keep: write the whole run to "
            "another -o folder (submissions/<id>), or delete this one",
        )


def run_provenance(plans: Sequence[RunPlan], **extra: Any) -> dict[str, Any]:
    """Each run's protocol and settings, keyed TASK.PROMPT.MODE.KEY (the seeds of a run share them)."""
    prov: dict[str, Any] = {}
    for plan in plans:
        prefix = settings_prefix(plan.task, plan.prompt, plan.mode)
        prov[f"{prefix}.protocol"] = plan.protocol
        for key, value in {**plan.settings, **extra}.items():
            prov[f"{prefix}.{key}"] = value
    return prov


def run_command(args: Any, argv: Sequence[str]) -> int:
    out: Path = args.output
    check_run_options(requested_tasks(args), args)  # before the extra, a release or the model is looked at
    require_models_extra()
    source = resolve_source(args.model, args.revision)
    # who signs it, a release that cannot be read and an unwritable -o are reported before the model is loaded,
    # not after minutes of loading; that git's user signs is said with the submission written, not before an error
    submitter, signing_note = signer(args)
    if args.tasks == ["all"]:
        print(choose_all_tasks(args), file=sys.stderr)  # its releases checked, before the model is loaded
    else:
        check_releases(requested_tasks(args), settings_from(args))
    refuse_whole_run_over_trial(out, settings_from(args))
    made = prepare_output_folder(out)
    try:
        backend = load_backend(
            source,
            device=args.device,
            dtype=args.dtype,
            attn_implementation=getattr(args, "attn_implementation", None),
            device_map=getattr(args, "device_map", "device"),
            pack_linears=getattr(args, "pack_linears", DEFAULT_PACK_LINEARS),
        )
        settings = for_model(settings_from(args), backend)
        plans = build_plans(args, backend.kind, settings)
    except BaseException:
        if made and not any(out.iterdir()):
            out.rmdir()  # nothing was written: leave no empty submission folder behind
        raise
    setting = run_setting(backend, settings.batch_size, settings.batch_tokens)
    written: list[RunPlan] = []
    ran: list[TrialRun] = []
    figures = execute_plans(backend, plans, out, setting, progress=not args.no_progress)
    for plan in plans:
        t = figures[id(plan)]
        if t["written"]:
            written.append(plan)
            ran.append(TrialRun(plan, int(t["items"]), float(t["seconds"])))
        else:
            print(f"{plan.file}: {plan.empty_reason}: no file written, the run is left out", file=sys.stderr)
    if not written:
        if made and not any(out.rglob("*.*")):
            shutil.rmtree(out)  # only the empty prediction folders: leave no empty submission behind
        raise InputError.single("neghub run", "no run gave a prediction line: no submission written")
    plans = written
    runs = [p.run_entry() for p in plans]
    prov: dict[str, Any] = {**backend.info, **_library_versions(), **setting_provenance(setting)}
    prov["gguf_sha256"] = source.gguf_sha256
    prov["python_version"] = platform.python_version()
    prov["machine"] = " ".join(x for x in (platform.machine(), platform.processor(), f"{os.cpu_count()} cores") if x)
    model_entry = pinned_model(
        source,
        name=args.model_name,
        parameters=int(sum(p.numel() for p in backend.model.parameters())),
        license_=args.license or UNKNOWN_LICENSE,
    )
    prov["command"] = published_command(argv, args.model, weights_name(model_entry), out)
    prov["chat_template"] = settings.chat_template
    prov.update(run_provenance(plans))
    prov["data_unverified"] = args.unverified
    if settings.max_pairs is not None:
        prov["max_pairs"] = settings.max_pairs
    metadata = {
        "model": model_entry,
        "submitter": submitter,
        "date": dt.date.today().isoformat(),
        "description": args.description
        or f"Made by neghub run on {args.device} ({args.dtype}); prompts and numeric settings in provenance.",
        "links": [],
        "runs": runs,
        "provenance": prov,
    }
    Metadata.model_validate(metadata)  # the runner must never write a metadata.yaml the validator rejects
    text = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True, width=1000)
    write_text(out / "metadata.yaml", text)
    print(f"wrote {out / 'metadata.yaml'} ({len(runs)} runs)", file=sys.stderr)
    if signing_note:
        print(signing_note, file=sys.stderr)
    if args.license is None:
        print(LICENSE_WARNING, file=sys.stderr)
    trial = any(PARTIAL_ITEMS in plan.settings for plan in plans)
    if not trial:
        print_next_steps(out, None)
        return 0
    print_trial_report(ran, out, settings)
    folder = submission_folder(str(model_entry["name"]))
    whole = f"neghub {shlex.join(with_output(without_trial_option(argv), folder))}"
    print_next_steps(
        folder,
        f"this was a trial (its runs are partial: validate refuses them); the whole run, into the folder "
        f"your pull request adds: {whole}",
    )
    return 0


def print_next_steps(out: Path, trial: str | None) -> None:
    """What to do with the folder just written, on stderr: where it holds a trial's runs, `trial` first (what
    makes the whole runs, into the folder the pull request adds: a trial's partial runs are refused); then the
    check and the pull request (the Submit page's steps)."""
    if trial is not None:
        print(f"next: {trial}", file=sys.stderr)
    step = "then" if trial is not None else "next"
    print(
        f"{step}: neghub validate {shlex.quote(str(out))}, then open a pull request adding the folder under "
        "submissions/ (its check runs nox -s validate, rescore, site_check and submission_summary)",
        file=sys.stderr,
    )


def weights_name(model: dict[str, Any]) -> str:
    """How a published command names the weights of a model entry: a Hub repo by its id, a package's file by its
    path in the package, a local folder or file by its name (the entry's sha256 pins what it was)."""
    return str(model.get("repo_id") or model.get("file") or model.get("name"))


# `neghub run`'s options whose value is a path of this machine, and what a published command writes instead
# (the submission folder by its name; the data mirror as the README's placeholder)
_PATH_OPTIONS = {"-o": "output", "--output": "output", "--data-dir": PATH_PLACEHOLDER}


def published_command(argv: Sequence[str], model: str, weights: str, out: Path) -> str:
    """`neghub run ...` as metadata.yaml records it: the arguments given, and nothing of this machine (no path,
    no user name): MODEL as `weights`, the output folder by its name, the data mirror as DATA_DIR, any other
    absolute path (in a description, say) as PATH."""
    words = list(argv)
    takes_value = _options_taking_values()
    published: list[str] = []
    model_seen = False
    for i, word in enumerate(words):
        option, equals, _ = word.partition("=")
        previous = words[i - 1] if i else ""
        if previous in _PATH_OPTIONS:
            word = out.name if _PATH_OPTIONS[previous] == "output" else _PATH_OPTIONS[previous]
        elif equals and option in _PATH_OPTIONS:
            word = f"{option}={out.name if _PATH_OPTIONS[option] == 'output' else _PATH_OPTIONS[option]}"
        elif i and not model_seen and word == model and previous not in takes_value and not word.startswith("-"):
            word, model_seen = weights, True
        elif absolute_path(word) is not None:
            word = f"{option}=PATH" if equals and option.startswith("-") else "PATH"
        published.append(word)
    return "neghub " + shlex.join(published)


def _options_taking_values() -> set[str]:
    """The option strings of `neghub run` that take a value (read from its parser)."""
    run = add_run_parser(argparse.ArgumentParser().add_subparsers())
    return {option for action in run._actions if action.nargs != 0 for option in action.option_strings}


def add_chat_template_option(parser: Any) -> None:
    parser.add_argument(
        "--chat-template",
        choices=("auto", "on", "off"),
        default="auto",
        help="send prompts through the model's chat template (auto: where the model has one; recorded). "
        "Applies to the minimal-pair benchmarks' prompts",
    )


def positive_int(text: str) -> int:
    """An argparse type: a whole number of 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return int(text)


def add_setting_options(parser: Any, *, recorded_defaults: bool = False) -> None:
    """The numeric setting's options (runners/setting.py), recorded in the provenance: `neghub run`'s defaults,
    or for `neghub reproduce` None each, the value the submission records."""

    def default(value: Any) -> tuple[Any, str]:
        if recorded_defaults:
            return None, " (default: the recorded one)"
        return value, "" if value is None else f" (default {value})"

    device, device_note = default("cpu")
    parser.add_argument("--device", default=device, choices=DEVICES, help=f"where the model computes{device_note}")
    dtype, dtype_note = default("float32")
    parser.add_argument("--dtype", default=dtype, choices=DTYPES, help=f"the weights' dtype{dtype_note}")
    _, attention_note = default(None)
    parser.add_argument(
        "--attn-implementation",
        default=None,
        help="transformers' attention: sdpa, eager, flash_attention_2, ..."
        + (attention_note or " (default: transformers' choice for the model, recorded as it runs)"),
    )
    size, size_note = default(DEFAULT_BATCH_SIZE)
    parser.add_argument("--batch-size", type=positive_int, default=size, help=f"items per batch, at most{size_note}")
    tokens, tokens_note = default(DEFAULT_BATCH_TOKENS)
    parser.add_argument(
        "--batch-tokens",
        type=positive_int,
        default=tokens,
        help=f"padded tokens per batch, at most: a batch's rows times its longest item{tokens_note}; on a GPU, "
        "raise both",
    )
    parser.add_argument(
        "--device-map",
        default="device",
        choices=DEVICE_MAPS,
        help="device: the weights on --device; auto: spread over every visible GPU, for a model larger than one",
    )


def add_run_parser(sub: Any) -> argparse.ArgumentParser:
    """The `neghub run` sub-command (argparse only: nothing heavy is imported here)."""
    rp = sub.add_parser("run", help="run an open-weight model on the benchmarks and write a submission folder")
    rp.add_argument("model", help="Hub repo id (with --revision), a local model folder, or a local .gguf file")
    rp.add_argument("--revision", default=None, help="the 40-hex commit of a Hub model")
    rp.add_argument(
        "--tasks",
        required=True,
        type=lambda s: s.split(","),
        help="comma-separated benchmark names (`neghub tasks` lists them), or all",
    )
    rp.add_argument("--split", default=None)
    rp.add_argument("--shots", type=int, default=0)
    rp.add_argument(
        "--seeds", type=int, nargs="+", default=None, help="few-shot seeds (default 42 1234 3000 5000 7000)"
    )
    rp.add_argument("--mode", action="append", help="for benchmarks with modes: run these (default: every mode)")
    rp.add_argument(
        "--prompt",
        default=None,
        help="the prompt style, for benchmarks that have several (default: every style of the minimal-pair "
        "benchmarks, the first of the others)",
    )
    add_chat_template_option(rp)
    rp.add_argument(
        "--label-map",
        default=None,
        metavar="HEAD=LABEL,...",
        help="a fine-tuned NLI classifier's labels named as the benchmark's (default: its id2label)",
    )
    add_setting_options(rp)
    rp.add_argument(
        "--pack-linears",
        action=argparse.BooleanOptionalAction,
        default=DEFAULT_PACK_LINEARS,
        help="on CPU in float32, run the linear layers through oneDNN with pre-packed weights: a second copy "
        "of the linear weights in memory (about 4 bytes per parameter); recorded as cpu_matmul",
    )
    rp.add_argument(
        "--max-pairs",
        type=positive_int,
        default=None,
        help="the cloze test's protocol: a seeded sample of this many name/profession pairs (a complete run)",
    )
    rp.add_argument(
        "--max-items",
        type=positive_int,
        default=None,
        help="to try a model: each run on a seeded sample of this many items (a negation minimal pair's items "
        "kept together), recorded as partial: neghub validate refuses it, neghub evaluate cannot score it",
    )
    rp.add_argument(
        "--sample-seed",
        dest="sample_seed",
        type=int,
        default=0,
        help="seed of those samples (and of the cloze test's verb sample)",
    )
    rp.add_argument("--data-dir", type=Path, default=None)
    rp.add_argument(
        "--unverified", action="store_true", help="read dataset files that differ from their pins (recorded)"
    )
    rp.add_argument("--model-name", default=None, help="display name in metadata.yaml")
    rp.add_argument(
        "--license",
        default=None,
        help="the model's licence as its model card names it (an SPDX id such as apache-2.0), for metadata.yaml "
        f"(without it: {UNKNOWN_LICENSE}, with a warning)",
    )
    add_submitter_options(rp)
    rp.add_argument("--description", default=None)
    rp.add_argument("--no-progress", action="store_true", help="no progress bar")
    rp.add_argument("-o", "--output", type=Path, required=True, help="the submission folder to write")
    parser: argparse.ArgumentParser = rp
    return parser
