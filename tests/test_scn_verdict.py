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
# What the paper's conclusion says of each (section 5), as NegHub's verdict and its parts: the base test (its negated
# drops), then its three controls, the CpTv veto, the coref variant and the non-coreference variants. The readings
# (criterion.READINGS): a strong drop is above 20 points, at least 1.4 x the CpTv drop and above the CnTn drop
# (line 246), 1.4 x both controls in coref (lines 287, 315); a non-coreference drop is small at most half the base
# drop of its pattern (line 262), a non-coreference control at most half the base's smaller negated drop (line 287).
#
# bert-base-cased: no veto (CpTv 25.5, under 35) -> CpTv control confirmed; CpTn 3.6 and CnTp 1.2 are under the
#   floor: no strong base drop -> base fails -> fails. Coref: CpTn 2.0 under the floor -> not confirmed. Non-coref:
#   same-gender CnTp 2.3 is not half the base CnTp 1.2 (1.2 - 2 x 2.3 = -3.4) -> not confirmed.
# bert-large-cased: CpTv 42.9 [42.7, 43.1] is above the veto of 35 -> CpTv control not confirmed -> fails. Base:
#   CpTn 44.7 is not 1.4 x CpTv 42.9 = 60.1 (difference -15.4), CnTp 16.5 is under the floor: no strong drop ->
#   base fails, following line 246 and Table 6 rather than line 72's "do pass our baseline test". Coref CpTv 38.5
#   is above the veto -> not confirmed. Non-coref: CpTn 47.9 is not half of 44.7 -> not confirmed.
# roberta-base: CpTv 23.3 under the veto -> confirmed. CnTp 66.9 is above 1.4 x 23.3 = 32.6, above CnTn 12.1 and the
#   floor: strong; CpTn 27.7 is not 1.4 x 23.3 = 32.6 (difference -4.9; at 2,000 triplets about +- 3.0, the
#   patterns independent): not strong, as line 252 reads it ("only the 46.7 drop is significant") -> base
#   partially passes, as line 323 says ("roberta-base partially passes the basic test"). Coref CpTn 3.9 and CnTp
#   12.6 are under the floor -> not confirmed. Non-coref: CpTn 7.5 / 6.9 against half of 27.7 (13.85), CnTp 3.3 /
#   3.4 against half of 66.9, the controls (at most 4.8) against half of the smaller base drop 27.7: all small ->
#   confirmed. -> partially passes.
# roberta-large: CpTv 26.0 under the veto; CpTn 64.7 and CnTp 82.8 above 1.4 x 26.0 = 36.4 and above CnTn 43.5
#   (by 21.2 and 39.3): both strong. Coref: CpTv 17.3 under the veto; CpTn 28.9 above the floor, above 1.4 x 17.3
#   = 24.2 (by 4.7; at 2,000 about +- 3.1) and 1.4 x 14.3 = 20.0 (by 8.9); CnTp 64.1 far above: confirmed.
#   Non-coref: 11.7 / 12.1 against half of 64.7 (32.4), 1.9 / 10.8 against half of 82.8, controls at most 11.5
#   against 32.4: confirmed -> passes.
Parts = dict[str, str]
EXPECTED: dict[str, tuple[str, Parts]] = {
    "bert-base-cased": (
        "fails",
        {"base": "fails", "cptv": "confirmed", "coref": "not confirmed", "noncoref": "not confirmed"},
    ),
    "bert-large-cased": (
        "fails",
        {"base": "fails", "cptv": "not confirmed", "coref": "not confirmed", "noncoref": "not confirmed"},
    ),
    "roberta-base": (
        "partially passes",
        {"base": "partially passes", "cptv": "confirmed", "coref": "not confirmed", "noncoref": "confirmed"},
    ),
    "roberta-large": ("passes", {"base": "passes", "cptv": "confirmed", "coref": "confirmed", "noncoref": "confirmed"}),
}
# At a NegHub run's 2,000 triplets per variant (100 names x 20 verbs, the outcomes placed at random: design effects
# near 1), every verdict and part is the same.
EXPECTED_AT_2000: dict[str, tuple[str, Parts]] = EXPECTED


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
    # CpTn 20.0 of 1,000 triplets: Wilson [17.6, 22.6] straddles the 20-point floor; CnTp 82.8 is strong, so the
    # base test is not failed, and whether it fully passes is open: inconclusive, the floor named. (The
    # non-coreference drops are small beside the base's smaller drop, 20.0: 5 and 2 points, at most half.)
    small = (0.05, 0.019, 0.02, 0.02)
    drops = {**LARGE, "pronoun": (0.20, 0.828, 0.10, 0.05), "noncoref_same": small, "noncoref_other": small}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": 1_000}))
    assert judged["verdict"] == "inconclusive"
    assert judged["verdict_reason"] == (
        "only CnTp drops strongly in the base test; CpTn is undecided: pronoun CpTn drop 20.0 [17.6, 22.6] is "
        "undecided against the strong-drop minimum (20.0)"
    )


