"""The site's generated pages and data files, as content keyed by their path in the site.

Pages are Jinja2 templates (leaderboard/templates/, autoescaping on) fed by the leaderboard's rows: no
HTML is built from strings here. Every page opens with what a reader came for: a benchmark page with
one compact ranked table per board (rank range, model, size, trust level, headline with its interval,
share of answers parsed, one or two key diagnostics; every other column a click away, loaded lazily),
then its charts (numbers collapsed beneath each). plotly.js is loaded only by pages that draw a chart.
The MkDocs hook (`leaderboard.mkdocs_hooks`) turns this mapping into virtual files of the build.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, get_args

import jinja2
from markupsafe import Markup

from ..evaluator.core.benchmark import Display
from ..evaluator.core.numbers import MISSING, Unit, figure
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.stats import BootstrapConfig
from . import charts, exports
from .answers import view_path
from .boards import Board
from .collect import Leaderboard
from .facts import Row
from .ranking import interval_method
from .rules_page import rules_page
from .verdicts import PARSED_SHARE_MIN, RULES_VERSION, headline, primary_protocol, rules_in_words

TEMPLATES = Path(__file__).parent / "templates"
MAX_ANSWERS = 2000  # answers shown per run in the answers view (loaded lazily)
# rows of a board in its page; the rest load when asked (data/rows/<board>.html), so that a benchmark page stays
# light however many submissions a board has (at 1,000 rows the whole table alone was 0.5 MB of HTML)
ROWS_IN_PAGE = 50
LEADERBOARD_FILE = "data/leaderboard.json"  # every verdict of the build (board_file.py), as the pages read them
TRUST_WORDS = {
    "reported": "printed in a paper; NegHub checked nothing",
    "re-scored": "NegHub re-scored the submitted predictions against the pinned data; it has not re-run the model",
    "reproduced": "NegHub re-ran the model on a sample of the items and got the same answers",
    "neghub-run": "NegHub's maintainers ran the model (pushed to main, or their gpu-eval workflow)",
    "rule": "a rule NegHub computed from the data (a trivial model a ranked row must beat)",
}
TRUST_LABELS = {
    "reported": "reported",
    "re-scored": "re-scored",
    "reproduced": "reproduced",
    "neghub-run": "NegHub's run",
    "rule": "rule",
}
STATUS_WORDS = {
    "ranked": "ranked",
    "unranked": "not ranked",
    "held": "held",
    "reference": "rule row",
    "reported": "paper row",
    "duplicate": "shown once",
}


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,  # everything a submitter or a paper wrote is escaped, in every template
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["json_script"] = json_for_script
    env.filters["fmt"] = fmt
    env.globals["missing"] = MISSING  # the one word every page prints for a figure that does not exist
    return env


def json_for_script(value: Any) -> Markup:
    """JSON that cannot close the <script> element it sits in (for <script type="application/json">)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def fmt(value: float | None, unit: str = "percent", sd: float | None = None) -> str:
    """A figure in its unit, as every page prints it (evaluator/core/numbers.py's one format per unit: percent and
    points with two decimals, ± SD where several seeds, counts whole, correlations with three decimals; `n/a` for a
    figure that does not exist)."""
    return figure(value, unit if unit in get_args(Unit) else "percent", sd=sd)  # type: ignore[arg-type]


def unit_suffix(unit: str) -> str:
    return {"percent": "%", "points": "points"}.get(unit, "")


def size_text(parameters: int | None) -> str:
    if parameters is None:
        return MISSING
    if parameters == 0:
        return "0 (rule)"
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if parameters >= scale:
            return f"{parameters / scale:.3g}{unit}"
    return str(parameters)


