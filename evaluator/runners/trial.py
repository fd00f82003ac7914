"""What a trial (`neghub run --max-items N`) tells a submitter about the model, on stderr, once its runs are
written: each run's partial score and parse rate, marked as a trial's (a sample of a few items is not comparable
with a board's rows: its interval would span most of the scale), a warning where a run's answers parse under the
share the leaderboard ranks from, and an estimate of the whole run's time from the trial's own rates.

The partial score is the benchmark's own scorer on the trial's lines. A benchmark scores whole splits only, so
the items the sample left out are filled with lines of its baseline (`Benchmark.baseline`), and only the sampled
items' outcomes are read back: the parse rate from the sampled items, the score as the mean of the headline's
units whose ids were all sampled (a minimal pair's unit is keyed `control>treatment`, a multiple-choice item by
its id). A run the scorer reads as it is (the cloze test scores the triplets a model kept) is scored whole.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.benchmark import EvalOptions
from ..core.errors import InputError
from ..core.numbers import figure as number
from ..core.registry import get_benchmark
from ..core.reports import pct
from ..core.results import Result
from ..core.stats import BootstrapConfig
from ..core.thresholds import PARSED_SHARE_MIN
from ..protocol.plans import PARTIAL_ITEMS, SPLIT_ITEMS, RunPlan, RunSettings

# the trial's score needs no interval (it is said not to be comparable): one resample keeps scoring quick
_NO_INTERVAL = BootstrapConfig(resamples=1, seed=0)
# a minimal pair's headline unit is keyed by its two members' ids (families/minimal_pairs/scoring.py)
_UNIT_KEY_SEPARATOR = ">"


@dataclass(frozen=True)
class TrialRun:
    """One run of a trial as it went: its plan, and the items this command ran and in how many seconds (fewer
    items than the plan's where the run resumed an interrupted one; none where its file was already written; no
    seconds of its own where it ran together with another run, whose seconds are both runs')."""

    plan: RunPlan
    items: int
    seconds: float


@dataclass(frozen=True)
class PartialScore:
    """A trial run's score on its sampled items: the headline's label and mean over the units sampled, the unit in
    words, and the share of the sampled items whose answer parsed."""

    label: str
    value: float | None
    units: int
    unit: str
    parsed: float | None
    items: int


def sampled_items(plan: RunPlan) -> int:
    """How many items the run's sample holds, as its provenance records them (the cloze test counts triplets)."""
    return int(plan.settings.get(PARTIAL_ITEMS, len(plan.items)))


def whole_run_seconds(run: TrialRun) -> float | None:
    """The seconds the whole run would take at the rate this trial ran: its seconds per item, times the items of
    the plan (where the trial resumed) and the split's items per sampled item. None where nothing ran here; 0 where
    the run ran together with another (runners/execution.py), whose estimate holds both."""
    if run.items <= 0 or run.seconds < 0:
        return None
    plan = run.plan
    per_plan_item = run.seconds / run.items
    scale = float(plan.settings.get(SPLIT_ITEMS, sampled_items(plan))) / max(sampled_items(plan), 1)
    return per_plan_item * len(plan.items) * scale


def partial_score(plan: RunPlan, out: Path, settings: RunSettings) -> PartialScore:
    """The run's score on its sample (the module docstring says how); an InputError where it cannot be scored."""
    benchmark = get_benchmark(plan.task)
    path = out / plan.file
    options = EvalOptions(
        split=plan.split,
        mode=plan.mode,
        data_dir=settings.data_dir,
        unverified=settings.unverified,
        bootstrap=_NO_INTERVAL,
        display_name=plan.file,
    )
    try:
        return _summarised(benchmark.evaluate(path, options), None)
    except InputError:
        pass  # a sample: the items left out read as missing lines; scored below with them filled
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    sampled = {str(line.get("id")) for line in lines}
    kind = "random" if "random" in benchmark.baseline_kinds else benchmark.baseline_kinds[0]
    filler = [row for row in benchmark.baseline(kind, options, 0) if str(row.get("id")) not in sampled]
    with tempfile.TemporaryDirectory(prefix="neghub-trial-") as folder:
        merged = Path(folder) / Path(plan.file).name
        merged.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in [*filler, *lines]))
        return _summarised(benchmark.evaluate(merged, options), sampled)


