"""The site built from the committed submissions, as a new user builds it: boards never mixed in downloads or
charts, every page stating how intervals and ranks are computed, the SmolLM2 rows saying what they are, and the
order of landing. The rules themselves, and every way to game them, are tests/test_verdicts.py's.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from neghub.evaluator.core.registry import benchmark_names
from neghub.evaluator.core.stats import BootstrapConfig
from neghub.leaderboard.boards import Board
from neghub.leaderboard.collect import Leaderboard, Row, collect
from neghub.leaderboard.ranking import beats_in_resamples, interval_method
from neghub.leaderboard.site import build_pages, chart_views
from tests.test_leaderboard import Pick, write_submission

ROOT = Path(__file__).resolve().parent.parent


def always(choice: str) -> Pick:
    return lambda number, item: choice


def submission(root: Path, sid: str, name: str, picks: list[Pick], *, submitter: str = "Tester") -> Path:
    """A submission of NUBench completion runs of a local model, one run per pick (seeds 0, 1, ...)."""
    return write_submission(root, sid, name, picks, submitter=submitter)


def test_a_row_whose_interval_is_too_wide_is_not_ranked(tmp_path: Path) -> None:
    # right on the even items: 23/46 = 50%, whose Wilson interval is 0.5 -+ 1.96 / (1 + 1.96^2/46) *
    # sqrt(.25/46 + 1.96^2/(4 * 46^2)) = 0.5 -+ 1.8090 * 0.07674 = 0.5 -+ 0.1388: ±13.9 points, wider than ±10
    from tests.histories import Main

    main = Main.create(tmp_path / "repo")  # NegHub's run (pushed by the maintainers): no hold stands before it
    submission(
        main.root / "submissions", "half", "Half", [lambda number, item: "choice1" if number % 2 == 0 else "choice3"]
    )
    main.push("NegHub's run", {})
    (row,) = [r for r in collect(main.root / "submissions", reported=False).rows if r.kind == "verified"]
    assert row.metrics["acc"] == 0.5
    assert row.unranked == "Its headline's 95 % interval says too little to rank: ±13.9 points (ranked at ±10 or less)."


# --- the built site ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str | bytes], dict[Board, list[Row]]]:
    """The site of the committed submissions and every paper table, built as `mkdocs build` builds it."""
    import os

    from neghub.leaderboard.collect import submissions_dir
    from tests.histories import maintainers_pushed_submissions

    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    # the committed submissions as the maintainers pushed them: NegHub's runs, as a clone of main reads them, with
    # or without the checkout's own history (an unpacked sdist has none)
    root = maintainers_pushed_submissions(
        tmp_path_factory.mktemp("site") / "repo", submissions_dir(Path(__file__).parents[1])
    )
    board = collect(root / "submissions", data_dir=Path(data_dir) if data_dir else None)
    BUILT_BOARD.append(board)
    return build_pages(board), board.tables()


BUILT_BOARD: list[Leaderboard] = []  # the leaderboard the module's site was built from


@pytest.fixture(scope="module")
def leaderboard(built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]]) -> Leaderboard:
    return BUILT_BOARD[-1]


# --- issue 20's "done when", on the site a new user builds from the committed submissions ---------------------


def test_no_leader_is_a_rule_a_row_at_its_floor_alone_or_low_parse(leaderboard: Leaderboard) -> None:
    for task, leader in leaderboard.leaders.items():
        if leader.row is None:
            assert not leader.text.startswith(tuple(r.model for r in leaderboard.rows if r.kind == "reference")), task
            continue
        row = leaderboard.row(leader.row)
        assert row.kind == "verified" and row.status == "ranked" and row.trust in ("reproduced", "neghub-run"), task
        assert sum(1 for r in leaderboard.tables()[row.key] if r.status == "ranked") >= 2, task
        assert row.parsed_share is None or row.parsed_share >= 0.5, task
        assert row.floor_comparison is not None and "no rule row" not in row.floor_comparison
    # the committed submissions as they stand: no benchmark has two ranked rows on its primary board, so no leader
    assert {task: leader.row for task, leader in leaderboard.leaders.items()} == dict.fromkeys(leaderboard.leaders)
    home = build_pages(leaderboard)["index.md"]
    assert isinstance(home, str) and "Ranked first" not in home


def test_no_model_row_prints_a_zero_width_interval(
    built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]],
) -> None:
    files, _ = built_site
    for name, text in files.items():
        if name.endswith(".md") or name.endswith(".html"):
            assert isinstance(text, str)
            assert "[0.00, 0.00]" not in text, name


def test_no_board_mixes_paper_tables_of_two_protocols(leaderboard: Leaderboard) -> None:
    for board, rows in leaderboard.tables().items():
        settings = {
            (r.setting.get("fine_tuned_on"), r.n_runs, r.setting.get("test"), r.setting.get("method"))
            for r in rows
            if r.kind == "reported"
        }
        assert len(settings) <= 1, (board.title, settings)
    # Table 7 of NUBench repeats rows of Tables 18 and 19: none of its rows is drawn
    assert not [r for r in leaderboard.rows if r.task == "nubench" and r.source == "Table 7"]
    # SCN's selection statistics (Table 5) are no board
    assert not [r for r in leaderboard.rows if r.task == "scn" and r.source == "Table 5"]


def test_the_profile_never_puts_a_sample_and_a_full_test_set_in_one_column(leaderboard: Leaderboard) -> None:
    from neghub.leaderboard.site import profile_columns

    columns = profile_columns(leaderboard)
    for (_, dataset, _), column in columns.items():
        assert {b.dataset for b in column["boards"]} == {dataset}
        assert len({b.is_sample for b in column["boards"]}) == 1
    nubench = [c for (task, _, _), c in columns.items() if task == "nubench"]
    assert {c["is_sample"] for c in nubench} == {True, False}  # the sample and the paper's data: two columns


PROTOCOL_SETTINGS: tuple[Literal["shots", "mode", "split"], ...] = ("shots", "mode", "split")
BOARD_FIELDS = ("task", "dataset", "is_sample", "split", "mode", "shots", "prompt", "chat_template")


def test_no_download_mixes_boards(built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]]) -> None:
    files, tables = built_site
    # a board whose rows are all another board's (a primary board showing the papers' rows for context) has none
    own = [board for board, rows in tables.items() if any(r.key == board for r in rows)]
    slugs = {board.slug: board for board in own}
    assert len(slugs) == len(own), "two boards share a download name"
    per_board = [name for name in files if name.count("/") == 1 and name.startswith("data/") and name.endswith(".csv")]
    assert {name.removeprefix("data/").removesuffix(".csv") for name in per_board} == set(slugs)
    for name in per_board:
        data = files[name]
        assert isinstance(data, bytes)  # UTF-8, as exports.files holds every download
        records = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
        stem = name.removeprefix("data/").removesuffix(".csv")
        assert records and {r["board"] for r in records} == {stem}
        assert {r["dataset"] for r in records} == {slugs[stem].dataset_label}
        assert {r["task"] for r in records} == {slugs[stem].task}
    long_bytes = files["data/results-long.parquet"]
    assert isinstance(long_bytes, bytes)
    import pyarrow.parquet as pq

    identities: dict[str, set[tuple[str, ...]]] = {}
    for record in pq.read_table(io.BytesIO(long_bytes)).to_pylist():
        identities.setdefault(record["board"], set()).add(tuple(str(record[f]) for f in BOARD_FIELDS))
    assert set(identities) == set(slugs)
    for slug, seen in identities.items():
        assert len(seen) == 1, f"{slug} mixes {seen}"


def test_no_chart_mixes_boards(built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]]) -> None:
    _, tables = built_site
    by_title = {board.title: board for board in tables}
    for task in benchmark_names():
        mine = {board: rows for board, rows in tables.items() if board.task == task}
        for view in chart_views(task, mine):
            boards = {by_title[row[2]] for row in view["rows"]}  # the chart's table: model, trust, board, ...
            if len(boards) > 1:
                # only a by-setting chart spans boards, and they differ in its setting alone
                settings = [f for f in PROTOCOL_SETTINGS if len({getattr(b, f) for b in boards}) > 1]
                assert len(settings) == 1, view["title"]
                assert len({b.without(settings[0]) for b in boards}) == 1


def test_every_benchmark_page_states_the_interval_method_and_rank_ranges(
    built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]],
) -> None:
    files, _ = built_site
    for task in benchmark_names():
        text = files[f"benchmarks/{task}.md"]
        assert isinstance(text, str)
        assert str(escape(interval_method(BootstrapConfig()))) in text  # as the page writes it: HTML-escaped
        assert "Wilson score intervals" in text and "1,000 resamples" in text and "2,000 resamples" in text
        # the rules themselves are stated once, on the rules page, which every benchmark page links
        assert 'href="../rules.html"' in text
        assert ">rank<" in text.lower() or "rank</th>" in text.lower()


def test_the_smollm2_jnli_neg_row_says_its_answers_did_not_parse(
    built_site: tuple[dict[str, str | bytes], dict[Board, list[Row]]], shared_datasets: Path
) -> None:
    """A JNLI-Neg row: it skips where the build cannot read the release (its runs are left out then)."""
    files, tables = built_site
    smollm2 = {
        board.prompt: (board, r)
        for board, rows in tables.items()
        for r in rows
        if board.task == "jnli-neg" and r.submission_id == "smollm2-135m-instruct"
    }
    assert sorted(smollm2) == ["llm-jp-eval", "llm-jp-eval-loglikelihood"]
    # the committed runs went through the model's chat template (metadata: TASK.PROMPT.MODE.chat_template)
    assert {board.chat_template for board, _ in smollm2.values()} == {"yes"}
    _board, row = smollm2["llm-jp-eval"]
    # all 1,363 generated answers are unparseable (a 135M model does not follow the format)...
    assert row.parsed_share == 0.0
    # ...while the log-likelihood protocol answers every item (it picks the likeliest label word)
    assert smollm2["llm-jp-eval-loglikelihood"][1].parsed_share == 1.0
    text = files["benchmarks/jnli-neg.md"]
    assert isinstance(text, str)
    assert "only 0% of its answers parsed" in text
    assert "not ranked: Too few of its answers parsed (0 %); a row is ranked from 50 %" in text
    model = files["models/smollm2-135m-instruct.html"]
    assert isinstance(model, str)
    # the flip analysis: with no parsed answer there is no pair to compare, so no share is claimed at all
    flips = model.split('<h2 id="flip-analysis">', 1)[1].split("<h2 ", 1)[0]
    lines = {
        re.findall(r"<td[^>]*>(.*?)</td>", line)[1].split(" · ")[2]: re.findall(r"<td[^>]*>(.*?)</td>", line)
        for line in flips.splitlines()
        if line.startswith("<tr><td>JNLI-Neg</td>")
    }
    cells = lines["prompt llm-jp-eval"]
    assert cells[2:4] == ["n/a", "n/a"]  # negation ignored, distracted: not claimed
    assert int(cells[4].replace(",", "")) > 0  # every pair left out, and counted
    assert cells[5] == "0%"
    # the log-likelihood run answers "contradiction" to every item: no pair's answer changes, so on M_i
    # every pair ignored the negation (100%) and on M_u none was distracted (0%); no pair is left out
    answers = ROOT / "submissions" / "smollm2-135m-instruct" / "predictions" / "jnli-neg"
    predictions = {
        json.loads(line)["prediction"]
        for line in (answers / "jnli-neg-valid-llm-jp-eval-loglikelihood-0shot.jsonl").read_text().splitlines()
    }
    assert predictions == {"contradiction"}
    assert lines["prompt llm-jp-eval-loglikelihood"][2:6] == ["100.00", "0.00", "0", "100%"]


# --- latest submissions -------------------------------------------------------------------------


def _git(folder: Path, *args: str, when: str) -> None:
    import os
    import subprocess

    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    identity = ["-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *identity, "-C", str(folder), *args], check=True, capture_output=True, env=env)


def test_latest_submissions_are_ordered_by_landing_not_by_the_typed_date(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subs = repo / "submissions"
    subs.mkdir(parents=True)
    _git(repo, "init", "-q", when="2025-01-01T00:00:00+00:00")
    # landed first (January), though it types the later date
    submission(subs, "typed-late", "Typed Late", [always("choice1")])
    (subs / "typed-late" / "metadata.yaml").write_text(
        (subs / "typed-late" / "metadata.yaml").read_text().replace('date: "2025-05-01"', 'date: "2026-01-01"')
    )
    _git(repo, "add", ".", when="2025-01-10T12:00:00+00:00")
    _git(repo, "commit", "-q", "-m", "first", when="2025-01-10T12:00:00+00:00")
    # landed in June, committed from a time zone east of UTC (the local time reads as 6 June, 01:00)
    submission(subs, "typed-early", "Typed Early", [always("choice3")])
    (subs / "typed-early" / "metadata.yaml").write_text(
        (subs / "typed-early" / "metadata.yaml").read_text().replace('date: "2025-05-01"', 'date: "2020-01-01"')
    )
    _git(repo, "add", ".", when="2025-06-06T01:00:00+09:00")
    _git(repo, "commit", "-q", "-m", "second", when="2025-06-06T01:00:00+09:00")
    board = collect(subs, reported=False, reproductions_dir=None)
    # by position on main's first-parent history; the landing commit's date is shown, never ordered by
    landings = board.history.submissions
    assert (landings["typed-late"].position, landings["typed-early"].position) == (1, 2)
    assert (landings["typed-late"].date, landings["typed-early"].date) == (
        "2025-01-10T12:00:00+00:00",
        "2025-06-05T16:00:00+00:00",
    )
    home = build_pages(board)["index.md"]
    assert isinstance(home, str)
    latest = home.split('id="latest"', 1)[1]
    assert latest.index("Typed Early") < latest.index("Typed Late")
    assert "2025-06-05" in latest and "2025-01-10" in latest


def test_the_pages_workflow_clones_the_whole_history() -> None:
    # a shallow clone would date every submission to the last commit
    import yaml

    workflow = yaml.safe_load((Path(__file__).parents[1] / ".github" / "workflows" / "pages.yml").read_text())
    steps = [s for job in workflow["jobs"].values() for s in job["steps"] if "checkout" in str(s.get("uses"))]
    assert steps and all(s["with"]["fetch-depth"] == 0 for s in steps)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 12),
    resamples=st.integers(1, 60),
    seed=st.integers(0, 2**32 - 1),
    levels=st.integers(2, 6),
    tail=st.sampled_from([0.025, 0.05, 0.5]),
)
def test_beats_counts_only_where_ranges_overlap_and_agrees_with_every_pair(
    rows: int, resamples: int, seed: int, levels: int, tail: float
) -> None:
    # means from a few values, so that rows tie, overlap and lie wholly apart: the definition, pair by pair
    means = np.random.default_rng(seed).integers(0, levels, size=(rows, resamples)).astype(np.float64)
    expected = np.array([[(means[a] <= means[b]).mean() < tail for b in range(rows)] for a in range(rows)])
    assert (beats_in_resamples(means, tail) == expected).all()