def row_view(row: Row, display: Display, base: str) -> dict[str, Any]:
    """What the compact table shows of a row (all text, escaped by the template)."""
    value = headline(row)
    ci = row.headline_ci
    unit = display.headline.unit
    parsed = row.parsed_share
    if row.rank_range is not None:
        low, high = row.rank_range
        rank = str(low) if low == high else f"{low}–{high}"
        if row.claimed:
            rank = f"claimed rank {rank}, not reproduced"
    else:
        rank = STATUS_WORDS[row.status]
    flags: list[str] = []
    if row.kind == "verified" and parsed is not None and parsed < PARSED_SHARE_MIN:
        flags.append(f"only {100 * parsed:.0f}% of its answers parsed: its scores say little about the model")
    if row.kind == "reported" and display.headline.path in _derived_paths(row):
        flags.append(f"{display.headline.label} computed by NegHub from the paper's figures, not printed in the paper")
    sd = row.sd.get(display.headline.path) if row.n_runs > 1 or row.kind == "reported" else None
    sd_words = None
    if sd is not None:
        sd_words = f"± is the SD over {row.n_runs} seeds" if row.n_runs > 1 else "± is the SD the paper prints"
    # the rank column: the rank and a mark of a few words; the reasons are in the row's details
    rank = " · ".join([rank, *row.tags]) if row.entry is not None else rank
    return {
        "rank": rank,
        "rank_sort": "" if row.rank_range is None else f"{row.rank_range[0]:05d}",
        "status": row.status,
        "unranked": row.unranked if row.status in ("unranked",) else None,
        "holds": row.holds,
        "cleared": list(row.cleared),
        "also_submitted_by": row.also_submitted_by,
        "marks": row.marks,
        "evidence": row.reproduction if row.kind == "verified" else None,
        "floor": row.floor_comparison if row.status == "ranked" else None,
        "model": row.model,
        "href": f"{base}models/{row.submission_id}.html" if row.kind != "reported" and row.submission_id else None,
        "source": row.source,
        "size": size_text(row.parameters),
        "size_sort": "" if row.parameters is None else f"{row.parameters:015d}",
        "trust": row.trust,
        "trust_label": TRUST_LABELS[row.trust],
        "trust_words": row.reproduction if row.reproduction and row.kind == "verified" else TRUST_WORDS[row.trust],
        "value": fmt(value, unit, sd),
        "sd_words": sd_words,
        "value_sort": "" if value is None else repr(value),
        "ci": None if ci is None else f"[{fmt(ci[0], unit)}, {fmt(ci[1], unit)}]",
        "parsed": None if parsed is None else f"{100 * parsed:.0f}%",
        "parsed_low": parsed is not None and parsed < PARSED_SHARE_MIN,
        "diagnostics": [fmt(row.metrics.get(path), _unit_of(display, path)) for path in display.key_columns],
        "flags": flags,
        "runs": row.n_runs,
        "verdict": row.verdict,
        "verdict_is_papers": row.kind == "reported",
        "verdict_en": row.verdict_en,
        "verdict_source": row.verdict_source,
        "note": row.note,
        "kind": row.kind,
    }


def _derived_paths(row: Row) -> set[str]:
    """The figures of a paper row that NegHub derived (the benchmark's derive_metrics), not the paper's."""
    derive = get_benchmark(row.task).derive_metrics
    return set(derive(dict(row.metrics))) if derive is not None else set()


def _unit_of(display: Display, path: str) -> str:
    for column in display.columns:
        if column.path == path:
            return column.unit
    return display.headline.unit if path == display.headline.path else "percent"


def _label_of(display: Display, path: str) -> str:
    for column in display.columns:
        if column.path == path:
            return column.label
    return path


def chart_views(task: str, tables: dict[Board, list[Row]]) -> list[dict[str, Any]]:
    """Every chart of the benchmark's display block: per board for charts comparing one table's rows, across
    the boards of one dataset for `by_setting`."""
    display = get_benchmark(task).display
    out: list[dict[str, Any]] = []
    for index, spec in enumerate(display.charts):
        if spec.kind == "by_setting":
            # one figure per board-but-the-plotted-setting: its x axis is that setting, nothing else differs
            by_protocol: dict[Board, list[Row]] = {}
            for board, rows in tables.items():
                if spec.setting is not None and not board.fine_tuned:
                    others = board.without(spec.setting)
                    by_protocol.setdefault(others, []).extend(rows)
            groups = [(others.title, others.slug, rows) for others, rows in by_protocol.items()]
        else:
            groups = [(board.title, board.slug, rows) for board, rows in tables.items()]
        for label, slug, rows in groups:
            if len(rows) < 2:
                continue  # one row compares with nothing: its table says it all
            for number, chart in enumerate(charts.figures(rows, spec)):
                facet = chart.pop("facet", "")
                shown = charts.top_rows(rows, limit=50)
                out.append(
                    {
                        "id": f"chart-{index}-{slug}-{number}",
                        "title": " — ".join(part for part in (spec.title, facet, label) if part),
                        "figure": chart,
                        "headers": ["model", "trust", "board", *(s.label for s in spec.series)],
                        "rows": [
                            [r.model, r.trust, r.key.title]
                            + [fmt(r.metrics.get(s.path.replace("{facet}", facet)), spec.unit) for s in spec.series]
                            for r in shown
                        ],
                    }
                )
    return out


