"""Scoring a minimal-pair file (SPEC §1): counts, Acc, Acc′ and AccChg on M, M_i and M_u with their intervals and
McNemar's test, the flip analysis, instance accuracy, breakdowns by pair attribute, and every instance's outcome
for the result."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...core.results import HeadlineItems, ItemOutcomes, ItemPairs, raw_output_shown
from ...core.stats import (
    BootstrapConfig,
    cluster_bootstrap_mean_ci,
    cluster_index,
    design_effect,
    mcnemar_exact_p,
    paired_bootstrap_counts_ci,
    wilson_interval,
)
from .dataset import MinimalPairDataset
from .pairs import CUE_POSITIONS, PAIR_KINDS, TARGET_POS
from .reader import UNPARSEABLE


def _rate(hits: int, n: int) -> float | None:
    return hits / n if n else None


def score_pairs(
    dataset: MinimalPairDataset, predicted: NDArray[np.int16], bootstrap: BootstrapConfig | None
) -> dict[str, Any]:
    """Counts, pair metrics on M / M_i / M_u, instance metrics and breakdowns (SPEC §1).

    Every pair figure is a function of four bits per pair: is it in M_i, was the control right,
    was the treatment right, did the prediction change. Packing them into one small integer and
    counting with `np.bincount` gives all sets and breakdowns without masks or loops over pairs.
    `bootstrap=None` leaves the intervals out (the benchmark times the metrics without them).
    """
    pairs = dataset.pairs
    correct = predicted == dataset.gold
    control_pred = predicted[pairs.control]
    treatment_pred = predicted[pairs.treatment]
    cell = (
        pairs.important.view(np.int8) * np.int8(8)
        + (control_pred != treatment_pred).view(np.int8) * np.int8(4)
        + correct[pairs.control].view(np.int8) * np.int8(2)
        + correct[pairs.treatment].view(np.int8)
    )
    # counts[important, changed, control right, treatment right]
    counts_by_cell = np.bincount(cell, minlength=16).reshape(2, 2, 2, 2)
    set_counts = {"M": counts_by_cell.sum(axis=0), "M_i": counts_by_cell[1], "M_u": counts_by_cell[0]}

    # the flip analysis looks only at pairs whose two answers parsed: two unparseable answers are no "unchanged
    # prediction", and one is no "changed" one (their count is reported beside the rates)
    both_parsed = (control_pred != UNPARSEABLE) & (treatment_pred != UNPARSEABLE)
    changed_parsed = both_parsed & (control_pred != treatment_pred)
    set_masks = {"M": np.ones_like(pairs.important), "M_i": pairs.important, "M_u": ~pairs.important}

    control_right, treatment_right = correct[pairs.control], correct[pairs.treatment]
    # the pairs of one source sentence pair share sentences: every interval clusters by it (stats.py's docstring)
    clustered = pairs.group.size == pairs.size and pairs.size > 0
    pair_metrics: dict[str, Any] = {}
    for set_name, by_changed in set_counts.items():
        right = by_changed.sum(axis=0)  # [control right, treatment right]
        entry = _pair_figures(right)
        n = entry["n"]
        only_control = int(right[1, 0])
        only_treatment = int(right[0, 1])
        # with no discordant pair every resample differs by exactly 0: a zero-width interval would claim a
        # certainty the data do not give, so there is none (`discordant` says why)
        in_set = set_masks[set_name]
        clusters = cluster_index(pairs.group[in_set]) if clustered and bootstrap is not None and n else None
        control_set = control_right[in_set].astype(np.float64)
        treatment_set = treatment_right[in_set].astype(np.float64)
        if bootstrap is None or n == 0 or only_control + only_treatment == 0:
            ci = None
        elif clusters is None:
            ci = paired_bootstrap_counts_ci(n, only_control, only_treatment, bootstrap)
        else:  # a difference of two proportions of the same pairs: the percentile bootstrap of whole sources
            ci = cluster_bootstrap_mean_ci(
                treatment_set - control_set, clusters, bootstrap.resamples, bootstrap.seed, bootstrap.level
            )
        entry["acc_chg_ci95"] = None if ci is None else [ci[0], ci[1]]
        effects: dict[str, float] = {}
        for key, hits, values in (
            ("acc", int(right[1].sum()), control_set),
            ("acc_prime", int(right[:, 1].sum()), treatment_set),
        ):
            # a proportion's interval is Wilson's score interval (never [0, 0] at 0 of n, as a bootstrap's is), at
            # the effective sample size of its clusters
            effects[key] = design_effect(values, clusters)
            interval = None if bootstrap is None or n == 0 else wilson_interval(hits, n, design_effect=effects[key])
            entry[f"{key}_ci95"] = None if interval is None else [interval[0], interval[1]]
        if bootstrap is not None and n:
            entry["design_effect"] = {
                "clustered_by": "source sentence pair" if clusters is not None else None,
                "clusters": None if clusters is None else int(clusters.max()) + 1,
                **effects,
            }
        entry["discordant"] = {"control_only": only_control, "treatment_only": only_treatment}
        entry["mcnemar_p"] = mcnemar_exact_p(only_control, only_treatment)
        flip_pairs = int(np.count_nonzero(in_set & both_parsed))
        changed = int(np.count_nonzero(in_set & changed_parsed))
        entry["pairs_with_unparsed"] = n - flip_pairs
        if set_name == "M_i":
            # the gold changed; a model that ignores the cue keeps its prediction
            entry["ignored_rate"] = _rate(flip_pairs - changed, flip_pairs)
        if set_name == "M_u":
            # the gold did not change; a model distracted by the cue changes its prediction
            entry["distracted_rate"] = _rate(changed, flip_pairs)
        pair_metrics[set_name] = entry

    subsets = {"D_orig": dataset.is_original, "D_neg": ~dataset.is_original, "D": np.ones_like(dataset.is_original)}
    instance_metrics = {
        name: {"n": int(mask.sum()), "acc": _rate(int(np.count_nonzero(correct & mask)), int(mask.sum()))}
        for name, mask in subsets.items()
    }
    # the breakdowns ignore the "changed" bit: drop it, keep (important, control right, treatment right)
    right_cell = (cell >> 3) * np.int8(4) + (cell & np.int8(3))
    breakdowns = {
        "pair_kind": _breakdown(pairs.kind, PAIR_KINDS, right_cell),
        "cue_position": _breakdown(pairs.cue_position, CUE_POSITIONS, right_cell),
        "target_pos": _breakdown(pairs.target_pos, tuple(TARGET_POS.values()), right_cell),
    }
    n_important = int(counts_by_cell[1].sum())
    counts = {
        "D_orig": int(dataset.is_original.sum()),
        "D_neg": int((~dataset.is_original).sum()),
        "M": pairs.size,
        "M_i": n_important,
        "M_u": pairs.size - n_important,
        "both_pairs_without_control": pairs.unmatched_both,
    }
    unparsed = int(np.count_nonzero(predicted == UNPARSEABLE))
    return {
        "counts": counts,
        "answers": {"unparsed": unparsed, "parsed_share": _rate(int(predicted.size) - unparsed, int(predicted.size))},
        "pair_metrics": pair_metrics,
        "instance_metrics": instance_metrics,
        "breakdowns": breakdowns,
    }


def _pair_figures(right: NDArray[np.int64]) -> dict[str, Any]:
    """n, Acc, Acc' and AccChg from the 2x2 table right[control right, treatment right]."""
    n = int(right.sum())
    acc = _rate(int(right[1].sum()), n)
    acc_prime = _rate(int(right[:, 1].sum()), n)
    return {
        "n": n,
        "acc": acc,
        "acc_prime": acc_prime,
        "acc_chg": None if acc is None or acc_prime is None else acc_prime - acc,
    }


