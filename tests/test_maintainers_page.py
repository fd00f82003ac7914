"""The page the maintainers work from (issue 38 item 4): every held row with all its holds at once, what lifts each,
its board's slug and the clearances.yaml entry to paste (which the site then reads); the queue in order with an
estimate from measured rates; a clearance naming a board or a submission that does not exist, with the nearest name.
Hand-made leaderboard files (the rules decide holds; this page only shows them)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import yaml

from neghub.leaderboard.board_file import BoardEntry, HoldEntry, LeaderboardFile, RowEntry

BOARD = "jnli-neg--valid--0shot--llm-jp-eval--jnli-neg-1-1-da30782abc73--chat-no"
OTHER = "jnli-neg--valid--0shot--other--jnli-neg-1-1-da30782abc73--chat-no"


def row(row_id: str, board: str, *holds: str, submission: str = "strong-70") -> RowEntry:
    return RowEntry.model_construct(
        row=row_id,
        board=board,
        model="Strong 70",
        submission=submission,
        account="@mallory",
        holds=[HoldEntry(kind=kind, reason=f"why {kind}") for kind in holds],  # type: ignore[arg-type]
    )


def board_file(*rows: RowEntry) -> LeaderboardFile:
    boards = [BoardEntry.model_construct(board=slug) for slug in (BOARD, OTHER)]
    return LeaderboardFile.model_construct(rows=list(rows), boards=boards, queue=[])


def test_a_row_shows_every_hold_it_has_with_what_lifts_each() -> None:
    from neghub.leaderboard.maintainers import held_submissions

    (held,) = held_submissions(board_file(row("r1", BOARD, "above-published-best", "near-copy"), row("r2", OTHER)))
    assert [r["board"] for r in held.rows] == [BOARD]  # the row without a hold is not listed
    holds = held.rows[0]["holds"]
    assert [h["kind"] for h in holds] == ["above-published-best", "near-copy"]  # one hold does not hide the next
    assert holds[1]["lifted_by"] == "a maintainer's review"


def test_the_entry_to_paste_is_one_the_site_reads_once_filled_in() -> None:
    from neghub.leaderboard.clearances import parse_clearances
    from neghub.leaderboard.maintainers import held_submissions

    file = board_file(row("r1", BOARD, "above-published-best"), row("r2", OTHER, "near-copy"))
    (held,) = held_submissions(file)
    text = "clearances:\n" + held.entry.replace("YOUR-GITHUB-LOGIN", "alice").replace("YYYY-MM-DD", "2026-12-01")
    (entry,) = parse_clearances(text, "clearances.yaml").clearances
    assert entry.submission == "strong-70" and sorted(entry.holds) == ["above-published-best", "near-copy"]
    assert sorted(entry.boards) == sorted([BOARD, OTHER])


def test_the_entrys_why_is_quoted_so_a_sentence_with_a_colon_written_over_it_still_reads() -> None:
    from neghub.leaderboard.clearances import parse_clearances
    from neghub.leaderboard.maintainers import held_submissions

    (held,) = held_submissions(board_file(row("r1", BOARD, "above-published-best")))
    why = "checked the run: its provenance and weights"  # a maintainer's sentence, typed over the placeholder alone
    filled = held.entry.replace("YOUR-GITHUB-LOGIN", "alice").replace("YYYY-MM-DD", "2026-12-01")
    text = "clearances:\n" + filled.replace("what you reviewed, in a sentence", why)
    (entry,) = parse_clearances(text, "clearances.yaml").clearances
    assert entry.why == why


def test_a_clearance_naming_a_board_or_submission_that_does_not_exist_is_reported_with_the_nearest(
    tmp_path: Path,
) -> None:
    from neghub.leaderboard.maintainers import clearance_name_problems

    entries = [
        {"submission": "strong-70", "holds": ["near-copy"], "boards": [BOARD.replace("chat-no", "chat-yes")]},
        {"submission": "strnog-70", "holds": ["near-copy"], "boards": [BOARD]},
        {"submission": "strong-70", "holds": ["near-copy"], "boards": [BOARD]},
    ]
    path = tmp_path / "clearances.yaml"
    path.write_text(yaml.safe_dump({"clearances": entries}), encoding="utf-8")
    problems = clearance_name_problems(path, board_file(row("r1", BOARD, "near-copy")), ["strong-70", "weak-40"])
    assert len(problems) == 2, problems
    assert "clearance 1" in problems[0] and f"did you mean {BOARD!r}" in problems[0]
    assert "clearance 2" in problems[1] and "did you mean 'strong-70'" in problems[1]


def test_the_queue_in_order_with_its_items_and_an_estimate_from_the_measured_rates(tmp_path: Path) -> None:
    from neghub.leaderboard.maintainers import queue_entries

    run = "predictions/jnli-neg.jsonl"
    (tmp_path / "strong-70" / "predictions").mkdir(parents=True)
    (tmp_path / "strong-70" / run).write_text("{}\n" * 1200, encoding="utf-8")
    entry = SimpleNamespace(
        position=1, account="@mallory", submission="strong-70", pin="org/strong", setting="bfloat16 on cuda",
        runs=[run], boards=[BOARD], why="a new best",
    )  # fmt: skip
    file = board_file()
    object.__setattr__(file, "queue", [entry, SimpleNamespace(**{**vars(entry), "position": 2, "submission": "gone"})])
    first, second = queue_entries(file, tmp_path)
    # 1,200 items at 0.35 and 0.64 s each: 7 and 12.8 minutes
    assert (first["position"], first["item_count"], first["minutes"]) == (1, 1200, (7, 13))
    assert (second["position"], second["item_count"], second["minutes"]) == (2, None, None)


def test_a_clearance_pull_requests_summary_says_what_it_lifts_row_by_row() -> None:
    from neghub.leaderboard.maintainers import clearance_lifts

    file = board_file(row("r1", BOARD, "above-published-best", "custom-prompt"), row("r2", OTHER, "near-copy"))
    entries = [
        {"submission": "strong-70", "holds": ["above-published-best"], "boards": [BOARD]},
        {"submission": "strong-70", "holds": ["near-copy"], "boards": [BOARD]},  # the near-copy row is on OTHER
    ]
    assert clearance_lifts(entries, file) == [
        f"`strong-70` on `{BOARD}`: lifts above-published-best; still held: custom-prompt",
        "`strong-70`: lifts nothing: no row of it on the boards named holds near-copy",
    ]


def test_an_entry_a_pull_request_adds_naming_a_board_one_letter_short_is_refused_with_the_nearest() -> None:
    """The walk of the maintainers' path (issue 38): a clearance naming a board slug one character short passed the
    pull-request check and lifted nothing. The entries a pull request adds are checked against the base branch's
    leaderboard (summary._clearances_section raises them: the check fails with one line each)."""
    from neghub.leaderboard.maintainers import entry_name_problems

    file = board_file(row("r1", BOARD, "above-published-best"))
    added = [
        {"submission": "strong-70", "holds": ["above-published-best"], "boards": [BOARD[:-1]]},
        {"submission": "strong-70", "holds": ["above-published-best"], "boards": [BOARD]},
    ]
    problems = entry_name_problems(added, file, ["strong-70"], "the entry {number} this pull request adds")
    assert problems == [
        f"the entry 1 this pull request adds (strong-70): no row of strong-70 on a board {BOARD[:-1]!r}; "
        f"did you mean {BOARD!r}?"
    ]