def missing_rows(board: Leaderboard) -> dict[str, str]:
    """Task -> one sentence for readers where this build left runs out because it could not read the task's
    release (the notes say which; the build report lists them)."""
    runs: dict[str, int] = {}
    submissions: dict[str, set[str]] = {}
    for note in board.notes:
        for task in note.unreadable:
            runs[task] = runs.get(task, 0) + 1
            submissions.setdefault(task, set()).add(note.submission)
    sentences = {}
    for task, count in runs.items():
        n_subs = len(submissions[task])
        sentences[task] = (
            f"Rows are missing: this build could not read the {get_benchmark(task).display.name} release, so "
            f"{count} {'run' if count == 1 else 'runs'} of {n_subs} {'submission' if n_subs == 1 else 'submissions'} "
            "could not be re-scored and are not shown."
        )
    return sentences


def benchmark_page(
    env: jinja2.Environment,
    task: str,
    tables: dict[Board, list[Row]],
    board: Leaderboard,
    missing: str | None = None,
) -> str:
    benchmark = get_benchmark(task)
    display = benchmark.display
    boards = []
    floors = {entry.board: entry.floor for entry in board.file.boards}
    primary = {entry.board for entry in board.file.boards if entry.primary}
    for key, rows in tables.items():
        floor_id = floors.get(key.slug)
        floor = None if floor_id is None else board.row(floor_id)
        boards.append(
            {
                "title": key.title,
                "protocol": key.protocol,
                "dataset_label": key.dataset_label,
                "slug": key.slug,
                "is_sample": key.is_sample,
                "rows": [row_view(r, display, "../") for r in rows[:ROWS_IN_PAGE]],
                "n_rows": len(rows),
                "more": max(0, len(rows) - ROWS_IN_PAGE),
                "more_url": f"../{rows_path(key)}",
                "n_ranked": sum(1 for r in rows if r.rank_range is not None),
                "floor": None
                if floor is None
                else f"{floor.model}: {fmt(headline(floor), display.headline.unit)} "
                f"{unit_suffix(display.headline.unit)}",
                "has_models": any(r.kind == "verified" for r in rows),
                "downloads": any(r.key == key for r in rows),
                "primary": key.slug in primary,
            }
        )
    papers = list(
        dict.fromkeys(
            (t.paper.title, t.paper.title_en if t.paper.title_en != t.paper.title else None)
            for t in board.reported_tables
            if t.task == task
        )
    )
    return env.get_template("benchmark.md.j2").render(
        title=display.name,
        task=task,
        papers=papers,
        display=display,
        headline_unit=unit_suffix(display.headline.unit),
        key_labels=[_label_of(display, p) for p in display.key_columns],
        boards=boards,
        leader=board.leaders.get(task),
        charts=chart_views(task, tables),
        interval_method=interval_method(BootstrapConfig()),
        ranking_rules=rules_in_words(task),
        primary_protocol=primary_protocol(task),
        rules_version=RULES_VERSION,
        trust_words=TRUST_WORDS,
        trust_labels=TRUST_LABELS,
        missing=missing,
        base="../",
    )


def rows_path(board: Board) -> str:
    return f"data/rows/{board.slug}.html"


