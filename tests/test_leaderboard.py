"""The leaderboard's collection: re-scoring, averaging over seeds, refusals, reported rows, escaping, exports.

Submissions here are NUBench completion-mode runs on the sample shipped in the package (no
../shared needed), with log-likelihoods chosen so that every answer is known by construction.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from neghub.evaluator.core.errors import InputError
from neghub.leaderboard.boards import Board
from neghub.leaderboard.collect import collect, flatten_metrics, mean_and_sd
from neghub.leaderboard.exports import board_csv
from neghub.leaderboard.facts import Row, RowFacts
from neghub.leaderboard.paper_results import load_reported
from neghub.leaderboard.site import build_pages, environment, row_view
from tests.rule_submissions import rule_submission

NUBENCH_TEST = (
    Path(__file__).parents[1] / "evaluator" / "benchmarks" / "nubench" / "release" / "multiple-choice" / "test.jsonl"
)


def _items() -> list[dict[str, object]]:
    return [json.loads(line) for line in NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line.strip()]


Pick = Callable[[int, dict[str, object]], str]


def _completion_run(path: Path, best: str | Pick) -> None:
    """One completion-mode prediction file whose arg-max is `best` on every item (or best(i, item) on item i)."""
    pick = best if callable(best) else (lambda number, item: best)
    lines = []
    for number, item in enumerate(_items()):
        scores: dict[str, float | None] = {"choice1": -5.0, "choice2": -5.0, "choice3": -5.0, "choice4": -5.0}
        if item["choice2_type"] == "non-applicable":
            scores["choice2"] = None
        scores[pick(number, item)] = -1.0
        lines.append(json.dumps({"id": item["index"], "loglikelihoods": scores}))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_submission(
    root: Path,
    sid: str,
    name: str,
    picks: list[str] | list[Pick],
    *,
    date: str = "2025-05-01",
    submitter: str = "Tester",
) -> Path:
    """A submission folder of a local model with one NUBench completion run per entry of `picks` (seeds 0, 1, ...)."""
    folder = root / sid
    runs = []
    for seed, best in enumerate(picks):
        rel = f"predictions/nubench/seed-{seed}.jsonl"
        _completion_run(folder / rel, best)
        runs.append(
            f"  - task: nubench\n    split: test\n    file: {rel}\n"
            f"    shots: 0\n    seed: {seed}\n    mode: completion\n"
        )
    (folder / "metadata.yaml").write_text(
        local_model(name, sid)
        + f"submitter:\n  name: {json.dumps(submitter)}\n  contact: https://example.org/tester\n  github: tester\n"
        f'date: "{date}"\n'
        "description: Synthetic predictions for the leaderboard tests.\n"
        "runs:\n" + "".join(runs),
        encoding="utf-8",
    )
    return folder


def local_model(name: str, weights: str) -> str:
    """The `model:` block of a local model whose weights' sha256 is that of the text `weights` (its identity)."""
    import hashlib

    sha = hashlib.sha256(weights.encode()).hexdigest()
    return (
        f"model:\n  kind: local\n  name: {json.dumps(name)}\n  file: model.gguf\n  sha256: {sha}\n"
        "  parameters: 1000\n  open_weights: true\n  license: Apache-2.0\n"
    )


def test_mean_and_sd_over_seeds() -> None:
    # mean (0.5 + 0.7) / 2 = 0.6; sample SD sqrt(((0.5-0.6)^2 + (0.7-0.6)^2) / (2-1)) = sqrt(0.02) = 0.141421...
    # "b" is missing from the second run, so it has neither mean nor SD
    means, sds = mean_and_sd([{"a": 0.5, "b": 1.0}, {"a": 0.7}])
    assert means == {"a": pytest.approx(0.6)}
    assert sds == {"a": pytest.approx(math.sqrt(0.02))}
    # a single run has a mean and no SD
    assert mean_and_sd([{"a": 0.25}]) == ({"a": 0.25}, {})


