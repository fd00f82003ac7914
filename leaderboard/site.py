"""The site's generated pages and data files, as content keyed by their path in the site.

Pages are Jinja2 templates (leaderboard/templates/, autoescaping on) fed by the leaderboard's rows: no
HTML is built from strings here. Every page opens with what a reader came for: a benchmark page with
one compact ranked table per board (rank range, model, size, trust level, headline with its interval,
share of answers parsed, one or two key diagnostics; every other column a click away, loaded lazily),
then its charts (numbers collapsed beneath each). plotly.js is loaded only by pages that draw a chart.
The MkDocs hook (`leaderboard.mkdocs_hooks`) turns this mapping into virtual files of the build.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..evaluator.core.numbers import MISSING
from ..evaluator.core.registry import benchmark_names, get_benchmark
from ..evaluator.core.stats import BootstrapConfig
from ..evaluator.papers.citations import citation_of
from . import charts, exports
from .answers import view_path
from .boards import Board
from .collect import Leaderboard, submissions_dir
from .deployment import announce
from .facts import Row
from .home import headline_board, home_page
from .maintainers import RATE_SOURCE, clearance_name_problems, held_submissions, queue_entries
from .names import submitted_by
from .page_rows import (
    ROWS_IN_PAGE,
    TRUST_LABELS,
    TRUST_WORDS,
    fmt,
    json_for_script,
    label_of,
    row_view,
    unit_suffix,
)
from .page_words import GLOSSARY, TERMS, key_line, with_abbr
from .profile import profile_columns as profile_columns  # re-exported: the tests read it here
from .profile import profile_page
from .ranking import interval_method
from .rules_page import rules_page
from .verdicts import RULES_VERSION, headline, primary_protocol

TEMPLATES = Path(__file__).parent / "templates"
MAX_ANSWERS = 2000  # answers shown per run in the answers view (loaded lazily)
LEADERBOARD_FILE = "data/leaderboard.json"  # every verdict of the build (board_file.py), as the pages read them


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
    env.filters["abbr"] = with_abbr  # a column head with its abbreviations spelled out (page_words.GLOSSARY)
    env.filters["key_line"] = key_line
    env.globals["missing"] = MISSING  # the one word every page prints for a figure that does not exist
    return env


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
    # the page opens with the primary board and the paper's headline table, in that order; every other board is
    # folded below them, one click away (NUBench has 32)
    headline_key = headline_board(task, tables, primary)
    declared = display.headline_board
    opened = [k for k, rows in tables.items() if rows and (k.slug in primary or k == headline_key)]
    opened.sort(key=lambda k: k.slug not in primary)
    if not opened and tables:
        opened = [next(iter(tables))]
    ordered = {k: tables[k] for k in opened} | {k: v for k, v in tables.items() if k not in opened}
    for key, rows in ordered.items():
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
                "n_listed": sum(1 for r in rows if r.status == "listed"),
                "floor": None
                if floor is None
                else f"{floor.model}: {fmt(headline(floor), display.headline.unit)} "
                f"{unit_suffix(display.headline.unit)}",
                "has_models": any(r.kind == "verified" for r in rows),
                "downloads": any(r.key == key for r in rows),
                "primary": key.slug in primary,
                "open": key in opened,
                # what the paper says of this kind of board that its table does not (Display.board_notes)
                "notes": list(display.notes_for(key.test, key.prompt)),
                "headline_table": declared.table if key == headline_key and declared is not None else None,
            }
        )
    # each paper once, as a reader cites it (evaluator/papers/citations.py): title, authors, year, venue, link, BibTeX
    papers = list(dict.fromkeys(citation_of(t.paper.file) for t in board.reported_tables if t.task == task))
    return env.get_template("benchmark.md.j2").render(
        title=display.name,
        task=task,
        papers=papers,
        display=display,
        headline_unit=unit_suffix(display.headline.unit),
        key_labels=[label_of(display, p) for p in display.key_columns],
        key=key_line(display.headline.label, *(label_of(display, p) for p in display.key_columns)),
        boards=boards,
        leader=board.leaders.get(task),
        charts=chart_views(task, tables),
        interval_method=interval_method(BootstrapConfig()),
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


# what a model page loads, as paths in the site, where no MkDocs build names the theme's (build_pages' callers in
# tests): NegHub's own stylesheet and script
LEAN_STYLESHEETS: tuple[str, ...] = ("assets/neghub.css",)
LEAN_SCRIPTS: tuple[str, ...] = ("assets/neghub.js",)
# the theme's stylesheets every page of the build loads (mkdocs-material names them by their content's hash)
_THEME_STYLESHEET = re.compile(r"assets/stylesheets/(main|palette)\.[0-9a-f]+\.min\.css")


def lean_assets(
    site_files: Iterable[str], extra_css: Iterable[str], extra_javascript: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The stylesheets and scripts a model page loads, as paths in the site: the theme's main and palette
    stylesheets among the build's files (`site_files`), then mkdocs.yml's extra_css; mkdocs.yml's extra_javascript.
    The theme's own script is not among them: it drives the navigation a model page does not have."""
    theme = sorted(uri for uri in site_files if _THEME_STYLESHEET.fullmatch(uri))
    theme.sort(key=lambda uri: "palette" in uri)  # the palette's variables after the main sheet, as the theme does
    if not any("/main." in uri for uri in theme):
        # a theme that names its sheets otherwise would leave every model page unstyled: said, not shipped
        raise ValueError(
            "the theme's main stylesheet (assets/stylesheets/main.<hash>.min.css) is not among the build's files: "
            "a model page would load no theme styles; update site._THEME_STYLESHEET to the theme's names"
        )
    return (*theme, *map(str, extra_css)), tuple(map(str, extra_javascript))