def more_rows_files(env: jinja2.Environment, tables: dict[Board, list[Row]]) -> dict[str, str]:
    """The rows of each long board past the first ROWS_IN_PAGE, rendered by the page's own row macro (the page
    loads them when asked)."""
    files = {}
    for board, rows in tables.items():
        if len(rows) > ROWS_IN_PAGE:
            display = get_benchmark(board.task).display
            views = [row_view(r, display, "../") for r in rows[ROWS_IN_PAGE:]]
            files[rows_path(board)] = env.get_template("rows.html.j2").render(
                title=board.title, rows=views, row_macro="ranked_row"
            )
    return files


def model_page(env: jinja2.Environment, sid: str, board: Leaderboard) -> str:
    metadata = board.submissions[sid]
    # a rule baseline's row is on every board of its data as a reference: its page lists each once
    rows = [r for r in board.rows if r.submission_id == sid]
    model = metadata.model
    first = next(iter(rows), None)
    facts: list[tuple[str, str]] = [("submission", sid), ("kind", model.kind)]
    if first is not None and first.account is not None:
        facts.append(("landed by", first.account.words))
    if first is not None:
        facts.append(
            ("identity", first.identity_words or "none: nothing pins this model (a local model without a sha256)")
        )
        if first.numeric_setting:
            facts.append(("numeric setting", first.numeric_setting))
    for attr in ("repo_id", "revision", "file", "provider", "version", "baseline", "package", "package_version"):
        value = getattr(model, attr, None)
        if value is not None:
            facts.append((attr.replace("_", " "), str(value)))
    facts += [
        ("parameters", "unknown" if model.parameters is None else f"{model.parameters:,}"),
        ("open weights", "yes" if model.open_weights else "no"),
        ("license", model.license),
        ("submitter", metadata.submitter.name),
        ("contact", metadata.submitter.contact),
        ("date given", metadata.date),
        ("landed on main", board.landing_words(sid)),
    ]
    results = []
    for row in rows:
        display = get_benchmark(row.task).display
        view = row_view(row, display, "../")
        view.update(benchmark=display.name, task=row.task, board=row.key.title, label=display.headline.label)
        view["unit"] = unit_suffix(display.headline.unit)
        if row.duplicate_of is not None:
            standing = board.row(row.duplicate_of)
            view["duplicate_of"] = f"{standing.model} ({standing.submission_id})"
        results.append(view)
    flips = []
    for row in rows:
        if get_benchmark(row.task).family != "minimal-pairs":
            continue
        m = row.metrics
        flips.append(
            {
                "benchmark": get_benchmark(row.task).display.name,
                "board": row.key.title,
                "ignored": fmt(m.get("pair_metrics.M_i.ignored_rate")),
                "distracted": fmt(m.get("pair_metrics.M_u.distracted_rate")),
                "left_out": fmt(
                    (m.get("pair_metrics.M_i.pairs_with_unparsed") or 0)
                    + (m.get("pair_metrics.M_u.pairs_with_unparsed") or 0),
                    "count",
                ),
                "parsed": None if row.parsed_share is None else f"{100 * row.parsed_share:.0f}%",
            }
        )
    answer_runs = [
        {"label": f"{get_benchmark(p['task']).display.name} · {p['file']}", "url": answers_path(sid, p["file"])}
        for row in rows
        for p in row.provenance
        if answers_path(sid, p["file"]) in row.views
    ]
    provenance = [
        [
            p.get(k)
            for k in (
                "task",
                "file",
                "seed",
                "predictions_sha256",
                "dataset_name",
                "dataset_version",
                "dataset_sha256",
                "evaluator_version",
                "task_version",
            )
        ]
        for row in rows
        for p in row.provenance
    ]
    runner = sorted((metadata.provenance or {}).items())
    return env.get_template("model.md.j2").render(
        title=model.name,
        facts=facts,
        description=metadata.description,
        links=metadata.links,
        results=results,
        flips=flips,
        answer_runs=answer_runs,
        provenance=provenance,
        runner=runner,
        base="../",
    )


def answers_path(sid: str, run_file: str) -> str:
    return view_path(sid, run_file)


# (task, dataset identity, fine-tuning): the sample never shares a column with the full test, nor a fine-tuned
# classifier's cell a zero-shot one
ProfileColumn = tuple[str, str, str]


