"""lm-evaluation-harness both ways: `neghub export lm-eval DIR` and `neghub import lm-eval RESULTS_DIR`.

Export writes, for every benchmark and run lm-eval can express, a task YAML and its documents (JSONL, one
per request, holding NegHub's exact prompt and continuations) and its own Python module beside them (`<task>.py`),
whose functions the YAML names with `!function`, so that exporting other tasks into the same folder later leaves
every task whole:

- a log-likelihood run is a `multiple_choice` task whose choices are NegHub's continuations (after lm-eval's
  target delimiter " " where they all begin with a space);
- a generation run is a `generate_until` task, greedy, with NegHub's token budget and stop strings;
- a top-1 run on a causal LM is a `generate_until` task of one token.

How lm-eval scores each run is the benchmark's own (`Benchmark.lm_eval`, a `protocol.lm_eval.LmEvalScoring`):
the fields each document adds (its right answer), the metrics, and the functions that read an answer or
aggregate, from files the scoring names (written into the task's module after its common part, lm_eval_utils.py;
none imports NegHub; a scoring names them `!function utils.NAME`, utils being the task's module). So lm-eval
prints, for every exported task, the figure `neghub evaluate` gives on the same answers, a plugin benchmark's
included; a benchmark that declares no scoring gets none printed (`NO_SCORE`).
Fine-tuned classifiers and masked LMs are not lm-eval models: those runs are not exported. Every task is tagged
`neghub`, so `lm_eval ... --include_path DIR --tasks neghub` runs them all. Import reads lm-eval's
`--log_samples` output (its results JSON, which names the tasks, their NegHub runs in `metadata.neghub`, the
model it loaded, the lm-eval version and the task hashes, and each task's samples JSONL), parses the
log-likelihoods from the strings lm-eval writes, hands the answers to the same post-processing as `neghub
import`, and pins the model from lm-eval's model arguments (or refuses).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import InputError, Problem
from ..core.registry import benchmark_names, get_benchmark
from ..fileio.files import read_bytes
from ..fileio.jsonl import JsonlReader
from ..protocol.lm_eval import NO_SCORE, LmEvalScoring
from ..protocol.plans import Rows, RunPlan, RunSettings
from ..protocol.requests import BROKEN_CHARACTER, Answer, Request, dumps
from ..runners.loading import ModelSource, resolve_source
from ..runners.options import RUN_OPTIONS, check_run_options
from ..runners.pinning import is_commit, pinned_model
from ..submissions.format import HUB_REPO_PATTERN
from .prompts import (
    check_lines,
    expressible_plans,
    item_requests,
    lines_from_answers,
    model_from_args,
    print_import_next_steps,
    settings_from_args,
    signed_model,
    write_lines,
    write_runs,
)

TAG = "neghub"
LM_EVAL_TESTED = "0.4.13"  # the version `nox -s interop` runs
UTILS_SOURCE = Path(__file__).with_name("lm_eval_utils.py")  # every task module's common part


def task_name(plan: RunPlan) -> str:
    """lm-eval's name of a run: neghub_ and the prediction file's stem, in lowercase and underscores."""
    stem = Path(plan.file).stem
    return f"{TAG}_" + re.sub(r"[^a-z0-9]+", "_", stem.lower()).strip("_")


def expressible(plan: RunPlan, requests: list[Request]) -> str | None:
    """Why lm-eval cannot express a run, or None when it can."""
    kinds = {r.kind for r in requests}
    if "classify" in kinds:
        return "a fine-tuned classifier's head is not an lm-eval model"
    if any(r.mask is not None for r in requests):
        return "lm-eval has no top-1 at a mask"
    if any(r.chat for r in requests):
        return "chat templates are lm-eval's own option (--apply_chat_template)"
    return None


# --- how lm-eval scores each run: the benchmark's scoring (`Benchmark.lm_eval`), and its module ---------------


def scoring_of(plan: RunPlan, settings: RunSettings) -> LmEvalScoring:
    """The scoring the run's benchmark declares, or no score (with a note: NegHub scores the import)."""
    scorer = get_benchmark(plan.task).lm_eval
    if scorer is None:
        note = f"note: {task_name(plan)}: lm-eval prints no score for {plan.task} (NegHub scores the import)"
        print(note, file=sys.stderr)
        return NO_SCORE
    return scorer(plan, settings)


