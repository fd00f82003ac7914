"""What a page shows of a row, shared by every page builder (site.py, profile.py): a figure in its unit, a row's
compact view, the words for what NegHub checked of a row and where it stands."""

from __future__ import annotations

import json
from typing import Any, get_args

from markupsafe import Markup

from ..evaluator.core.benchmark import Display
from ..evaluator.core.numbers import MISSING, Unit, figure
from ..evaluator.papers.citations import citations, reader_source
from .facts import Row
from .page_words import hold_phrase, reader_words
from .paper_results import computed_flags
from .verdicts import PARSED_SHARE_MIN, headline

# rows of a board in its page, best first; the rest load when asked (data/rows/<board>.html), so that a benchmark
# page stays light however many submissions a board has (at 1,000 rows the whole table alone was 0.5 MB of HTML)
# and, with its primary board and the paper's headline table open, at most four screens tall at 1366 px
ROWS_IN_PAGE = 10
TRUST_WORDS = {
    "reported": "printed in a paper; NegHub checked nothing",
    "re-scored": "NegHub re-scored the submitted predictions against the pinned data; it has not re-run the model",
    "reproduced": "NegHub re-ran the model on a sample of the items and got the same answers",
    "neghub-run": "NegHub's maintainers ran the model themselves",
    "rule": "a baseline NegHub computed from the data (a trivial model a ranked row must beat)",
}
TRUST_LABELS = {
    "reported": "reported",
    "re-scored": "re-scored",
    "reproduced": "re-run by NegHub",
    "neghub-run": "NegHub's run",
    "rule": "baseline",
}
STATUS_WORDS = {
    "ranked": "ranked",
    "unranked": "not ranked",
    "held": "held",
    "listed": "submitted, not run by NegHub",
    "reference": "baseline",
    "reported": "paper row",
    "duplicate": "shown once",
}


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
    else:
        rank = STATUS_WORDS[row.status]
    flags: list[str] = []
    if row.kind == "verified" and parsed is not None and "parsed-share" in row.verdict_entry.fails:
        flags.append(f"only {100 * parsed:.0f}% of its answers parsed: its scores say little about the model")
    flags += computed_flags(row, display.headline.path, display.headline.label)
    sd = row.sd.get(display.headline.path) if row.n_runs > 1 or row.kind == "reported" else None
    sd_words = None
    if sd is not None:
        sd_words = f"± is the SD over {row.n_runs} seeds" if row.n_runs > 1 else "± is the SD the paper prints"
    # the rank column: the rank and a mark of a few words; each hold's short phrase under the model's name, the
    # full reasons in the row's details
    holds = list(row.verdict_entry.holds) if row.entry is not None else []
    if row.entry is not None:
        rank = " · ".join([rank, *row.tags])
    return {
        "rank": rank,
        "rank_sort": "" if row.rank_range is None else f"{row.rank_range[0]:05d}",
        "status": row.status,
        "unranked": row.unranked if row.status in ("unranked", "listed") else None,
        "holds": [hold.reason for hold in holds],
        "hold_phrases": [hold_phrase(hold) for hold in holds],
        "cleared": list(row.cleared),
        "also_submitted_by": row.also_submitted_by,
        "marks": row.marks,
        # where the row came from: in a reader's words in the fold, whole (commits, digests) in its provenance fold
        "evidence": reader_words(row.reproduction) if row.kind == "verified" and row.reproduction else None,
        "provenance": row.reproduction if row.kind == "verified" else None,
        "floor": row.floor_comparison if row.status == "ranked" else None,
        "model": row.model,
        # where another row's name reads like this one's on another pinned model: the pin tells them apart
        "pin": row.entry.pin if row.entry is not None else None,
        "href": f"{base}models/{row.submission_id}.html" if row.kind != "reported" and row.submission_id else None,
        "source": row.source,
        # a paper row's table links to how its paper is cited on the benchmark's page
        "source_href": _cite_href(row, base),
        "size": size_text(row.parameters),
        "size_sort": "" if row.parameters is None else f"{row.parameters:015d}",
        "trust": row.trust,
        "trust_label": TRUST_LABELS[row.trust],
        "trust_words": reader_words(row.reproduction)
        if row.reproduction and row.kind == "verified"
        else TRUST_WORDS[row.trust],
        "value": fmt(value, unit, sd),
        "sd_words": sd_words,
        "value_sort": "" if value is None else repr(value),
        "ci": None if ci is None else f"[{fmt(ci[0], unit)}, {fmt(ci[1], unit)}]",
        "parsed": None if parsed is None else f"{100 * parsed:.0f}%",
        "parsed_low": parsed is not None and parsed < PARSED_SHARE_MIN,
        "diagnostics": [fmt(row.metrics.get(path), unit_of(display, path)) for path in display.key_columns],
        "flags": flags,
        "runs": row.n_runs,
        "verdict": row.verdict,
        "verdict_is_papers": row.kind == "reported",
        "verdict_en": row.verdict_en,
        "verdict_source": None if row.verdict_source is None else reader_source(row.verdict_source),
        "note": None if row.note is None else reader_source(row.note),
        "kind": row.kind,
    }


def _cite_href(row: Row, base: str) -> str | None:
    # a paper row's id names its paper's text: "paper/<file>/<table>/<n>" (collect.py)
    paper = citations().get(row.id.split("/")[1]) if row.kind == "reported" and row.id.startswith("paper/") else None
    return None if paper is None else f"{base}benchmarks/{row.task}.html#cite-{paper.key}"


def unit_of(display: Display, path: str) -> str:
    for column in display.columns:
        if column.path == path:
            return column.unit
    return display.headline.unit if path == display.headline.path else "percent"


def label_of(display: Display, path: str) -> str:
    for column in display.columns:
        if column.path == path:
            return column.label
    return path