def profile_column(key: Board) -> ProfileColumn:
    tuning = ("fine-tuned on " + key.fine_tuned_on) if key.fine_tuned_on else ("fine-tuned" if key.fine_tuned else "")
    return (key.task, key.dataset, tuning)


def profile_columns(board: Leaderboard) -> dict[ProfileColumn, dict[str, Any]]:
    """One column per benchmark and data release, each with its default board: the leader's where the leader is
    on this data, else the board with the most ranked rows, then the most NegHub rows, then the most rows."""
    tables = board.tables()
    columns: dict[ProfileColumn, dict[str, Any]] = {}
    for key, rows in tables.items():
        if not any(headline(r) is not None for r in rows):
            continue
        column_key = profile_column(key)
        label = key.dataset_label + (f" · {column_key[2]}" if column_key[2] else "")
        column = columns.setdefault(
            column_key,
            {"task": key.task, "label": label, "boards": [], "scored": False, "is_sample": key.is_sample},
        )
        column["boards"].append(key)
        column["scored"] = column["scored"] or any(r.kind == "verified" for r in rows)
    order = benchmark_names()
    ordered = dict(
        sorted(
            columns.items(), key=lambda item: (order.index(item[1]["task"]), not item[1]["scored"], item[1]["label"])
        )
    )
    for (task, _, _), column in ordered.items():
        leader = board.leaders.get(task)
        on_leader = [key for key in column["boards"] if leader is not None and key.slug == leader.board]
        if on_leader:
            column["default"] = on_leader[0]
            continue

        def weight(key: Board) -> tuple[int, int, int]:
            rows = tables[key]
            ranked = sum(1 for r in rows if r.status == "ranked")
            return (ranked, sum(1 for r in rows if r.kind == "verified"), len(rows))

        column["default"] = max(column["boards"], key=weight)
    return ordered


PROFILE_ROWS = "data/rows/profile.html"  # the profile's rows past the first ROWS_IN_PAGE, loaded when asked
MODELS_ROWS = "data/rows/models.html"


def profile_page(env: jinja2.Environment, board: Leaderboard, files: dict[str, str | bytes]) -> str:
    """Models by benchmark and data release: each cell the model's headline on the column's default board (or, where
    the model has no row there, on its best other board of that data, named in the cell), with its interval and
    trust level; paper rows marked. The charts plot exactly these cells."""
    columns = profile_columns(board)
    tables = board.tables()
    by_model: dict[tuple[str, str], dict[ProfileColumn, list[Row]]] = {}
    for key, rows in tables.items():
        if profile_column(key) not in columns:
            continue
        for row in rows:
            if row.kind == "reference":
                continue  # the profile is of models: a board's rule rows are on its benchmark's page
            owner = (row.model, row.submission_id or f"paper:{row.paper}")
            by_model.setdefault(owner, {}).setdefault(profile_column(key), []).append(row)
    table = []
    cells_for_charts: dict[ProfileColumn, list[tuple[Row, str]]] = {c: [] for c in columns}
    for (model, sid), found in sorted(by_model.items(), key=lambda item: item[0][0].lower()):
        reported = sid.startswith("paper:")
        entry: dict[str, Any] = {
            "model": model,
            "href": None if reported else f"models/{sid}.html",
            "reported": reported,
            "source": sid.removeprefix("paper:") if reported else None,
            "cells": [],
        }
        parameters = None
        for column_key, column in columns.items():
            candidates = [r for r in found.get(column_key, []) if headline(r) is not None]
            if not candidates:
                entry["cells"].append(None)
                continue
            on_default = [r for r in candidates if r.key == column["default"]]
            row = min(on_default or candidates, key=_preference)
            parameters = parameters or row.parameters
            display = get_benchmark(row.task).display
            unit = display.headline.unit
            ci = row.headline_ci
            value = headline(row)
            cells_for_charts[column_key].append((row, model))
            entry["cells"].append(
                {
                    "value": fmt(value, unit),
                    "sort": "" if value is None else repr(value),
                    "ci": None if ci is None else f"[{fmt(ci[0], unit)}, {fmt(ci[1], unit)}]",
                    "trust": TRUST_LABELS[row.trust],
                    "status": STATUS_WORDS[row.status],
                    "tags": row.tags,
                    "board": row.key.protocol,
                    "other_board": row.key != column["default"],
                }
            )
        entry["size"] = size_text(parameters)
        entry["size_sort"] = "" if parameters is None else f"{parameters:015d}"
        table.append(entry)
    scatter = charts.size_against_score(
        [(column["task"], column["label"], cells_for_charts[key]) for key, column in columns.items()]
    )
    if len(table) > ROWS_IN_PAGE:
        files[PROFILE_ROWS] = env.get_template("rows.html.j2").render(
            title="Negation profile", rows=table[ROWS_IN_PAGE:], row_macro="profile_row"
        )
    return env.get_template("profile.md.j2").render(
        title="Negation profile",
        columns=[
            {
                "display": get_benchmark(column["task"]).display,
                "label": column["label"],
                "default": column["default"].protocol,
                "unit": unit_suffix(get_benchmark(column["task"]).display.headline.unit),
            }
            for column in columns.values()
        ],
        table=table[:ROWS_IN_PAGE],
        total=len(table),
        more_url=PROFILE_ROWS if len(table) > ROWS_IN_PAGE else None,
        scatter=scatter,
        base="",
    )