def test_a_drop_just_above_1_4_times_cptv_is_undecided_when_the_paired_interval_straddles() -> None:
    # CpTn 30.0 against CpTv 21.4 at 2,000 triplets: 1.4 x 21.4 = 29.96, difference 0.04; the patterns placed
    # independently, +- 1.96 sqrt((0.3 x 0.7 + 1.96 x 0.214 x 0.786) / 2000) = +- 3.3: straddles 0
    drops = {**LARGE, "pronoun": (0.30, 0.828, 0.10, 0.214)}
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": 2_000}))
    assert judged["verdict"] == "inconclusive"
    assert (
        "pronoun CpTn drop 30.0 is undecided against 1.4 x pronoun CpTv drop 21.4 = 30.0 (difference 0.0 ["
        in judged["verdict_reason"]
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


def test_bert_large_fails_the_base_test_under_line_246_not_as_line_72_says() -> None:
    # Line 72 says models like bert-large "do pass our baseline test"; line 246 asks its negated drops be "greater
    # than in the control pattern CpTv", and Table 6 gives CpTn 44.7 beside CpTv 42.9 (1.04 x, under 1.4 x = 60.1)
    # and CnTp 16.5 (under the floor). NegHub follows line 246 and Table 6: the base test fails, and the verdict's
    # reason names the line it follows. The verdict is "fails" either way (the veto: CpTv 42.9 above 35).
    judged = judge(model_counts(PAPER["bert-large-cased"], PAPER_TRIPLETS["bert-large-cased"]))
    parts = judged["verdict_parts"]
    assert parts["base"] == "fails"
    assert (parts["cptv"], parts["coref"], parts["noncoref"]) == ("not confirmed",) * 3
    assert judged["verdict"] == "fails"
    assert judged["verdict_reason"].startswith("the base test's veto: pronoun CpTv drop 42.9 [42.7, 43.1] is above")
    cptn = judged["verdict_comparisons"]["pronoun"]["CpTn"]["above_CpTv"]
    assert (cptn["scale"], cptn["holds"]) == (1.4, False)
    # without the veto (CpTv just under 35 would not make 44.7 1.4 x it either): no strong drop, line 246 named
    no_veto = {**PAPER["bert-large-cased"], "pronoun": (0.447, 0.165, 0.097, 0.34)}
    judged = judge(model_counts(no_veto, PAPER_TRIPLETS["bert-large-cased"]))
    assert judged["verdict"] == "fails" and judged["verdict_parts"]["base"] == "fails"
    assert judged["verdict_reason"].startswith("no strong drop in the base test (line 246, as Table 6's figures read")


def test_the_readings_name_each_word_its_lines_and_neghubs_own_cut_offs() -> None:
    from neghub.evaluator.benchmarks.scn.criterion import READINGS

    words = " ".join(r.words for r in READINGS)
    for word in ("much smaller", "small drops", "should remain small", "pass our baseline test", "strong drops"):
        assert word in words
    owned = [r.own for r in READINGS if r.own is not None]
    assert any("20 points" in o for o in owned) and any("1.4" in o for o in owned) and any("1/2" in o for o in owned)
    assert any("35" in o for o in owned)
    by_word = {r.words: r for r in READINGS}
    baseline = next(r for w, r in by_word.items() if "pass our baseline test" in w)
    assert "line 246" in baseline.lines and "not line 72" in baseline.lines


# --- the coref controls (lines 287 and 315): a negated drop is large beside controls that remain small ---------


def test_roberta_large_coref_case_passes() -> None:
    # Table 8b: coref CpTn 28.9 beside CnTn 14.3 and CpTv 17.3, at 60,800 triplets: 28.9 - 1.4 x 17.3 = 4.7 and
    # 28.9 - 1.4 x 14.3 = 8.9, each +- about 0.6: the coref variant confirms (line 315: "significantly larger than
    # for the CnTn and CpTv controls")
    judged = judge(model_counts(LARGE, PAPER_TRIPLETS["roberta-large"]))
    assert judged["verdict_parts"]["coref"] == "confirmed"
    above = judged["verdict_comparisons"]["coref"]["CpTn"]["above_CpTv"]
    assert above["holds"] is True and above["difference_ci95"][0] > 0.03


@pytest.mark.parametrize(("cntn", "cptv"), [(0.25, 0.27), (0.27, 0.25)])
def test_coref_controls_of_25_and_27_beside_28_9_fail_under_line_287(cntn: float, cptv: float) -> None:
    # The case: coref controls of 25 / 27 beside a coref CpTn of 28.9, at 60,800 triplets. The old reading
    # passed it (28.9 above 27.0 by 1.9, significant at 60,800); line 287 asks the controls "remain small" beside
    # "large drops": 28.9 is 1.07 x 27 and 1.16 x 25, under 1.4 x: not confirmed, the model partially passes
    drops = {**LARGE, "coref": (0.289, 0.641, cntn, cptv)}
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["coref"]) == ("partially passes", "not confirmed")
    assert (
        "the coref variant does not confirm the base drops: coref CpTn drop 28.9 is not above 1.4 x coref"
        in (judged["verdict_reason"])
    )


