"""SCN's verdict (evaluator/benchmarks/scn/criterion.py), NegHub's reading of the paper's criterion (sections 3.5
and 4): the paper's four models, built from its tables, get the verdicts its conclusion gives them, at its own
triplet counts and in files of a NegHub run's size; each comparison near its boundary decides, or leaves the
verdict inconclusive where its interval straddles it.

Every expected verdict is derived by hand below from the paper's figures, with z = 1.96 and intervals rounded to a
tenth of a point. The files place each pattern's drops on a seeded random subset of the triplets, independently of
the other patterns: the joint outcomes the paper does not print are then as good as independent, which gives the
widest paired intervals (a model whose patterns drop on the same triplets would only narrow them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from neghub.evaluator.benchmarks import scn
from neghub.evaluator.benchmarks.scn.criterion import judge
from neghub.leaderboard.paper_results import load_reported

from .conftest import flat_result

PATTERNS = scn.PATTERNS  # CpTp, CpTn, CnTp, CnTn, CpTv: bit p of a triplet's outcome is pattern p repeating
Drops = tuple[float, float, float, float]  # CpTn, CnTp, CnTn, CpTv, as fractions

# The paper's drops: Table 6 (pronoun, the base test) and Tables 8 (roberta) and 9 (bert) for the coreference
# variants, read off self-contained-neg-test.txt by hand.
PAPER: dict[str, dict[str, Drops]] = {
    "bert-base-cased": {
        "pronoun": (0.036, 0.012, 0.015, 0.255),
        "coref": (0.020, 0.022, 0.014, 0.103),
        "noncoref_same": (0.034, 0.023, 0.041, 0.131),
        "noncoref_other": (0.029, 0.023, 0.037, 0.153),
    },
    "bert-large-cased": {
        "pronoun": (0.447, 0.165, 0.097, 0.429),
        "coref": (0.411, 0.058, 0.029, 0.385),
        "noncoref_same": (0.479, 0.064, 0.073, 0.448),
        "noncoref_other": (0.447, 0.057, 0.058, 0.457),
    },
    "roberta-base": {
        "pronoun": (0.277, 0.669, 0.121, 0.233),
        "coref": (0.039, 0.126, 0.015, 0.087),
        "noncoref_same": (0.075, 0.033, 0.034, 0.045),
        "noncoref_other": (0.069, 0.034, 0.024, 0.048),
    },
    "roberta-large": {
        "pronoun": (0.647, 0.828, 0.435, 0.26),
        "coref": (0.289, 0.641, 0.143, 0.173),
        "noncoref_same": (0.117, 0.019, 0.062, 0.094),
        "noncoref_other": (0.121, 0.108, 0.071, 0.115),
    },
}
# Their triplet counts: Table 5's row 6 (pronoun) and the "#" rows of Tables 8 and 9. Table 9 leaves bert-base's
# other-gender count blank; its same-gender count stands in.
PAPER_TRIPLETS: dict[str, dict[str, int]] = {
    "bert-base-cased": {"pronoun": 364_000, "coref": 21_400, "noncoref_same": 7_200, "noncoref_other": 7_200},
    "bert-large-cased": {"pronoun": 363_922, "coref": 47_100, "noncoref_same": 14_300, "noncoref_other": 16_500},
    "roberta-base": {"pronoun": 362_027, "coref": 118_700, "noncoref_same": 39_600, "noncoref_other": 44_700},
    "roberta-large": {"pronoun": 107_856, "coref": 60_800, "noncoref_same": 4_400, "noncoref_other": 5_100},
}
# What the paper's conclusion says of each (section 5 and the introduction), as NegHub's verdict and its parts: the
# base test (its negated drops), then its three controls, the CpTv veto, the coref variant and the non-coreference
# variants. A non-coreference drop is small when its interval's upper end is under the 20-point minimum and it is
# below the base (pronoun) drop of its pattern, unpaired (lines 262 and 270/287).
#
# bert-base-cased: no veto (CpTv 25.5, Wilson +-0.2 at 364,000, +-1.9 at 2,000: under 35) -> CpTv control
#   confirmed; CpTn 3.6 and CnTp 1.2 are under the 20-point minimum (upper bounds 3.7 / 4.5 and 1.3 / 1.8): no
#   strong base drop -> base fails -> fails. Coref: CpTn 2.0 under the minimum -> not confirmed. Non-coref:
#   same-gender CnTp 2.3 is not below the base CnTp 1.2 (the difference 1.2 - 2.3 = -1.1 has Newcombe upper bound
#   -1.1 + 0.4 = -0.7 at the paper's counts, -1.1 + sqrt(0.6^2 + 0.6^2) = -0.3 at 2,000) -> not confirmed.
# bert-large-cased: CpTv 42.9 [42.7, 43.1] (at 2,000: [40.7, 45.1]) is above the veto of 35 -> CpTv control not
#   confirmed -> fails. Base drops: CpTn 44.7 is above the minimum, above CnTn 9.7, and above CpTv 42.9 by 1.8, at
#   363,922 paired triplets +- 1.96 sqrt((0.447 x 0.553 + 0.429 x 0.571) / 363922) = +- 0.23 at most: [1.6, 2.0],
#   strong; CnTp 16.5 [16.4, 16.6] is under the minimum: one strong drop -> base partially passes. At 2,000 the
#   same difference is 1.8 +- 3.1: [-1.3, 4.9] straddles, CpTn may or may not be strong -> base inconclusive.
#   Coref CpTv 38.5 [38.1, 38.9] (at 2,000: [36.4, 40.7]) is above the veto -> not confirmed. Non-coref:
#   same-gender CpTn 47.9 is far above the minimum (lower bound 47.1 at 14,300; 45.7 at 2,000) -> not confirmed.
#   The base test passed in part and no control confirmed: line 72's "do pass our baseline test, but don't pass
#   the control tests at all" ("scn.intro-bert-large").
# roberta-base: CpTv 23.3 is under the veto -> CpTv control confirmed. CnTp 66.9 is far above CpTv 23.3 and CnTn
#   12.1 and the minimum; CpTn 27.7 is above the minimum ([27.6, 27.9]; at 2,000 [25.8, 29.7]), above CnTn 12.1 by
#   15.6, and above CpTv 23.3 by 4.4 +- 0.2 (at 2,000 +- 1.96 sqrt((0.277 x 0.723 + 0.233 x 0.767) / 2000) = +-
#   2.7: [1.7, 7.1]): both base drops strong. Coref CpTn 3.9 is under the minimum (and under coref CpTv 8.7), CnTp
#   12.6 too ([12.4, 12.8]; at 2,000 [11.2, 14.1]) -> not confirmed ("scn.roberta-base-controls"). Non-coref:
#   7.5 / 3.3 (same gender, 39,600: upper bounds 7.8 / 3.5; at 2,000: 8.7 / 4.2) and 6.9 / 3.4 (other gender) are
#   all under the minimum and far below the base drops 27.7 / 66.9 (by 19.5 points or more, half-widths under 2
#   at 2,000) -> confirmed. Both base drops strong, the coref control unconfirmed -> partially passes.
# roberta-large: CpTv 26.0 is under the veto ([25.7, 26.3]; at 2,000 [24.1, 28.0]); CpTn 64.7 and CnTp 82.8 are
#   above CnTn 43.5 (by 21.2 and 39.3, +- 3.0 at most at 2,000) and CpTv 26.0: both strong. Coref: CpTv 17.3
#   under the veto; CpTn 28.9 above the minimum ([28.5, 29.3]; at 2,000 [27.0, 30.9]), above CpTv 17.3 by 11.6
#   (+- 2.6 at 2,000) and CnTn 14.3 by 14.6; CnTp 64.1 far above all: confirmed. Non-coref: 11.7 / 1.9 (4,400:
#   upper bounds 12.7 / 2.4) and 12.1 / 10.8 (5,100: 13.0 / 11.7; at 2,000 at most 13.6) are under the minimum and
#   below the base drops 64.7 / 82.8 by 52 points or more -> confirmed -> passes.
Parts = dict[str, str]
EXPECTED: dict[str, tuple[str, Parts]] = {
    "bert-base-cased": (
        "fails",
        {"base": "fails", "cptv": "confirmed", "coref": "not confirmed", "noncoref": "not confirmed"},
    ),
    "bert-large-cased": (
        "fails",
        {"base": "partially passes", "cptv": "not confirmed", "coref": "not confirmed", "noncoref": "not confirmed"},
    ),
    "roberta-base": (
        "partially passes",
        {"base": "passes", "cptv": "confirmed", "coref": "not confirmed", "noncoref": "confirmed"},
    ),
    "roberta-large": ("passes", {"base": "passes", "cptv": "confirmed", "coref": "confirmed", "noncoref": "confirmed"}),
}
# At a NegHub run's 2,000 triplets per variant, only bert-large's base part differs: its CpTn 44.7 against its CpTv
# 42.9 is undecided there (above).
EXPECTED_AT_2000: dict[str, tuple[str, Parts]] = {
    **EXPECTED,
    "bert-large-cased": ("fails", {**EXPECTED["bert-large-cased"][1], "base": "inconclusive"}),
}


def outcomes(n: int, drops: Drops, seed: int) -> NDArray[np.int64]:
    """Each of n triplets' outcome bits: CpTp always repeats; pattern p drops on exactly round(drop * n) triplets,
    placed by its own seeded permutation."""
    rng = np.random.default_rng(seed)
    bits = np.ones(n, dtype=np.int64)  # bit 0: CpTp repeats
    for index, drop in enumerate(drops, start=1):
        repeats = np.ones(n, dtype=bool)
        repeats[rng.permutation(n)[: round(drop * n)]] = False
        bits |= repeats.astype(np.int64) << index
    return bits


def counts(n: int, drops: Drops, seed: int = 0) -> NDArray[np.int64]:
    return np.bincount(outcomes(n, drops, seed), minlength=2 ** len(PATTERNS))


def model_counts(drops: dict[str, Drops], triplets: dict[str, int]) -> dict[str, NDArray[np.int64]]:
    return {v: counts(triplets[v], drops[v], seed=i) for i, v in enumerate(scn.VARIANTS) if v in drops}


def rows(drops: dict[str, Drops], n: int) -> list[dict[str, Any]]:
    """A prediction file of n triplets per variant (20 verbs for each of n / 20 names, the cap per pair)."""
    out = []
    for seed, (variant, variant_drops) in enumerate(drops.items()):
        for index, bits in enumerate(outcomes(n, variant_drops, seed).tolist()):
            name, verb = f"name{index // 20}", f"verb{index % 20}"
            for p, pattern in enumerate(PATTERNS):
                top1 = verb if bits >> p & 1 else "sleep"
                out.append(
                    {"name": name, "profession": "teacher", "verb": verb, "variant": variant, "pattern": pattern}
                    | {"top1": top1}
                )
    return out


def evaluate(tmp_path: Path, neghub: Any, drops: dict[str, Drops], n: int) -> dict[str, Any]:
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows(drops, n)), encoding="utf-8")
    result = neghub("evaluate", "scn", path, "--json")
    assert result.code == 0, result.err
    return flat_result(json.loads(result.out))


def test_the_drops_above_are_the_transcribed_tables() -> None:
    # the figures written by hand above are those the site shows for the paper's rows
    keys = {"CpTn": 0, "CnTp": 1, "CnTn": 2, "CpTv": 3}
    seen = 0
    for _, table in load_reported():
        if table.task != "scn" or table.table not in ("Table 6", "Table 8", "Table 9"):
            continue
        for row in table.rows:
            for variant, drops in PAPER[row.model].items():
                for pattern, index in keys.items():
                    value = row.metrics.get(f"variants.{variant}.patterns.{pattern}.drop")
                    if value is not None:
                        assert value == drops[index], (table.table, row.model, variant, pattern)
                        seen += 1
    assert seen == 4 * 4 * 4


@pytest.mark.parametrize("model", list(PAPER))
def test_the_papers_four_models_at_its_own_triplet_counts(model: str) -> None:
    judged = judge(model_counts(PAPER[model], PAPER_TRIPLETS[model]))
    verdict, parts = EXPECTED[model]
    assert (judged["verdict"], judged["verdict_parts"]) == (verdict, parts)


@pytest.mark.parametrize("model", list(PAPER))
def test_files_built_to_the_papers_four_models_get_its_verdicts(tmp_path: Path, neghub: Any, model: str) -> None:
    # 2,000 triplets per variant: a NegHub run of 100 (NAME, PROF) pairs at 20 verbs each
    out = evaluate(tmp_path, neghub, PAPER[model], 2_000)
    verdict, parts = EXPECTED_AT_2000[model]
    assert (out["verdict"], out["verdict_parts"]) == (verdict, parts)


def test_the_section_3_5_text_figures_read_as_the_paper_reads_them() -> None:
    # Section 3.5 on roberta-base: CpTn 20.7 and CnTp 46.7 against CpTv 21.3, "only the 46.7 drop is significant"
    # (CnTn, "smaller than those", as Table 6 prints it: 12.1). At Table 5's 362,027 triplets CpTn 20.7 is not above
    # CpTv 21.3 (difference -0.6, +- 1.96 sqrt((0.207 x 0.793 + 0.213 x 0.787) / 362027) = +- 0.19: [-0.8, -0.4]),
    # CnTp 46.7 is strong, CpTv 21.3 is under the veto: the base test is partially passed, and with Table 8a's
    # controls the verdict is partially passes, the conclusion's.
    drops = {**PAPER["roberta-base"], "pronoun": (0.207, 0.467, 0.121, 0.213)}
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-base"]))
    assert judged["verdict"] == "partially passes"
    assert judged["verdict_parts"]["base"] == "partially passes"
    cptn = judged["verdict_comparisons"]["pronoun"]["CpTn"]["above_CpTv"]
    assert cptn["holds"] is False and cptn["difference_ci95"][1] < -0.004
    assert judged["verdict_reason"].startswith("only CnTp drops strongly in the base test; CpTn is no strong drop: ")


# --- boundaries: each comparison near its cut, with its interval -----------------------------------------------

# A base test and controls that pass (roberta-large's, Tables 6 and 8b), to move one figure at a time.
LARGE = PAPER["roberta-large"]


@pytest.mark.parametrize(
    ("cptv", "n", "verdict", "reason"),
    [
        # the figures: 340 and 360 of 1,000 have Wilson intervals [31.1, 37.0] and [33.1, 39.0], both
        # straddling the veto of 35: no cut decides between them
        (0.34, 1_000, "inconclusive", "pronoun CpTv drop 34.0 [31.1, 37.0] is undecided against the veto (35.0)"),
        (0.36, 1_000, "inconclusive", "pronoun CpTv drop 36.0 [33.1, 39.0] is undecided against the veto (35.0)"),
        # at 100,000 triplets (half-width 0.3): 34.0 [33.7, 34.3] is under it, 36.0 [35.7, 36.3] above
        (0.34, 100_000, "passes", "both base drops are strong"),
        (0.36, 100_000, "fails", "the base test's veto: pronoun CpTv drop 36.0 [35.7, 36.3] is above the veto (35.0)"),
    ],
)
def test_the_veto_decides_only_where_its_interval_does(cptv: float, n: int, verdict: str, reason: str) -> None:
    drops = {**LARGE, "pronoun": (*LARGE["pronoun"][:3], cptv)}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": n}))
    assert judged["verdict"] == verdict
    assert reason in judged["verdict_reason"]


def test_a_drop_at_the_minimum_is_undecided() -> None:
    # CpTn 20.0 of 1,000 triplets: Wilson [17.6, 22.6] straddles the 20-point minimum; CnTp 82.8 is strong, so the
    # base test is not failed, and whether it fully passes is open: inconclusive, the minimum named
    drops = {**LARGE, "pronoun": (0.20, 0.828, 0.10, 0.05)}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": 1_000}))
    assert judged["verdict"] == "inconclusive"
    assert judged["verdict_reason"] == (
        "only CnTp drops strongly in the base test; CpTn is undecided: pronoun CpTn drop 20.0 [17.6, 22.6] is "
        "undecided against the strong-drop minimum (20.0)"
    )


def test_a_drop_just_above_cptv_is_undecided_when_the_paired_interval_straddles() -> None:
    # CpTn 30.0 against CpTv 29.0 at 2,000 triplets: difference 1.0, +- 1.96 sqrt((0.3 x 0.7 + 0.29 x 0.71) / 2000)
    # = +- 2.8 for independent patterns: [-1.8, 3.8] straddles 0
    drops = {**LARGE, "pronoun": (0.30, 0.828, 0.10, 0.29)}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": 2_000}))
    assert judged["verdict"] == "inconclusive"
    assert (
        "pronoun CpTn drop 30.0 is undecided against pronoun CpTv drop 29.0 (difference 1.0 ["
        in (judged["verdict_reason"])
    )


@pytest.mark.parametrize(("n", "verdict"), [(100, "inconclusive"), (1_000, "passes")])
def test_a_contrast_of_two_points_passes_only_where_the_paired_comparison_holds(n: int, verdict: str) -> None:
    # CpTn = CnTp = 100 (every triplet drops), CnTn = 98, CpTv = 0: the negation contrast is 2.0 points. Paired
    # against CnTn, only 2 % of the triplets differ (only_a), none the other way; a margin is empty, so phi = 0:
    # - 100 triplets: Wilson's 100/100 is [0.9630, 1], 98/100 [0.9300, 0.9945]; L = 0.02 - sqrt(0.0370^2 +
    #   0.0145^2) = -0.0197: the interval straddles 0, neither drop is known to be above CnTn's: inconclusive.
    # - 1,000 triplets: [0.99617, 1] and [0.96933, 0.98702]; L = 0.02 - sqrt(0.00383^2 + 0.00702^2) = 0.0120 > 0:
    #   both drops are above CnTn's ("to a lesser extent in the CnTn pattern", section 3.5, asks no more) and the
    #   controls (roberta-large's) confirm: passes, on the paired comparison's evidence.
    drops = {**LARGE, "pronoun": (1.0, 1.0, 0.98, 0.0)}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": n}))
    assert judged["verdict"] == verdict
    low = judged["verdict_comparisons"]["pronoun"]["CpTn"]["above_CnTn"]["difference_ci95"][0]
    assert low == pytest.approx(-0.0197 if n == 100 else 0.0120, abs=2e-4)


def test_small_coreference_drops_do_not_confirm() -> None:
    # coref CpTn and CnTp drop 10.0 of 2,000 (Wilson [8.8, 11.4]), under the 20-point minimum: the coref variant
    # confirms nothing, and the strong base drops alone partially pass
    drops = {**LARGE, "coref": (0.10, 0.10, 0.0, 0.0)}
    judged = judge(model_counts(drops, dict.fromkeys(scn.VARIANTS, 2_000)))
    assert (judged["verdict"], judged["verdict_parts"]["coref"]) == ("partially passes", "not confirmed")
    assert (
        "the coref variant does not confirm the base drops: coref CpTn drop 10.0 [8.8, 11.4] is not above the "
        "strong-drop minimum (20.0)" in judged["verdict_reason"]
    )


def test_bert_large_reads_as_the_introduction_reads_it() -> None:
    # self-contained-neg-test.txt, line 72: models like bert-large "do pass our baseline test, but don't pass the
    # control tests at all". At Table 5's 363,922 triplets its base test passes in part (CpTn 44.7 strong, above
    # CpTv 42.9 by [1.6, 2.0]), and none of its three controls confirms: the veto (CpTv 42.9), the coref variant
    # (its CpTv 38.5 vetoes it too), the non-coreference variants (CpTn 47.9 and 44.7, above the minimum)
    judged = judge(model_counts(PAPER["bert-large-cased"], PAPER_TRIPLETS["bert-large-cased"]))
    parts = judged["verdict_parts"]
    assert parts["base"] == "partially passes"
    assert parts["base"] != "fails"
    assert (parts["cptv"], parts["coref"], parts["noncoref"]) == ("not confirmed",) * 3
    assert judged["verdict"] == "fails"
    assert judged["verdict_reason"].startswith("the base test's veto: pronoun CpTv drop 42.9 [42.7, 43.1] is above")


# --- the non-coreference control (lines 262 and 270/287): small is under the minimum and below the base drop ----


def test_non_coreference_drops_just_under_the_coref_ones_are_not_small() -> None:
    # The first construction: roberta-large's figures with non-coref CpTn / CnTp drops of 27.0 / 60.0
    # against its coref 28.9 / 64.1. Below coref, but the paper calls 28.9 large (line 315), and 27.0 of 4,400 has
    # Wilson [25.7, 28.3] (centre (0.27 + 1.96^2/8800) / (1 + 1.96^2/4400) = 0.2702, half 1.96 sqrt(0.27 x 0.73 /
    # 4400 + 1.96^2/(4 x 4400^2)) / 1.000873 = 0.0131): its lower end is above the 20-point minimum. Not small:
    # the non-coreference control does not confirm, and the model only partially passes (its base and coref pass).
    construction = (0.27, 0.60, 0.062, 0.094)
    drops = {**LARGE, "noncoref_same": construction, "noncoref_other": construction}
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-large"]))
    assert judged["verdict"] == "partially passes"
    assert judged["verdict_parts"] == {
        "base": "passes",
        "cptv": "confirmed",
        "coref": "confirmed",
        "noncoref": "not confirmed",
    }
    assert (
        "a non-coreference drop is not small: noncoref_same CpTn drop 27.0 [25.7, 28.3] is above the strong-drop "
        "minimum (20.0)" in judged["verdict_reason"]
    )


def test_non_coreference_drops_equal_to_the_base_drops_are_not_small() -> None:
    # The second construction: non-coref drops equal to roberta-large's base drops (64.7 / 82.8): far above
    # the minimum, and not below the base drops (difference 0, unpaired: an interval around 0 at best). Line 262
    # asks for "a much smaller drop" than the base one: not small, partially passes.
    drops = {**LARGE, "noncoref_same": LARGE["pronoun"], "noncoref_other": LARGE["pronoun"]}
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("partially passes", "not confirmed")
    below = judged["verdict_comparisons"]["noncoref_same"]["CpTn"]["below_base"]
    assert below["holds"] is not True  # 64.7 against 64.7: the base drop is not known to be above it
    assert below["difference_ci95"][0] < 0 < below["difference_ci95"][1]


def test_a_non_coreference_drop_under_the_minimum_must_still_be_below_the_base_drop() -> None:
    # A base CpTn of 10.0 (not strong; CnTp 82.8 is) and non-coref CpTn drops of 10.0 (2,000 triplets each): under
    # the minimum (Wilson upper bound 11.4), but the base drop is not known to be above them (difference 0.0 +-
    # about 1.9, unpaired): "a much smaller drop" (line 262) is not shown, and the control is undecided. The
    # verdict is partially passes either way (only CnTp is strong).
    drops = {
        **LARGE,
        "pronoun": (0.10, 0.828, 0.05, 0.05),
        "noncoref_same": (0.10, 0.019, 0.062, 0.094),
        "noncoref_other": (0.10, 0.108, 0.071, 0.115),
    }
    judged = judge(model_counts(drops, dict.fromkeys(scn.VARIANTS, 2_000)))
    assert judged["verdict"] == "partially passes"
    assert judged["verdict_parts"]["noncoref"] == "inconclusive"
    comparisons = judged["verdict_comparisons"]["noncoref_same"]["CpTn"]
    assert comparisons["above_minimum"]["holds"] is False
    assert comparisons["below_base"]["holds"] is None
    # at 13.0 against the base's 10.0 the base drop is known not to be above (upper bound -3.0 + about 2.0 < 0)
    drops = {**drops, "noncoref_same": (0.13, 0.019, 0.062, 0.094)}
    judged = judge(model_counts(drops, dict.fromkeys(scn.VARIANTS, 2_000)))
    assert judged["verdict_parts"]["noncoref"] == "not confirmed"
    assert judged["verdict_comparisons"]["noncoref_same"]["CpTn"]["below_base"]["holds"] is False


def test_a_non_coreference_drop_at_the_minimum_is_undecided() -> None:
    # noncoref_same CpTn 20.0 of 1,000 triplets: Wilson [17.6, 22.6] straddles the 20-point minimum; everything
    # else is roberta-large's, which passes: the verdict waits on it
    drops = {**LARGE, "noncoref_same": (0.20, 0.019, 0.062, 0.094)}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "noncoref_same": 1_000}))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("inconclusive", "inconclusive")
    assert judged["verdict_reason"] == (
        "a non-coreference drop may not be small: noncoref_same CpTn drop 20.0 [17.6, 22.6] is undecided against "
        "the strong-drop minimum (20.0)"
    )


def test_without_the_controls_a_model_at_most_partially_passes() -> None:
    judged = judge(model_counts({"pronoun": LARGE["pronoun"]}, PAPER_TRIPLETS["roberta-large"]))
    assert judged["verdict"] == "partially passes"
    assert judged["verdict_parts"] == {"base": "passes", "cptv": "confirmed", "coref": "not run", "noncoref": "not run"}
    assert "the coreference controls were not run" in judged["verdict_reason"]
    # with coref but no non-coreference variant, the same
    judged = judge(model_counts({v: LARGE[v] for v in ("pronoun", "coref")}, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("partially passes", "not run")
    assert "the non-coreference controls were not run" in judged["verdict_reason"]


def test_without_the_base_test_there_is_no_verdict_to_give() -> None:
    judged = judge(model_counts({"coref": LARGE["coref"]}, PAPER_TRIPLETS["roberta-large"]))
    assert judged["verdict"] == "inconclusive"
    assert judged["verdict_reason"] == "the base test (pronoun variant) has no triplets"


def test_a_file_that_fails_the_controls_as_the_paper_defines_failure_does_not_pass(tmp_path: Path, neghub: Any) -> None:
    # The file: a base test that passes, coref drops of 3 and 3 points, non-coref drops of 64 and 80
    # (100 triplets per variant): the opposite of section 4's expectation. Base: CpTv 5 of 100 (Wilson [2.2,
    # 11.2]) is under the veto; CpTn 90 and CnTp 92 are far above CnTn 10 and CpTv 5: both strong. Coref CpTn 3
    # ([1.0, 8.5]) is under the 20-point minimum: not confirmed -> partially passes, never passes.
    drops = {
        "pronoun": (0.90, 0.92, 0.10, 0.05),
        "coref": (0.03, 0.03, 0.0, 0.0),
        "noncoref_same": (0.64, 0.80, 0.0, 0.0),
        "noncoref_other": (0.64, 0.80, 0.0, 0.0),
    }
    out = evaluate(tmp_path, neghub, drops, 100)
    assert out["verdict"] == "partially passes"
    assert out["verdict_parts"] == {
        "base": "passes",
        "cptv": "confirmed",
        "coref": "not confirmed",
        "noncoref": "not confirmed",
    }
    result = neghub("evaluate", "scn", tmp_path / "p.jsonl")
    assert result.code == 0
    assert "verdict: partially passes (NegHub's reading of the paper's criterion, sections 3.5 and 4)" in result.out
    assert "verdict: passes" not in result.out
    assert (
        "  base test (pronoun): passes; CpTv control: confirmed; coref control: not confirmed; noncoref controls: "
        "not confirmed" in result.out
    )
    # every comparison is printed with its figures and interval
    assert "    coref CpTn drop 3.0 [1.0, 8.5] is not above the strong-drop minimum (20.0)" in result.out


def test_the_display_orders_rows_by_verdict_and_leaves_inconclusive_ones_unranked() -> None:
    from pydantic import ValidationError

    from neghub.evaluator.core.benchmark import Display

    display = scn.BENCHMARK.display
    assert display.verdict_order == ("passes", "partially passes", "fails")
    assert display.verdict_unranked == ("inconclusive",)
    assert (display.verdict_path, display.verdict_reason_path) == ("verdict", "verdict_reason")
    assert display.verdict_rule is not None
    assert display.verdict_rule.startswith("NegHub's reading of the paper's criterion (sections 3.5 and 4)")
    fields = display.model_dump()
    with pytest.raises(ValidationError, match="either ordered or unranked"):
        Display.model_validate({**fields, "verdict_unranked": ("inconclusive", "fails")})
    with pytest.raises(ValidationError, match="give verdict_path too"):
        Display.model_validate({**fields, "verdict_path": None})
