"""The transcribed paper tables (evaluator/benchmarks/<task>/reported/*.yaml) against the papers themselves.

Every number below was read off the plain-text papers in ../shared/papers by hand: the row counts (with their
arithmetic), the cells (each with the verbatim text that ends with it, so that its row and column are pinned),
and the list of every table with model results. Tests that read a paper skip where ../shared is absent; the
counts and the format's rules are checked everywhere.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Literal

import pytest
from pydantic import ValidationError

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.papers.quotes import quote
from neghub.leaderboard.paper_results import ReportedRow, ReportedTable, load_reported

from .conftest import ROOT

PAPERS = ROOT.parent / "shared" / "papers"
needs_papers = pytest.mark.skipif(
    not PAPERS.is_dir(), reason=f"../shared/papers is absent ({PAPERS}): the papers' text is not part of the project"
)

SFT = "NUBench sentence-negation train (LoRA SFT, LLaMA-Factory)"
Key = tuple[str, str]  # (task, table)


@functools.cache
def tables() -> dict[Key, ReportedTable]:
    return {(table.task, table.table): table for _, table in load_reported()}


def paper_lines(name: str) -> list[str]:
    return (PAPERS / name).read_text(encoding="utf-8").split("\n")


def region(name: str, anchor: str, before: int, after: int) -> str:
    """The text around a table: `before` lines above and `after` lines below the one line that holds `anchor`."""
    lines = paper_lines(name)
    found = [i for i, line in enumerate(lines) if anchor in line]
    assert len(found) == 1, f"{anchor!r} is on {len(found)} lines of {name}, expected one"
    return "\n".join(lines[max(0, found[0] - before) : found[0] + after + 1])


def find_row(table: ReportedTable, model: str, where: dict[str, object], *, aggregate: bool = False) -> ReportedRow:
    """The one row of `model` whose setting (the table's, overridden by the row's) has every value in `where`
    (None: the key is absent)."""
    rows = table.aggregate_rows if aggregate else table.rows
    found = [
        row
        for row in rows
        if row.model == model and all({**table.setting, **row.setting}.get(k) == v for k, v in where.items())
    ]
    assert len(found) == 1, f"{table.table}: {len(found)} rows of {model!r} with {where}"
    return found[0]


# --- every table of every paper that has model results ------------------------------------------------------

# (paper file, table as the paper numbers it) -> the (task, table) of its transcription, or why there is none.
MODEL_RESULT_TABLES: dict[tuple[str, str], Key | str] = {
    ("jnli-neg-ja.txt", "表 2"): ("jnli-neg", "Table 2"),
    ("jnli-neg-ja.txt", "表 7"): ("jnli-neg", "Table 7"),
    ("jnli-neg-ja.txt", "表 8"): ("jnli-neg", "Table 8"),
    ("jsts-neg.txt", "Table 3"): ("jsts-neg", "Table 3"),
    ("jsts-neg.txt", "Table 4"): ("jsts-neg", "Table 4"),
    ("jsts-neg.txt", "Table 5"): ("jsts-neg", "Table 5"),
    ("jsts-neg-ja.txt", "表 2"): "8-model excerpt of jsts-neg.txt Tables 3 (zero-shot) and 5 (11-shot), same values",
    ("jsts-neg-ja.txt", "表 4"): "8-model excerpt of jsts-neg.txt Table 4 (4-shot), same values",
    ("nubench.txt", "Table 7"): ("nubench", "Table 7"),
    ("nubench.txt", "Table 12"): ("nubench", "Table 12"),
    ("nubench.txt", "Table 13"): "garbled beyond recovery: cell fragments without a single model name",
    ("nubench.txt", "Table 14"): ("nubench", "Table 14"),
    ("nubench.txt", "Table 15"): "group averages on six general benchmarks (ARC, GSM8K, ...), no model rows",
    **{("nubench.txt", f"Table {n}"): ("nubench", f"Table {n}") for n in range(16, 25)},
    ("self-contained-neg-test.txt", "Table 2"): ("scn", "Table 2"),
    ("self-contained-neg-test.txt", "Table 4"): "one worked example of the triplet selection (top-1 tokens), no metric",
    ("self-contained-neg-test.txt", "Table 5"): ("scn", "Table 5"),
    ("self-contained-neg-test.txt", "Table 6"): ("scn", "Table 6"),
    ("self-contained-neg-test.txt", "Table 8"): ("scn", "Table 8"),
    ("self-contained-neg-test.txt", "Table 9"): ("scn", "Table 9"),
}


def test_every_table_with_model_results_is_transcribed_or_has_a_reason() -> None:
    transcribed = {target for target in MODEL_RESULT_TABLES.values() if isinstance(target, tuple)}
    assert set(tables()) == transcribed
    for (paper, _), target in MODEL_RESULT_TABLES.items():
        if isinstance(target, tuple):
            assert tables()[target].paper.file == paper


@needs_papers
@pytest.mark.parametrize(("paper", "number"), sorted(MODEL_RESULT_TABLES))
def test_every_listed_table_is_captioned_in_its_paper(paper: str, number: str) -> None:
    text = (PAPERS / paper).read_text(encoding="utf-8")
    # English captions read "Table N:"; the Japanese papers write "表 N" or "表N" before the caption text
    label = f"{number}:" if number.startswith("Table") else None
    pattern = re.escape(label) if label else rf"^表 ?{number.split()[1]} |表 {number.split()[1]} \S"
    assert re.search(pattern, text, flags=re.MULTILINE), f"{paper} has no caption for {number}"


@needs_papers
def test_nubench_table_13_names_no_model() -> None:
    text = (PAPERS / "nubench.txt").read_text(encoding="utf-8")
    table_13 = text.split("Table 13: Zero-shot")[1].split("Table 14: Zero-shot")[0]
    assert re.search(r"\d\.\d{3}", table_13), "the fragments of cells are there"
    for model in ("gemma", "Llama", "Mistral", "Qwen", "gpt-4", "claude"):
        assert model not in table_13


# --- row counts, worked out from the papers -----------------------------------------------------------------

# (rows, aggregate rows): a row is one model in one setting (one printed column group).
ROW_COUNTS: dict[Key, tuple[int, int]] = {
    ("jnli-neg", "Table 2"): (9, 0),  # 4 fine-tuned MLMs + 4 zero-shot LLMs + the majority baseline
    ("jnli-neg", "Table 7"): (4, 0),  # the 4 MLMs fine-tuned on D_JNLI ∪ D_neg: instance level
    ("jnli-neg", "Table 8"): (4, 0),  # the same 4 MLMs: minimal pairs
    ("jsts-neg", "Table 3"): (26, 0),  # 8 Japanese + 12 multilingual open LLMs + 6 GPT models
    ("jsts-neg", "Table 4"): (26, 0),
    ("jsts-neg", "Table 5"): (26, 0),
    ("nubench", "Table 7"): (12, 0),  # 2 models x 2 evaluation settings x 3 (zero-shot, 5-shot, SFT)
    ("nubench", "Table 12"): (152, 54),  # 14 x 10 columns + 3 API models x 4 option columns; 5 x 10 + 4 (api)
    ("nubench", "Table 14"): (152, 54),  # the same layout as Table 12
    ("nubench", "Table 16"): (20, 0),  # 4 Gemma models x 5 (zero, 1, 5, 10-shot, SFT)
    ("nubench", "Table 17"): (20, 0),
    ("nubench", "Table 18"): (20, 0),  # 4 Llama models
    ("nubench", "Table 19"): (20, 0),
    ("nubench", "Table 20"): (10, 0),  # 2 Mistral models
    ("nubench", "Table 21"): (10, 0),
    ("nubench", "Table 22"): (20, 0),  # 4 Qwen models
    ("nubench", "Table 23"): (20, 0),
    ("nubench", "Table 24"): (12, 0),  # 3 API models x 4 (zero, 1, 5, 10-shot; no SFT)
    ("scn", "Table 2"): (2, 0),  # roberta-large and bert-large-cased (8 patterns each)
    ("scn", "Table 5"): (4, 0),  # the 4 models (6 statistics each)
    ("scn", "Table 6"): (4, 0),
    ("scn", "Table 8"): (2, 0),  # sub-tables (a) roberta-base and (b) roberta-large
    ("scn", "Table 9"): (2, 0),  # sub-tables (a) bert-base and (b) bert-large
}


def test_row_counts() -> None:
    counted = {key: (len(table.rows), len(table.aggregate_rows)) for key, table in tables().items()}
    assert counted == ROW_COUNTS


# --- cells, each pinned by the verbatim text that ends with it ----------------------------------------------

Unit = Literal["percent", "fraction", "thousands", "millions", "count"]
SCALE: dict[Unit, Decimal] = {
    "percent": Decimal("0.01"),
    "fraction": Decimal(1),
    "thousands": Decimal(1000),
    "millions": Decimal(1_000_000),
    "count": Decimal(1),
}


@dataclass(frozen=True)
class Cell:
    table: Key
    paper: str
    anchor: str  # text on the caption or header line the table's text is found around
    context: str  # verbatim text of the paper that ends with the printed cell
    printed: str
    unit: Unit
    model: str
    where: dict[str, object] = field(default_factory=dict)
    key: str = "acc"
    sd: bool = False
    stored: float = 0.0  # the transcription's value, worked out by hand from `printed`
    follows: str | None = None  # where a footnote marker is glued to the cell: the text right after it


def _cell_id(cell: Cell) -> str:
    return f"{cell.table[0]} {cell.table[1]} {cell.model} {cell.key}{' sd' if cell.sd else ''} {cell.printed}"


_J2 = (("jnli-neg", "Table 2"), "jnli-neg-ja.txt", "表 2 評価結果")
_J7 = (("jnli-neg", "Table 7"), "jnli-neg-ja.txt", "表 7 𝐷JNLI∪ 𝐷negで学習した")
_J8 = (("jnli-neg", "Table 8"), "jnli-neg-ja.txt", "表 8 𝐷JNLI∪ 𝐷negで学習した")
_S2 = (("scn", "Table 2"), "self-contained-neg-test.txt", "Table 2: %-ACT-repetition rates")
_S5 = (("scn", "Table 5"), "self-contained-neg-test.txt", "Table 5: Statistics for the selection stage")
_S6 = (("scn", "Table 6"), "self-contained-neg-test.txt", "Table 6: Drops of the %-ACT-repetition")
_S8 = (("scn", "Table 8"), "self-contained-neg-test.txt", "Table 8: **Last 4 rows**")
_S9 = (("scn", "Table 9"), "self-contained-neg-test.txt", "Table 9: **Last 4 rows**")
_N7 = (("nubench", "Table 7"), "nubench.txt", "Table 7: Error distribution")
_N14 = (("nubench", "Table 14"), "nubench.txt", "Table 14: Zero-shot")
_N16 = (("nubench", "Table 16"), "nubench.txt", "Table 16: Error rates")
_N24 = (("nubench", "Table 24"), "nubench.txt", "Table 24: Error rates")
FT = {"method": "fine-tuning"}

CELLS = [
    Cell(
        *_J2,
        "東北大 BERTBASE90.24 87.63 52.30",
        "52.30",
        "percent",
        "東北大 BERTBASE",
        FT,
        "instance_metrics.D_neg.acc",
        stored=0.5230,
    ),
    Cell(
        *_J2,
        "Swallow 8B Instruct 45.44 41.40 55.23 42.69 46.63 3.94",
        "3.94",
        "percent",
        "Swallow 8B Instruct",
        {},
        "pair_metrics.M_i.acc_chg",
        stored=0.0394,
    ),
    Cell(
        *_J2,
        "Majority Baseline 55.34 55.91 47.66",
        "47.66",
        "percent",
        "Majority Baseline",
        {},
        "instance_metrics.D_neg.acc",
        stored=0.4766,
    ),
    Cell(
        *_J7,
        "早稲田大 RoBERTaBASE86.79",
        "86.79",
        "percent",
        "早稲田大 RoBERTaBASE",
        {},
        "extra.D_JNLI.acc",
        stored=0.8679,
    ),
    Cell(
        *_J7,
        "東北大 BERTLARGE92.40 89.68",
        "89.68",
        "percent",
        "東北大 BERTLARGE",
        {},
        "instance_metrics.D_orig.acc",
        stored=0.8968,
    ),
    Cell(
        *_J7,
        "早稲田大 RoBERTaLARGE89.83 88.49 70.03",
        "70.03",
        "percent",
        "早稲田大 RoBERTaLARGE",
        {},
        "instance_metrics.D_neg.acc",
        stored=0.7003,
    ),
    Cell(
        *_J8,
        "東北大 BERTBASE79.49 65.69 −13.80",
        "−13.80",
        "percent",
        "東北大 BERTBASE",
        {},
        "pair_metrics.M_i.acc_chg",
        stored=-0.1380,
    ),
    Cell(
        *_J8,
        "東北大 BERTLARGE82.01 69.35 −12.66 82.35 72.23 −7.12",
        "−7.12",
        "percent",
        "東北大 BERTLARGE",
        {},
        "pair_metrics.M_u.acc_chg",
        stored=-0.0712,
    ),
    # the table's last cell runs into the marker of footnote 17: −7.66 = 71.29 − 78.95, then "17）"
    Cell(
        *_J8,
        "早稲田大 RoBERTaLARGE79.85 66.89 −12.96 78.95 71.29 −7.66",
        "−7.66",
        "percent",
        "早稲田大 RoBERTaLARGE",
        {},
        "pair_metrics.M_u.acc_chg",
        stored=-0.0766,
        follows="17） https://github.com/llm-jp/llm-jp-eval",
    ),
    Cell(
        *_S2,
        "1\tP\t-\t-\t44.2",
        "44.2",
        "percent",
        "roberta-large",
        {},
        "extra.gh22.patterns.1P.repetition",
        stored=0.442,
    ),
    Cell(
        *_S2,
        "\tN\t✓\t-\t25.1\t58.3",
        "58.3",
        "percent",
        "bert-large-cased",
        {},
        "extra.gh22.patterns.2N.repetition",
        stored=0.583,
    ),
    Cell(
        *_S2,
        "4\tP\t✓\t✓\t99.8\t100",
        "100",
        "percent",
        "bert-large-cased",
        {},
        "extra.gh22.patterns.4P.repetition",
        stored=1.0,
    ),
    Cell(
        *_S5,
        "1. Available verbs\t597\t597\t106",
        "106",
        "count",
        "roberta-base",
        {},
        "extra.selection.available_verbs",
        stored=106,
    ),
    Cell(
        *_S5,
        "3. Tested triplets (row 1 \\times row 2) ($*10^6$)\t10.9",
        "10.9",
        "millions",
        "bert-base-cased",
        {},
        "extra.selection.tested_triplets",
        stored=10_900_000,
    ),
    Cell(
        *_S5,
        "5. Ratio (row 4/row 3, %)\t21.7\t18.4\t61.9\t18.3",
        "18.3",
        "percent",
        "roberta-large",
        {},
        "extra.selection.repetition_ratio",
        stored=0.183,
    ),
    Cell(
        *_S5,
        "6. Selected triplets\t364000\t363922",
        "363922",
        "count",
        "bert-large-cased",
        {},
        "variants.pronoun.n_triplets",
        stored=363922,
    ),
    Cell(
        *_S6,
        "CpTn\t3.6\t44.7",
        "44.7",
        "percent",
        "bert-large-cased",
        {},
        "variants.pronoun.patterns.CpTn.drop",
        stored=0.447,
    ),
    Cell(
        *_S6,
        "CpTv\t25.5\t42.9\t23.3\t26",
        "26",
        "percent",
        "roberta-large",
        {},
        "variants.pronoun.patterns.CpTv.drop",
        stored=0.26,
    ),
    Cell(
        *_S8,
        "# ($\\times 10^3$)\t118.7",
        "118.7",
        "thousands",
        "roberta-base",
        {},
        "variants.coref.n_triplets",
        stored=118_700,
    ),
    Cell(
        *_S8,
        "CnTp\t64.1\t1.9",
        "1.9",
        "percent",
        "roberta-large",
        {},
        "variants.noncoref_same.patterns.CnTp.drop",
        stored=0.019,
    ),
    Cell(
        *_S9,
        "CpTv\t38.5\t44.8\t45.7",
        "45.7",
        "percent",
        "bert-large-cased",
        {},
        "variants.noncoref_other.patterns.CpTv.drop",
        stored=0.457,
    ),
    Cell(
        *_N7,
        "| option- | Llama- 3.1-8B | Baseline SFT | zarochot | 0.541",
        "0.541",
        "fraction",
        "Llama-3.1-8B",
        {"shots": 0, "mode": "option", "fine_tuned_on": None},
        "error_rate",
        stored=0.541,
    ),
    Cell(
        *_N7,
        "Instruct | Baseline SFT | zeroshot 5shot zeroshot | 0.256 0.269 0.254 | 76.53 74.04 72.32",
        "72.32",
        "percent",
        "Llama-3.1-8B-Instruct",
        {"shots": 0, "mode": "option", "fine_tuned_on": SFT},
        "incorrect_choice_distribution.local_negation",
        stored=0.7232,
    ),
    Cell(
        *_N14,
        "| gemma-2b | 0.404 | 0.257 | 0.423 (±0.003",
        "0.003",
        "fraction",
        "gemma-2b",
        {"shots": 1, "mode": "completion"},
        sd=True,
        stored=0.003,
    ),
    Cell(
        *_N14,
        "| Qwen2.5-3B- Instruct | 0.467 | 0.548 | 0.492 (±0.009) | 0.473 (±0.009) | 0.653 (±0.008) | 0.227",
        "0.227",
        "fraction",
        "Qwen2.5-3B-Instruct",
        {"shots": 5, "mode": "option"},
        stored=0.227,
    ),
    Cell(
        *_N14,
        "| gpt-4.1-mini | - | 0.858 | - | 0.864 (±0.004) | - | 0.876 (±0.003) | - | 0.870",
        "0.870",
        "fraction",
        "gpt-4.1-mini",
        {"shots": 10, "mode": "option"},
        stored=0.870,
    ),
    Cell(
        *_N14,
        "| Mistral-7B-v0.3 | 0.454 | 0.236 | 0.485 (±0.004) | 0.416 (±0.014) | 0.551 (±0.010) | 0.597 "
        "(±0.009) | 0.591 (±0.007) | 0.631 (±0.007) | 0.586",
        "0.586",
        "fraction",
        "Mistral-7B-v0.3",
        {"mode": "completion", "fine_tuned_on": SFT},
        stored=0.586,
    ),
    Cell(
        *_N16,
        "| | | zero-shot | 0.563 | 74.08",
        "74.08",
        "percent",
        "gemma-2b",
        {"shots": 0, "fine_tuned_on": None},
        "incorrect_choice_distribution.local_negation",
        stored=0.7408,
    ),
]


@needs_papers
@pytest.mark.parametrize("cell", CELLS, ids=_cell_id)
def test_cell_as_printed(cell: Cell) -> None:
    text = region(cell.paper, cell.anchor, before=25, after=30)
    assert text.count(cell.context) >= 1, f"{cell.context!r} is not near {cell.anchor!r}"
    assert cell.context.endswith(cell.printed)
    # the printed number ends where the context does: the next characters do not go on with digits
    rest = text.split(cell.context, 1)[1]
    if cell.follows is None:
        assert not re.match(r"\.?\d", rest), f"{cell.printed!r} is only the start of a longer number"
    else:
        assert rest.startswith(cell.follows)
    printed = Decimal(cell.printed.replace("−", "-"))  # the Japanese papers print U+2212 MINUS SIGN
    assert printed * SCALE[cell.unit] == Decimal(str(cell.stored)), "the hand-worked value"
    row = find_row(tables()[cell.table], cell.model, cell.where)
    values = row.sd if cell.sd else row.metrics
    assert values[cell.key] == pytest.approx(cell.stored, abs=1e-12)


# --- whole tables that the text prints cleanly: every cell -------------------------------------------------

PAIR_KEYS = [f"pair_metrics.{s}.{m}" for s in ("M", "M_i", "M_u") for m in ("acc", "acc_prime", "acc_chg")]


def tab_table(paper: str, anchor: str, *, lines_after: int) -> list[list[str]]:
    """The tab-separated lines below `anchor` that have a model name and nine numbers."""
    text = region(paper, anchor, before=0, after=lines_after)
    rows = (line.split("\t") for line in text.split("\n"))
    return [f for f in rows if len(f) == 10 and all(re.fullmatch(r"-?\d+\.\d\d", v) for v in f[1:])]


@needs_papers
@pytest.mark.parametrize(("number", "shots"), [(3, 0), (4, 4), (5, 11)])
def test_jsts_neg_tables_cell_by_cell(number: int, shots: int) -> None:
    printed = tab_table("jsts-neg.txt", f"Table {number}: AccChg results", lines_after=31)
    table = tables()[("jsts-neg", f"Table {number}")]
    assert len(printed) == len(table.rows) == 26
    for fields in printed:
        row = find_row(table, fields[0], {"shots": shots})
        for key, value in zip(PAIR_KEYS, fields[-9:], strict=True):
            assert row.metrics[key] == pytest.approx(float(Decimal(value) / 100), abs=1e-12), (fields[0], key)


@needs_papers
@pytest.mark.parametrize(
    ("anchor", "blocks"),
    [
        ("表 2 否定のミニマルペア単位の実験結果", {"Zero-shot": 3, "11-shot**": 5}),
        ("表 4 否定のミニマルペア単位の実験結果 (4-shot)", {"": 4}),
    ],
)
def test_jsts_neg_ja_tables_repeat_the_english_values(anchor: str, blocks: dict[str, int]) -> None:
    """The Japanese short paper's tables are 8-model excerpts of the English paper's: not transcribed twice."""
    text = region("jsts-neg-ja.txt", anchor, before=0, after=24)
    block = next(iter(blocks))
    seen = 0
    for line in text.split("\n"):
        fields = line.split("\t")
        if len(fields) == 11:  # 表2 has a setting column, blank within a block
            block = fields[0] or block
            fields = fields[1:]
        if len(fields) != 10 or not all(re.fullmatch(r"-?\d+\.\d\d", v) for v in fields[1:]):
            continue
        model = re.sub(r" \[[\d, ]+\]$", "", fields[0])  # the Japanese paper adds reference numbers
        english = tables()[("jsts-neg", f"Table {blocks[block]}")]
        row = find_row(english, model, {})
        for key, value in zip(PAIR_KEYS, fields[1:], strict=True):
            assert row.metrics[key] == pytest.approx(float(Decimal(value) / 100), abs=1e-12), (block, model, key)
        seen += 1
    assert seen == 8 * len(blocks)


NUBENCH_COLUMNS: list[dict[str, object]] = [
    {"shots": shots, "mode": mode, "fine_tuned_on": None}
    for shots in (0, 1, 5, 10)
    for mode in ("completion", "option")
] + [{"shots": 0, "mode": mode, "fine_tuned_on": SFT} for mode in ("completion", "option")]


@needs_papers
@pytest.mark.parametrize(("number", "prompt"), [(12, "simple"), (14, "detail")])
def test_nubench_accuracy_tables_cell_by_cell(number: int, prompt: str) -> None:
    lines = region("nubench.txt", f"Table {number}: Zero-shot", before=0, after=30).split("\n")
    table = tables()[("nubench", f"Table {number}")]
    assert table.setting["prompt"] == prompt
    models = aggregates = 0
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 11 or not re.fullmatch(r"\d\.\d+( \(±\d\.\d+\))?|-", cells[1]) or not cells[0]:
            continue
        name = cells[0].replace("- ", "-")  # hyphens broken across lines in the PDF
        aggregate = "average" in name
        for where, printed in zip(NUBENCH_COLUMNS, cells[1:], strict=True):
            if printed == "-":
                continue
            match = re.fullmatch(r"(\d\.\d+)(?: \(±(\d\.\d+)\))?", printed)
            assert match, (name, printed)
            row = find_row(table, name, where, aggregate=aggregate)
            assert row.metrics == {"acc": float(match[1])}
            assert row.sd == ({} if match[2] is None or aggregate else {"acc": float(match[2])})
            if aggregate:
                aggregates += 1
            else:
                models += 1
    assert (models, aggregates) == ROW_COUNTS[("nubench", f"Table {number}")]


# --- what the notes claim, recomputed -----------------------------------------------------------------------

CONFUSION_ITEMS = {"relative_part": 312, "pp_part": 308, "compound_part": 294, "adverb_part": 310}
N_ITEMS = 1261


def _implied_wrong_answers(metrics: dict[str, float]) -> float:
    picks = sum(metrics[f"confusion_rate.{part}"] * n for part, n in CONFUSION_ITEMS.items())
    return picks / metrics["incorrect_choice_distribution.local_negation"] + metrics.get("format_wrong", 0.0)


def _round(value: Decimal, places: str) -> Decimal:
    return value.quantize(Decimal(places), rounding=ROUND_HALF_UP)


def test_nubench_appendix_error_rates_match_the_implied_counts_as_the_notes_say() -> None:
    """Tables 16-24: W = local-negation picks / local-negation share + format errors is a whole number of items,
    and W / 1261 gives the printed error rate in 141 of the 151 rows that print one; the other 10 read as W / 1261
    rounded twice (to four decimals, then three). Each table's notes state its own share."""
    holds = total = 0
    for number in range(16, 25):
        table = tables()[("nubench", f"Table {number}")]
        here = rows = 0
        for row in table.rows:
            if "error_rate" not in row.metrics:
                continue
            implied = _implied_wrong_answers(row.metrics)
            whole = round(implied)
            assert abs(implied - whole) < 0.25, (number, row.model, implied)
            exact = Decimal(whole) / N_ITEMS
            printed = Decimal(str(row.metrics["error_rate"]))
            rows += 1
            if _round(exact, "0.001") == printed:
                here += 1
            else:
                assert _round(_round(exact, "0.0001"), "0.001") == printed, (number, row.model)
        share = f"{here} of the {rows} rows"
        assert share in (table.notes or ""), f"Table {number}'s notes should say {share!r}"
        holds, total = holds + here, total + rows
    assert (holds, total) == (141, 151)