def test_flatten_metrics_keeps_numbers_only() -> None:
    result = {
        "mode": "completion",
        "acc": 0.5,
        "acc_ci95": [0.25, 0.75],
        "passes": False,
        "confusion_rate": {"pp_part": 0.125, "compound_part": None},
    }
    assert flatten_metrics(result) == {
        "acc": 0.5,
        "acc_ci95.0": 0.25,
        "acc_ci95.1": 0.75,
        "passes": 0.0,
        "confusion_rate.pp_part": 0.125,
    }


BOARD = Board(
    task="nubench",
    dataset="nubench test",
    dataset_label="a test board",
    is_sample=True,
    split="test",
    mode="completion",
    shots=0,
    prompt="simple",
    chat_template="no",
    fine_tuned=False,
)


def _facts(kind: str, model: str, acc: float | None, sid: str | None = None) -> RowFacts:
    metrics = {} if acc is None else {"acc": acc}
    items = None if acc is None or kind == "reported" else (("1",), np.array([acc]))  # shared units: paired tests run
    row_id = f"{kind}/{model}"
    return RowFacts(
        id=row_id,
        kind=kind,
        task="nubench",
        key=BOARD,
        model=model,
        metrics=metrics,  # type: ignore[arg-type]
        submission_id=sid,
        headline_items=items,
        maintainers_run=kind == "verified",
    )


def _row(kind: str, model: str, acc: float | None, sid: str | None = None) -> Row:
    """A row as the site shows it, with the verdict `decide` gives it alone on its board."""
    from neghub.leaderboard.board_file import HistoryEntry
    from neghub.leaderboard.facts import joined
    from neghub.leaderboard.verdicts import Context, decide

    facts = _facts(kind, model, acc, sid)
    (entry,) = decide([facts], Context(HistoryEntry(recorded=False, words="a test"))).rows
    return joined(facts, entry)


def test_reported_rows_are_never_ranked() -> None:
    from neghub.leaderboard.board_file import HistoryEntry
    from neghub.leaderboard.verdicts import Context, decide

    rows = [
        _facts("reported", "paper-best", 0.99),
        _facts("verified", "low", 0.2),
        _facts("verified", "high", 0.6),
        _facts("verified", "none", None),
    ]
    file = decide(rows, Context(HistoryEntry(recorded=False, words="a test")))
    status = {e.model: (e.status, e.rank, e.why) for e in file.rows}
    # a paper row is never ranked, however high; NegHub rows without an interval say nothing of their uncertainty
    assert status["paper-best"] == ("reported", None, None)
    assert status["high"] == ("unranked", None, "Its headline's 95 % interval says too little to rank: it has none.")
    assert status["low"] == ("unranked", None, "Its headline's 95 % interval says too little to rank: it has none.")
    assert status["none"] == ("unranked", None, "It has no headline figure to rank by.")


def test_paper_rows_get_the_cloze_contrast_from_their_drops() -> None:
    # min(CpTn 0.6, CnTp 0.5) - max(CnTn 0.1, CpTv 0.3) = 0.5 - 0.3 = 0.2
    from neghub.evaluator.core.registry import get_benchmark

    derive = get_benchmark("scn").derive_metrics
    assert derive is not None
    base = "variants.pronoun.patterns"
    metrics = {f"{base}.CpTn.drop": 0.6, f"{base}.CnTp.drop": 0.5, f"{base}.CnTn.drop": 0.1, f"{base}.CpTv.drop": 0.3}
    assert derive(metrics) == {"variants.pronoun.negation_contrast": pytest.approx(0.2)}
    assert derive({f"{base}.CpTn.drop": 0.6}) == {}


def test_collect_rescores_and_averages_seeds(tmp_path: Path) -> None:
    # seed 0 always picks choice1 (the answer): acc 1; seed 1 always picks choice3 (the contradiction): acc 0.
    # mean 0.5, sample SD sqrt((0.5^2 + 0.5^2) / 1) = sqrt(0.5) = 0.7071...
    write_submission(tmp_path, "two-seeds", "Two Seeds", ["choice1", "choice3"])
    board = collect(tmp_path, reported=False)
    assert board.notes == []
    (row,) = [r for r in board.rows if r.kind == "verified"]
    assert row.kind == "verified" and row.n_runs == 2
    assert row.metrics["acc"] == pytest.approx(0.5)
    assert row.sd["acc"] == pytest.approx(math.sqrt(0.5))
    # provenance: one entry per run, each with the sha256 of its own prediction file
    import hashlib

    shas = [hashlib.sha256((tmp_path / "two-seeds" / p["file"]).read_bytes()).hexdigest() for p in row.provenance]
    assert [p["predictions_sha256"] for p in row.provenance] == shas
    assert all(p["evaluator_version"] and p["verified"] is True for p in row.provenance)


