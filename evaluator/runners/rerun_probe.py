"""The contamination probe of a re-run (evaluator/core/contamination.py): after NegHub re-ran a run on a ranked split
whose gold is public, the same model, prompt and setting answer a sample of the benchmark's training split drawn to
the ranked split's mix, and the record holds both figures and the one-sided test of their difference.

The sample's seed comes from the submission's `metadata_sha256` (the record shows it): the same submission draws the
same sample, so a re-run resumes and ends with the same bytes, and a submitter cannot choose it without changing
what the row shows. A model trained on the whole training split as well evades the probe whatever the seed: the
rules page says what the probe cannot show.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.contamination import ContaminationProbeSpec, answers_by_item, probe_test, stratified_sample
from ..core.registry import get_benchmark
from ..fileio.files import atomic_write
from ..submissions.reproduction import ContaminationProbe
from .rerun_compare import json_line

if TYPE_CHECKING:
    from ..protocol.plans import RunPlan
    from ..submissions.format import Run

Line = dict[str, Any]
PROBE_FOLDER = "probe"  # reproductions/<id>/probe/<run.file>: the probe's answers


def probe_of(run: Run) -> ContaminationProbeSpec | None:
    """The probe the run's benchmark declares for it (None: none, or not for this split or these shots)."""
    spec = get_benchmark(run.task).contamination_probe
    return spec if spec is not None and spec.applies(run.split, run.shots) else None


def probe_seed(metadata_sha256: str) -> int:
    return int(metadata_sha256[:8], 16)


def run_probe(
    spec: ContaminationProbeSpec,
    run: Run,
    rerun: Sequence[Line],
    line_item: Callable[[Line], Hashable],
    *,
    plan_on: Callable[[Run], RunPlan],
    answer: Callable[[RunPlan, Sequence[Sequence[Any]]], list[Line]],
    batched: Callable[[RunPlan], list[Sequence[Any]]],
    item_key: Callable[[RunPlan], Callable[[Any], Hashable]],
    kept_folder: Path,
    seed: int,
    data_dir: Path | None,
) -> ContaminationProbe | None:
    """Answer the sampled training items with `run`'s plan on `spec.split` (`plan_on`), keep the answers under
    `kept_folder/probe/<run.file>` and test the re-run's ranked figure (from `rerun`, its lines) against theirs
    (None: the re-run answered no unit of the figure)."""
    ranked = spec.units(spec.ranked_split, data_dir)
    ranked_answers = answers_by_item(rerun, line_item, spec.answer_of_line)
    # the units the re-run answered (all of them for a whole run): the figure is the run's own
    ranked = ranked.take(np.flatnonzero(np.isin(ranked.item, list(ranked_answers))))
    if ranked.size == 0:
        return None  # the run answered no unit of the figure: nothing to compare
    pool = spec.units(spec.split, data_dir)
    sample = pool.take(stratified_sample(ranked, pool, spec.sample_units, seed))
    wanted = {int(i) for i in sample.item}
    plan = plan_on(run.model_copy(update={"split": spec.split}))
    key = item_key(plan)
    plan = dataclasses.replace(plan, items=[item for item in plan.items if key(item) in wanted])
    lines = answer(plan, batched(plan))
    text = "".join(json_line(line) for line in lines)
    relative = f"{PROBE_FOLDER}/{run.file}"
    atomic_write(kept_folder / relative, lambda handle: handle.write(text))
    probe_answers = answers_by_item(lines, line_item, spec.answer_of_line)
    test = probe_test(
        ranked.correct(ranked_answers), ranked.cluster, sample.correct(probe_answers), sample.cluster, spec.alpha
    )
    return ContaminationProbe(
        metric=spec.metric,
        split=spec.split,
        strata=spec.strata_words,
        cluster_key=spec.cluster_key,
        sample_seed=seed,
        probe_items=len(plan.items),
        ranked_units=ranked.size,
        probe_units=sample.size,
        ranked_figure=test.ranked_figure,
        probe_figure=test.probe_figure,
        difference=test.difference,
        standard_error=test.standard_error,
        p_value=test.p_value,
        alpha=spec.alpha,
        marked=test.marked,
        probe_file=relative,
        probe_sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )
