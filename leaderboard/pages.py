"""The site's generated pages and data files, as text keyed by their path in the site.

Pages are Markdown whose submitter- and paper-derived parts are raw HTML blocks with every value
passed through `html.escape`, so nothing a submitter wrote is interpreted as Markdown or HTML.
The MkDocs hook (`leaderboard.mkdocs_hooks`) turns this mapping into virtual files of the build.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from neghub.evaluator.core.benchmark import Display, MetricDisplay
from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from neghub.leaderboard import charts
from neghub.leaderboard.collect import Leaderboard, Row, SettingKey, headline, or_lowest


def display_of(task: str) -> Display:
    return get_benchmark(task).display


def headline_text(task: str) -> str:
    """The headline's label with its unit and direction, as a sentence part."""
    shown = display_of(task).headline
    unit = {"percent": "%", "points": "points"}.get(shown.unit, "")
    direction = "higher is better" if shown.higher_is_better else "lower is better"
    return f"{shown.label} ({unit}, {direction})" if unit else f"{shown.label} ({direction})"


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def json_for_script(value: Any) -> str:
    """JSON that cannot close the <script> element it sits in."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def fmt(unit: str, value: float | None, sd: float | None = None) -> str:
    """A figure in its unit: fractions as percent or points with two decimals (± SD when several seeds),
    counts as integers, correlations with three decimals."""
    if value is None:
        return "—"
    if unit == "count":
        return f"{value:,.0f}" if sd is None else f"{value:,.1f} ± {sd:,.1f}"
    if unit == "correlation":
        return f"{value:.3f}" if sd is None else f"{value:.3f} ± {sd:.3f}"
    text = f"{100 * value:.2f}"
    return text if sd is None else f"{text} ± {100 * sd:.2f}"


@dataclass(frozen=True)
class Column:
    """A column of a leaderboard table: a header, how to read a row, whether it gets a filter menu."""

    header: str
    cell: Callable[[Row], tuple[str, str]]  # (escaped HTML, sort value)
    filterable: bool = False
    path: str | None = None  # the metric path, for exports


def metric_column(shown: MetricDisplay) -> Column:
    def cell(row: Row) -> tuple[str, str]:
        value = row.metrics.get(shown.path)
        return esc(fmt(shown.unit, value, row.sd.get(shown.path))), ("" if value is None else repr(value))

    unit = {"percent": " (%)", "points": " (points)"}.get(shown.unit, "")
    return Column(shown.label + unit, cell, path=shown.path)


def ci_column(shown: MetricDisplay) -> Column:
    path = shown.ci_path or ""

    def cell(row: Row) -> tuple[str, str]:
        lo, hi = row.metrics.get(f"{path}.0"), row.metrics.get(f"{path}.1")
        if lo is None or hi is None:
            return "—", ""
        return esc(f"[{fmt(shown.unit, lo)}, {fmt(shown.unit, hi)}]"), repr(lo)

    return Column(f"{shown.label} 95% CI", cell, path=path)


def _model_cell(prefix: str) -> Callable[[Row], tuple[str, str]]:
    def cell(row: Row) -> tuple[str, str]:
        name = esc(row.model)
        if row.kind == "verified" and row.submission_id:
            name = f'<a href="{prefix}models/{esc(row.submission_id)}.html">{name}</a>'
        if row.note:
            name += f' <span class="neghub-note" title="{esc(row.note)}">note</span>'
        return name, row.model.lower()

    return cell


def _kind_cell(row: Row) -> tuple[str, str]:
    if row.kind == "reported":
        return (
            '<span class="neghub-badge neghub-reported" title="as printed in the paper; not re-scored">reported</span>',
            "reported",
        )
    return '<span class="neghub-badge neghub-verified" title="re-scored by NegHub">verified</span>', "verified"


def _plain(getter: Callable[[Row], Any]) -> Callable[[Row], tuple[str, str]]:
    def cell(row: Row) -> tuple[str, str]:
        value = getter(row)
        if value is None:
            return "—", ""
        return esc(value), str(value)

    return cell


def _size(row: Row) -> tuple[str, str]:
    if row.parameters is None:
        return "—", ""
    if row.parameters == 0:
        return "0 (baseline)", "0"
    for unit, scale in (("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if row.parameters >= scale:
            return esc(f"{row.parameters / scale:.3g}{unit}"), str(row.parameters)
    return esc(row.parameters), str(row.parameters)


def _open(row: Row) -> tuple[str, str]:
    if row.open_weights is None:
        return "—", ""
    return ("yes", "yes") if row.open_weights else ("no", "no")


def _source_cell(prefix: str) -> Callable[[Row], tuple[str, str]]:
    def cell(row: Row) -> tuple[str, str]:
        if row.kind == "reported":
            return esc(row.source or ""), row.source or ""
        shas = ", ".join(str(p.get("predictions_sha256", ""))[:12] for p in row.provenance)
        link = f'<a href="{prefix}models/{esc(row.submission_id)}.html#provenance">{esc(shas)}</a>'
        return link, shas

    return cell


def _rank(row: Row) -> tuple[str, str]:
    return ("—", "") if row.rank is None else (str(row.rank), str(row.rank))


def _headline(row: Row) -> tuple[str, str]:
    value = headline(row)
    unit = display_of(row.task).headline.unit
    return ("—", "") if value is None else (esc(fmt(unit, value)), repr(value))


def common_columns(prefix: str) -> list[Column]:
    return [
        Column("rank", _rank),
        Column("model", _model_cell(prefix)),
        Column("kind", _kind_cell, filterable=True),
        Column("split", _plain(lambda r: r.key.split), filterable=True),
        Column("shots", _plain(lambda r: r.key.shots), filterable=True),
        Column("mode", _plain(lambda r: r.key.mode), filterable=True),
        Column("prompt", _plain(lambda r: r.setting.get("prompt")), filterable=True),
        Column(
            "training", _plain(lambda r: r.setting.get("fine_tuned_on") or r.setting.get("method")), filterable=True
        ),
        Column("size", _size),
        Column("open weights", _open, filterable=True),
        Column("runs", _plain(lambda r: r.n_runs)),
    ]


def task_columns(task: str) -> list[Column]:
    """The benchmark's own columns (its display block), each followed by its interval where it has one."""
    display = display_of(task)
    cols = [Column(display.headline.label, _headline)]
    for shown in display.columns:
        cols.append(metric_column(shown))
        if shown.ci_path:
            cols.append(ci_column(shown))
    return cols


def _has_values(column: Column, rows: Sequence[Row]) -> bool:
    return any(column.cell(row)[1] != "" for row in rows)


def html_table(columns: Sequence[Column], rows: Sequence[Row], table_id: str) -> str:
    """A sortable, filterable table (neghub.js adds the controls); only columns with a value are kept."""
    kept = [c for c in columns if _has_values(c, rows) or c.header in ("rank", "model", "kind")]
    head = "".join(f'<th data-filter="{"1" if c.filterable else "0"}" scope="col">{esc(c.header)}</th>' for c in kept)
    body = []
    for row in rows:
        cells = []
        for column in kept:
            shown, sort_value = column.cell(row)
            cells.append(f'<td data-value="{esc(sort_value)}">{shown}</td>')
        body.append(f'<tr class="neghub-row-{row.kind}">{"".join(cells)}</tr>')
    return (
        f'<div class="neghub-table-wrap"><table class="neghub-table" id="{esc(table_id)}">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def chart_block(figure: charts.Figure, chart_id: str, numbers: str) -> str:
    """A plotly chart (drawn by neghub.js from the JSON beside it) and the same numbers as a table."""
    return (
        f'<div class="neghub-figure"><div class="neghub-chart" id="{esc(chart_id)}" data-figure="{esc(chart_id)}-data">'
        f'</div><script type="application/json" id="{esc(chart_id)}-data">{json_for_script(figure)}</script>'
        f'<details class="neghub-numbers"><summary>The numbers of this chart</summary>{numbers}</details></div>'
    )


def simple_table(headers: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    """A plain table of already-escaped cells (sortable too)."""
    head = "".join(f'<th data-filter="0" scope="col">{esc(h)}</th>' for h in headers)
    rows = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in line) + "</tr>" for line in body)
    return (
        f'<div class="neghub-table-wrap"><table class="neghub-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


# ---------------------------------------------------------------- exports

EXPORT_FIELDS = (
    "kind",
    "rank",
    "model",
    "submission_id",
    "source",
    "split",
    "shots",
    "mode",
    "prompt",
    "training",
    "parameters",
    "open_weights",
    "n_runs",
)
_FORMULA = re.compile(r"^[=+\-@\t\r]")


def _csv_safe(value: Any) -> Any:
    # a spreadsheet would run a cell starting with = + - @ as a formula; text cells are quoted with '
    if isinstance(value, str) and _FORMULA.match(value):
        return "'" + value
    return value


def row_record(row: Row) -> dict[str, Any]:
    return {
        "kind": row.kind,
        "rank": row.rank,
        "model": row.model,
        "submission_id": row.submission_id,
        "source": row.source,
        "split": row.key.split,
        "shots": row.key.shots,
        "mode": row.key.mode,
        "prompt": row.setting.get("prompt"),
        "training": row.setting.get("fine_tuned_on") or row.setting.get("method"),
        "parameters": row.parameters,
        "open_weights": row.open_weights,
        "n_runs": row.n_runs,
        "note": row.note,
        "metrics": row.metrics,
        "sd": row.sd,
        "provenance": row.provenance,
    }


def export_json(key: SettingKey, rows: Sequence[Row]) -> str:
    payload = {
        "task": key.task,
        "setting": {"split": key.split, "shots": key.shots, "mode": key.mode, "fine_tuned": key.fine_tuned},
        "headline": display_of(key.task).headline.path,
        "note": "metrics are fractions; verified rows are re-scored by NegHub and ranked; reported rows are "
        "as printed in the papers and never ranked",
        "rows": [row_record(r) for r in rows],
    }
    return json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def export_csv(rows: Sequence[Row]) -> str:
    paths = sorted({p for r in rows for p in r.metrics})
    sd_paths = sorted({p for r in rows for p in r.sd})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            *EXPORT_FIELDS,
            *paths,
            *(f"sd.{p}" for p in sd_paths),
            "predictions_sha256",
            "dataset_revision",
            "dataset_sha256",
            "evaluator_version",
        ]
    )
    for row in rows:
        record = row_record(row)
        prov = row.provenance

        def joined(key: str, prov: list[dict[str, Any]] = prov) -> str:
            return ";".join(str(p.get(key)) for p in prov if p.get(key) is not None)

        writer.writerow(
            [_csv_safe(record[f]) for f in EXPORT_FIELDS]
            + [row.metrics.get(p, "") for p in paths]
            + [row.sd.get(p, "") for p in sd_paths]
            + [
                joined("predictions_sha256"),
                joined("dataset_revision"),
                joined("dataset_sha256"),
                joined("evaluator_version"),
            ]
        )
    return out.getvalue()


# ---------------------------------------------------------------- pages


def _front_matter(title: str) -> str:
    # JSON strings are valid YAML double-quoted scalars; the title is escaped because the theme inserts it raw
    return f"---\ntitle: {json.dumps(esc(title))}\n---\n\n"


def chart_blocks(task: str, tables: dict[SettingKey, list[Row]]) -> list[str]:
    """Every chart of the benchmark's display block, one per setting for the charts that compare rows of one
    table (dot_interval, scatter, heatmap, bars) and one across settings for `by_setting`."""
    display = display_of(task)
    blocks: list[str] = []
    for index, spec in enumerate(display.charts):
        groups = (
            [("", [r for rows in tables.values() for r in rows if not r.key.fine_tuned])]
            if spec.kind == "by_setting"
            else [(key.label, rows) for key, rows in tables.items()]
        )
        for label, rows in groups:
            for number, figure in enumerate(charts.figures(rows, spec)):
                facet = figure.pop("facet", "")
                title = " — ".join(part for part in (spec.title, label, facet) if part)
                numbers = simple_table(
                    ["model", "kind", "setting", *(s.label for s in spec.series)],
                    [
                        [esc(r.model), esc(r.kind), esc(r.key.label)]
                        + [esc(fmt(spec.unit, r.metrics.get(s.path.replace("{facet}", facet)))) for s in spec.series]
                        for r in charts.top_rows(rows, limit=50)
                    ],
                )
                chart_id = f"chart-{task}-{index}-{re.sub('[^a-z0-9]+', '-', label.lower())}-{number}"
                blocks.append(f"### {esc(title)}\n\n" + chart_block(figure, chart_id, numbers))
    return blocks


