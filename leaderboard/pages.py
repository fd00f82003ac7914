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

from neghub.evaluator.benchmarks.scn import PASS_MARGIN
from neghub.evaluator.core.errors import InputError
from neghub.evaluator.core.registry import get_task, task_names
from neghub.leaderboard import charts
from neghub.leaderboard.charts import SCN_PATTERNS
from neghub.leaderboard.collect import HEADLINE, TASKS, Leaderboard, Row, SettingKey, headline, or_lowest, scn_margin

PRETTY = {"jnli-neg": "JNLI-Neg", "jsts-neg": "JSTS-Neg", "nubench": "NUBench", "scn": "SCN"}
SUMMARY = {
    "jnli-neg": "Japanese natural language inference on negation minimal pairs: does adding one negation cue "
    "change the model's answer when (and only when) it changes the gold label?",
    "jsts-neg": "Japanese semantic textual similarity (0–5) on the same kind of minimal pairs, scored as "
    "six-way classification.",
    "nubench": "English multiple choice: pick the standard negation of a sentence among a local negation, a "
    "contradiction and a paraphrase, by log-likelihood (completion) or by answering a letter (option).",
    "scn": "The Self-Contained Negation Test: a cloze probe. Does a negated context or target stop a model from "
    "repeating the verb of the context, while controls do not?",
}
HEADLINE_LABEL = {
    "jnli-neg": "M_i Acc′",
    "jsts-neg": "M_i Acc′",
    "nubench": "accuracy",
    "scn": "negation contrast (passes above 0.10)",
}
SCN_VARIANTS = ("pronoun", "coref", "noncoref_same", "noncoref_other")
COUNT_SUFFIXES = (".n", ".n_triplets", "format_wrong", "n_items")


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def json_for_script(value: Any) -> str:
    """JSON that cannot close the <script> element it sits in."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def is_count(path: str) -> bool:
    return path.endswith(COUNT_SUFFIXES)


def fmt(path: str, value: float | None, sd: float | None = None) -> str:
    """Fractions as percentages with two decimals (± SD when several seeds); counts as integers."""
    if value is None:
        return "—"
    if is_count(path):
        return f"{value:,.0f}" if sd is None else f"{value:,.1f} ± {sd:,.1f}"
    text = f"{100 * value:.2f}%"
    return text if sd is None else f"{text} ± {100 * sd:.2f}"


@dataclass(frozen=True)
class Column:
    """A column of a leaderboard table: a header, how to read a row, whether it gets a filter menu."""

    header: str
    cell: Callable[[Row], tuple[str, str]]  # (escaped HTML, sort value)
    filterable: bool = False
    path: str | None = None  # the metric path, for exports


def metric_column(header: str, path: str) -> Column:
    def cell(row: Row) -> tuple[str, str]:
        value = row.metrics.get(path)
        return esc(fmt(path, value, row.sd.get(path))), ("" if value is None else repr(value))

    return Column(header, cell, path=path)


def ci_column(header: str, path: str) -> Column:
    def cell(row: Row) -> tuple[str, str]:
        lo, hi = row.metrics.get(f"{path}.0"), row.metrics.get(f"{path}.1")
        if lo is None or hi is None:
            return "—", ""
        return esc(f"[{100 * lo:.2f}, {100 * hi:.2f}]"), repr(lo)

    return Column(header, cell, path=path)


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
    return ("—", "") if value is None else (esc(f"{100 * value:.2f}"), repr(value))


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
    if task in ("jnli-neg", "jsts-neg"):
        cols = []
        for pair_set in ("M_i", "M_u", "M"):
            cols += [
                metric_column(f"{pair_set} Acc", f"pair_metrics.{pair_set}.acc"),
                metric_column(f"{pair_set} Acc′", f"pair_metrics.{pair_set}.acc_prime"),
                metric_column(f"{pair_set} AccChg", f"pair_metrics.{pair_set}.acc_chg"),
                ci_column(f"{pair_set} AccChg 95% CI", f"pair_metrics.{pair_set}.acc_chg_ci95"),
            ]
        cols += [
            metric_column("D_orig acc", "instance_metrics.D_orig.acc"),
            metric_column("D_neg acc", "instance_metrics.D_neg.acc"),
            metric_column("negation ignored (M_i)", "pair_metrics.M_i.ignored_rate"),
            metric_column("distracted (M_u)", "pair_metrics.M_u.distracted_rate"),
        ]
        if task == "jsts-neg":
            cols += [
                metric_column("Pearson", "correlations.pearson"),
                metric_column("Spearman", "correlations.spearman"),
            ]
        return cols
    if task == "nubench":
        return [
            metric_column("acc", "acc"),
            metric_column("acc_norm", "acc_norm"),
            ci_column("acc 95% CI", "acc_ci95"),
            metric_column("error rate", "error_rate"),
            metric_column("wrong → local neg.", "incorrect_choice_distribution.local_negation"),
            metric_column("wrong → contradiction", "incorrect_choice_distribution.contradiction"),
            metric_column("wrong → paraphrase", "incorrect_choice_distribution.paraphrase"),
            *(metric_column(f"confusion {t}", f"confusion_rate.{t}") for t in charts.CHOICE2_TYPES),
            metric_column("format wrong", "format_wrong"),
        ]
    cols = [Column("negation contrast", _headline)]
    for variant in SCN_VARIANTS:
        cols += [metric_column(f"{variant} {p} drop", f"variants.{variant}.patterns.{p}.drop") for p in SCN_PATTERNS]
        cols.append(metric_column(f"{variant} triplets", f"variants.{variant}.n_triplets"))
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
        f'<details class="neghub-numbers" open><summary>The numbers of this chart</summary>{numbers}</details></div>'
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
        "headline": HEADLINE[key.task],
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


def _minimal_pair_charts(task: str, tables: dict[SettingKey, list[Row]]) -> list[str]:
    blocks = []
    for key, rows in tables.items():
        with_chg = [r for r in rows if r.metrics.get("pair_metrics.M_i.acc_chg") is not None]
        if not with_chg:
            continue
        slug = key.slug
        numbers = simple_table(
            ["model", "kind", "M_i AccChg", "95% CI", "M_u AccChg", "95% CI"],
            [[esc(r.model), esc(r.kind), *_chg_cells(r, "M_i"), *_chg_cells(r, "M_u")] for r in with_chg],
        )
        blocks.append(f"### {esc(key.label)}\n")
        blocks.append(
            chart_block(
                charts.accchg_dot_plot(with_chg, f"AccChg on M_i and M_u — {key.label}"),
                f"chart-{slug}-accchg",
                numbers,
            )
        )
        numbers2 = simple_table(
            ["model", "kind", "M_i Acc", "M_i Acc′", "M_u Acc", "M_u Acc′"],
            [
                [esc(r.model), esc(r.kind)]
                + [
                    esc(fmt(p, r.metrics.get(p)))
                    for p in (
                        "pair_metrics.M_i.acc",
                        "pair_metrics.M_i.acc_prime",
                        "pair_metrics.M_u.acc",
                        "pair_metrics.M_u.acc_prime",
                    )
                ]
                for r in with_chg
            ],
        )
        blocks.append(
            chart_block(
                charts.acc_vs_acc_prime(with_chg, f"Acc against Acc′ — {key.label}"), f"chart-{slug}-acc", numbers2
            )
        )
    return blocks


def _chg_cells(row: Row, pair_set: str) -> list[str]:
    path = f"pair_metrics.{pair_set}.acc_chg"
    lo, hi = row.metrics.get(f"{path}_ci95.0"), row.metrics.get(f"{path}_ci95.1")
    ci = "—" if lo is None or hi is None else f"[{100 * lo:.2f}, {100 * hi:.2f}]"
    return [esc(fmt(path, row.metrics.get(path))), esc(ci)]


def _nubench_charts(tables: dict[SettingKey, list[Row]]) -> list[str]:
    rows = [r for key, rs in tables.items() for r in rs if not key.fine_tuned and r.metrics.get("acc") is not None]
    blocks = []
    if rows:
        body = [
            [
                esc(r.model),
                esc(r.kind),
                esc(r.key.mode),
                esc(r.key.shots),
                esc(fmt("acc", r.metrics["acc"], r.sd.get("acc"))),
                esc(r.source or r.submission_id or ""),
            ]
            for r in sorted(rows, key=lambda r: (r.model, r.key.mode or "", r.key.shots or 0))
        ]
        blocks.append(
            chart_block(
                charts.nubench_by_shots(rows, "Accuracy by mode and shots"),
                "chart-nubench-shots",
                simple_table(["model", "kind", "mode", "shots", "acc", "source"], body),
            )
        )
    # zero-shot rows only: the appendix tables repeat each model at every shot count
    confusion = [
        r
        for key, rs in tables.items()
        for r in rs
        if any(r.metrics.get(f"confusion_rate.{t}") is not None for t in charts.CHOICE2_TYPES)
        and (r.kind == "verified" or (key.shots == 0 and not key.fine_tuned))
    ]
    if confusion:
        body = [
            [esc(r.model), esc(r.kind), esc(r.key.mode), esc(r.key.shots)]
            + [esc(fmt("x", r.metrics.get(f"confusion_rate.{t}"))) for t in charts.CHOICE2_TYPES]
            for r in confusion
        ]
        blocks.append(
            chart_block(
                charts.nubench_confusion_heatmap(confusion, "Local-negation confusion rate by choice2_type"),
                "chart-nubench-confusion",
                simple_table(["model", "kind", "mode", "shots", *charts.CHOICE2_TYPES], body),
            )
        )
    return blocks


def _scn_charts(tables: dict[SettingKey, list[Row]]) -> list[str]:
    rows = [r for rs in tables.values() for r in rs]
    blocks = []
    for title, variants in (
        ("pronoun (the base test)", ("pronoun",)),
        ("coreference controls", ("coref", "noncoref_same", "noncoref_other")),
    ):
        shown = [
            r for r in rows if any(r.metrics.get(f"variants.{v}.patterns.CpTn.drop") is not None for v in variants)
        ]
        if not shown:
            continue
        body = []
        for r in shown:
            for v in variants:
                drops = [r.metrics.get(f"variants.{v}.patterns.{p}.drop") for p in SCN_PATTERNS]
                if all(d is None for d in drops):
                    continue
                margin = scn_margin(r.metrics, v)
                verdict = "—" if margin is None else ("passes" if margin > PASS_MARGIN else "fails")
                body.append([esc(r.model), esc(r.kind), esc(v), *(esc(fmt("x", d)) for d in drops), esc(verdict)])
        slug = variants[0]
        blocks.append(
            chart_block(
                charts.scn_drops(shown, variants, f"Drops per pattern — {title}"),
                f"chart-scn-{slug}",
                simple_table(["model", "kind", "variant", *SCN_PATTERNS, "criterion"], body),
            )
        )
    return blocks


def benchmark_page(task: str, board: Leaderboard, tables: dict[SettingKey, list[Row]]) -> str:
    prefix = "../"
    own = {k: v for k, v in tables.items() if k.task == task}
    parts = [_front_matter(PRETTY[task])]
    parts.append(f"{esc(SUMMARY[task])}\n\n")
    parts.append(
        f"Ranked by **{HEADLINE_LABEL[task]}** (higher is better). Rows marked "
        '<span class="neghub-badge neghub-verified">verified</span> were re-scored by NegHub from their prediction '
        "files against the pinned dataset; rows marked "
        '<span class="neghub-badge neghub-reported">reported</span> are as printed in a paper and are never ranked. '
        f"The dataset: [{PRETTY[task]} card](../datasets/{task}.md).\n\n"
    )
    if task not in task_names():
        parts.append(
            f'!!! note "No scorer yet"\n    NegHub has no scorer for {PRETTY[task]} yet; '
            "only reported rows are shown.\n\n"
        )
    parts.append("## Charts\n\n")
    if task in ("jnli-neg", "jsts-neg"):
        blocks = _minimal_pair_charts(task, own)
    elif task == "nubench":
        blocks = _nubench_charts(own)
    else:
        blocks = _scn_charts(own)
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


def _profile(sid: str, rows: list[Row]) -> list[tuple[str, float]]:
    entries = []
    for row in rows:
        value = headline(row)
        if value is not None:
            entries.append((f"{PRETTY[row.task]} · {row.key.label} · {HEADLINE_LABEL[row.task]}", value))
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
            ["benchmark · setting · figure", "value"], [[esc(k), esc(f"{100 * v:.2f}%")] for k, v in entries]
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
    flips = [r for r in rows if r.task in ("jnli-neg", "jsts-neg")]
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
                    esc(PRETTY[r.task]),
                    esc(r.key.label),
                    esc(
                        fmt(
                            "x",
                            r.metrics.get("pair_metrics.M_i.ignored_rate"),
                            r.sd.get("pair_metrics.M_i.ignored_rate"),
                        )
                    ),
                    esc(
                        fmt(
                            "x",
                            r.metrics.get("pair_metrics.M_u.distracted_rate"),
                            r.sd.get("pair_metrics.M_u.distracted_rate"),
                        )
                    ),
                ]
                + [
                    esc(fmt("x", r.metrics.get(f"breakdowns.pair_kind.{k}.M_i.acc_chg")))
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
        parts.append("No minimal-pair (JNLI-Neg, JSTS-Neg) rows.\n\n")
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
    parts = [_front_matter(f"{PRETTY[task]} dataset")]
    if card.is_file():
        body = _strip_front_matter(card.read_text(encoding="utf-8"))
        # the card's own H1 is dropped: the page title already names the dataset
        parts.append(re.sub(r"^# [^\n]*\n", "", body, count=1, flags=re.MULTILINE))
        return "".join(parts)
    try:
        metadata = get_task(task).metadata
    except InputError:
        parts.append(f"{esc(SUMMARY[task])}\n\nNo card and no scorer for this dataset yet.\n")
        return "".join(parts)
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
    for task in TASKS:
        task_rows = [r for r in board.rows if r.task == task]
        verified = [r for r in task_rows if r.kind == "verified"]
        best = max(verified, key=lambda r: or_lowest(headline(r)), default=None)
        best_text = (
            "—"
            if best is None or headline(best) is None
            else f"{best.model} ({100 * (headline(best) or 0):.2f} {HEADLINE_LABEL[task]})"
        )
        cards.append(
            f'<div class="neghub-card"><h3><a href="benchmarks/{task}.html">{esc(PRETTY[task])}</a></h3>'
            f"<p>{esc(SUMMARY[task])}</p><p>{len(verified)} verified rows · "
            f"{len(task_rows) - len(verified)} reported rows</p><p>Best verified: {esc(best_text)}</p>"
            f'<p><a href="datasets/{task}.html">dataset</a></p></div>'
        )
    parts.append(f'<div class="neghub-cards">{"".join(cards)}</div>\n\n')
    parts.append("## Latest submissions\n\n")
    latest = sorted(board.submissions.items(), key=lambda item: (item[1].date, item[0]), reverse=True)[:10]
    if latest:
        body = []
        for sid, meta in latest:
            tasks = sorted({PRETTY[r.task] for r in meta.runs})
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
            esc(", ".join(sorted({PRETTY[r.task] for r in meta.runs}))),
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
    for task in TASKS:
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