def utils_source(scorings: Sequence[LmEvalScoring]) -> str:
    """A task's module: its common part (lm_eval_utils.py), then every file the scorings name, each once, in
    order. Two files that define one top-level name are refused: lm-eval would call whichever comes last."""
    parts = [UTILS_SOURCE]
    for scoring in scorings:
        parts += [path for path in scoring.utils if path not in parts]
    defined: dict[str, Path] = {}
    texts = []
    for path in parts:
        text = path.read_text(encoding="utf-8")
        for name in _top_level_names(text):
            if defined.setdefault(name, path) != path:
                raise InputError.single(
                    "lm-eval",
                    f"{path} and {defined[name]} both define {name!r} for a task's module: rename one of them",
                )
        texts.append(text)
    return "\n\n".join(texts)


def _top_level_names(source: str) -> list[str]:
    """The names a module's top level defines (functions, classes, assigned names; not what it imports)."""
    names: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)]
    return names


def _delimiter(request: Request) -> str:
    """lm-eval's target delimiter for a request's continuations: the space they all begin with, if they do
    (NUBench's options), so that the choices are the options themselves (acc_norm divides by their length)."""
    return " " if request.continuations and all(c.startswith(" ") for c in request.continuations) else ""


def _document(item: Any, request: Request, scoring: LmEvalScoring) -> dict[str, Any]:
    doc: dict[str, Any] = {"neghub_id": request.id, "query": request.prompt, "choices": []}
    if request.kind == "loglikelihood":
        cut = len(_delimiter(request))
        doc["choices"] = [c[cut:] for c in request.continuations]
    doc.update(scoring.fields(item, request))
    return doc


def _task_yaml(
    name: str,
    plan: RunPlan,
    request: Request,
    docs_file: Path,
    scoring: LmEvalScoring,
    max_pairs: int | None,
    max_items: int | None,
) -> dict[str, Any]:
    config: dict[str, Any] = {
        "task": name,
        "tag": [TAG],
        "dataset_path": "json",
        # the documents' file by its name: the module's load_documents reads it beside itself, so the exported folder
        # holds no path of this machine and may be moved or shared
        "dataset_kwargs": {"data_files": {"test": docs_file.name}},
        "custom_dataset": "!function utils.load_documents",
        "test_split": "test",
        "doc_to_text": "!function utils.doc_to_text",
        "doc_to_target": "!function utils.doc_to_target",
        "num_fewshot": 0,  # NegHub's own demonstrations are in the query already
        "metric_list": scoring.metric_list,
        "metadata": {
            "version": 2.0,  # 2: documents carry the right answer, and lm-eval scores them
            TAG: {
                "task": plan.task,
                "split": plan.split,
                "file": plan.file,
                "prompt": plan.prompt,
                "mode": plan.mode,
                "shots": plan.shots,
                "seed": plan.seed,
                "protocol": plan.protocol,
                "max_pairs": max_pairs,
                "max_items": max_items,
            },
        },
    }
    if scoring.process_results is not None:
        config["process_results"] = f"!function utils.{scoring.process_results}"
    if request.kind == "loglikelihood":
        config.update(
            output_type="multiple_choice",
            doc_to_choice="!function utils.doc_to_choice",
            target_delimiter=_delimiter(request),
        )
    else:
        top1 = request.kind == "top1"
        config.update(
            output_type="generate_until",
            generation_kwargs={
                "until": [] if top1 else list(request.until),
                "max_gen_toks": 1 if top1 else request.max_new_tokens,
                "do_sample": False,
                "temperature": 0.0,
            },
        )
    return config


class _FunctionTag(str):
    """A YAML scalar written as lm-eval's `!function` tag."""


def _represent_function(dumper: yaml.SafeDumper, value: _FunctionTag) -> Any:
    return dumper.represent_scalar("!function", str(value).removeprefix("!function "))


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_FunctionTag, _represent_function)


def _tag_functions(value: Any, module: str) -> Any:
    """`!function utils.NAME` (as a scoring names its functions) as lm-eval's tag on the task's own module."""
    if isinstance(value, dict):
        return {k: _tag_functions(v, module) for k, v in value.items()}
    if isinstance(value, list):
        return [_tag_functions(v, module) for v in value]
    if isinstance(value, str) and value.startswith("!function "):
        name = value.removeprefix("!function ")
        return _FunctionTag(f"!function {module}.{name.removeprefix('utils.')}")
    return value