def benchmark_page(task: str, board: Leaderboard, tables: dict[SettingKey, list[Row]]) -> str:
    prefix = "../"
    own = {k: v for k, v in tables.items() if k.task == task}
    display = display_of(task)
    parts = [_front_matter(display.name)]
    parts.append(f"{esc(display.summary)}\n\n")
    parts.append(
        f"Ranked by **{esc(headline_text(task))}**. Rows marked "
        '<span class="neghub-badge neghub-verified">verified</span> were re-scored by NegHub from their prediction '
        "files against the pinned dataset; rows marked "
        '<span class="neghub-badge neghub-reported">reported</span> are as printed in a paper and are never ranked. '
        f"The dataset: [{esc(display.name)} card](../datasets/{task}.md).\n\n"
    )
    parts.append("## Charts\n\n")
    blocks = chart_blocks(task, own)
    parts.extend(b + "\n\n" for b in blocks)
    if not blocks:
        parts.append("No rows with the figures these charts need yet.\n\n")
    parts.append("## Tables\n\n")
    columns = common_columns(prefix) + task_columns(task) + [Column("provenance / source", _source_cell(prefix))]
    for key, rows in own.items():
        parts.append(f"### {esc(key.label)}\n\n")
        parts.append(
            f'<p class="neghub-downloads">Download: <a href="../data/{esc(key.slug)}.csv" download>CSV</a> · '
            f'<a href="../data/{esc(key.slug)}.json" download>JSON</a></p>\n\n'
        )
        parts.append(html_table(columns, rows, f"table-{key.slug}") + "\n\n")
    if not own:
        parts.append("No rows yet.\n\n")
    return "".join(parts)


def _profile(sid: str, rows: list[Row]) -> list[tuple[str, float, str]]:
    entries: list[tuple[str, float, str]] = []
    for row in rows:
        value = headline(row)
        if value is not None:
            shown = display_of(row.task)
            entries.append(
                (f"{shown.name} · {row.key.label} · {shown.headline.label}", value, shown.headline.unit)
            )
    return entries


def model_page(sid: str, board: Leaderboard) -> str:
    metadata = board.submissions[sid]
    rows = [r for r in board.rows if r.submission_id == sid]
    model = metadata.model
    parts = [_front_matter(model.name)]
    facts: list[tuple[str, str]] = [("submission", sid), ("kind", model.kind)]
    for attr in ("repo_id", "revision", "file", "provider", "version", "baseline"):
        value = getattr(model, attr, None)
        if value is not None:
            facts.append((attr.replace("_", " "), str(value)))
    facts += [
        ("parameters", "unknown" if model.parameters is None else f"{model.parameters:,}"),
        ("open weights", "yes" if model.open_weights else "no"),
        ("license", model.license),
        ("submitter", metadata.submitter.name),
        ("contact", metadata.submitter.contact),
        ("date", metadata.date),
    ]
    body = "".join(f'<tr><th scope="row">{esc(k)}</th><td>{esc(v)}</td></tr>' for k, v in facts)
    links = "".join(
        f'<li><a href="{esc(link)}" rel="nofollow noopener">{esc(link)}</a></li>' for link in metadata.links
    )
    parts.append("## Metadata\n\n")
    parts.append(
        f'<div class="neghub-meta"><table>{body}</table><p class="neghub-description">{esc(metadata.description)}</p>'
        + (f"<ul>{links}</ul>" if links else "")
        + "</div>\n\n"
    )
    parts.append("## Profile across the benchmarks\n\n")
    entries = _profile(sid, rows)
    if entries:
        numbers = simple_table(
            ["benchmark · setting · figure", "value"], [[esc(k), esc(fmt(u, v))] for k, v, u in entries]
        )
        parts.append(
            chart_block(
                charts.profile_bars(entries, "Headline figure per benchmark and setting"),
                f"chart-profile-{sid}",
                numbers,
            )
            + "\n\n"
        )
    else:
        parts.append("No scored rows.\n\n")
    flips = [r for r in rows if get_benchmark(r.task).family == "minimal-pairs"]
    parts.append("## Flip analysis\n\n")
    if flips:
        parts.append(
            "On M_i the gold changes with the added cue: *negation ignored* is the share of pairs whose prediction "
            "did not change. On M_u the gold does not change: *distracted* is the share whose prediction changed. "
            "Below, AccChg per kind of pair.\n\n"
        )
        body_rows = []
        for r in flips:
            body_rows.append(
                [
                    esc(display_of(r.task).name),
                    esc(r.key.label),
                    esc(
                        fmt(
                            "percent",
                            r.metrics.get("pair_metrics.M_i.ignored_rate"),
                            r.sd.get("pair_metrics.M_i.ignored_rate"),
                        )
                    ),
                    esc(
                        fmt(
                            "percent",
                            r.metrics.get("pair_metrics.M_u.distracted_rate"),
                            r.sd.get("pair_metrics.M_u.distracted_rate"),
                        )
                    ),
                ]
                + [
                    esc(fmt("points", r.metrics.get(f"breakdowns.pair_kind.{k}.M_i.acc_chg")))
                    for k in ("single_s1", "single_s2", "both_from_s1", "both_from_s2")
                ]
            )
        parts.append(
            simple_table(
                [
                    "benchmark",
                    "setting",
                    "negation ignored (M_i)",
                    "distracted (M_u)",
                    "AccChg M_i single s1",
                    "single s2",
                    "both from s1",
                    "both from s2",
                ],
                body_rows,
            )
            + "\n\n"
        )
    else:
        parts.append("No minimal-pair rows.\n\n")
    parts.append("## Provenance {#provenance}\n\n")
    prov_rows = []
    for r in rows:
        for p in r.provenance:
            prov_rows.append(
                [
                    esc(p.get(k))
                    for k in (
                        "task",
                        "file",
                        "seed",
                        "predictions_sha256",
                        "dataset_revision",
                        "dataset_sha256",
                        "evaluator_version",
                        "task_version",
                    )
                ]
            )
    parts.append(
        simple_table(
            [
                "task",
                "file",
                "seed",
                "predictions sha256",
                "dataset revision",
                "dataset sha256",
                "evaluator",
                "task version",
            ],
            prov_rows,
        )
        + "\n\n"
    )
    if metadata.provenance:
        runner = [[esc(k), esc(v)] for k, v in sorted(metadata.provenance.items())]
        parts.append("What the runner recorded:\n\n" + simple_table(["key", "value"], runner) + "\n\n")
    return "".join(parts)


