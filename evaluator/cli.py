"""The `neghub` command line.

Its conventions (README, "Command-line conventions"):
- bad input becomes one line per problem on stderr (`file:line: field: what was expected`) and exit code 2,
  never a traceback; a source that cannot be reached here (a dataset release: offline, the host down, no local
  copy) is exit code 3, its message naming what is missing and where it was looked for; 0 is success;
- an input file given as `-` is the standard input;
- with `--json`, stdout holds exactly one JSON object, whatever happens: the result, or the problems;
- outputs are written to a temporary file and renamed into place;
- output into a pipe whose reader leaves early (`| head`) ends quietly, with the command's own exit status.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .core.errors import EXIT_BAD_INPUT, EXIT_UNAVAILABLE, InputError, Problem, SourceUnavailable, bounded
from .core.registry import DuplicateBenchmark
from .core.stats import BootstrapConfig
from .fileio.pipes import reader_may_leave

MAX_PROBLEMS_SHOWN = 50


class UsageError(Exception):
    """A command line argparse refuses; raised instead of argparse's own exit, so that `--json` still prints
    its one object."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class _Parser(argparse.ArgumentParser):
    """argparse's parser (its sub-parsers are made of the same class) with its usage errors raised."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self, message)


def _add_data_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="local mirror folder with one sub-folder per dataset "
        "(default: $NEGHUB_DATA_DIR, else the pinned Hub revision)",
    )
    parser.add_argument(
        "--unverified",
        action="store_true",
        help='score against files that differ from the pinned sha256s; the result says "verified": false',
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="neghub", description="NegHub: negation benchmarks, re-scored.")
    parser.add_argument("--version", action="version", version=f"neghub {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("evaluate", help="re-score a prediction file against the pinned dataset")
    ev.add_argument("task")
    ev.add_argument("predictions", type=Path, help="the prediction file (JSON Lines); - reads the standard input")
    ev.add_argument(
        "--split", default=None, help="the split the predictions are for (default: the task's evaluation split)"
    )
    ev.add_argument(
        "--mode", default=None, help="prediction mode, for tasks that have several (`neghub tasks` lists them)"
    )
    _add_data_options(ev)
    ev.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    ev.add_argument("--bootstrap-resamples", type=int, default=1000)
    ev.add_argument("--seed", type=int, default=0, help="seed of the bootstrap")
    ev.add_argument("-o", "--output", type=Path, default=None, help="also write the JSON result to this file")

    bl = sub.add_parser("baseline", help="write the predictions of a trivial model (a sanity check of the evaluator)")
    bl.add_argument("task")
    bl.add_argument("--kind", required=True, help="majority | random | constant:VALUE (tasks may add their own)")
    bl.add_argument("--split", default=None)
    bl.add_argument("--mode", default=None)
    bl.add_argument("--seed", type=int, default=0, help="seed of the random baseline")
    _add_data_options(bl)
    bl.add_argument("-o", "--output", type=Path, required=True)

    sub.add_parser("tasks", help="list the registered tasks")

    from .releases.commands import add_parser as add_datasets_parser

    add_datasets_parser(sub)

    va = sub.add_parser("validate", help="check submission folders (submissions/<id>/) as the leaderboard will")
    va.add_argument("submissions", type=Path, nargs="+", metavar="SUBMISSION_DIR")
    va.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="local mirror folder (default: $NEGHUB_DATA_DIR); also fills the data folder of a trial's rerun command",
    )
    va.add_argument(
        "--model",
        default=None,
        help="the model folder, file or Hub id that ran: fills the model of a trial's rerun command (default: a "
        "placeholder for a local model)",
    )
    va.add_argument("--json", action="store_true", help="print one JSON object with every problem")

    from .runners.run import add_run_parser  # argparse only; torch is imported when a run starts

    add_run_parser(sub)
    from .runners.reproduce import add_reproduce_parser  # argparse only, as above

    add_reproduce_parser(sub)

    from .interop.lm_eval import add_export_parser
    from .interop.prompts import add_parsers as add_interop_parsers

    add_interop_parsers(sub)  # prompts, import
    add_export_parser(sub)
    return parser


def _options(args: argparse.Namespace) -> Any:
    from .core.benchmark import EvalOptions

    bootstrap = BootstrapConfig(resamples=getattr(args, "bootstrap_resamples", 1000), seed=getattr(args, "seed", 0))
    if bootstrap.resamples < 1:
        raise InputError.single("--bootstrap-resamples", "must be at least 1")
    return EvalOptions(
        split=args.split,
        mode=args.mode,
        data_dir=args.data_dir,
        unverified=args.unverified,
        bootstrap=bootstrap,
    )


def _dumps(result: Any) -> str:
    """A result as JSON: the typed, versioned record of schemas/result.schema.json."""
    return json.dumps(result.model_dump(mode="json"), ensure_ascii=False, allow_nan=False, indent=2)


def run(argv: Sequence[str] | None = None) -> int:
    from .releases.loading import DATA_DIR_OPTION, FETCH, command_reads

    args = build_parser().parse_args(argv)
    # an error that a release cannot be read names --data-dir only where this command takes it
    fetching = args.command == "datasets" and args.datasets_command == "fetch"
    with command_reads(FETCH if fetching else DATA_DIR_OPTION if "data_dir" in vars(args) else ""):
        return _dispatch(args, argv)


def _dispatch(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    from .core.registry import benchmark_names, get_benchmark
    from .fileio.files import STDIN, atomic_write, check_readable, input_file
    from .fileio.jsonl import write_jsonl

    if args.command == "validate":
        from .submissions.validation import run_validate

        return run_validate(args.submissions, data_dir=args.data_dir, as_json=args.json, model=args.model)
    if args.command == "reproduce":
        from .runners.reproduce import reproduce_command

        return reproduce_command(args)
    if args.command == "run":
        from .runners.run import run_command

        return run_command(args, list(argv) if argv is not None else sys.argv[1:])
    if args.command == "prompts":
        from .interop.prompts import prompts_command

        return prompts_command(args)
    if args.command == "import":
        if args.task == "lm-eval":
            from .interop.lm_eval import import_command as import_lm_eval

            return import_lm_eval(args)
        from .interop.prompts import import_command

        with input_file(args.answers) as answers:  # `-`: the standard input
            return import_command(argparse.Namespace(**{**vars(args), "answers": answers}))
    if args.command == "export":
        from .interop.lm_eval import export_command

        return export_command(args)
    if args.command == "datasets":
        from .releases.commands import run as run_datasets

        return run_datasets(args)
    if args.command == "tasks":
        for name in benchmark_names():
            task = get_benchmark(name)
            print(f"{name}\t{task.display.name}\tversion {task.version}\t{task.display.summary}")
        return 0
    task = get_benchmark(args.task)
    if args.mode is not None and args.mode not in task.modes:
        allowed = ", ".join(task.modes) if task.modes else "none: this task has a single mode"
        raise InputError.single("--mode", f"unknown mode {args.mode!r} for {task.name} (expected {allowed})")
    if args.command == "evaluate":
        if args.predictions != STDIN:
            check_readable(args.predictions)  # before the release is fetched: its failure must not hide this one
            from .submissions.validation import partial_run_of_file

            partial = partial_run_of_file(args.predictions)
            if partial is not None:  # said as such, not as the items its sample left out
                raise InputError.single(str(args.predictions), partial)
        options = _options(args)
        with input_file(args.predictions) as predictions:  # `-`: the standard input
            result = task.evaluate(predictions, options)
        text = _dumps(result)
        if args.output is not None:
            atomic_write(args.output, lambda handle: handle.write(text + "\n"))
        print(text if args.json else task.report(result))
        return 0
    options = _options(args)
    if args.command == "baseline":
        rows = task.baseline(args.kind, options, args.seed)
        write_jsonl(args.output, rows)
        print(f"wrote {len(rows)} predictions to {args.output}", file=sys.stderr)
        return 0
    raise AssertionError(args.command)  # argparse only lets known commands through


def main(argv: Sequence[str] | None = None) -> int:
    # Text from a submission (a folder name that is not UTF-8, say) must never end in an encoding traceback:
    # what cannot be written as UTF-8 is written as a backslash escape (valid in JSON strings too).
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in arguments[: arguments.index("--")] if "--" in arguments else "--json" in arguments
    with reader_may_leave():  # `| head`: the command still ends with its own exit status, and no traceback
        code = _run_reporting(argv, as_json)
    if argv is None:
        exiting_without_collection()
    return code


def exiting_without_collection() -> None:
    """Where the command is the process's own (its command line, not a caller's `argv`) and has ended: the
    objects alive now die with the process, so the collections the interpreter runs as it exits need not
    traverse them (after `neghub run` on SmolLM2-135M, about 0.7 CPU seconds of torch's and transformers'
    objects on the 2-core machine). Objects freed by their reference counts are freed as before."""
    gc.freeze()


def _run_reporting(argv: Sequence[str] | None, as_json: bool) -> int:
    """`run`, with every failure it raises reported as the conventions say (the module docstring)."""
    try:
        return run(argv)
    except UsageError as exc:
        exc.parser.print_usage(sys.stderr)
        print(f"{exc.parser.prog}: error: {exc.message}", file=sys.stderr)
        return _failed(EXIT_BAD_INPUT, [Problem(exc.parser.prog, None, None, exc.message)], as_json)
    except SourceUnavailable as exc:  # before InputError, which it is: nothing is wrong with the input
        return _failed(EXIT_UNAVAILABLE, _print_problems(exc.problems), as_json)
    except InputError as exc:
        return _failed(EXIT_BAD_INPUT, _print_problems(exc.problems), as_json)
    except DuplicateBenchmark as exc:  # two installed plugins (or a plugin and a folder) claim one name
        print(f"error: {exc}", file=sys.stderr)
        return _failed(EXIT_BAD_INPUT, [Problem("neghub", None, None, str(exc))], as_json)
    except KeyboardInterrupt:
        return 130


def _print_problems(problems: Sequence[Problem]) -> list[Problem]:
    """The problems on stderr, one `error:` line each (bounded per file, at most MAX_PROBLEMS_SHOWN lines)."""
    shown = bounded(problems)
    for problem in shown[:MAX_PROBLEMS_SHOWN]:
        print(f"error: {problem}", file=sys.stderr)
    if len(shown) > MAX_PROBLEMS_SHOWN:
        print(f"error: … and problems in {len(shown) - MAX_PROBLEMS_SHOWN} more lines", file=sys.stderr)
    return shown


def _failed(code: int, problems: Sequence[Problem], as_json: bool) -> int:
    """`code`, and with --json the one JSON object on stdout: the problems, as `neghub validate --json` gives
    them, and what kind of failure it is."""
    if as_json:
        kind = "source unavailable" if code == EXIT_UNAVAILABLE else "bad input"
        record = {
            "error": kind,
            "exit_code": code,
            "problems": [
                {"file": p.file, "line": p.line, "field": p.field, "message": p.full_message} for p in problems
            ],
        }
        print(json.dumps(record, ensure_ascii=False, indent=2))
    return code


if __name__ == "__main__":
    sys.exit(main())
