"""The home page: for each benchmark, a mini board of the paper's headline configuration (as HELM's mini
leaderboards do), so that the first screen answers "which models handle negation, and how sure are we?".

A mini board is one board, the one the benchmark's display block declares (`headline_board`: the paper's table and
its shots and mode): its top rows, each figure with where it comes from in the model cell (the paper and its table,
"NegHub's run" or "reproduced", as SWE-bench marks a row's source), and its best baseline. NegHub's rows join it only
where they are on that very board (the same data and protocol); a NegHub row on other data or in another setting gets
one line of its own saying so. Rows NegHub has not run (listed, unranked) or held are left to the benchmark page: the
home page shows what NegHub or a paper stands behind. Nothing ranks one benchmark against another.
"""

from __future__ import annotations

from typing import Any

import jinja2

from ..evaluator.core.benchmark import Display, HeadlineBoard, MetricDisplay
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.papers.citations import reader_source
from ..evaluator.papers.quotes import quote
from .answers import same_answers
from .boards import Board
from .collect import Leaderboard
from .facts import Row
from .names import submitted_by
from .page_words import TERMS, with_abbr
from .verdicts import headline

MINI_ROWS = 3  # the top rows of a mini board (NegHub's comparable rows are added below them when not among them)
OTHER_LINES = 1  # NegHub's rows elsewhere, one line each, the best first
SHOWN_TRUST = ("neghub-run", "reproduced")  # what NegHub stands behind: its own run, or its re-run of the weights
SOURCE_WORDS = {"neghub-run": "NegHub's run", "reproduced": "reproduced by NegHub"}
COUNTED = (
    ("neghub-run", "rows NegHub ran"),
    ("reproduced", "rows NegHub reproduced"),
    ("re-scored", "rows submitted and only re-scored"),
)


def headline_board(task: str, tables: dict[Board, list[Row]], primary: set[str]) -> Board | None:
    """The board the display block declares as the paper's headline configuration: a board listing the declared
    table's rows in its shots and mode, the primary board first where it lists them (NegHub's comparable rows sit
    there), then the one with the most of them."""
    declared = get_benchmark(task).display.headline_board
    if declared is None:
        return None
    candidates = [
        (key, sum(1 for r in rows if _of_table(r, declared)))
        for key, rows in tables.items()
        if key.task == task and not key.fine_tuned
    ]
    candidates = [(key, n) for key, n in candidates if n]
    if not candidates:
        return None
    return max(candidates, key=lambda item: (item[0].slug in primary, item[1]))[0]


def _of_table(row: Row, declared: HeadlineBoard) -> bool:
    return (
        row.kind == "reported"
        and row.source == declared.table
        and (declared.shots is None or row.key.shots == declared.shots)
        and (declared.mode is None or row.key.mode == declared.mode)
        and headline(row) is not None
    )


def _stands_behind(row: Row) -> bool:
    """A NegHub row the home page may show: NegHub ran it, and it is not held."""
    return row.kind == "verified" and row.trust in SHOWN_TRUST and row.status != "held"


def _in_papers_order(rows: list[Row], declared: HeadlineBoard) -> list[Row]:
    """The table's rows in the order the paper's words give (HeadlineBoard.order), every one of them, then the
    board's others as the board orders them; the board's own order where the paper gives none."""
    if not declared.order:
        return rows
    place = {model: n for n, model in enumerate(declared.order)}
    ordered = sorted((r for r in rows if r.kind == "reported" and r.model in place), key=lambda r: place[r.model])
    return ordered + [r for r in rows if r not in ordered]


def _figure_columns(display: Display, declared: HeadlineBoard) -> tuple[list[MetricDisplay], str]:
    """The figures the table prints, where the mini board shows them in place of a headline of NegHub's, and the
    words every one of their labels shares ("pronoun drop"), said once above them; ([], "") where it shows the
    headline."""
    by_path = {column.path: column for column in display.columns}
    columns = [by_path[path] for path in declared.figures]
    if not columns:
        return [], ""
    shared = [w for w in columns[0].label.split() if all(w in c.label.split() for c in columns)]
    return columns, " ".join(shared)


def _answers_as_baseline(row: Row, baselines: list[Row]) -> str | None:
    """The baseline a NegHub row answers as, item for item on every run (its answers compared with the
    baseline's, not its figure): such a row says nothing a rule does not."""
    if not row.answers:
        return None
    for baseline in baselines:
        if baseline.answers and same_answers(dict(row.answers), dict(baseline.answers)):
            return baseline.model.removeprefix("Rule: ")
    return None