def test_collect_ignores_stored_scores_and_refuses_invalid(tmp_path: Path) -> None:
    write_submission(tmp_path, "markup-name", "<img src=x onerror=alert(1)>", ["choice1"])
    broken = write_submission(tmp_path, "broken-file", "Broken", ["choice1"])
    (broken / "predictions" / "nubench" / "seed-0.jsonl").write_text('{"id": 0}\n', encoding="utf-8")
    board = collect(tmp_path, reported=False)
    assert [r for r in board.rows if r.kind == "verified"] == []
    refused = {n.submission: n for n in board.notes}
    assert set(refused) == {"markup-name", "broken-file"}
    assert all(n.level == "refused" for n in refused.values())
    assert any("markup" in m for m in refused["markup-name"].messages)


def test_reported_files_load_and_keep_their_badge() -> None:
    tables = load_reported()
    assert {t.task for _, t in tables} == {"jnli-neg", "jsts-neg", "nubench", "scn"}
    board = collect(Path("/nonexistent-submissions"), reported=True)
    assert board.rows and all(r.kind == "reported" and r.rank is None for r in board.rows)
    # SCN Table 6, bert-base-cased: CpTn drop printed as 3.6 -> stored 0.036
    bert = next(r for r in board.rows if r.task == "scn" and r.model == "bert-base-cased" and r.source == "Table 6")
    assert bert.metrics["variants.pronoun.patterns.CpTn.drop"] == pytest.approx(0.036)


def test_reported_file_with_unknown_field_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x--table-1.yaml").write_text(
        "task: scn\npaper: {title: T, authors: A, venue: null, year: null, file: f.txt}\ntable: Table 1\n"
        "caption: c\nrows: []\nsurprise: 1\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        load_reported(tmp_path)
    assert "x--table-1.yaml" in str(info.value) and "surprise" in str(info.value)


def test_model_names_are_escaped_in_tables() -> None:
    from neghub.evaluator.core.registry import get_benchmark

    row = _row("verified", "<script>alert(1)</script> **bold**", 0.5, sid="abc")
    board = {
        "title": "t",
        "slug": "t",
        "is_sample": False,
        "n_ranked": 0,
        "rows": [row_view(row, get_benchmark("nubench").display, "../")],
    }
    macros = environment().get_template("_macros.j2").module
    table = str(macros.ranked_table(board, [], "accuracy", "%"))  # type: ignore[attr-defined]
    assert "<script>" not in table
    assert "&lt;script&gt;alert(1)&lt;/script&gt; **bold**" in table


def test_csv_export_quotes_formula_like_names() -> None:
    text = board_csv([_row("verified", '=HYPERLINK("x")', 0.5)])
    (record,) = list(csv.DictReader(io.StringIO(text)))
    assert record["model"] == '\'=HYPERLINK("x")'
    assert float(record["metric.acc"]) == 50  # in the unit the page shows: percent


def test_build_pages_has_every_page_and_export(tmp_path: Path) -> None:
    write_submission(tmp_path, "one-run", "One Run", ["choice1"])
    board = collect(tmp_path, reported=False)
    files = build_pages(board)
    for task in ("jnli-neg", "jsts-neg", "nubench", "scn"):
        assert f"benchmarks/{task}.md" in files and f"datasets/{task}.md" in files
    assert "models/one-run.html" in files and "profile.md" in files
    (name,) = [n for n in files if n.startswith("data/nubench--test--completion--0shot") and n.endswith(".csv")]
    data = files[name]
    assert isinstance(data, bytes)
    exported = [r for r in csv.DictReader(io.StringIO(data.decode("utf-8"))) if r["submission_id"]]
    assert [r["model"] for r in exported] == ["One Run"]
    assert exported[0]["metric.acc"] == "100"  # percent, as the page shows it (data contract 2), a whole number whole