# requests per second of lm-eval's HF backend on one-token generations, SmolLM2-135M on a 2-core CPU (README,
# "lm-evaluation-harness both ways"): what the export's estimate of the time is made with
LM_EVAL_REQUESTS_PER_SECOND = 26
# the trial offered (`--max-items`) where lm-eval asks every request of a run that neghub run selects adaptively:
# smaller than the Submit page's trial of neghub run (20), since lm-eval asks every candidate
ADAPTIVE_TRIAL_ITEMS = 10


def adaptive_export_note(name: str, plan: RunPlan, settings: RunSettings) -> str:
    """What a run costs in lm-eval where neghub run selects its requests adaptively (the plan's requests_note):
    lm-eval asks every one, so the note gives their number and an estimate of the time, and, where the export is
    no trial already, a trial's size that runs in minutes."""
    requests = sum(len(rs) for _, rs in item_requests(plan))
    note = (
        f"note: {name}: {requests:,} requests, every one asked by lm-eval where neghub run selects adaptively; about "
        f"{_duration(requests / LM_EVAL_REQUESTS_PER_SECOND)} at {LM_EVAL_REQUESTS_PER_SECOND} requests/s (lm-eval, "
        "SmolLM2-135M, 2 CPU cores)"
    )
    if settings.max_items is None:
        trial_settings = dataclasses.replace(settings, max_items=ADAPTIVE_TRIAL_ITEMS)
        (trial,) = [p for p in expressible_plans(plan.task, trial_settings, "causal") if p.file == plan.file]
        asked = sum(len(rs) for _, rs in item_requests(trial))
        note += (
            f"; to try a model in minutes, export with --max-items {ADAPTIVE_TRIAL_ITEMS} ({asked:,} requests, about "
            f"{_duration(asked / LM_EVAL_REQUESTS_PER_SECOND)}; its import is partial, which neghub validate refuses)"
        )
    return note


