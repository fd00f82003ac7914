"""SCN's boards order rows by the benchmark's verdict before its statistic (issue 27: "SCN's order follows its
verdict"), and an inconclusive row is not ranked; built as a git history of NegHub's own runs (pushed by the
maintainers) and one site build, read as a reader reads it.

The rows are SCN files on NegHub's word lists (400 triplets per variant: 20 verbs for each of 20 names), each
pattern's drop placed on a seeded random subset of the triplets (tests/test_scn_verdict.py's construction). Their
verdicts, worked out by hand with the criterion's rules (evaluator/benchmarks/scn/criterion.py: a strong drop is
above its variant's CpTv and CnTn drops by a paired comparison and above 20 points; a CpTv drop above 35 points
vetoes; a non-coreference drop is small below the coref one):

- "Passes": base CpTn 80 / CnTp 85 against CnTn 10, CpTv 20; coref 75 / 80 against 10 / 15; both non-coreference
  variants 10, far below coref's: every comparison holds by tens of points at n = 400 → passes. Its negation
  contrast, min(CpTn, CnTp) − max(CnTn, CpTv), is 80 − 20 = 60 points.
- "Partial": base 70 / 75 against 10 / 20 (both strong); coreference drops of 5 (below 20 points, not strong) →
  partially passes; contrast 70 − 20 = 50 points.
- "Vetoed": base 100 / 100 against CnTn 0 and CpTv 42 (Wilson interval at n = 400 about [37.3, 46.9], above the
  35-point veto) → fails, with the highest contrast of the four, 100 − 42 = 58 points above Partial's 50: the
  verdict, not the contrast, puts it below Partial.
- "Open": CpTv 36 (interval about [31.5, 40.8], straddling the veto) → inconclusive: not ranked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from tests.histories import Main, build, hub_model, submission

Drops = tuple[float, float, float, float]  # CpTn, CnTp, CnTn, CpTv


def scn_run(drops: dict[str, Drops]) -> tuple[dict[str, Any], str]:
    from neghub.evaluator.benchmarks.scn.baselines import prediction_row
    from neghub.evaluator.benchmarks.scn.metadata import PATTERNS
    from neghub.evaluator.benchmarks.scn.words import load_word_lists

    lists = load_word_lists()
    names = (lists.female_names + lists.male_names)[:20]
    verbs = lists.verbs[:20]
    lines = []
    for seed, (variant, variant_drops) in enumerate(drops.items()):
        rng = np.random.default_rng(seed)
        n = len(names) * len(verbs)
        bits = np.ones(n, dtype=np.int64)
        for index, drop in enumerate(variant_drops, start=1):
            repeats = np.ones(n, dtype=bool)
            repeats[rng.permutation(n)[: round(drop * n)]] = False
            bits |= repeats.astype(np.int64) << index
        for triplet, outcome in enumerate(bits.tolist()):
            name, verb = names[triplet // len(verbs)], verbs[triplet % len(verbs)]
            other = verbs[(triplet % len(verbs) + 1) % len(verbs)]
            for p, pattern in enumerate(PATTERNS):
                top1 = verb if outcome >> p & 1 else other
                lines.append(json.dumps(prediction_row(name, lists.professions[0], verb, variant, pattern, top1)))
    run = {"task": "scn", "split": None, "file": "predictions/scn/run.jsonl", "shots": 0, "seed": 0, "prompt": "masked"}
    return run, "\n".join(lines) + "\n"


BASE: Drops = (0.80, 0.85, 0.10, 0.20)
SMALL: Drops = (0.10, 0.10, 0.10, 0.10)
ROWS: dict[str, dict[str, Drops]] = {
    "Passes": {"pronoun": BASE, "coref": (0.75, 0.80, 0.10, 0.15), "noncoref_same": SMALL, "noncoref_other": SMALL},
    "Partial": {
        "pronoun": (0.70, 0.75, 0.10, 0.20),
        "coref": (0.05, 0.05, 0.02, 0.02),
        "noncoref_same": SMALL,
        "noncoref_other": SMALL,
    },
    "Vetoed": {
        "pronoun": (1.0, 1.0, 0.0, 0.42),
        "coref": (0.9, 0.9, 0.05, 0.1),
        "noncoref_same": SMALL,
        "noncoref_other": SMALL,
    },
    "Open": {
        "pronoun": (1.0, 1.0, 0.0, 0.36),
        "coref": (0.9, 0.9, 0.05, 0.1),
        "noncoref_same": SMALL,
        "noncoref_other": SMALL,
    },
}


def test_scn_rows_rank_by_verdict_then_contrast_and_an_inconclusive_one_is_not_ranked(tmp_path: Path) -> None:
    main = Main.create(tmp_path / "repo")
    # landed worst first, so that no landing order can explain the ranks
    for number, name in enumerate(("Open", "Vetoed", "Partial", "Passes")):
        model = hub_model(name, f"org/{name.lower()}", f"{number + 1}" * 40)
        main.push(f"NegHub's run of {name}", submission(name.lower(), model, "neghub", [scn_run(ROWS[name])]))
    site = build(main.root)
    rows = site.rows("scn", "prompt masked")
    assert rows["Passes"].startswith("1 ") and "verdict: passes" in rows["Passes"], rows["Passes"]
    assert rows["Partial"].startswith("2 ") and "verdict: partially passes" in rows["Partial"], rows["Partial"]
    assert rows["Vetoed"].startswith("3 ") and "verdict: fails" in rows["Vetoed"], rows["Vetoed"]
    assert rows["Open"].startswith("not ranked") and "inconclusive" in rows["Open"], rows["Open"]
    # the verdict orders, not the statistic: Vetoed's contrast is above Partial's
    entries = {e["model"]: e for e in site.file()["rows"] if e["kind"] == "verified"}
    assert entries["Vetoed"]["headline"] > entries["Partial"]["headline"]
    assert entries["Passes"]["rank"] == [1, 1] and entries["Partial"]["rank"] == [2, 2]
    assert entries["Vetoed"]["rank"] == [3, 3]