def _strip_front_matter(text: str) -> str:
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            return text[end + 4 :].lstrip("\n")
    return text


def dataset_page(task: str, cards_dir: Path) -> str:
    card = cards_dir / f"{task}.md"
    display = display_of(task)
    parts = [_front_matter(f"{display.name} dataset")]
    if card.is_file():
        body = _strip_front_matter(card.read_text(encoding="utf-8"))
        # the card's own H1 is dropped: the page title already names the dataset
        parts.append(re.sub(r"^# [^\n]*\n", "", body, count=1, flags=re.MULTILINE))
        return "".join(parts)
    metadata = get_benchmark(task).metadata
    parts.append(f"{esc(metadata.description)}\n\n")
    facts = [
        ("version", metadata.version),
        ("license", metadata.license),
        ("languages", ", ".join(metadata.languages)),
        ("homepage", metadata.homepage or ""),
        ("Hub repository", metadata.hub_repo_id or ""),
        ("pinned revision", metadata.revision or "not pinned yet"),
    ]
    parts.append(simple_table(["", ""], [[esc(k), esc(v)] for k, v in facts]) + "\n\n")
    files = [[esc(f.path), esc(f.split), esc(f.sha256 or "not pinned")] for f in metadata.files]
    parts.append("## Release files\n\n" + simple_table(["file", "split", "sha256"], files) + "\n\n")
    parts.append(
        f"## Citation\n\n```bibtex\n{metadata.citation}\n```\n\n(The generated card, `datasets_cards/{task}.md`, "
        "is not there yet; this page is built from the task's metadata.)\n"
    )
    return "".join(parts)