def _preference(row: Row) -> tuple[int, int, float]:
    """Which of a model's rows of one data release the profile shows: ranked first, then NegHub's other rows,
    then the paper's; the better rank, then the better headline (never the board's title or a name)."""
    group = {"ranked": 0, "held": 1, "unranked": 1, "duplicate": 1, "reference": 2, "reported": 3}[row.status]
    value = headline(row)
    sign = 1.0 if get_benchmark(row.task).display.headline.higher_is_better else -1.0
    return (group, row.rank or 0, -sign * value if value is not None else math.inf)


def home_page(
    env: jinja2.Environment, board: Leaderboard, tables: dict[Board, list[Row]], missing: dict[str, str] | None = None
) -> str:
    cards = []
    for task in benchmark_names():
        display = get_benchmark(task).display
        task_rows = [r for r in board.rows if r.task == task]
        leader = board.leaders.get(task)
        cards.append(
            {
                "task": task,
                "name": display.name,
                "summary": display.summary,
                "counts": [
                    (TRUST_LABELS[t], sum(1 for r in task_rows if r.trust == t and r.kind != "reference"))
                    for t in ("neghub-run", "reproduced", "re-scored", "reported")
                ],
                "leader": leader,
            }
        )
    landings = board.history.submissions if board.history.recorded else {}

    def landing_key(item: tuple[str, Any]) -> tuple[int, str]:
        landing = landings.get(item[0])
        return (-1 if landing is None else landing.position, item[0])

    latest = sorted(board.submissions.items(), key=landing_key, reverse=True)[:10]
    return env.get_template("home.md.j2").render(
        title="NegHub",
        cards=cards,
        latest=[
            {
                "sid": sid,
                "name": meta.model.name,
                "landed": None if sid not in landings else landings[sid].date,
                "benchmarks": ", ".join(sorted({get_benchmark(r.task).display.name for r in meta.runs})),
                "submitter": meta.submitter.name,
            }
            for sid, meta in latest
        ],
        history=board.history.recorded,
        missing=list((missing or {}).values()),
        base="",
    )


def models_index_page(env: jinja2.Environment, board: Leaderboard, files: dict[str, str | bytes]) -> str:
    """Every submission's model page, listed once here (the model pages stay out of the sidebar): the first
    ROWS_IN_PAGE in the page, the rest loaded when asked (or when the list is sorted or filtered)."""
    landings = board.history.submissions if board.history.recorded else {}
    items = [
        {
            "sid": sid,
            "href": f"{sid}.html",
            "name": meta.model.name,
            "kind": meta.model.kind,
            "benchmarks": ", ".join(sorted({get_benchmark(r.task).display.name for r in meta.runs})),
            "landed": landings[sid].date if sid in landings else MISSING,
            "submitter": meta.submitter.name,
        }
        for sid, meta in sorted(board.submissions.items(), key=lambda item: (item[1].model.name.lower(), item[0]))
    ]
    if len(items) > ROWS_IN_PAGE:
        # loaded into models/index.html: its links are relative to models/
        files[MODELS_ROWS] = env.get_template("rows.html.j2").render(
            title="Models", rows=items[ROWS_IN_PAGE:], row_macro="model_item_row"
        )
    return env.get_template("models.md.j2").render(
        title="Models",
        items=items[:ROWS_IN_PAGE],
        total=len(items),
        more_url=f"../{MODELS_ROWS}" if len(items) > ROWS_IN_PAGE else None,
        base="../",
    )


