"""A row against the papers (leaderboard/published.py, issue 33 items 1 and 4): the context line names the best
published result comparable with the declared primary board whether or not a NegHub row stands on it, and a row is
"at the published level" where Newcombe's unpaired interval of its k/n against the paper's k/n holds 0.

JNLI-Neg's Table 2 (jnli-neg-ja.txt, 表2) ran the pinned release's validation split, 787 M_i pairs, zero-shot with
four LLMs; its best M_i Acc′ is LLM-jp-3-13B-instruct's 58.96 = 464 / 787 (0.58958, printed 58.96), one run each.
By hand, with z = 1.96 (Wilson: centre (p + z²/2n) / (1 + z²/n), half z / (1 + z²/n) · sqrt(p(1 − p)/n + z²/4n²);
z²/n = 0.0048812, 1 + z²/n = 1.0048812):
- 465 / 787 = 0.590851: centre 0.590410, half 0.034271, Wilson [0.556139, 0.624681] (the issue's [55.61, 62.47]);
- 464 / 787 = 0.589581: centre 0.589146, half 0.034287, Wilson [0.554859, 0.623433];
- d = 1 / 787 = 0.0012706; Newcombe's L = d − sqrt((0.590851 − 0.556139)² + (0.623433 − 0.589581)²) = d −
  0.048486 = −0.047215, U = d + sqrt((0.624681 − 0.590851)² + (0.589581 − 0.554859)²) = d + 0.048478 = 0.049749:
  [−4.72, +4.97] points, which holds 0: at the published level.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from neghub.leaderboard.board_file import HistoryEntry
from neghub.leaderboard.boards import primary_board
from neghub.leaderboard.collect import reported_rows
from neghub.leaderboard.facts import RowFacts
from neghub.leaderboard.paper_results import load_reported
from neghub.leaderboard.published import (
    best_published,
    comparable_published,
    compare_with_published,
    context_line,
)
from neghub.leaderboard.verdicts import Context, decide

HEADLINE = "pair_metrics.M_i.acc_prime"
N = 787


def table_2() -> list[RowFacts]:
    (table,) = [t for _, t in load_reported() if t.task == "jnli-neg" and t.table == "Table 2"]
    return reported_rows(table)


def neghub_row(right: int, *, runs: int = 1, ci: tuple[float, float] | None = None) -> RowFacts:
    """A NegHub run on the primary board answering `right` of the 787 M_i treatments right."""
    board = primary_board("jnli-neg")
    assert board is not None
    outcomes = np.zeros(N)
    outcomes[:right] = 1.0
    low, high = ci if ci is not None else (0.0, 1.0)
    return RowFacts(
        id="run/primary",
        kind="verified",
        task="jnli-neg",
        key=board,
        model="A run",
        metrics={HEADLINE: right / N, f"{HEADLINE}_ci95.0": low, f"{HEADLINE}_ci95.1": high},
        n_runs=runs,
        headline_items=(tuple(str(i) for i in range(N)), outcomes),
    )


def test_the_context_line_names_table_2_without_any_neghub_row() -> None:
    # issue 33 item 1: "no comparable published result" stood above four comparable Table 2 0-shot rows
    papers = table_2()
    board = primary_board("jnli-neg")
    assert board is not None
    comparable = comparable_published(board, papers)
    assert [p.model for p in comparable] == [
        "LLM-jp-3-13B-instruct",
        "Swallow 8B Instruct",
        "LLM-jp-3-3.7B-instruct",
        "LLM-jp-3-1.8B-instruct",
    ]  # 58.96, 46.63, 44.98, 25.03; the fine-tuned rows and the majority baseline (no shots) are not comparable
    line = context_line("jnli-neg", papers)
    assert line.startswith("best comparable published result: LLM-jp-3-13B-instruct, M_i Acc′ 58.96 (Table 2, ")
    assert "4 comparable published rows" in line
    assert "no comparable published result" not in line
    assert context_line("jnli-neg", []) == (
        "no comparable published result (no paper row on this board's data, split, shots and fine-tuning)"
    )


def test_one_pair_above_the_paper_on_the_same_787_pairs_is_at_the_published_level() -> None:
    best = best_published(neghub_row(465).key, table_2())
    assert best is not None and best.model == "LLM-jp-3-13B-instruct"
    row = neghub_row(465, ci=(0.556139, 0.624681))
    comparison = compare_with_published(row, best)
    assert (comparison.method, comparison.level, comparison.counts) == ("unpaired", "at", (465, N, 464, N))
    assert comparison.interval == pytest.approx((-0.047215, 0.049749), abs=2e-5)
    assert comparison.words() == (
        "M_i Acc′ 59.09 [55.61, 62.47] is at the published level: the paper's 58.96 (LLM-jp-3-13B-instruct, "
        "Table 2) on the same 787 items; difference +0.13, 95 % interval [-4.72, +4.97] (Newcombe, unpaired: the "
        "paper's answers per item are not published; its 787 items counted as independent, their sources not on "
        "record), which holds 0"
    )
    # the hold still fires on the point estimate (decide, with the paper's rows beside the run); its sentence says
    # where the interval puts the row, and never calls it a new state of the art
    # (only a row NegHub ran is ranked, so only such a row is held: the maintainers' run here)
    ran = dataclasses.replace(row, maintainers_run=True)
    found = decide([ran, *table_2()], Context(history=HistoryEntry(recorded=False, words="no history")))
    (entry,) = [e for e in found.rows if e.row == row.id]
    (hold,) = entry.holds
    assert hold.kind == "above-published-best"
    assert hold.reason.startswith(
        "Its M_i Acc′ 59.09 is above the best published result on the same data and split, at any number of shots "
        "(58.96, "
    )
    assert "by its point estimate, and at the published level by its interval (M_i Acc′ 59.09 [55.61" in hold.reason
    assert "state of the art" not in hold.reason


def test_a_row_well_above_the_paper_is_above_the_published_level() -> None:
    # 520 / 787 = 66.07 against 58.96: d = 56 / 787 = 7.12 points, Newcombe half-widths about 4.7 points on each
    # side (as above, both Wilson half-widths near 3.4): L about 7.12 − 4.7 = 2.4 > 0
    best = best_published(neghub_row(520).key, table_2())
    assert best is not None
    comparison = compare_with_published(neghub_row(520), best)
    assert (comparison.method, comparison.level) == ("unpaired", "above")
    assert comparison.interval is not None and 0.015 < comparison.interval[0] < 0.035
    assert comparison.phrase == "above the published level"


def test_a_mean_over_runs_compares_its_own_interval_and_says_the_papers_spread_is_unknown() -> None:
    # a NegHub row averaging 3 runs has no count: its interval [55.0, 63.0] holds the paper's 58.96
    best = best_published(neghub_row(465).key, table_2())
    assert best is not None
    row = neghub_row(465, runs=3, ci=(0.55, 0.63))
    comparison = compare_with_published(row, best)
    assert (comparison.method, comparison.level) == ("row interval", "at")
    assert comparison.words() == (
        "M_i Acc′ 59.09 [55.00, 63.00] is at the published level by its own interval, which holds the paper's "
        "58.96 (LLM-jp-3-13B-instruct, Table 2); the paper's spread is unknown (this row is a mean over 3 runs)"
    )
    above = compare_with_published(neghub_row(465, runs=3, ci=(0.60, 0.63)), best)
    assert above.level == "above" and "is above the paper's 58.96" in above.words()


def test_a_papers_mean_over_seeds_has_no_count() -> None:
    # Table 2's fine-tuned rows are means of 5 seeds: compared with them, a row's own interval decides
    fine_tuned = [p for p in table_2() if p.key.seeds == 5]
    assert len(fine_tuned) == 4
    paper = fine_tuned[0]
    row = dataclasses.replace(neghub_row(300, ci=(0.35, 0.42)), key=paper.key)
    comparison = compare_with_published(row, paper)
    assert comparison.method == "row interval"
    assert comparison.why_no_counts == "the paper's figure is a mean over seeds"
    assert "the paper's spread is unknown" in comparison.words()


def clustered_row(right: int) -> RowFacts:
    """`neghub_row(right)` with its units' sources on record: the right pairs two by two in 251 sources, the wrong
    ones two by two in 142 sources and one alone (394 sources)."""
    assert right == 502
    clusters = [f"r{i // 2}" for i in range(right)] + [f"w{i // 2}" for i in range(N - right)]
    return dataclasses.replace(neghub_row(right), headline_clusters=tuple(clusters))


def test_502_pairs_in_shared_sources_are_at_the_published_level_by_the_rows_design_effect() -> None:
    # issue 39 item 2: unclustered, 502 / 787 (63.79) is above the paper's 58.96 (Newcombe's L > 0); the row's units
    # come two by two from 394 sources. By hand, p = 502/787 = 0.637865: residuals 1 - p = 0.362135 (502) and
    # -p (285); sum e^2 = 502 * 0.131142 + 285 * 0.406872 = 181.793; source sums 2(1 - p) (251), -2p (142), -p (1):
    # sum S^2 = 1004 * 0.131142 + 568 * 0.406872 + 0.406872 = 363.180; design effect 394/393 * 363.180 / 181.793 =
    # 2.0028: both sides at 787 / 2.0028 = 393 pairs, and the interval holds 0
    best = best_published(neghub_row(502).key, table_2())
    assert best is not None
    unclustered = compare_with_published(neghub_row(502), best)
    assert unclustered.level == "above"
    comparison = compare_with_published(clustered_row(502), best)
    assert comparison.design_effect == pytest.approx(2.0028, abs=1e-4)
    assert (comparison.method, comparison.level) == ("unpaired", "at")
    words = comparison.words()
    assert "(Newcombe, unpaired" in words and "which holds 0" in words
    # said in words: why unpaired, and the design effect applied to both sides
    assert "the paper's answers per item are not published" in words
    assert "design effect 2.00" in words and "394 source" in words and "both sides" in words


def test_a_row_without_sources_on_record_says_its_pairs_are_counted_as_independent() -> None:
    best = best_published(neghub_row(502).key, table_2())
    assert best is not None
    words = compare_with_published(neghub_row(502), best).words()
    assert "counted as independent" in words