def _summarised(result: Result, sampled: set[str] | None) -> PartialScore:
    """The headline and parse rate of `result`, over the `sampled` ids only (None: every item)."""
    items = result.items
    keep = [sampled is None or item_id in sampled for item_id in items.ids]
    parsed = [p for p, k in zip(items.parsed, keep, strict=True) if k]
    headline = result.headline_items
    if headline is not None:
        values = [
            value
            for key, value in zip(headline.keys, headline.values, strict=True)
            if sampled is None or all(part in sampled for part in key.split(_UNIT_KEY_SEPARATOR))
        ]
        unit = headline.unit.split(" (", 1)[0]
    elif items.correct is not None:
        values = [float(c) for c, k in zip(items.correct, keep, strict=True) if k]
        unit = items.unit
    else:
        # items with no right answer (a cloze test's triplets: the model selects them, the headline contrasts
        # patterns): no mean of outcomes; the file is scored whole, so the scorer's headline stands
        values = []
        unit = items.unit.split(" (", 1)[0]
    value = sum(values) / len(values) if values else None
    if sampled is None:
        value = result.headline.value  # scored whole: the scorer's own headline
    return PartialScore(
        label=result.headline.label,
        value=value,
        units=len(values) if values else sum(keep),
        unit=unit,
        parsed=sum(parsed) / len(parsed) if parsed else None,
        items=len(parsed),
    )


def duration(seconds: float) -> str:
    """A duration as a person reads an estimate: about 40 s, about 31 min, about 2 h 5 min."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"about {minutes} min"
    return f"about {minutes // 60} h {minutes % 60} min"


def trial_line(mark: str, task: str, file: str, score: PartialScore) -> str:
    """One run's partial score and parse rate, the headline in its own unit as the leaderboard prints it (a cloze
    test's contrast is in points, not a percentage)."""
    unit = get_benchmark(task).display.headline.unit
    suffix = {"percent": "%", "points": " points"}.get(unit, "")
    figure = "n/a" if score.value is None else f"{number(score.value, unit)}{suffix}"
    parsed = "n/a" if score.parsed is None else pct(score.parsed, unit="%")
    return (
        f"{mark}: {file}: {score.label} {figure} over {score.units} units ({score.unit}); "
        f"{parsed} of {score.items} answers parsed"
    )


def trial_report(runs: Sequence[TrialRun], out: Path, settings: RunSettings) -> list[str]:
    """The trial's lines: per run its partial score and parse rate (marked as not comparable), a warning per run
    whose answers parse under the leaderboard's minimum, then the estimate of the whole run's time."""
    lines: list[str] = []
    minimum = pct(PARSED_SHARE_MIN, unit="%")
    estimates: list[float] = []
    unknown = 0
    for run in runs:
        plan = run.plan
        mark = f"trial, {sampled_items(plan)} items: not comparable"
        try:
            score = partial_score(plan, out, settings)
        except InputError as exc:
            reason = exc.problems[0].message if exc.problems else "it cannot be scored here"
            lines.append(f"{mark}: {plan.file}: no partial score ({reason})")
        else:
            lines.append(trial_line(mark, plan.task, plan.file, score))
            parsed = "n/a" if score.parsed is None else pct(score.parsed, unit="%")
            if score.parsed is not None and score.parsed < PARSED_SHARE_MIN:
                lines.append(
                    f"warning: {plan.file}: {parsed} of its answers parsed, under the {minimum} the leaderboard "
                    "ranks from: the whole run would be left unranked (an unparsed answer is scored wrong); its raw "
                    "outputs are in the file"
                )
        seconds = whole_run_seconds(run)
        if seconds is None:
            unknown += 1
        else:
            estimates.append(seconds)
    if estimates:
        left_out = f"; {unknown} run(s) already written before this command not counted" if unknown else ""
        lines.append(
            f"estimate: the whole run would take {duration(sum(estimates))} on this machine (an estimate from "
            "this trial's own rates: each run's items per second times its full item count; loading the model "
            f"not included{left_out})"
        )
    return lines


def print_trial_report(runs: Sequence[TrialRun], out: Path, settings: RunSettings) -> None:
    for line in trial_report(runs, out, settings):
        print(line, file=sys.stderr)