def test_nubench_table_7_prints_7_of_its_12_error_rates() -> None:
    table = tables()[("nubench", "Table 7")]
    assert sum("error_rate" in row.metrics for row in table.rows) == 7
    assert len(table.rows) == 12
    assert "7 of its 12 error rates" in (table.notes or "")


def test_jnli_neg_paper_fields_name_only_what_the_paper_states() -> None:
    for key in (("jnli-neg", "Table 2"), ("jnli-neg", "Table 7")):
        paper = tables()[key].paper
        assert (paper.venue, paper.year) == (None, None)


def test_jnli_neg_citation_names_no_venue_or_year() -> None:
    from neghub.evaluator.core.registry import get_benchmark

    citation = get_benchmark("jnli-neg").metadata.citation
    assert "否定理解能力を評価するための日本語言語推論データセットの構築" in citation
    for unstated in ("booktitle", "year", "2025", "ANLP", "年次大会", "journal"):
        assert unstated not in citation


# --- the papers' own verdicts -------------------------------------------------------------------------------


def _verdict_rows() -> list[object]:
    return [
        pytest.param(key, row, id=f"{key[0]} {key[1]} {row.model}")
        for key, table in tables().items()
        for row in table.rows
        if row.verdict is not None
    ]


@needs_papers
@pytest.mark.parametrize(("key", "row"), _verdict_rows())
def test_verdict_is_quoted_verbatim_at_its_line(key: Key, row: ReportedRow) -> None:
    assert row.verdict is not None and row.verdict_source is not None
    lines = paper_lines(row.verdict_source.file)
    # the text file marks emphasis with * and **, which a quote leaves out (evaluator/papers/quotes.py)
    line = lines[row.verdict_source.line - 1].replace("*", "")
    assert row.verdict in line, f"{key} {row.model}: not on the stated line"