def _own_verdict(row: Row, baselines: list[Row]) -> str | None:
    """Where NegHub's own row stands, in the reader's words: the benchmark's verdict (SCN's "fails", with its
    reason), or the baseline it answers as on every item."""
    same = _answers_as_baseline(row, baselines)
    if same is not None:
        return f"It answers as the {same} baseline on every item"
    return None if row.kind != "verified" or not row.verdict else f"NegHub's verdict: {row.verdict}"


def mini_board(task: str, key: Board, rows: list[Row], board: Leaderboard, fmt: Any) -> dict[str, Any]:
    display = get_benchmark(task).display
    declared = display.headline_board
    assert declared is not None  # headline_board found the board from it
    unit = display.headline.unit
    eligible = [r for r in rows if _of_table(r, declared) or (_stands_behind(r) and r.key == key)]
    eligible = _in_papers_order(eligible, declared)
    first = max(MINI_ROWS, len(declared.order))
    shown = eligible[:first] + [r for r in eligible[first:] if r.kind == "verified"]
    figures, figures_words = _figure_columns(display, declared)
    sign = 1.0 if display.headline.higher_is_better else -1.0
    leader = board.leaders.get(task)
    # the board's best baseline as decide chose it (the leaderboard file's floor), never recomputed here
    floors = {b.board: board.row(b.floor) for b in board.file.boards if b.floor is not None}
    best_baseline = floors.get(key.slug)
    if best_baseline is None:
        # the paper's setting may be a board NegHub ran nothing on (no floor): a rule answers alike under every prompt,
        # so the best of the floors decide chose on the same items stands for it
        best_baseline = max(
            (r for r in floors.values() if r.key.release_key() == key.release_key()),
            key=lambda r: sign * (headline(r) or 0.0),
            default=None,
        )
    elsewhere = sorted(
        (r for r in board.rows if r.task == task and _stands_behind(r) and r.key != key and headline(r) is not None),
        key=lambda r: -sign * (headline(r) or 0.0),
    )
    own_baselines = [r for r in board.rows if r.kind == "reference" and r.task == task]
    below = (
        []
        if best_baseline is None
        else [
            r
            for r in shown
            if r.kind == "reported" and sign * (headline(r) or 0.0) < sign * (headline(best_baseline) or 0.0)
        ]
    )
    # where the board shows a figure of NegHub's (a headline the table does not print), it says so, by name
    headline_words = display.headline.label if not figures else f"NegHub's {display.headline.label}"
    return {
        "task": task,
        "name": display.name,
        "setting": f"{declared.table} of the paper · {key.protocol}",
        "table_link": f"benchmarks/{task}.html#board-{key.slug}",
        "label": with_abbr(display.headline.label),
        "unit": _suffix(unit),
        "figures": [
            {"label": with_abbr(" ".join(w for w in c.label.split() if w not in figures_words.split()))}
            for c in figures
        ],
        "figures_words": figures_words,
        "figures_terms": [(term, TERMS[term][0]) for term in TERMS if term in figures_words.split()],
        "table": declared.table,
        "figures_unit": _suffix(figures[0].unit) if figures else "",
        "rows": [_mini_row(r, display, fmt, figures, own_baselines) for r in shown],
        "n_rows": len(rows),
        "baseline": None
        if best_baseline is None
        else {
            "model": best_baseline.model.removeprefix("Rule: "),
            "value": fmt(headline(best_baseline), unit),
            # a baseline listed under a model's row that scores below it: said, so that the order is not misread
            "above": [f"{r.model} ({fmt(headline(r), unit)})" for r in below],
        },
        # the board has no baseline: NegHub does not hold the items the paper ran, or this build could not read
        # the release NegHub pins for it (the build report says why)
        "no_baseline": None
        if best_baseline is not None
        else (
            "No baseline: NegHub does not hold the paper's items."
            if key.dataset.startswith("paper:")
            else "No baseline in this build: it could not read the release NegHub pins for this board."
        ),
        "elsewhere": [
            _elsewhere_line(
                r,
                key,
                declared,
                ("" if not figures else f"{headline_words} ")
                + fmt(headline(r), unit)
                + ("%" if unit == "percent" else f" {_suffix(unit)}".rstrip()),
            )
            for r in elsewhere[:OTHER_LINES]
        ],
        "elsewhere_verdicts": [_own_verdict(r, own_baselines) for r in elsewhere[:OTHER_LINES]],
        "contrast": None if not figures else {"name": headline_words, "definition": TERMS["negation contrast"][1]},
        # the sentences that give the rows' order, where the paper's words give one
        "order_quotes": [quote(k) for k in declared.order_quotes],
        # what the paper says of the kind of board a shown NegHub row stands on that its table does not
        # (Display.board_notes: the cloze test's limitation where a causal model is judged), once each
        "notes": list(
            dict.fromkeys(
                note
                for r in [*(r for r in shown if r.kind == "verified"), *elsewhere[:OTHER_LINES]]
                for note in display.notes_for(r.key.test, r.key.prompt)
            )
        ),
        "more_elsewhere": max(0, len(elsewhere) - OTHER_LINES),
        "finding": None if declared.finding is None else quote(declared.finding),
        # the board's leader line (leaders.py's short one): NegHub's leader, or what is true instead
        "leader": None if leader is None else leader.short,
    }