MAX_NOTE_LINES = 5  # per submission on the build report; the build log has every line


def maintainers_page(env: jinja2.Environment, board: Leaderboard) -> str:
    notes = [
        {
            "submission": note.submission,
            "verdict": "refused" if note.level == "refused" else "runs left out",
            "messages": note.messages[:MAX_NOTE_LINES],
            "more": max(0, len(note.messages) - MAX_NOTE_LINES),
        }
        for note in board.notes
    ]
    return env.get_template("maintainers.md.j2").render(title="Build report", notes=notes, base="")


def dataset_page(env: jinja2.Environment, task: str, cards_dir: Path) -> str:
    benchmark = get_benchmark(task)
    card = cards_dir / f"{task}.md"
    body = None
    if card.is_file():
        text = _strip_front_matter(card.read_text(encoding="utf-8"))
        # the card's own H1 is dropped (the page title names the dataset); braces are written as entities so
        # that MkDocs' attr_list cannot read `{sentence, neg}` in a field's type as HTML attributes
        body = _braces_as_entities(re.sub(r"^# [^\n]*\n", "", text, count=1, flags=re.MULTILINE))
    metadata = benchmark.metadata
    return env.get_template("dataset.md.j2").render(
        title=f"{benchmark.display.name} dataset",
        card=None if body is None else Markup(body),  # NegHub's own generated card
        metadata=metadata,
        base="../",
    )


# fenced blocks and code spans, where Markdown shows characters as they are (and attr_list reads nothing)
_CODE = re.compile(r"^(```|~~~)[^\n]*\n.*?^\1[ \t]*$|(`+)(?!`).+?(?<!`)\2(?!`)", re.MULTILINE | re.DOTALL)


def _braces_as_entities(markdown: str) -> str:
    """Braces outside code as entities: attr_list would read `{sentence, neg}` in a field's type as HTML
    attributes and drop it. Inside code they stay braces (an entity there would show as `&#123;`)."""
    out, last = [], 0
    for match in _CODE.finditer(markdown):
        out.append(markdown[last : match.start()].replace("{", "&#123;").replace("}", "&#125;"))
        out.append(match.group(0))
        last = match.end()
    out.append(markdown[last:].replace("{", "&#123;").replace("}", "&#125;"))
    return "".join(out)


def _strip_front_matter(text: str) -> str:
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            return text[end + 4 :].lstrip("\n")
    return text


def build_pages(
    board: Leaderboard,
    cards_dir: Path = Path("datasets_cards"),
) -> dict[str, str | bytes]:
    """Every generated file of the site: path in the site -> content."""
    env = environment()
    tables = board.tables()
    missing = missing_rows(board)
    files: dict[str, str | bytes] = {"index.md": home_page(env, board, tables, missing)}
    for task in benchmark_names():
        own = {k: v for k, v in tables.items() if k.task == task}
        files[f"benchmarks/{task}.md"] = benchmark_page(env, task, own, board, missing.get(task))
        files[f"datasets/{task}.md"] = dataset_page(env, task, cards_dir)
    files["models/index.md"] = models_index_page(env, board, files)
    for sid in board.submissions:
        files[f"models/{sid}.md"] = model_page(env, sid, board)
    files["profile.md"] = profile_page(env, board, files)
    files["maintainers.md"] = maintainers_page(env, board)
    files["rules.md"] = rules_page(env)
    files.update(more_rows_files(env, tables))
    files.update(board.views)
    files.update(exports.files(board, tables))
    files[LEADERBOARD_FILE] = board.file.model_dump_json(indent=1) + "\n"
    return files