def _breakdown(
    codes: NDArray[np.int8], names: Sequence[str], right_cell: NDArray[np.int8]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Acc, Acc' and AccChg per value of one pair attribute, for each pair set: one bincount."""
    k = len(names)
    # table[value, important, control right, treatment right]
    table = np.bincount(codes.astype(np.intp) * 8 + right_cell, minlength=8 * k).reshape(k, 2, 2, 2)
    return {
        name: {
            "M": _pair_figures(table[i].sum(axis=0)),
            "M_i": _pair_figures(table[i, 1]),
            "M_u": _pair_figures(table[i, 0]),
        }
        for i, name in enumerate(names)
    }


# a split's unit keys, made once: every result on the split names the same units (and a build holds thousands)
_HEADLINE_KEYS: dict[int, tuple[MinimalPairDataset, list[str]]] = {}
_HEADLINE_KEYS_MAX = 8


def _headline_keys(dataset: MinimalPairDataset) -> list[str]:
    cached = _HEADLINE_KEYS.get(id(dataset))
    if cached is None or cached[0] is not dataset:
        ids = dataset.ids.tolist()
        important = dataset.pairs.important
        control, treatment = dataset.pairs.control[important].tolist(), dataset.pairs.treatment[important].tolist()
        keys = [f"{ids[c]}>{ids[t]}" for c, t in zip(control, treatment, strict=True)]
        if len(_HEADLINE_KEYS) >= _HEADLINE_KEYS_MAX:
            _HEADLINE_KEYS.pop(next(iter(_HEADLINE_KEYS)))
        cached = _HEADLINE_KEYS[id(dataset)] = (dataset, keys)
    return cached[1]


def outcomes(
    dataset: MinimalPairDataset,
    predicted: NDArray[np.int16],
    prediction_value: Callable[[int], Any],
    raw_outputs: dict[int, str],
) -> tuple[ItemOutcomes, HeadlineItems, ItemPairs]:
    """Every instance's outcome, the headline per pair of M_i (its treatment answered right: their mean is
    M_i Acc′) and the pairs themselves, for the result."""
    ids = [str(i) for i in dataset.ids.tolist()]
    value_of: dict[int, Any] = {}
    answers = [
        None if code == UNPARSEABLE else value_of.setdefault(code, prediction_value(code))
        for code in predicted.tolist()
    ]
    correct = predicted == dataset.gold
    pairs = dataset.pairs
    control = [ids[row] for row in pairs.control.tolist()]
    treatment = [ids[row] for row in pairs.treatment.tolist()]
    important = pairs.important.tolist()
    items = ItemOutcomes(
        unit="instance",
        ids=ids,
        answers=answers,
        expected=[value_of.setdefault(code, prediction_value(code)) for code in dataset.gold.tolist()],
        parsed=(predicted != UNPARSEABLE).tolist(),
        correct=correct.tolist(),
        raw_outputs={str(item): raw_output_shown(text) for item, text in sorted(raw_outputs.items())},
        texts=list(dataset.texts) if len(dataset.texts) == len(ids) else None,
    )
    headline_items = HeadlineItems(
        unit="pair of M_i (1 when its treatment is answered right)",
        keys=_headline_keys(dataset),
        values=correct[pairs.treatment][pairs.important].astype(np.float64).tolist(),
        clusters=[str(g) for g in pairs.group[pairs.important].tolist()] if pairs.group.size == pairs.size else None,
    )
    return items, headline_items, ItemPairs(control=control, treatment=treatment, important=important)