def _duration(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def export_command(args: Any) -> int:
    """`neghub export lm-eval DIR`: task YAMLs, their documents and each task's module."""
    if args.target != "lm-eval":
        raise InputError.single("FORMAT", f"unknown export format {args.target!r} (expected lm-eval)")
    out: Path = args.output
    names = benchmark_names() if args.tasks == ["all"] else args.tasks
    check_run_options([n for n in names if get_benchmark(n).plans is not None], args)
    settings = settings_from_args(args)
    settings = RunSettings(**{**settings.__dict__, "chat_template": "off"})
    written: list[str] = []
    for task in names:
        benchmark = get_benchmark(task)
        if benchmark.plans is None:
            continue
        try:
            plans = expressible_plans(task, settings, "causal")
        except InputError as exc:
            if args.tasks != ["all"]:
                raise
            print(f"skipped {task}: {exc.problems[0].full_message}", file=sys.stderr)
            continue
        for plan in plans:
            name = task_name(plan)
            if plan.protocol == "top1" and settings.max_pairs is None and settings.max_items is None:
                print(f"skipped {name}: give --max-pairs N to export the cloze test's requests", file=sys.stderr)
                continue
            pairs = [(item, r) for item, rs in item_requests(plan) for r in rs]
            why = expressible(plan, [r for _, r in pairs])
            if why is not None:
                print(f"skipped {name}: {why}", file=sys.stderr)
                continue
            if plan.requests_note:
                print(adaptive_export_note(name, plan, settings), file=sys.stderr)
            scoring = scoring_of(plan, settings)
            module = utils_source([scoring])  # refused before any of the task's files is written
            out.mkdir(parents=True, exist_ok=True)
            docs_file = out / f"{name}.jsonl"
            write_lines(docs_file, (dumps(_document(item, r, scoring)) + "\n" for item, r in pairs))
            write_lines(out / f"{name}.py", [module])
            config = _task_yaml(name, plan, pairs[0][1], docs_file, scoring, settings.max_pairs, settings.max_items)
            text = yaml.dump(
                _tag_functions(config, name), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000
            )
            write_lines(out / f"{name}.yaml", [text])
            written.append(name)
    if not written:
        raise InputError.single("--tasks", "no run of these tasks can be expressed as an lm-eval task")
    print(f"wrote {len(written)} lm-eval tasks (tag {TAG}) to {out}: {', '.join(written)}", file=sys.stderr)
    return 0


# --- import ----------------------------------------------------------------------------------------


def _number(text: Any) -> float | None:
    """A log-likelihood as lm-eval's samples write it: a number, or its string ("-12.5")."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        value = float(text)
    elif isinstance(text, str):
        try:
            value = float(text)
        except ValueError:
            return None
    else:
        return None
    return value if math.isfinite(value) and value <= 0 else None


def _loglikelihood(resp: Any) -> float | None:
    """One choice's response: [["-1.25", "False"]], ["-1.25", "False"], or "(-1.25, False)" as written."""
    while isinstance(resp, list) and len(resp) == 1 and isinstance(resp[0], list):
        resp = resp[0]
    if isinstance(resp, str) and resp.startswith("("):
        try:
            resp = list(ast.literal_eval(resp))
        except (ValueError, SyntaxError):
            return None
    if isinstance(resp, list) and resp:
        return _number(resp[0])
    return _number(resp)


def _text(resp: Any) -> str | None:
    while isinstance(resp, list) and len(resp) == 1:
        resp = resp[0]
    return resp if isinstance(resp, str) else None


def sample_answer(request: Request, sample: dict[str, Any]) -> tuple[Answer | None, str | None]:
    """(a request's answer from its lm-eval sample, None), or (None, what is wrong with the sample)."""
    resps = sample.get("resps")
    if not isinstance(resps, list):
        return None, "resps: expected a list"
    if request.kind == "loglikelihood":
        if len(resps) != len(request.continuations):
            return None, f"resps: expected {len(request.continuations)} responses (one per choice), got {len(resps)}"
        numbers = [_loglikelihood(r) for r in resps]
        if any(n is None for n in numbers):
            return None, "resps: expected a log-likelihood (a number <= 0) for every choice"
        return [n for n in numbers if n is not None], None
    text = _text(sample.get("filtered_resps", resps))
    if text is None:
        return None, "filtered_resps: expected the generated text"
    return text.rstrip(BROKEN_CHARACTER), None


def _results_files(root: Path) -> list[Path]:
    found = sorted(root.rglob("results_*.json")) if root.is_dir() else []
    if not found:
        raise InputError.single(str(root), "no lm-eval results_*.json found (run lm_eval with --output_path)")
    return found


def _neghub_tasks(results_file: Path) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Task name -> (its neghub metadata, the results JSON) for the exported tasks of one results file."""
    try:
        results = json.loads(read_bytes(results_file))
    except ValueError as exc:
        raise InputError.single(str(results_file), f"not JSON: {exc}") from None
    if not isinstance(results, dict):
        raise InputError.single(str(results_file), "expected lm-eval's results object")
    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for name, config in (results.get("configs") or {}).items():
        meta = (config.get("metadata") or {}).get(TAG) if isinstance(config, dict) else None
        if isinstance(meta, dict):
            out[name] = (meta, results)
    return out


def _samples_file(results_file: Path, name: str) -> Path:
    stamp = results_file.stem.removeprefix("results_")
    path = results_file.parent / f"samples_{name}_{stamp}.jsonl"
    if not path.exists():
        raise InputError.single(str(path), f"missing: run lm_eval with --log_samples (the samples of {name})")
    return path


def _plan_for(meta: dict[str, Any], args: Any, *, chat: bool) -> RunPlan:
    """The run the exported task `meta` describes, as `neghub run` makes it with the chat-template use lm-eval
    recorded (`--apply_chat_template`): a run whose prompts can go through a chat template then records it as
    `neghub run` does, and one no template touches (a multiple-choice log-likelihood run) records none."""
    settings = settings_from_args(args)
    settings = RunSettings(
        **{
            **settings.__dict__,
            "split": meta.get("split"),
            "shots": int(meta.get("shots") or 0),
            "seeds": (meta["seed"],) if meta.get("seed") is not None else settings.seeds,
            "sample_seed": meta["seed"] if meta.get("seed") is not None else 0,
            "modes": (meta["mode"],) if meta.get("mode") else (),
            "prompt": meta.get("prompt"),
            "max_pairs": meta.get("max_pairs"),
            "max_items": meta.get("max_items"),
            "chat_template": "on" if chat else "off",
        }
    )
    plans = [p for p in expressible_plans(str(meta.get("task")), settings, "causal") if p.file == meta.get("file")]
    if len(plans) != 1:
        raise InputError.single(
            "lm-eval", f"no NegHub run makes {meta.get('file')!r} (was it exported by this version?)"
        )
    return plans[0]


def import_command(args: Any) -> int:
    """`neghub import lm-eval RESULTS_DIR`: every exported task found in lm-eval's output, as submission runs."""
    refuse_run_options(args)
    for task in [] if args.tasks == ["all"] else args.tasks:
        get_benchmark(task)  # an unknown name is refused now, with "did you mean"
    tasks: dict[str, tuple[Path, dict[str, Any], dict[str, Any]]] = {}
    for results_file in _results_files(args.answers):
        for name, (meta, results) in _neghub_tasks(results_file).items():
            if args.tasks == ["all"] or meta.get("task") in args.tasks:
                tasks[name] = (results_file, meta, results)  # a later results file (sorted by time) wins
    if not tasks:
        raise InputError.single(
            str(args.answers), f"no task exported by neghub export lm-eval (tag {TAG}) in the results"
        )
    # the model pinned and the import signed before any sample is read
    loaded = [(results_file, results) for results_file, _, results in tasks.values()]
    given = model_from_args(args, _parameters(loaded[0][1]))
    if given is None and not (args.output / "metadata.yaml").exists():
        given = lm_eval_model(args, loaded)
    model, submitter = signed_model(args, args.output, given)
    runs: list[tuple[RunPlan, Rows]] = []
    per_run: dict[str, dict[str, Any]] = {}
    versions: set[str] = set()
    for name in sorted(tasks):
        results_file, meta, results = tasks[name]
        chat = bool(results.get("chat_template"))  # lm-eval records the template it applied, else null
        plan = _plan_for(meta, args, chat=chat)
        requests = [r for _, rs in item_requests(plan) for r in rs]
        samples_path = _samples_file(results_file, name)
        answers = _read_samples(samples_path, requests, plan.task)
        rows = lines_from_answers(plan, answers)
        check_lines(plan, rows, str(samples_path))
        runs.append((plan, rows))
        version = str(results.get("lm_eval_version") or "unknown")
        versions.add(version)
        per_run[plan.file] = {
            "engine": f"lm-evaluation-harness {version}",
            "lm_eval_task": name,
            "lm_eval_task_hash": (results.get("task_hashes") or {}).get(name),
            # lm-eval's backend (hf, vllm, ...); the weights it loaded are the model entry's (a local path is no
            # part of a published submission)
            "lm_eval_model": str((results.get("config") or {}).get("model") or ""),
        }
        if chat and "chat_template" not in plan.settings:
            # lm-eval put prompts through a template where `neghub run` never does: said, so that these answers
            # land on a board of their own rather than beside `neghub run`'s
            per_run[plan.file]["chat_template"] = True
    provenance = {"answers": f"lm-eval --log_samples output, imported by neghub import lm-eval ({len(runs)} tasks)"}
    write_runs(args.output, runs, provenance, model=model, submitter=submitter, args=args, run_provenance=per_run)
    for plan, rows in runs:
        print(f"wrote {args.output / plan.file} ({len(rows):,} lines, protocol {plan.protocol})", file=sys.stderr)
    if any(v != LM_EVAL_TESTED for v in versions):
        print(
            f"note: lm-eval {', '.join(sorted(versions))}; NegHub's interop test runs {LM_EVAL_TESTED}", file=sys.stderr
        )
    print_import_next_steps(args.output, [plan for plan, _ in runs])
    return 0


def refuse_run_options(args: Any) -> None:
    """An lm-eval import takes each run's settings from the results (the exported task recorded them): a run
    option given to it would be ignored, so it is refused."""
    given = [option for option, rule in RUN_OPTIONS.items() if getattr(args, rule.dest, rule.default) != rule.default]
    if given:
        raise InputError(
            Problem(
                option,
                None,
                None,
                "lm-eval's results record each run's settings (the exported tasks wrote them): leave it out",
            )
            for option in given
        )


def _read_samples(path: Path, requests: list[Request], task: str) -> list[Answer]:
    problems: list[Problem] = []
    index = {str(r.id): i for i, r in enumerate(requests)}
    answers: list[Answer | None] = [None] * len(requests)
    name = str(path)
    for number, sample in JsonlReader(read_bytes(path), name, problems):
        doc = sample.get("doc")
        key = str(doc.get("neghub_id")) if isinstance(doc, dict) else None
        i = index.get(key) if key is not None else None
        if i is None:
            problems.append(Problem(name, number, "doc.neghub_id", f"no request has the id {key!r}"))
        else:
            answer, wrong = sample_answer(requests[i], sample)
            if wrong is not None:
                problems.append(Problem(name, number, None, wrong))
            answers[i] = answer
        if len(problems) >= 50:
            break
    missing = sum(a is None for a in answers)
    if missing and not problems:
        problems.append(
            Problem(
                name,
                None,
                None,
                f"no sample for {missing:,} of {len(requests):,} requests (was --limit used? an import needs every "
                f"request answered; to try a model on a few items, export them: neghub export lm-eval DIR --tasks "
                f"{task} --max-items N, and run lm-eval on that task without --limit)",
            )
        )
    if problems:
        raise InputError(problems)
    return [a for a in answers if a is not None]


def _model_arguments(config: dict[str, Any]) -> dict[str, str]:
    """lm-eval's --model_args as its results record them: a mapping (0.4.13), or "pretrained=X,revision=Y"."""
    model_args = config.get("model_args") or {}
    if isinstance(model_args, str):
        model_args = dict(part.split("=", 1) for part in model_args.split(",") if "=" in part)
    return {str(k): str(v) for k, v in model_args.items()} if isinstance(model_args, dict) else {}


def _parameters(results: dict[str, Any]) -> int | None:
    """The parameter count lm-eval recorded (-1 where its model could not count them)."""
    count = (results.get("config") or {}).get("model_num_parameters")
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None


def lm_eval_model(args: Any, results: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    """The model entry of the weights lm-eval loaded, pinned from its model arguments (`pretrained=`,
    `revision=`, `gguf_file=`) and the parameter count it recorded, or refused with what to pass."""
    first_file, first = results[0]
    config = first.get("config") or {}
    arguments = _model_arguments(config)
    for results_file, other in results[1:]:
        if _model_arguments(other.get("config") or {}) != arguments:
            raise InputError.single(
                str(results_file),
                f"lm-eval ran another model here than in {first_file}: import each model's results on its own",
            )
    where = str(first_file)
    pretrained = arguments.get("pretrained")
    if not pretrained:
        raise InputError.single(
            where,
            f"lm-eval's model arguments name no pretrained= model (model {config.get('model')!r}): give --repo-id "
            "with --revision, or --weights PATH, with --parameters N",
        )
    for adapter in ("peft", "delta"):
        if arguments.get(adapter):
            raise InputError.single(
                where,
                f"lm-eval added {adapter}={arguments[adapter]} to {pretrained}: a submission pins one set of "
                "weights; evaluate the merged model",
            )
    parameters = args.parameters if args.parameters is not None else _parameters(first)
    if parameters is None:
        raise InputError.single(where, "lm-eval recorded no parameter count: give --parameters N")
    gguf_file = arguments.get("gguf_file")
    local = Path(pretrained)
    if local.exists():
        weights = local / gguf_file if gguf_file else local
        if not weights.exists():
            raise InputError.single(where, f"{weights}: lm-eval's gguf_file is not in {local}")
        source = resolve_source(str(weights), None)
        return pinned_model(source, name=args.model_name, parameters=parameters, license_=args.license)
    revision = arguments.get("revision")
    commit = revision if is_commit(revision) else config.get("model_sha")
    if not re.match(HUB_REPO_PATTERN, pretrained) or not is_commit(commit):
        raise InputError.single(
            where,
            f"lm-eval loaded {pretrained} (revision {revision or 'not given'}), which pins no weights here: "
            "for a Hub model run lm_eval with --model_args pretrained=ORG/NAME,revision=<40-hex commit>; for a "
            "local folder or GGUF file, import where it is or give --weights PATH",
        )
    if commit != revision:
        print(f"note: pinned {pretrained} at {commit}, the commit lm-eval recorded (model_sha)", file=sys.stderr)
    source = ModelSource("hub", pretrained, commit)
    return pinned_model(source, name=args.model_name, parameters=parameters, license_=args.license, file=gguf_file)


def add_export_parser(sub: Any) -> None:
    from .prompts import add_run_options

    ep = sub.add_parser("export", help="write lm-evaluation-harness task files for the benchmarks' runs")
    ep.add_argument("target", metavar="lm-eval", help="the format (lm-eval)")
    ep.add_argument("output", type=Path, metavar="DIR")
    ep.add_argument(
        "--tasks", type=lambda s: s.split(","), default=["all"], help="comma-separated benchmark names, or all"
    )
    add_run_options(ep, task=False)