def home_page(board: Leaderboard, tables: dict[SettingKey, list[Row]]) -> str:
    parts = [_front_matter("NegHub")]
    parts.append(
        "NegHub measures how well language models understand **negation**: whether adding a *not* changes their "
        "answer when it changes the meaning, and leaves it alone when it does not. Every prediction file submitted "
        "is re-scored here against a pinned dataset release; scores a submitter states are never used. Results "
        "printed in the benchmarks' papers are shown beside them with a *reported* badge and are never ranked.\n\n"
    )
    parts.append("## The four benchmarks\n\n")
    cards = []
    for task in benchmark_names():
        shown = display_of(task).headline
        task_rows = [r for r in board.rows if r.task == task]
        verified = [r for r in task_rows if r.kind == "verified"]
        best = max(verified, key=lambda r: or_lowest(headline(r)), default=None)
        best_text = (
            "—"
            if best is None or headline(best) is None
            else f"{best.model} ({fmt(shown.unit, headline(best))} {shown.label})"
        )
        cards.append(
            f'<div class="neghub-card"><h3><a href="benchmarks/{task}.html">{esc(display_of(task).name)}</a></h3>'
            f"<p>{esc(display_of(task).summary)}</p><p>{len(verified)} verified rows · "
            f"{len(task_rows) - len(verified)} reported rows</p><p>Best verified: {esc(best_text)}</p>"
            f'<p><a href="datasets/{task}.html">dataset</a></p></div>'
        )
    parts.append(f'<div class="neghub-cards">{"".join(cards)}</div>\n\n')
    parts.append("## Latest submissions\n\n")
    latest = sorted(board.submissions.items(), key=lambda item: (item[1].date, item[0]), reverse=True)[:10]
    if latest:
        body = []
        for sid, meta in latest:
            tasks = sorted({display_of(r.task).name for r in meta.runs})
            body.append(
                [
                    esc(meta.date),
                    f'<a href="models/{esc(sid)}.html">{esc(meta.model.name)}</a>',
                    esc(", ".join(tasks)),
                    esc(meta.submitter.name),
                ]
            )
        parts.append(simple_table(["date", "model", "benchmarks", "submitter"], body) + "\n\n")
    else:
        parts.append("No submissions yet. [Submit one](submit.md).\n\n")
    parts.append(
        "All tables can be downloaded as CSV and JSON from their benchmark pages. "
        "To add a model, see [Submit](submit.md).\n"
    )
    return "".join(parts)


MAX_NOTE_LINES = 5  # per submission on the page; the build log has every line


def maintainers_page(board: Leaderboard) -> str:
    """What this build refused or left out, for the maintainers (readers never see these messages on the
    leaderboard pages): each submission with its first few problems; the build log lists them all."""
    parts = [_front_matter("Build report")]
    parts.append(
        "For maintainers: the submissions this build refused and the runs it left out, with why. Readers see "
        "neither on the leaderboard. A refused submission has a problem `neghub validate` reports; fix it in "
        "its folder. A run left out could not be re-scored on this machine (its dataset could not be read).\n\n"
    )
    if not board.notes:
        parts.append("Nothing was refused or left out.\n")
        return "".join(parts)
    items = []
    for note in board.notes:
        shown = note.messages[:MAX_NOTE_LINES]
        more = len(note.messages) - len(shown)
        lines = "".join(f"<li><code>{esc(m)}</code></li>" for m in shown)
        if more:
            lines += f"<li>… and {more} more (the build log lists every line)</li>"
        verdict = "refused" if note.level == "refused" else "runs left out"
        items.append(f"<li><strong>{esc(note.submission)}</strong> ({verdict}):<ul>{lines}</ul></li>")
    parts.append(f'<div class="neghub-notes"><ul>{"".join(items)}</ul></div>\n')
    return "".join(parts)


def models_index_page(board: Leaderboard) -> str:
    """One page listing every submission's model page. The model pages stay out of the sidebar
    (mkdocs.yml `not_in_nav`): a sidebar listing every model on every page grows the build with the
    square of the number of submissions, and is unreadable long before that matters."""
    body = [
        [
            f'<a href="{esc(sid)}.html">{esc(meta.model.name)}</a>',
            esc(meta.model.kind),
            esc(", ".join(sorted({display_of(r.task).name for r in meta.runs}))),
            esc(meta.date),
            esc(meta.submitter.name),
        ]
        for sid, meta in sorted(board.submissions.items(), key=lambda item: (item[1].model.name.lower(), item[0]))
    ]
    if not body:
        return "# Models\n\nNo submissions yet. [Submit one](../submit.md).\n"
    table = simple_table(["model", "kind", "benchmarks", "date", "submitter"], body)
    return f"# Models\n\nEvery submission, with its profile across the benchmarks and its provenance.\n\n{table}\n"


def build_pages(board: Leaderboard, cards_dir: Path = Path("datasets_cards")) -> dict[str, str]:
    """Every generated file of the site: path in the site -> text."""
    tables = board.tables()
    files: dict[str, str] = {"index.md": home_page(board, tables)}
    for task in benchmark_names():
        files[f"benchmarks/{task}.md"] = benchmark_page(task, board, tables)
        files[f"datasets/{task}.md"] = dataset_page(task, cards_dir)
    files["models/index.md"] = models_index_page(board)
    files["maintainers.md"] = maintainers_page(board)
    for sid in board.submissions:
        files[f"models/{sid}.md"] = model_page(sid, board)
    for key, rows in tables.items():
        files[f"data/{key.slug}.csv"] = export_csv(rows)
        files[f"data/{key.slug}.json"] = export_json(key, rows)
    return files