def test_a_run_whose_dataset_this_build_cannot_read_is_left_out_not_the_submission(tmp_path: Path) -> None:
    import shutil

    from neghub.evaluator.submissions.validation import validate_submission

    subs = tmp_path / "submissions"
    shutil.copytree(rule_submission("random"), subs / "baseline-random")
    mirror = tmp_path / "mirror"  # a mirror without jnli-neg/; NUBench falls back to the sample in the package
    mirror.mkdir()
    board = collect(subs, data_dir=mirror, reported=False)
    # the two NUBench runs are shown; the JNLI-Neg run is not, and the site says why
    assert sorted((row.task, row.setting["mode"]) for row in board.rows if row.kind == "verified") == [
        ("nubench", "completion"),
        ("nubench", "option"),
    ]
    (note,) = board.notes
    assert note.level == "skipped"
    reason = f"{mirror / 'jnli-neg'}: no jnli-neg folder in the data directory {mirror} (expected <data-dir>/jnli-neg/)"
    # one short line per run: how to show it is said once per build (the MkDocs hook)
    assert note.messages == (
        f"predictions/jnli-neg/valid.jsonl: left out: this build could not read the jnli-neg release ({reason})",
    )
    assert note.unreadable == ("jnli-neg",)
    # and readers are told, on the benchmark's page and the home page, that rows are missing and how many
    pages = build_pages(board)
    missing = "Rows are missing: this build could not read the JNLI-Neg release, so 1 run of 1 submission"
    assert missing in str(pages["benchmarks/jnli-neg.md"]) and missing in str(pages["index.md"])
    assert "Rows are missing" not in str(pages["benchmarks/nubench.md"])
    # the pull-request check cannot pass without the data: there it stays a problem, said of the submission's file
    assert [str(p) for p in validate_submission(subs / "baseline-random", data_dir=mirror)] == [
        f"baseline-random/predictions/jnli-neg/valid.jsonl: cannot be checked here: the jnli-neg release cannot "
        f"be read ({reason})"
    ]
    # and a real problem elsewhere still refuses the whole submission
    (subs / "baseline-random" / "predictions" / "nubench" / "test-option.jsonl").write_text('{"id": 0}\n')
    board = collect(subs, data_dir=mirror, reported=False)
    assert board.rows == [] and [n.level for n in board.notes] == ["refused"]


def test_a_failed_download_is_one_line_per_run_left_out_without_the_advice_the_build_says_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    subs = tmp_path / "submissions"
    shutil.copytree(rule_submission("random"), subs / "baseline-random")
    # then no mirror, an empty cache, and the upstream host refusing (conftest points it at a closed port)
    monkeypatch.delenv("NEGHUB_DATA_DIR", raising=False)
    monkeypatch.setenv("NEGHUB_CACHE", str(tmp_path / "cache"))
    (note,) = collect(subs, data_dir=None, reported=False).notes
    (line,) = note.messages
    assert line.startswith("predictions/jnli-neg/valid.jsonl: left out: this build could not read the jnli-neg ")
    # the download's URL and the system's reason once; how to read a local copy is the MkDocs hook's line, once
    # per build (a newcomer's offline build printed it again in each run's line, each over 400 characters)
    assert line.count("http") == 1 and "cannot download the pinned file" in line
    assert "local copy" not in line and "NEGHUB_DATA_DIR" not in line


@pytest.mark.parametrize("task", ["jnli-neg", "jsts-neg", "nubench", "scn"])
def test_dataset_pages_render_every_field_definition_and_code_as_written(task: str) -> None:
    """Rendered with the site's Markdown extensions (mkdocs.yml, plus MkDocs' own tables and fenced code)."""
    import html

    import markdown
    import yaml

    from neghub.leaderboard.site import dataset_page

    config = yaml.safe_load((Path(__file__).parents[1] / "mkdocs.yml").read_text(encoding="utf-8"))
    extensions = [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]
    page = dataset_page(environment(), task, Path(__file__).parents[1] / "datasets_cards")
    rendered = html.unescape(markdown.markdown(page, extensions=[*extensions, "tables", "fenced_code"]))
    card = (Path(__file__).parents[1] / "datasets_cards" / f"{task}.md").read_text(encoding="utf-8")
    # every brace of the card survives: attr_list ate `{sentence, neg}` once, and entities must not show in code
    assert rendered.count("{") >= card.count("{") - card.split("\n---", 1)[0].count("{")
    assert "&#123;" not in rendered and "&#125;" not in rendered
    if task in ("jnli-neg", "jsts-neg"):
        assert "{sentence, neg}" in rendered
        assert f"{{neg_id_in_{task.split('-')[0]}_sentence, neg_position: end|mid" in rendered
    if task == "jnli-neg":
        assert 'ds = load_dataset("./jnli-neg")' in rendered  # the card's snippet, quotes as written
        assert "@misc{yoshida-jnlineg," in rendered