def test_controls_of_40_and_40_fail() -> None:
    # coref controls of 40 / 40: the CpTv veto (40 above 35) and 64.1 under 1.4 x 40 = 56 -> not confirmed
    coref = {**LARGE, "coref": (0.289, 0.641, 0.40, 0.40)}
    judged = judge(model_counts(coref, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["coref"]) == ("partially passes", "not confirmed")
    # non-coreference controls of 40 / 40 (line 287: "The drops in CnTn and CpTv controls should remain small"): not
    # at most half of the base's smaller negated drop (64.7 / 2 = 32.4): 64.7 - 2 x 40 = -15.3 -> not confirmed
    noncoref = {
        **LARGE,
        "noncoref_same": (0.117, 0.019, 0.40, 0.40),
        "noncoref_other": (0.121, 0.108, 0.40, 0.40),
    }
    judged = judge(model_counts(noncoref, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("partially passes", "not confirmed")
    assert judged["verdict_comparisons"]["noncoref_same"]["CnTn"]["much_smaller"]["holds"] is False


# --- the non-coreference control (lines 262, 270, 287): "much smaller" is at most half the base drop ---------


def test_a_base_drop_of_21_with_non_coreference_drops_of_18_5_fails_much_smaller() -> None:
    # The case: base CpTn = CnTp = 21 (strong: above 20 at 100,000 triplets, +- 0.25, and above 1.4 x 5),
    # non-coreference CpTn = CnTp = 18.5 at 4,400: significantly smaller, but not "much smaller" (line 262):
    # 21 - 2 x 18.5 = -16 -> not small, partially passes
    drops = {
        **LARGE,
        "pronoun": (0.21, 0.21, 0.05, 0.05),
        "noncoref_same": (0.185, 0.185, 0.02, 0.02),
        "noncoref_other": (0.185, 0.185, 0.02, 0.02),
    }
    judged = judge(model_counts(drops, {**PAPER_TRIPLETS["roberta-large"], "pronoun": 100_000}))
    assert judged["verdict_parts"]["base"] == "passes"
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("partially passes", "not confirmed")
    assert (
        "a non-coreference drop is not small: pronoun CpTn drop 21.0 is not above 2 x noncoref_same CpTn drop 18.5 = "
        "37.0" in judged["verdict_reason"]
    )


def test_a_base_of_80_and_90_with_non_coreference_drops_of_22_to_25_passes() -> None:
    # The case: no fixed 20-point ceiling for "small" (the paper's small and large are relative: line 254
    # calls a CnTn of 43.5 small, line 315 calls 28.9 large): non-coreference drops of 22-25 beside base drops of
    # 80 / 90 are at most half of them (80 - 2 x 25 = 30 points, +- about 3 at 4,400): small, and the model passes
    drops = {
        **LARGE,
        "pronoun": (0.80, 0.90, 0.10, 0.10),
        "noncoref_same": (0.22, 0.25, 0.23, 0.24),
        "noncoref_other": (0.25, 0.22, 0.24, 0.23),
    }
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("passes", "confirmed")


def test_non_coreference_drops_equal_to_the_base_drops_are_not_small() -> None:
    drops = {**LARGE, "noncoref_same": LARGE["pronoun"], "noncoref_other": LARGE["pronoun"]}
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("partially passes", "not confirmed")
    assert judged["verdict_comparisons"]["noncoref_same"]["CpTn"]["much_smaller"]["holds"] is False


def test_a_non_coreference_drop_at_half_the_base_drop_is_undecided() -> None:
    # noncoref_same CpTn 32.35 of 4,400 against half of the base CpTn 64.7: difference 0, unpaired: straddles 0
    drops = {**LARGE, "noncoref_same": (0.3235, 0.019, 0.062, 0.094)}
    judged = judge(model_counts(drops, PAPER_TRIPLETS["roberta-large"]))
    assert (judged["verdict"], judged["verdict_parts"]["noncoref"]) == ("inconclusive", "inconclusive")
    assert judged["verdict_reason"].startswith(
        "a non-coreference drop may not be small: pronoun CpTn drop 64.7 is undecided against 2 x noncoref_same "
        "CpTn drop 32.3 = 64.7"  # 1,423 of 4,400 = 32.34 %
    )


# --- the triplets' clusters: up to 20 verbs per name/profession pair ----------------------------------------------


def test_drops_shared_by_a_names_verbs_widen_the_interval_by_the_two_way_design_effect() -> None:
    # 2,000 triplets: 100 names x 20 verbs; CpTn drops on every verb of 25 names (25 %). By hand (CR1): residuals
    # 0.75 (500) and -0.25 (1,500), sum e^2 = 375. By name: sums 15 (25) and -5 (75), 100/99 x (25 x 225 + 75 x 25) =
    # 7575.76; by verb: every verb drops on 25 of its 100 names, sums 0; by triplet: 2000/1999 x 375 = 375.19.
    # Cameron-Gelbach-Miller: (7575.76 + 0 - 375.19) / 375 = 19.2015. Wilson at 2000 / 19.20 = 104 triplets: about
    # [17.6, 34.0], which straddles the 20-point floor: the drop is no longer known to be strong.
    from neghub.evaluator.benchmarks.scn.criterion import Variant
    from neghub.evaluator.core.stats import two_way_design_effect

    names = np.repeat(np.arange(100), 20)
    verbs = np.tile(np.arange(20), 100)
    drops_cptn = names < 25
    bits = np.full(2000, 0b11111, dtype=np.int64) & ~(drops_cptn.astype(np.int64) << PATTERNS.index("CpTn"))
    assert two_way_design_effect(drops_cptn.astype(np.float64), names, verbs) == pytest.approx(19.2015, abs=1e-3)
    counts_ = np.bincount(bits, minlength=32)
    independent = Variant("pronoun", counts_).above_threshold("CpTn", 0.20, "the floor")
    clustered = Variant("pronoun", counts_, (bits, names, verbs)).above_threshold("CpTn", 0.20, "the floor")
    assert independent.holds is True
    assert clustered.holds is None
    low, high = (v + 0.20 for v in clustered.interval)
    assert low == pytest.approx(0.176, abs=0.003) and high == pytest.approx(0.340, abs=0.003)


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
    # every comparison is printed with its figures and its interval (clustered: the file's 100 triplets are 5 names
    # x 20 verbs, so the interval is wider than Wilson's [1.0, 8.5] at 100 independent triplets)
    (line,) = [line for line in result.out.splitlines() if line.startswith("    coref CpTn drop 3.0 [")]
    assert line.endswith("] is not above the strong-drop minimum (20.0)")
    low, high = (float(v) for v in line.split("[")[1].split("]")[0].split(", "))
    assert low <= 1.0 and high >= 8.5


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