def model_page(
    env: jinja2.Environment,
    sid: str,
    board: Leaderboard,
    rows: list[Row] | None = None,
    assets: tuple[Sequence[str], Sequence[str]] = (LEAN_STYLESHEETS, LEAN_SCRIPTS),
) -> str:
    """One submission's page, a whole HTML page (templates/model.html.j2: outside MkDocs' Markdown and search
    pipeline, without the theme's navigation, which would be half of its bytes); `assets`: the stylesheets and
    scripts it loads (lean_assets). `rows`: its rows, in the build's order (build_pages gathers every submission's
    in one pass: a search of every row for each submission grew with the square of the submissions)."""
    metadata = board.submissions[sid]
    # a rule baseline's row is on every board of its data as a reference: its page lists each once
    rows = [r for r in board.rows if r.submission_id == sid] if rows is None else rows
    model = metadata.model
    first = next(iter(rows), None)
    facts: list[tuple[str, str]] = [("submission", sid), ("kind", model.kind)]
    # how the row came to be on the site and what pins it: the repository's facts, in the provenance details
    trail: list[tuple[str, str]] = []
    if first is not None and first.account is not None:
        trail.append(("landed by", first.account.words))
    if first is not None:
        trail.append(
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
        ("submitted by", submitted_by(board.history, sid, metadata)),
        ("submitter's name (as given)", metadata.submitter.name),
        ("contact", metadata.submitter.contact),
        ("date given", metadata.date),
    ]
    trail.append(("landed on main", board.landing_words(sid)))
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
    return env.get_template("model.html.j2").render(
        title=model.name,
        stylesheets=assets[0],
        scripts=assets[1],
        site_links=site_links(),
        facts=facts,
        trail=trail,
        description=metadata.description,
        links=metadata.links,
        results=results,
        flips=flips,
        answer_runs=answer_runs,
        provenance=provenance,
        runner=runner,
        base="../",
    )


def site_links() -> list[dict[str, str]]:
    """The links of a model page's header (after the site's name, which links home): every benchmark, the models."""
    links = [
        {"href": f"benchmarks/{task}.html", "label": get_benchmark(task).display.name} for task in benchmark_names()
    ]
    return [*links, {"href": "models/index.html", "label": "Models"}]