# --- researchers' words (issue 33, items 2 and 3) ------------------------------------------------------------


def test_every_hold_has_a_short_phrase_of_twelve_words_at_most() -> None:
    from typing import get_args

    from neghub.leaderboard.board_file import HoldEntry, HoldKind
    from neghub.leaderboard.page_words import MAX_PHRASE_WORDS, hold_phrase

    for kind in get_args(HoldKind):
        phrase = hold_phrase(HoldEntry(kind=kind, reason="the full sentence, which stays in the row's details"))
        assert 0 < len(phrase.split()) <= MAX_PHRASE_WORDS, (kind, phrase)
        assert "details" not in phrase


def test_every_abbreviation_of_the_tables_is_spelled_out_once_in_the_glossary() -> None:
    from neghub.leaderboard.page_words import GLOSSARY, key_line, with_abbr

    # the list of issue 33, item 3
    for abbreviation in (
        "M",
        "M_i",
        "M_u",
        "Acc′",
        "AccChg",
        "D_orig",
        "D_neg",
        "CpTn",
        "CnTp",
        "CnTn",
        "CpTv",
        "coref",
    ):
        assert abbreviation in GLOSSARY
    # the longest abbreviation wins: "M_i Acc′" is M_i and Acc′, never M, nor Acc
    assert (
        str(with_abbr("M_i Acc′"))
        == '<abbr title="important pairs">M_i</abbr> <abbr title="accuracy on the treatments">Acc′</abbr>'
    )
    assert key_line("pronoun CpTn drop", "135M") == "CpTn: context positive, target negated"
    assert str(with_abbr("<b>M</b>")) == '&lt;b&gt;<abbr title="all minimal pairs">M</abbr>&lt;/b&gt;'


def test_the_mechanics_words_are_caught_as_the_issue_quotes_them() -> None:
    from neghub.leaderboard.page_words import MECHANICS

    for words in (
        "landed on main",
        "position 168 of main's history",
        "landing order",
        "a clearance",
        "pushed to main by the maintainers (commit f70a430bbe67)",
        "it names no sha256 of the metadata",
        "a copy of an earlier row of another account",
        "rule row",
        "the board's floor",
    ):
        assert MECHANICS.search(words), words
    for words in ("a baseline NegHub computed", "the paper's Table 2", "M_i Acc′ 58.96", "LLM-jp-3-13B-instruct"):
        assert not MECHANICS.search(words), words


def test_the_profile_is_one_row_per_model_and_no_column_of_its_page_is_empty() -> None:
    import re

    from tests.histories import text_of

    board = collect(Path(__file__).resolve().parents[1] / "submissions")
    profile = build_pages(board)["profile.md"]
    assert isinstance(profile, str)
    # the JSTS-Neg paper's "GPT-4.1-mini" and the NUBench paper's "gpt-4.1-mini": one model, one row
    names = [text_of(n).split(" paper:")[0] for n in re.findall(r'<td class="neghub-model-col">(.*?)</td>', profile)]
    assert [n.casefold() for n in names].count("gpt-4.1-mini") == 1, names
    rows = re.findall(r"<tr class=\"neghub-row-.*?</tr>", profile.split("<tbody>", 1)[1], flags=re.DOTALL)
    cells = [re.findall(r"<td data-value=\"([^\"]*)\"", row)[1:] for row in rows]  # past the size column
    assert cells and all(any(row[i] for row in cells) for i in range(len(cells[0]))), "a column n/a all the way down"