def test_scn_tables_carry_the_papers_verdicts_whole() -> None:
    # Table 6: section 3.5's sentence on each model (lines 248, 250, 254), roberta-base the conclusion's whole
    # sentence with its "but" (line 323); Table 8: section 4 on roberta-large (line 315), the conclusion on
    # roberta-base; Table 9: bert-large the introduction's sentence on the control tests (line 72), bert-base none
    expected = {
        "Table 6": {
            "bert-base-cased": "scn.bert-base",
            "bert-large-cased": "scn.bert-large",
            "roberta-base": "scn.conclusion-roberta-base",
            "roberta-large": "scn.roberta-large",
        },
        "Table 8": {"roberta-base": "scn.conclusion-roberta-base", "roberta-large": "scn.roberta-large-controls"},
        "Table 9": {"bert-base-cased": None, "bert-large-cased": "scn.intro-bert-large"},
    }
    for name, keys in expected.items():
        table = tables()[("scn", name)]
        assert {row.model: row.verdict for row in table.rows} == {
            model: None if key is None else quote(key).text for model, key in keys.items()
        }, name
    assert {
        r.verdict_source.line
        for t in ("Table 6", "Table 8", "Table 9")
        for r in tables()[("scn", t)].rows
        if r.verdict_source
    } == {72, 248, 250, 254, 315, 323}
    assert quote("scn.conclusion-roberta-base").text.endswith(
        "but is disappointing when it comes to controlling co-reference resolution."
    )
    assert "do pass our baseline test, but don't pass the control tests at all" in quote("scn.intro-bert-large").text