def answers_path(sid: str, run_file: str) -> str:
    return view_path(sid, run_file)


def model_page_path(sid: str) -> str:
    return f"models/{sid}.html"


MODELS_ROWS = "data/rows/models.html"


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
            "submitter": submitted_by(board.history, sid, meta),
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
    """The page the maintainers work from (leaderboard/maintainers.py): what the deployment lacks, the held rows with
    every hold and the entry that clears them, the reproduction queue with its cost, the clearances that name
    nothing, and the submissions refused and runs left out. What the deployment lacks and the clearances that name
    nothing are also said in the build's log, one line each (an annotation on GitHub Actions), never fatally."""
    notes = [
        {
            "submission": note.submission,
            "verdict": "refused" if note.level == "refused" else "runs left out",
            "messages": note.messages[:MAX_NOTE_LINES],
            "more": max(0, len(note.messages) - MAX_NOTE_LINES),
        }
        for note in board.notes
    ]
    history = board.history
    folder = history.root / history.prefix if history.root is not None and history.prefix else submissions_dir()
    lacks = announce(history.root if history.root is not None else folder.resolve().parent)
    unknown = clearance_name_problems(
        folder.resolve().parent / "clearances.yaml", board.file, sorted(board.submissions)
    )
    for line in unknown:
        print(f"warning: {line}", file=sys.stderr)
    return env.get_template("maintainers.md.j2").render(
        title="Maintainers",
        lacks=lacks,
        held=held_submissions(board.file),
        queue=queue_entries(board.file, folder),
        rate_source=RATE_SOURCE,
        unknown=unknown,
        notes=notes,
        base="",
    )


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


def glossary_page(env: jinja2.Environment) -> str:
    """Every abbreviation of the tables, spelled out and defined, on one page, and the tables' other terms."""
    return env.get_template("glossary.md.j2").render(
        title="Glossary", entries=list(GLOSSARY.items()), terms=list(TERMS.items()), base=""
    )


def build_pages(
    board: Leaderboard,
    cards_dir: Path = Path("datasets_cards"),
    assets: tuple[Sequence[str], Sequence[str]] = (LEAN_STYLESHEETS, LEAN_SCRIPTS),
    downloads: Path | None = None,
) -> dict[str, str | bytes | Path]:
    """Every generated file of the site: path in the site -> content (a model page's, `models/<id>.html`, is a whole
    page that loads `assets`: lean_assets); with `downloads` (a folder), the downloads are written there as each is
    made and given by their path (exports.files: the build holds none of them)."""
    env = environment()
    tables = board.tables()
    missing = missing_rows(board)
    files: dict[str, str | bytes] = {"index.md": home_page(env, board, tables, missing)}
    for task in benchmark_names():
        own = {k: v for k, v in tables.items() if k.task == task}
        files[f"benchmarks/{task}.md"] = benchmark_page(env, task, own, board, missing.get(task))
        files[f"datasets/{task}.md"] = dataset_page(env, task, cards_dir)
    files["models/index.md"] = models_index_page(env, board, files)
    by_submission: dict[str, list[Row]] = {sid: [] for sid in board.submissions}
    for row in board.rows:
        if row.submission_id in by_submission:
            by_submission[row.submission_id].append(row)
    for sid in board.submissions:
        files[model_page_path(sid)] = model_page(env, sid, board, by_submission[sid], assets)
    files["profile.md"] = profile_page(env, board, files)
    files["maintainers.md"] = maintainers_page(env, board)
    files["rules.md"] = rules_page(env)
    files["glossary.md"] = glossary_page(env)
    files.update(more_rows_files(env, tables))
    files.update(board.views)
    every: dict[str, str | bytes | Path] = {**files, **exports.files(board, tables, downloads)}
    every[LEADERBOARD_FILE] = board.file.model_dump_json(indent=1) + "\n"
    return every