def _suffix(unit: str) -> str:
    return {"percent": "%", "points": "points"}.get(unit, "")


def _mini_row(
    row: Row, display: Display, fmt: Any, figures: list[MetricDisplay], baselines: list[Row]
) -> dict[str, Any]:
    ci = row.headline_ci
    unit = display.headline.unit
    source = f"paper, {row.source}" if row.kind == "reported" else SOURCE_WORDS[row.trust]
    return {
        "model": row.model,
        "source": source,
        "kind": row.kind,
        # the table's own figures where the board shows them (a paper row: every one printed in the table)
        "figures": [fmt(row.metrics.get(c.path), c.unit) for c in figures],
        "value": fmt(headline(row), unit),
        "ci": None if ci is None or figures else f"[{fmt(ci[0], unit)}, {fmt(ci[1], unit)}]",
        "verdict": row.verdict_value,
        # a paper's verdict is its own sentence, quoted whole; where the board shows the table's figures it is
        # the row's second line (what the paper concludes is the board's answer), else one click away
        "papers_verdict": row.verdict if row.kind == "reported" else None,
        "verdict_open": bool(figures),
        "verdict_en": row.verdict_en,
        "verdict_source": None if row.verdict_source is None else reader_source(row.verdict_source),
        "own_verdict": _own_verdict(row, baselines) if row.kind == "verified" else None,
    }


def _elsewhere_line(row: Row, key: Board, declared: HeadlineBoard, value: str) -> str:
    if row.key.dataset != key.dataset:
        where = f"on other data ({row.key.dataset_label})"
    else:
        # the settings that set it apart from the mini board's, not the whole protocol again
        ours = set(key.protocol.split(" · "))
        where = "in another setting (" + " · ".join(p for p in row.key.protocol.split(" · ") if p not in ours) + ")"
    return f"{row.model} ({SOURCE_WORDS[row.trust]}): {value} {where}: not comparable with {declared.table}."


def row_counts(board: Leaderboard) -> dict[str, Any]:
    """The rows of the site by source, baselines apart: what the count sentence says."""
    counts = {label: sum(1 for r in board.rows if r.trust == trust) for trust, label in COUNTED}
    return {
        "by_source": list(counts.items()),
        "papers": sum(1 for r in board.rows if r.kind == "reported"),
        "baselines": sum(1 for r in board.rows if r.kind == "reference"),
    }


def home_page(
    env: jinja2.Environment,
    board: Leaderboard,
    tables: dict[Board, list[Row]],
    missing: dict[str, str] | None = None,
) -> str:
    primary = {entry.board for entry in board.file.boards if entry.primary}
    fmt = env.filters["fmt"]
    minis = []
    for task in benchmark_names():
        key = headline_board(task, tables, primary)
        if key is not None:
            minis.append(mini_board(task, key, tables[key], board, fmt))
        else:
            display = get_benchmark(task).display
            declared = display.headline_board
            finding = None if declared is None or declared.finding is None else quote(declared.finding)
            minis.append(
                {"task": task, "name": display.name, "rows": [], "summary": display.summary, "finding": finding}
            )
    landings = board.history.submissions if board.history.recorded else {}

    def added_key(item: tuple[str, Any]) -> tuple[int, str]:
        landing = landings.get(item[0])
        return (-1 if landing is None else landing.position, item[0])

    latest = sorted(board.submissions.items(), key=added_key, reverse=True)[:10]
    return env.get_template("home.md.j2").render(
        title="NegHub",
        minis=minis,
        counts=row_counts(board),
        latest=[
            {
                "sid": sid,
                "name": meta.model.name,
                "added": None if sid not in landings else landings[sid].date,
                "benchmarks": ", ".join(sorted({get_benchmark(r.task).display.name for r in meta.runs})),
                "submitter": submitted_by(board.history, sid, meta),  # the account, never the name given
            }
            for sid, meta in latest
        ],
        history=board.history.recorded,
        missing_rows=list((missing or {}).values()),  # not `missing`: the template global is the sign of no figure
        base="",
    )