def test_jnli_neg_appendix_tables_state_no_run_count() -> None:
    # appendix D.2 (line 321) and 表2's caption (line 174) state 5 seeds for 表2 only; 表7 and 表8 give no count,
    # which the tables say with seeds: null (not stated), not by leaving it out (a single run)
    for name in ("Table 7", "Table 8"):
        setting = tables()[("jnli-neg", name)].setting
        assert "seeds" in setting and setting["seeds"] is None, name


def _row(**extra: object) -> dict[str, object]:
    return {"model": "m", "metrics": {"acc": 0.5}, **extra}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"verdict": "fails"}, "verdict and verdict_source go together"),
        ({"verdict_source": {"file": "p.txt", "line": 3}}, "verdict and verdict_source go together"),
        ({"verdict_en": "fails"}, "verdict_en renders a verdict"),
        ({"verdict": "fails", "verdict_source": {"file": "p.txt", "line": 0}}, "greater than or equal to 1"),
        ({"verdict": "fails", "verdict_source": {"file": "p.txt", "line": 3, "page": 2}}, "Extra inputs"),
    ],
)
def test_a_verdict_needs_the_line_it_comes_from(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ReportedRow.model_validate(_row(**fields))


def test_a_verdict_with_its_source_loads(tmp_path: Path) -> None:
    (tmp_path / "table-1.yaml").write_text(
        "task: scn\npaper: {title: T, authors: A, venue: null, year: null, file: p.txt}\ntable: Table 1\n"
        "caption: c\nrows:\n  - model: m\n    metrics: {acc: 0.5}\n    verdict: fails\n"
        "    verdict_source: {file: p.txt, line: 3, section: '3.5'}\n",
        encoding="utf-8",
    )
    [(_, table)] = load_reported(tmp_path)
    source = table.rows[0].verdict_source
    assert table.rows[0].verdict == "fails" and source is not None and (source.file, source.line) == ("p.txt", 3)


_TABLE = (
    "task: scn\npaper: {{title: T, authors: A, venue: null, year: null, file: p.txt}}\ntable: Table 1\n"
    "caption: c\nrows:\n  - model: {model}\n    metrics: {{acc: 0.5}}\n"
)


def test_each_table_file_is_parsed_once_per_process(tmp_path: Path) -> None:
    # issue 32 item 9: a build reads the tables several times; the second read parses nothing (the same frozen
    # table objects come back), and the C loader parses where PyYAML has it
    import yaml

    from neghub.leaderboard import paper_results

    (tmp_path / "table-1.yaml").write_text(_TABLE.format(model="m"), encoding="utf-8")
    [(_, first)] = load_reported(tmp_path)
    before = paper_results._parse_table.cache_info()
    [(_, again)] = load_reported(tmp_path)
    after = paper_results._parse_table.cache_info()
    assert again is first
    assert (after.hits - before.hits, after.misses - before.misses) == (1, 0)
    if getattr(yaml, "__with_libyaml__", False):
        assert paper_results._SafeLoader is yaml.CSafeLoader


def test_a_table_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "table-1.yaml"
    path.write_text(_TABLE.format(model="m"), encoding="utf-8")
    [(_, first)] = load_reported(tmp_path)
    path.write_text(_TABLE.format(model="another"), encoding="utf-8")  # another size: another cache key
    [(_, second)] = load_reported(tmp_path)
    assert (first.rows[0].model, second.rows[0].model) == ("m", "another")


def test_a_broken_table_is_reported_on_every_read_with_its_line(tmp_path: Path) -> None:
    # the C loader names the line as the Python one does; a cached problem is reported again, not swallowed
    (tmp_path / "table-1.yaml").write_text("task: scn\nrows: [\n  - model: m\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InputError) as raised:
            load_reported(tmp_path)
        (problem,) = raised.value.problems
        assert problem.line is not None and problem.message.startswith("invalid YAML: ")
