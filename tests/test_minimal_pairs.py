"""Minimal pairs and their metrics on a hand-written JNLI-shaped fixture, worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neghub.evaluator.benchmarks import jnli_neg
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.core.stats import BootstrapConfig

from .conftest import flat_result

NEG = {"neg_id_in_jnli_sentence": 0, "neg_position": "end", "target_pos": "動詞"}


def neg(neg_id: int, position: str, pos: str) -> dict[str, Any]:
    return {"neg_id_in_jnli_sentence": neg_id, "neg_position": position, "target_pos": pos}


def record(rid: int, group: int, kind: str, s1: dict[str, Any] | None, s2: dict[str, Any] | None, gold: str) -> dict:
    return {
        "id": rid,
        "jnli_sentence_pair_id": group,
        "pair_id_in_group": rid,
        "type": kind,
        "sentence1": {"sentence": "s1", "neg": s1},
        "sentence2": {"sentence": "s2", "neg": s2},
        "gold_label": gold,
        "annotator_labels": None if kind == "original" else {"entailment": 1, "neutral": 1, "contradiction": 1},
    }


# Group 10: O (original), A (cue on s1, id 0, end, verb), B (cue on s2, id 0, mid, i-adjective),
#           C (both: A's negated s1 and B's negated s2).
# Group 20: P (original), Q (cue on s2, id 1, end, verb),
#           R (both: s1 cue id 0 mid na-adjective, which has no p_neg in the release; s2 = Q's).
RECORDS = [
    record(0, 10, "original", None, None, "neutral"),  # O
    record(1, 10, "p_neg", neg(0, "end", "動詞"), None, "contradiction"),  # A
    record(2, 10, "h_neg", None, neg(0, "mid", "形容詞"), "neutral"),  # B
    record(3, 10, "p_neg_h_neg", neg(0, "end", "動詞"), neg(0, "mid", "形容詞"), "entailment"),  # C
    record(4, 20, "original", None, None, "entailment"),  # P
    record(5, 20, "h_neg", None, neg(1, "end", "動詞"), "contradiction"),  # Q
    record(6, 20, "p_neg_h_neg", neg(0, "mid", "形容動詞"), neg(1, "end", "動詞"), "contradiction"),  # R
]
# Pairs (control -> treatment, kind, cue added, gold change):
#   1 O->A single_s1     end verb          neutral -> contradiction   M_i
#   2 O->B single_s2     mid i_adjective   neutral -> neutral         M_u
#   3 A->C both_from_s1  mid i_adjective   contradiction -> entailment M_i  (C's s2 cue is the added one)
#   4 B->C both_from_s2  end verb          neutral -> entailment      M_i  (C's s1 cue is the added one)
#   5 P->Q single_s2     end verb          entailment -> contradiction M_i
#   6 Q->R both_from_s2  mid na_adjective  contradiction -> contradiction M_u
#   R has no both_from_s1 pair: no p_neg of group 20 with s1 cue id 0 -> 1 unmatched.
PREDICTIONS = {
    0: "neutral",  # O right
    1: "neutral",  # A wrong
    2: "neutral",  # B right
    3: "contradiction",  # C wrong
    4: "entailment",  # P right
    5: "contradiction",  # Q right
    6: "entailment",  # R wrong
}
# Per pair (control right?, treatment right?, prediction changed?):
#   1 (1,0,no) 2 (1,1,no) 3 (0,0,yes) 4 (1,0,yes) 5 (1,1,yes) 6 (1,0,yes)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    """A mirror folder whose jnli-neg valid file is the hand fixture (so it scores only --unverified)."""
    write_jsonl(tmp_path / "mirror" / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl", RECORDS)
    return tmp_path / "mirror"


@pytest.fixture
def predictions(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "pred.jsonl", [{"id": i, "prediction": p} for i, p in PREDICTIONS.items()])


def evaluate_json(neghub: Any, mirror: Path, predictions: Path, *extra: str) -> dict[str, Any]:
    result = neghub(
        "evaluate", "jnli-neg", predictions, "--split", "valid", "--data-dir", mirror, "--unverified", "--json", *extra
    )
    assert result.code == 0, result.err
    return flat_result(json.loads(result.out))


def test_counts_of_the_hand_fixture(neghub: Any, mirror: Path, predictions: Path) -> None:
    result = evaluate_json(neghub, mirror, predictions)
    assert result["counts"] == {
        "D_orig": 2,
        "D_neg": 5,
        "M": 6,
        "M_i": 4,
        "M_u": 2,
        "both_pairs_without_control": 1,
    }
    assert result["verified"] is False  # the fixture is not the pinned file


def test_pair_metrics_by_hand(neghub: Any, mirror: Path, predictions: Path) -> None:
    m = evaluate_json(neghub, mirror, predictions)["pair_metrics"]
    # M: control right in pairs 1,2,4,5,6 -> 5/6; treatment right in 2,5 -> 2/6; AccChg -3/6
    assert m["M"]["acc"] == pytest.approx(5 / 6)
    assert m["M"]["acc_prime"] == pytest.approx(2 / 6)
    assert m["M"]["acc_chg"] == pytest.approx(-0.5)
    # M_i = pairs 1,3,4,5: Acc (1+0+1+1)/4, Acc' (0+0+0+1)/4; unchanged prediction only in pair 1
    assert m["M_i"]["acc"] == pytest.approx(3 / 4)
    assert m["M_i"]["acc_prime"] == pytest.approx(1 / 4)
    assert m["M_i"]["acc_chg"] == pytest.approx(-0.5)
    assert m["M_i"]["ignored_rate"] == pytest.approx(1 / 4)
    # M_u = pairs 2,6: Acc 2/2, Acc' 1/2; the prediction changed in pair 6
    assert m["M_u"]["acc"] == pytest.approx(1.0)
    assert m["M_u"]["acc_prime"] == pytest.approx(0.5)
    assert m["M_u"]["distracted_rate"] == pytest.approx(0.5)
    assert "distracted_rate" not in m["M_i"] and "ignored_rate" not in m["M_u"]


def test_mcnemar_by_hand(neghub: Any, mirror: Path, predictions: Path) -> None:
    m = evaluate_json(neghub, mirror, predictions)["pair_metrics"]
    # M: 3 pairs right only as control (1,4,6), none only as treatment: p = 2 * P[Bin(3, .5) <= 0] = 2/8
    assert m["M"]["discordant"] == {"control_only": 3, "treatment_only": 0}
    assert m["M"]["mcnemar_p"] == pytest.approx(0.25)
    # M_i: b=2 (pairs 1,4), c=0: 2 * 1/4 = 0.5; M_u: b=1, c=0: min(1, 2 * 1/2) = 1
    assert m["M_i"]["mcnemar_p"] == pytest.approx(0.5)
    assert m["M_u"]["mcnemar_p"] == pytest.approx(1.0)


def test_instance_metrics_by_hand(neghub: Any, mirror: Path, predictions: Path) -> None:
    inst = evaluate_json(neghub, mirror, predictions)["instance_metrics"]
    # D_orig: O, P right -> 1; D_neg: B, Q right of A, B, C, Q, R -> 2/5; D: 4/7
    assert inst["D_orig"] == {"n": 2, "acc": 1.0}
    assert inst["D_neg"]["acc"] == pytest.approx(2 / 5)
    assert inst["D"]["acc"] == pytest.approx(4 / 7)


def test_breakdowns_by_hand(neghub: Any, mirror: Path, predictions: Path) -> None:
    b = evaluate_json(neghub, mirror, predictions)["breakdowns"]
    kind = b["pair_kind"]
    assert kind["single_s1"]["M"] == {"n": 1, "acc": 1.0, "acc_prime": 0.0, "acc_chg": -1.0}  # pair 1
    assert kind["single_s2"]["M"] == {"n": 2, "acc": 1.0, "acc_prime": 1.0, "acc_chg": 0.0}  # pairs 2, 5
    assert kind["both_from_s1"]["M"] == {"n": 1, "acc": 0.0, "acc_prime": 0.0, "acc_chg": 0.0}  # pair 3
    assert kind["both_from_s2"]["M"] == {"n": 2, "acc": 1.0, "acc_prime": 0.0, "acc_chg": -1.0}  # pairs 4, 6
    # end: pairs 1, 4, 5 -> Acc 3/3, Acc' 1/3; mid: pairs 2, 3, 6 -> Acc 2/3, Acc' 1/3
    assert b["cue_position"]["end"]["M"]["acc"] == pytest.approx(1.0)
    assert b["cue_position"]["end"]["M"]["acc_prime"] == pytest.approx(1 / 3)
    assert b["cue_position"]["mid"]["M"]["acc"] == pytest.approx(2 / 3)
    assert b["cue_position"]["mid"]["M"]["acc_prime"] == pytest.approx(1 / 3)
    # verb: pairs 1, 4, 5; i_adjective: pairs 2, 3 -> Acc 1/2, Acc' 1/2; na_adjective: pair 6 -> 1, 0
    assert b["target_pos"]["verb"]["M"]["n"] == 3
    assert b["target_pos"]["i_adjective"]["M"] == {"n": 2, "acc": 0.5, "acc_prime": 0.5, "acc_chg": 0.0}
    assert b["target_pos"]["na_adjective"]["M"] == {"n": 1, "acc": 1.0, "acc_prime": 0.0, "acc_chg": -1.0}
    # an empty cell says so instead of dividing by zero: no M_u pair is single_s1
    assert kind["single_s1"]["M_u"] == {"n": 0, "acc": None, "acc_prime": None, "acc_chg": None}


def test_acc_chg_has_no_interval_when_no_pair_is_discordant(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    # with gold predictions every pair is (right, right): every resample gives AccChg 0, and a zero-width interval
    # would claim a certainty the pairs do not give: there is none, and `discordant` says why. Acc and Acc'
    # are n of n: Wilson's interval is [n / (n + z^2), 1], never [1, 1].
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": r["id"], "prediction": r["gold_label"]} for r in RECORDS])
    m = evaluate_json(neghub, mirror, gold)["pair_metrics"]
    z2 = 1.959963984540054**2
    for name in ("M", "M_i", "M_u"):
        n = m[name]["n"]
        assert m[name]["acc"] == m[name]["acc_prime"] == 1.0
        assert m[name]["acc_chg"] == 0.0
        assert m[name]["acc_chg_ci95"] is None
        assert m[name]["discordant"] == {"control_only": 0, "treatment_only": 0}
        assert m[name]["acc_ci95"] == pytest.approx([n / (n + z2), 1.0])
        assert m[name]["mcnemar_p"] == 1.0


def test_bootstrap_is_seeded(neghub: Any, mirror: Path, predictions: Path) -> None:
    first = evaluate_json(neghub, mirror, predictions)
    again = evaluate_json(neghub, mirror, predictions)
    other_seed = evaluate_json(neghub, mirror, predictions, "--seed", "7", "--bootstrap-resamples", "200")
    assert first == again
    assert other_seed["bootstrap"] == {"resamples": 200, "seed": 7}
    low, high = first["pair_metrics"]["M"]["acc_chg_ci95"]
    assert -1.0 <= low <= first["pair_metrics"]["M"]["acc_chg"] <= high <= 1.0


def test_table_report_names_the_sets(neghub: Any, mirror: Path, predictions: Path) -> None:
    result = neghub("evaluate", "jnli-neg", predictions, "--data-dir", mirror, "--unverified")
    assert result.code == 0
    lines = result.out.splitlines()
    # the M_i row: n 4, Acc 75.00, Acc' 25.00, AccChg -50.00 (percentages in the table)
    assert any(line.startswith("M_i") and "75.00" in line and "25.00" in line and "-50.00" in line for line in lines)


def test_fixture_refused_without_unverified(mirror: Path) -> None:
    with pytest.raises(InputError) as info:
        jnli_neg.load("valid", data_dir=mirror)
    assert "sha256 mismatch: expected da5c1836" in str(info.value)
    assert "pass --unverified" in str(info.value)


def test_score_without_bootstrap_has_no_interval(mirror: Path) -> None:
    dataset = jnli_neg.load("valid", data_dir=mirror, unverified=True)
    result = jnli_neg.score(dataset, dataset.gold.copy(), None)
    assert result["pair_metrics"]["M"]["acc_chg_ci95"] is None
    assert result["pair_metrics"]["M"]["acc_ci95"] is None
    with_ci = jnli_neg.score(dataset, dataset.gold.copy(), BootstrapConfig(resamples=10))
    n = with_ci["pair_metrics"]["M"]["n"]
    # all right: Wilson's [n / (n + z^2), 1]; no discordant pair: no AccChg interval
    assert with_ci["pair_metrics"]["M"]["acc_ci95"] == pytest.approx([n / (n + 1.959963984540054**2), 1.0])
    assert with_ci["pair_metrics"]["M"]["acc_chg_ci95"] is None


# --- the fast path reads what the line-by-line reader reads -------------------------------------------------------

_ANSWERS = st.one_of(
    st.sampled_from(["entailment", "neutral", "contradiction"]),
    st.none(),
    st.sampled_from(["oops", "", "neutral!"]),  # not a label: the file is refused either way
)


# the mirror fixture is written once per test and only read: sharing it between examples is safe
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answers=st.lists(_ANSWERS, min_size=len(RECORDS), max_size=len(RECORDS)), raw=st.text(max_size=12))
def test_the_plain_line_fast_path_agrees_with_the_line_reader(
    mirror: Path, answers: list[str | None], raw: str
) -> None:
    # the same lines, read whole by the fast path and line by line: the same codes, the same raw outputs, or both
    # refuse (the fast path then hands the file to the line reader, which names the problem)
    from functools import partial

    from neghub.evaluator.families.minimal_pairs import reader
    from neghub.evaluator.families.reading import read_lines

    dataset = jnli_neg.load("valid", data_dir=mirror, unverified=True)
    lines = [
        json.dumps(
            {"id": r["id"], "prediction": None, "raw_output": raw} if a is None else {"id": r["id"], "prediction": a}
        )
        for r, a in zip(RECORDS, answers, strict=True)
    ]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    fast_raw: dict[int, str] = {}
    fast = reader.read_plain_predictions(data, dataset, jnli_neg.parse_prediction, fast_raw)
    slow_raw: dict[int, str] = {}
    line_by_line = partial(reader._read_predictions, dataset, jnli_neg.parse_prediction, slow_raw)
    try:
        slow = read_lines(
            Path("p.jsonl"),
            line_by_line,
            line_model=jnli_neg.BENCHMARK.prediction_line(None),
            max_bytes=reader.MAX_PREDICTION_FILE_BYTES,
            data=data,
        )
    except InputError:
        assert fast is None
        return
    if fast is not None:  # the fast path may decline a file the line reader accepts (an escape in a raw output)
        assert fast.tolist() == slow.tolist() and fast_raw == slow_raw
