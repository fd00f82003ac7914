"""A row that answers both items of a minimal pair whose gold changes (M_i) alike beyond chance is marked "ignores
negation in N % of pairs (NegHub's statistic, not the paper's)" wherever it is listed (leaderboard/marks.py), and
quotes the paper's finding as the hedge it is (可能性が示唆される, "may be"; issue 33): on JNLI-Neg
as a git history and one site build read as a reader reads it, and on a synthetic JSTS-Neg board (the test
fixture's 30 M_i pairs; JSTS-Neg's release is not pinned, so no build shows its rows).

By hand: "Blind" answers each M_i treatment as it answered its control, so nearly every one of the 787 M_i pairs is
answered alike (all but those where a later copy changed an instance that is the control of another pair: the test
counts them from the pairs), where its own answers, 70 % right elsewhere, would be alike by chance on Σ_k f₁(k)·f₂(k)
of them, a third or so for three labels: far below. "Honest" (70 % right,
errors independent of the pairs) answers a pair alike only where its two answers happen to match: near chance, not
marked. A constant answer is alike on every pair and expected to be (Σ f² = 1): not marked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.histories import Main, build, hub_model, jnli_run, submission
from tests.test_evidence_attacks import model, primary


def blind(split: tuple[list[int], list[str]]) -> tuple[dict[int, str | None], int]:
    """70 % right, then each M_i treatment given its control's answer; and how many M_i pairs end up answered
    alike (an instance can be the treatment of one pair and the control of another, whose copy comes later)."""
    import os

    from neghub.evaluator.benchmarks import jnli_neg

    answers = dict(model(split, 0.70, 11))
    dataset = jnli_neg.load("valid", data_dir=Path(os.environ["NEGHUB_DATA_DIR"]))
    ids = [int(i) for i in dataset.ids]
    pairs = dataset.pairs
    for control, treatment, important in zip(pairs.control, pairs.treatment, pairs.important, strict=True):
        if important:
            answers[ids[int(treatment)]] = answers[ids[int(control)]]
    alike = sum(
        1
        for c, t, important in zip(pairs.control, pairs.treatment, pairs.important, strict=True)
        if important and answers[ids[int(c)]] == answers[ids[int(t)]]
    )
    return answers, alike


def test_a_row_that_ignores_negation_is_marked_wherever_it_is_listed(
    tmp_path: Path, split: tuple[list[int], list[str]]
) -> None:
    main = Main.create(tmp_path / "repo")
    answers, alike = blind(split)
    assert alike > 0.95 * 787
    main.push(
        "NegHub's runs",
        {
            **submission("blind", hub_model("Blind", "org/blind", "1" * 40), "neghub", [jnli_run(answers)]),
            **submission(
                "honest", hub_model("Honest", "org/honest", "2" * 40), "neghub", [jnli_run(model(split, 0.7, 12))]
            ),
            **submission(
                "constant",
                hub_model("Constant", "org/constant", "3" * 40),
                "neghub",
                [jnli_run(dict.fromkeys(split[0], "neutral"))],
            ),
        },
    )
    site = build(main.root)
    rows = primary(site)
    share = round(100 * alike / 787)
    assert f"ignores negation in {share} % of pairs (NegHub's statistic, not the paper's)" in rows["Blind"]
    # the JNLI-Neg paper's sentence (jnli-neg-ja.txt, section 4.3, line 214) is quoted whole, as a hedge
    assert (
        "the JNLI-Neg paper only suggests it, of the models it ran (可能性が示唆される, may be): "
        "“これらの結果より、𝐷JNLIで学習した MLM は、否定を無視して推論を行っている可能性が示唆される。”"
    ) in rows["Blind"]
    assert "paper's reading" not in rows["Blind"]
    assert f"{alike} of 787 M_i pairs (those whose gold changes) alike" in rows["Blind"]
    assert "ignores negation" not in rows["Honest"] and "ignores negation" not in rows["Constant"]
    # the model page, the profile and the leaderboard file say it too
    assert f"ignores negation in {share} % of pairs" in site.text("models/blind.html")
    assert "ignores negation" in site.text("profile.md")
    (entry,) = [e for e in site.file()["rows"] if e["submission"] == "blind"]
    assert entry["tags"] == ["ignores negation"]


def test_a_synthetic_jsts_neg_board_marks_its_blind_row(tmp_path: Path) -> None:
    from neghub.evaluator.benchmarks import jsts_neg
    from neghub.evaluator.core.benchmark import EvalOptions
    from neghub.evaluator.core.registry import get_benchmark
    from neghub.leaderboard.marks import ignored_negation

    mirror = Path(__file__).parent / "fixtures" / "mirror"
    dataset = jsts_neg.load("test", data_dir=mirror, unverified=True)
    ids = [int(i) for i in dataset.ids]
    gold = {i: int(g) for i, g in zip(ids, dataset.gold, strict=True)}
    answers = dict(gold)
    pairs = dataset.pairs
    for control, treatment, important in zip(pairs.control, pairs.treatment, pairs.important, strict=True):
        if important:
            answers[ids[int(treatment)]] = answers[ids[int(control)]]
    path = tmp_path / "blind.jsonl"
    path.write_text("".join(json.dumps({"id": i, "prediction": a}) + "\n" for i, a in answers.items()))
    options = EvalOptions(split="test", data_dir=mirror, unverified=True)
    found = ignored_negation(get_benchmark("jsts-neg").evaluate(path, options))
    # 30 M_i pairs (the fixture's hand count), every one answered alike; the fixture's gold scores spread over 0-5
    assert found is not None and (found.alike, found.pairs) == (30, 30)
    # the fixture's gold scores bunch (Σ f² = 0.61): 30 of 30 alike is still far above (Wilson from 88.6 %)
    assert 0.5 < found.expected < 0.7 and found.shown
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text("".join(json.dumps({"id": i, "prediction": g}) + "\n" for i, g in gold.items()))
    honest = ignored_negation(get_benchmark("jsts-neg").evaluate(gold_path, options))
    assert honest is not None and not honest.shown  # gold changes on every M_i pair: answered alike on none
    # on JSTS-Neg the mark quotes JSTS-Neg's own hedge (jsts-neg-ja.txt, section 4.3, line 190), as a hedge
    words = found.words(get_benchmark("jsts-neg").display.ignored_negation or "")
    assert words.startswith("ignores negation in 100 % of pairs (NegHub's statistic, not the paper's): ")
    assert "the JSTS-Neg paper only suggests it, of the models it ran (可能性が示唆される, may be): " in words
    assert "“例を多く与えられたモデルは否定を無視して類似度を予測している可能性が示唆される。”" in words
    assert "JNLI-Neg" not in words


@pytest.mark.parametrize(("alike", "pairs", "expected", "shown"), [(787, 787, 1.0, False), (300, 787, 0.34, True)])
def test_the_mark_needs_the_share_above_chance_by_its_interval(
    alike: int, pairs: int, expected: float, shown: bool
) -> None:
    from neghub.leaderboard.marks import IgnoredNegation

    # 300/787 = 38.12 %, whose Wilson interval starts at (0.3812 + 1.96²/1574)/(1 + 1.96²/787) − 1.96 ·
    # √(0.3812 · 0.6188/787 + 1.96²/(4 · 787²))/(1 + 1.96²/787) = 0.3818 − 0.0339 = 34.79 %: marked where chance
    # expects 34 %, not where it expects 34.9 %
    assert IgnoredNegation(alike, pairs, expected).shown is shown
    assert IgnoredNegation(300, 787, 0.349).shown is False
