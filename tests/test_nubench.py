"""NUBench (issue 4): the sample release, the appendix M shuffle, answer parsing, completion arg-max
(ties, acc_norm), the diagnostics and every malformed prediction input.

Expected numbers are worked out by hand in the comments. The option order of the whole sample is
checked against `appendix_m_process_docs_option` below, a copy of the paper's code (appendix M,
Listing 9) that shares nothing with evaluator/nubench.py.
"""

from __future__ import annotations

import hashlib
import json
import random
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from neghub.evaluator.benchmarks import nubench
from neghub.evaluator.benchmarks.nubench import RELEASE_DIR
from neghub.evaluator.releases.loading import DATA_DIR_ENV

from .conftest import assert_json_problems, flat_result

SAMPLE = RELEASE_DIR
TEST_FILE = SAMPLE / "multiple-choice" / "test.jsonl"


@pytest.fixture(autouse=True)
def _bundled_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tests read the bundled sample unless they pass --data-dir: a mirror with a nubench/ folder
    # in the environment would otherwise be read instead.
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)


def read_items(path: Path = TEST_FILE) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def appendix_m_process_docs_option(docs: list[dict[str, Any]], seed: int = 42) -> list[dict[str, Any]]:
    """Appendix M, Listing 9 `process_docs_option`, copied; `dataset.map` becomes a loop in file order."""
    rng = random.Random(seed)

    def _process_doc(doc: dict[str, Any]) -> dict[str, Any]:
        c1 = doc.get("choice1", "")
        c2 = doc.get("choice2", "")
        c3 = doc.get("choice3", "")
        c4 = doc.get("choice4", "")
        c2_na = str(doc.get("choice2_type", "")).lower() == "non-applicable"
        gathered = []
        keys = []
        if c1:
            gathered.append(c1)
            keys.append("choice1")
        if c2 and not c2_na:
            gathered.append(c2)
            keys.append("choice2")
        if c3:
            gathered.append(c3)
            keys.append("choice3")
        if c4:
            gathered.append(c4)
            keys.append("choice4")
        assert len(gathered) >= 3, "Need at least 3 choices for multiple-choice."
        paired = list(zip(gathered, keys, strict=True))
        rng.shuffle(paired)
        choices, choice_keys = zip(*paired, strict=True)
        answer_idx = choice_keys.index("choice1")
        labels = ["A", "B", "C", "D"][: len(choices)]
        return {"choice_keys": list(choice_keys), "answerLetter": labels[answer_idx]}

    return [_process_doc(doc) for doc in docs]


def mini_item(index: int, choice2_type: str = "relative_part", **texts: str | None) -> dict[str, Any]:
    """A hand-made multiple-choice record; option texts default to short distinct strings."""
    local = choice2_type != "non-applicable"
    item: dict[str, Any] = {
        "index": index,
        "wikipedia_index": str(1000 + index),
        "sentence": f"Sentence {index}.",
        "choice1": f"standard {index}",
        "choice2": f"local {index}" if local else None,
        "choice2_type": choice2_type,
        "choice2_element": "which is" if local else None,
        "choice3": f"contradiction {index}",
        "choice4": f"paraphrase {index}",
    }
    item.update(texts)
    return item


def write_lines(path: Path, rows: list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def mini_mirror(tmp_path: Path, items: list[dict[str, Any]]) -> Path:
    """A mirror folder whose nubench test split is `items` (scored with --unverified: no pin matches)."""
    write_lines(tmp_path / "mirror" / "nubench" / "multiple-choice" / "test.jsonl", items)
    return tmp_path / "mirror"


def evaluate_json(neghub: Any, path: Path, mode: str, *extra: Any) -> dict[str, Any]:
    result = neghub("evaluate", "nubench", path, "--mode", mode, "--json", *extra)
    assert result.code == 0, result.err
    parsed: dict[str, Any] = flat_result(json.loads(result.out))
    return parsed


# --- the sample release ------------------------------------------------------------------------


def test_metadata_pins_the_bundled_sample() -> None:
    meta = nubench.METADATA
    assert meta.is_sample and meta.license == "cc-by-nc-sa-4.0" and meta.languages == ("en",)
    assert "sample" in meta.description.lower() and "Thunder-NUBench" in meta.description  # and the official one
    layout = {(f.config, f.split): f.path for f in meta.files}
    assert layout == {
        ("multiple-choice", "test"): "multiple-choice/test.jsonl",
        ("multiple-choice", "demonstration"): "multiple-choice/demonstration.jsonl",
        ("sentence-negation", "train"): "sentence-negation/train.jsonl",
    }
    for f in meta.files:
        data = (SAMPLE / f.path).read_bytes()
        assert f.sha256 == hashlib.sha256(data).hexdigest(), f.path
        assert f.n_records == len(data.splitlines()), f.path


def test_sample_loads_with_the_counts_of_its_notes() -> None:
    test = nubench.load("test")
    # NOTES.md: relative 9, pp 9, adverb 10, compound 9, non-applicable 9 = 46; demonstration 10; pairs 20
    by_type = {name: int((test.type_code == code).sum()) for code, name in enumerate(nubench.CHOICE2_TYPES)}
    assert by_type == {"relative_part": 9, "pp_part": 9, "adverb_part": 10, "compound_part": 9, "non-applicable": 9}
    assert test.release.source == "bundled" and test.file.verified
    assert len(nubench.load("demonstration").records) == 10
    assert len(nubench.load_pairs()) == 20


def test_environment_mirror_without_nubench_falls_back_to_the_bundle(
    neghub: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "other").mkdir()
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "other"))
    assert nubench.load("test").release.source == "bundled"
    # an explicit --data-dir without nubench/ falls back to the pinned sample too (never to the network)
    rows = nubench.baseline_rows("first", nubench.load("test"), "option", 0)
    path = write_lines(tmp_path / "p.jsonl", rows)
    result = neghub("evaluate", "nubench", path, "--mode", "option", "--data-dir", tmp_path / "other", "--json")
    assert result.code == 0
    assert flat_result(json.loads(result.out))["verified"] is True
    # a mirror that has nubench/ is read from there
    mirror = mini_mirror(tmp_path, [mini_item(0)])
    assert nubench.load("test", data_dir=mirror, unverified=True).release.source == "mirror"


# --- the option-mode shuffle (appendix M) --------------------------------------------------------

# Random(42)'s first 32-bit words; getrandbits(k <= 32) takes one word and keeps its top k bits.
# Python 3.11 shuffle: for i = n-1 .. 1, j = randbelow(i + 1), swap x[i], x[j]; randbelow(m) draws
# getrandbits(m.bit_length()) until it is < m (so randbelow(4) uses 3 bits, randbelow(2) 2 bits).
#   word  0 2746317213: top3 5  top2 2      word  1  478163327: top3 0  top2 0
#   word  2  107420369: top3 0  top2 0      word  3 3184935163: top3 5  top2 2
#   word  4 1181241943: top3 2  top2 1      word  5 1051802512: top3 1  top2 0
#   word  6  958682846: top3 1  top2 0      word  7  599310825: top3 1  top2 0
#   word  8 3163119785: top3 5  top2 2      word  9  440213415: top3 0  top2 0
#   word 10 2906402157: top3 5  top2 2      word 11 3181143731: top3 5  top2 2
#   word 12 3831882064: top3 7  top2 3      word 13 2342331444: top3 4  top2 2
#   word 14  373399426: top3 0  top2 0      word 15 2536146025: top3 4  top2 2
#   word 16 1812140441: top3 3  top2 1      word 17  136505587: top3 0  top2 0
#   word 18  127978094: top3 0  top2 0
# Items 0-3 of the sample are relative_part (four options, start [c1, c2, c3, c4]):
#   item 0: i=3 w0 5 rejected, w1 0 -> j=0 [c4,c2,c3,c1]; i=2 w2 0 -> j=0 [c3,c2,c4,c1];
#           i=1 w3 2 rejected, w4 1 -> j=1 unchanged.                          => C3 C2 C4 C1, answer D
#   item 1: i=3 w5 1 -> j=1 [c1,c4,c3,c2]; i=2 w6 0 -> j=0 [c3,c4,c1,c2]; i=1 w7 0 -> j=0
#           [c4,c3,c1,c2].                                                     => C4 C3 C1 C2, answer C
#   item 2: i=3 w8 5 rejected, w9 0 -> j=0 [c4,c2,c3,c1]; i=2 w10 2 -> j=2 unchanged;
#           i=1 w11 2, w12 3, w13 2 rejected, w14 0 -> j=0 [c2,c4,c3,c1].      => C2 C4 C3 C1, answer D
#   item 3: i=3 w15 4 rejected, w16 3 -> j=3 unchanged; i=2 w17 0 -> j=0 [c3,c2,c1,c4];
#           i=1 w18 0 -> j=0 [c2,c3,c1,c4].                                    => C2 C3 C1 C4, answer C
FIRST_FOUR_ORDERS = [
    ("choice3", "choice2", "choice4", "choice1"),
    ("choice4", "choice3", "choice1", "choice2"),
    ("choice2", "choice4", "choice3", "choice1"),
    ("choice2", "choice3", "choice1", "choice4"),
]


def test_first_four_orders_worked_by_hand() -> None:
    orders = nubench.option_orders(nubench.load("test").records)
    assert orders[:4] == FIRST_FOUR_ORDERS
    # the hand working assumed these items have four options
    assert all(item["choice2_type"] != "non-applicable" for item in read_items()[:4])


@pytest.mark.parametrize("split", ["test", "demonstration"])
def test_whole_split_order_equals_the_papers_code(split: str) -> None:
    items = read_items(SAMPLE / "multiple-choice" / f"{split}.jsonl")
    expected = [tuple(doc["choice_keys"]) for doc in appendix_m_process_docs_option(items)]
    assert nubench.option_orders(nubench.load(split).records) == expected
    # the sample's three-option items are among them
    assert any(len(keys) == 3 for keys in expected) or split == "demonstration"


def test_three_option_item_worked_by_hand(neghub: Any, tmp_path: Path) -> None:
    # Item 0 is non-applicable: gathered [c1, c3, c4]. i=2: randbelow(3) w0 top2 2 -> j=2 unchanged;
    # i=1: randbelow(2) w1 top2 0 -> j=0 swap -> [c3, c1, c4]: A contradiction, B answer, C paraphrase.
    # Item 1 (four options) continues at word 2: i=3 w2 top3 0 -> j=0 [c4,c2,c3,c1]; i=2 w3 top2 2 ->
    # j=2 unchanged; i=1 w4 top2 1 -> j=1 unchanged -> [c4, c2, c3, c1], answer D.
    items = [mini_item(0, "non-applicable"), mini_item(1, "pp_part")]
    mirror = mini_mirror(tmp_path, items)
    assert nubench.option_orders(nubench.load("test", data_dir=mirror, unverified=True).records) == [
        ("choice3", "choice1", "choice4"),
        ("choice4", "choice2", "choice3", "choice1"),
    ]
    # "D" is not offered on a three-option item: answer format wrong; "D" on item 1 is right
    path = write_lines(tmp_path / "p.jsonl", [{"id": 0, "output": "D"}, {"id": 1, "output": "D"}])
    result = evaluate_json(neghub, path, "option", "--data-dir", mirror, "--unverified")
    assert (result["acc"], result["format_wrong"]) == (0.5, 1)
    path = write_lines(tmp_path / "p.jsonl", [{"id": 0, "output": "b"}, {"id": 1, "output": "B"}])
    result = evaluate_json(neghub, path, "option", "--data-dir", mirror, "--unverified")
    # item 0 right; item 1 picked B = choice2 (pp_part local negation): confusion pp_part 1/1
    assert (result["acc"], result["format_wrong"], result["confusion_rate"]["pp_part"]) == (0.5, 0, 1.0)


@pytest.mark.parametrize(
    ("output", "n_options", "expected"),
    [
        ("B", 4, 1),
        ("  b.  ", 4, 1),
        ("(C)\nbecause ...", 4, 2),
        ("**D**", 4, 3),
        ("a\r\n", 3, 0),
        ("D", 3, None),  # not offered on a three-option item
        ("B. Chromosome 2 is not ...", 4, None),  # more than the letter on the first line
        ("Answer: B", 4, None),
        ("A .", 4, None),  # lm-eval strips before dropping punctuation: "a " is not "a"
        ("\nA", 4, None),  # the first line is empty
        ("", 4, None),
        ("E", 4, None),
    ],
)
def test_parse_answer(output: str, n_options: int, expected: int | None) -> None:
    assert nubench.parse_answer(output, n_options) == expected


@given(
    position=st.integers(0, 3),
    upper=st.booleans(),
    before=st.text(alphabet=string.punctuation, max_size=3),
    after=st.text(alphabet=string.punctuation + string.punctuation, max_size=3),
    rest=st.text(max_size=20),
)
def test_parse_answer_ignores_case_and_punctuation_on_the_first_line(
    position: int, upper: bool, before: str, after: str, rest: str
) -> None:
    letter = "ABCD"[position] if upper else "abcd"[position]
    assert nubench.parse_answer(f" {before}{letter}{after} \n{rest}", 4) == position


# --- completion mode ---------------------------------------------------------------------------


def lls(c1: float, c2: float | None, c3: float, c4: float) -> dict[str, float | None]:
    return {"choice1": c1, "choice2": c2, "choice3": c3, "choice4": c4}


def test_completion_ties_and_acc_norm_by_hand(neghub: Any, tmp_path: Path) -> None:
    items = [
        # option lengths 30 / 10 / 12 / 20 characters
        mini_item(0, "relative_part", choice1="s" * 30, choice2="l" * 10, choice3="c" * 12, choice4="p" * 20),
        # three options, lengths 5 / - / 10 / 9
        mini_item(1, "non-applicable", choice1="s" * 5, choice3="c" * 10, choice4="p" * 9),
        # lengths 4 / 3 / 4 / 5
        mini_item(2, "adverb_part", choice1="s" * 4, choice2="l" * 3, choice3="c" * 4, choice4="p" * 5),
        mini_item(3, "compound_part"),
    ]
    mirror = mini_mirror(tmp_path, items)
    rows = [
        # acc: max -10 is choice2 (wrong, local negation). acc_norm: -15/30 = -0.5, -10/10 = -1,
        # -12/12 = -1, -20/20 = -1 -> choice1 (right).
        {"id": 0, "loglikelihoods": lls(-15, -10, -12, -20)},
        # acc: tie -5 between choice1 and choice3 -> the first, choice1 (right). acc_norm: -5/5 = -1,
        # -5/10 = -0.5, -9/9 = -1 -> choice3 (wrong).
        {"id": 1, "loglikelihoods": lls(-5, None, -5, -9)},
        # acc: -2 is the max (right). acc_norm: -2/4 = -0.5, -3/3 = -1, -4/4 = -1, -5/5 = -1 (right).
        {"id": 2, "loglikelihoods": lls(-2, -3, -4, -5)},
        # acc: tie -1.5 between choice3 and choice4 -> choice3 (contradiction). acc_norm on the default
        # texts: choice1 "standard 3" -20/10 = -2, "local 3" -20/7, "contradiction 3" -1.5/15 = -0.1,
        # "paraphrase 3" -1.5/12 = -0.125 -> choice3 (wrong).
        {"id": 3, "loglikelihoods": lls(-20, -20, -1.5, -1.5)},
    ]
    result = evaluate_json(
        neghub, write_lines(tmp_path / "p.jsonl", rows), "completion", "--data-dir", mirror, "--unverified"
    )
    # acc: items 1 and 2 right -> 2/4; acc_norm: items 0 and 2 right -> 2/4
    assert result["acc"] == 0.5 and result["acc_norm"] == 0.5 and result["error_rate"] == 0.5
    # diagnostics from the acc arg-max: wrong answers item 0 (local negation), item 3 (contradiction)
    assert result["incorrect_choice_distribution"] == {"local_negation": 0.5, "contradiction": 0.5, "paraphrase": 0.0}
    assert result["confusion_rate"] == {"relative_part": 1.0, "pp_part": None, "adverb_part": 0.0, "compound_part": 0.0}
    assert result["format_wrong"] is None and result["mode"] == "completion" and result["n_items"] == 4


def test_all_equal_loglikelihoods_pick_choice1() -> None:
    # first-on-ties is lm-eval's np.argmax; with equal scores it favours choice1, which is always the answer
    chosen, chosen_norm = nubench.choose_by_loglikelihood(
        nubench.np.array([[-3.0, -3.0, -3.0, -3.0], [-1.0, -1.0, -1.0, -1.0]]),
        nubench.np.array([[5.0, 5.0, 5.0, 5.0], [2.0, 4.0, 8.0, 16.0]]),
    )
    # row 1 normalised: -0.5, -0.25, -0.125, -0.0625 -> choice4
    assert chosen.tolist() == [0, 0] and chosen_norm.tolist() == [0, 3]


# --- diagnostics on the sample -------------------------------------------------------------------


def correct_letters() -> list[str]:
    return [doc["answerLetter"] for doc in appendix_m_process_docs_option(read_items())]


def test_option_mode_error_distribution_by_hand(neghub: Any, tmp_path: Path) -> None:
    letters = correct_letters()
    # items 0-5 are relative_part; orders of 0-3 worked out above
    wrong = {
        0: "B",  # [c3, c2, c4, c1]: B = choice2, local negation
        1: "D",  # [c4, c3, c1, c2]: D = choice2, local negation
        2: "c",  # [c2, c4, c3, c1]: C = choice3, contradiction
        3: "D.",  # [c2, c3, c1, c4]: D = choice4, paraphrase
        4: "E",  # format wrong
        5: "I think A",  # format wrong
    }
    rows = [{"id": i, "output": wrong.get(i, letter)} for i, letter in enumerate(letters)]
    result = evaluate_json(neghub, write_lines(tmp_path / "p.jsonl", rows), "option")
    # 46 items, 6 wrong: acc 40/46, error rate 6/46; 4 wrong answers named an option
    assert result["acc"] == pytest.approx(40 / 46) and result["error_rate"] == pytest.approx(6 / 46)
    assert result["format_wrong"] == 2
    assert result["incorrect_choice_distribution"] == {"local_negation": 0.5, "contradiction": 0.25, "paraphrase": 0.25}
    # two local-negation picks among the 9 relative_part items; format-wrong items count in the denominator
    assert result["confusion_rate"] == {
        "relative_part": pytest.approx(2 / 9),
        "pp_part": 0.0,
        "adverb_part": 0.0,
        "compound_part": 0.0,
    }
    low, high = result["acc_ci95"]
    assert low <= 40 / 46 <= high
    assert result["verified"] is True and result["dataset_source"] == "bundled"


def test_completion_mode_error_distribution_by_hand(neghub: Any, tmp_path: Path) -> None:
    items = read_items()
    picks = {9: "choice2", 10: "choice2", 28: "choice4", 37: "choice3"}  # pp, pp, compound, non-applicable
    rows = []
    for item in items:
        picked = picks.get(item["index"], "choice1")
        scores = {key: (-1.0 if key == picked else -5.0) for key in nubench.CHOICE_KEYS}
        if item["choice2_type"] == "non-applicable":
            scores["choice2"] = None
        rows.append({"id": item["index"], "loglikelihoods": scores})
    result = evaluate_json(neghub, write_lines(tmp_path / "p.jsonl", rows), "completion")
    # 42 of 46 right; wrong: 2 local negation, 1 paraphrase, 1 contradiction
    assert result["acc"] == pytest.approx(42 / 46)
    assert result["incorrect_choice_distribution"] == {"local_negation": 0.5, "contradiction": 0.25, "paraphrase": 0.25}
    assert result["confusion_rate"] == {
        "relative_part": 0.0,
        "pp_part": pytest.approx(2 / 9),
        "adverb_part": 0.0,
        "compound_part": 0.0,
    }
    assert result["format_wrong"] is None
    json_keys = {"task", "mode", "n_items", "acc", "acc_norm", "error_rate", "incorrect_choice_distribution"}
    assert json_keys | {"confusion_rate", "format_wrong", "acc_ci95"} <= set(result)


# --- baselines -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["first", "random", "constant:choice2"])
def test_baselines_pick_the_same_options_in_both_modes(neghub: Any, tmp_path: Path, kind: str) -> None:
    results = {}
    for mode in nubench.MODES:
        out = tmp_path / f"{mode}.jsonl"
        assert neghub("baseline", "nubench", "--kind", kind, "--mode", mode, "--seed", "3", "-o", out).code == 0
        results[mode] = evaluate_json(neghub, out, mode)
    keys = ("acc", "error_rate", "incorrect_choice_distribution", "confusion_rate")
    assert {k: results["completion"][k] for k in keys} == {k: results["option"][k] for k in keys}
    assert results["completion"]["acc_norm"] == results["completion"]["acc"]


def test_constant_baselines_by_hand(neghub: Any, tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl"
    assert neghub("baseline", "nubench", "--kind", "constant:choice1", "--mode", "option", "-o", out).code == 0
    assert evaluate_json(neghub, out, "option")["acc"] == 1.0
    assert neghub("baseline", "nubench", "--kind", "constant:choice2", "--mode", "option", "-o", out).code == 0
    result = evaluate_json(neghub, out, "option")
    # every item with a local negation picks it: confusion 1 for each type
    assert result["confusion_rate"] == {"relative_part": 1.0, "pp_part": 1.0, "adverb_part": 1.0, "compound_part": 1.0}
    # the 9 non-applicable items take the option shown first instead; by the appendix M copy:
    first_shown = [doc["choice_keys"][0] for doc in appendix_m_process_docs_option(read_items())[37:]]
    right = first_shown.count("choice1")
    assert result["acc"] == pytest.approx(right / 46)


# --- malformed inputs: one line each, exit code 2 -------------------------------------------------


def completion_rows() -> list[dict[str, Any]]:
    return [
        {"id": item["index"], "loglikelihoods": lls(-1.0, -2.0 if item["choice2"] else None, -3.0, -4.0)}
        for item in read_items()
    ]


def option_rows() -> list[dict[str, Any]]:
    return [{"id": item["index"], "output": "A"} for item in read_items()]


def run_bad(neghub: Any, tmp_path: Path, rows: list[Any], mode: str | None) -> tuple[str, list[str]]:
    path = write_lines(tmp_path / "bad.jsonl", rows)
    args: list[Any] = ["evaluate", "nubench", path, "--json"]
    if mode is not None:
        args += ["--mode", mode]
    result = neghub(*args)
    assert result.code == 2
    assert_json_problems(result.out, result.err)
    assert "Traceback" not in result.err
    return str(path), result.err.splitlines()


def replaced(rows: list[dict[str, Any]], row: int, new: Any) -> list[Any]:
    return [*rows[:row], new, *rows[row + 1 :]]


# item 0 is relative_part (has a local negation); item 37 is non-applicable; line = row + 1
BAD_COMPLETION = [
    ({"id": 0}, "1: loglikelihoods: missing field"),
    (
        {"id": 0, "loglikelihoods": [-1, -2, -3, -4]},
        "1: loglikelihoods: expected an object with choice1, choice2, choice3, choice4, got an array",
    ),
    (
        {"id": 0, "loglikelihoods": {"choice1": -1, "choice2": -2, "choice3": -3}},
        "1: loglikelihoods.choice4: missing field",
    ),
    (
        {"id": 0, "loglikelihoods": {**lls(-1, -2, -3, -4), "choice5": -5}},
        "1: loglikelihoods.choice5: unknown field (expected only choice1, choice2, choice3, choice4)",
    ),
    ({"id": 0, "loglikelihoods": lls(-1, -2, "-3", -4)}, "1: loglikelihoods.choice3: expected a number, got a string"),  # type: ignore[arg-type]
    ({"id": 0, "loglikelihoods": lls(True, -2, -3, -4)}, "1: loglikelihoods.choice1: expected a number, got a boolean"),
    (
        {"id": 0, "loglikelihoods": lls(-1, None, -3, -4)},
        "1: loglikelihoods.choice2: expected a number, got null "
        "(item 0 has a local negation, relative_part; null is for non-applicable items)",
    ),
    (
        {"id": 0, "loglikelihoods": lls(0.5, -2, -3, -4)},
        "1: loglikelihoods.choice1: log-likelihood 0.5 is positive (expected a number <= 0)",
    ),
    (
        {"id": 0, "loglikelihoods": lls(-1, -2, -3, -4), "model": "x"},
        "1: model: unknown field (expected only id and loglikelihoods in --mode completion)",
    ),
]


@pytest.mark.parametrize(("line", "message"), BAD_COMPLETION)
def test_malformed_completion_line(neghub: Any, tmp_path: Path, line: Any, message: str) -> None:
    path, err = run_bad(neghub, tmp_path, replaced(completion_rows(), 0, line), "completion")
    assert err == [f"error: {path}:{message}"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"loglikelihoods": lls(-1, -2, -3, -4)}, "1: id: missing field"),
        (
            {"id": "0", "loglikelihoods": lls(-1, -2, -3, -4)},
            "1: id: expected an integer id (the item's index), got a string",
        ),
        (
            {"id": 0.0, "loglikelihoods": lls(-1, -2, -3, -4)},
            "1: id: expected an integer id (the item's index), got a number",
        ),
    ],
)
def test_line_without_a_usable_id(neghub: Any, tmp_path: Path, line: Any, message: str) -> None:
    # the line cannot count for item 0, so item 0 is also reported as missing
    path, err = run_bad(neghub, tmp_path, replaced(completion_rows(), 0, line), "completion")
    assert err == [f"error: {path}:{message}", f"error: {path}: id: 1 ids of the test split have no prediction: 0"]


def test_number_for_the_missing_choice2(neghub: Any, tmp_path: Path) -> None:
    rows = replaced(completion_rows(), 37, {"id": 37, "loglikelihoods": lls(-1, -2, -3, -4)})
    path, err = run_bad(neghub, tmp_path, rows, "completion")
    assert err == [
        f"error: {path}:38: loglikelihoods.choice2: expected null: item 37 is non-applicable and has no local "
        "negation option, got an integer"
    ]


def test_missing_choice2_key_on_a_non_applicable_item(neghub: Any, tmp_path: Path) -> None:
    rows = replaced(completion_rows(), 37, {"id": 37, "loglikelihoods": {"choice1": -1, "choice3": -3, "choice4": -4}})
    path, err = run_bad(neghub, tmp_path, rows, "completion")
    assert err == [f"error: {path}:38: loglikelihoods.choice2: missing field (null for a non-applicable item)"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"id": 0}, "1: output: missing field"),
        ({"id": 0, "output": None}, "1: output: expected a string (the model's raw output), got null"),
        ({"id": 0, "output": 1}, "1: output: expected a string (the model's raw output), got an integer"),
        ({"id": 0, "output": ["A"]}, "1: output: expected a string (the model's raw output), got an array"),
    ],
)
def test_malformed_option_line(neghub: Any, tmp_path: Path, line: Any, message: str) -> None:
    path, err = run_bad(neghub, tmp_path, replaced(option_rows(), 0, line), "option")
    assert err == [f"error: {path}:{message}"]


def test_completion_file_in_option_mode(neghub: Any, tmp_path: Path) -> None:
    rows = completion_rows()[:1] + option_rows()[1:]
    path, err = run_bad(neghub, tmp_path, rows, "option")
    assert err == [
        f"error: {path}:1: loglikelihoods: unknown field (expected only id and output in --mode option)",
        f"error: {path}:1: output: missing field",
    ]


def test_missing_unknown_and_duplicate_ids(neghub: Any, tmp_path: Path) -> None:
    rows = [*option_rows()[:40], {"id": 3, "output": "A"}, {"id": 999, "output": "A"}]
    path, err = run_bad(neghub, tmp_path, rows, "option")
    assert err == [
        f"error: {path}:41: id: duplicate id 3 (first on line 4)",
        f"error: {path}:42: id: unknown id 999 (not an index of the test split)",
        f"error: {path}: id: 6 ids of the test split have no prediction: 40, 41, 42, 43, 44 and 1 more",
    ]


def test_non_finite_and_non_object_lines(neghub: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    lines = [json.dumps(row) for row in completion_rows()]
    lines[0] = '{"id": 0, "loglikelihoods": {"choice1": NaN, "choice2": -2, "choice3": -3, "choice4": -4}}'
    lines[1] = "[1, 2]"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = neghub("evaluate", "nubench", path, "--mode", "completion")
    assert result.code == 2
    assert result.err.splitlines() == [
        f"error: {path}:1: NaN is not allowed (expected a finite number)",
        f"error: {path}:2: expected a JSON object, got an array",
        f"error: {path}: id: 2 ids of the test split have no prediction: 0, 1",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "--mode: nubench needs --mode (completion or option)"),
        (("--mode", "generate"), "--mode: unknown mode 'generate' for nubench (expected completion, option)"),
        (
            ("--mode", "option", "--split", "train"),
            "--split: nubench scores the multiple-choice splits only (expected test, demonstration)",
        ),
    ],
)
def test_bad_command_line(neghub: Any, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    path = write_lines(tmp_path / "p.jsonl", option_rows())
    result = neghub("evaluate", "nubench", path, *args)
    assert (result.code, result.err.splitlines()) == (2, [f"error: {message}"])


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("majority", "--kind: unknown baseline 'majority' for nubench (expected first, random, constant:choiceN)"),
        ("constant:choice5", "--kind: unknown option 'choice5' (expected constant:choice1 .. constant:choice4)"),
    ],
)
def test_bad_baseline_kind(neghub: Any, tmp_path: Path, kind: str, message: str) -> None:
    result = neghub("baseline", "nubench", "--kind", kind, "--mode", "option", "-o", tmp_path / "b.jsonl")
    assert (result.code, result.err.splitlines()) == (2, [f"error: {message}"])
    result = neghub("baseline", "nubench", "--kind", "first", "-o", tmp_path / "b.jsonl")
    assert (result.code, result.err.splitlines()) == (2, ["error: --mode: nubench needs --mode (completion or option)"])


# --- release checks ------------------------------------------------------------------------------


def test_modified_release_needs_unverified(neghub: Any, tmp_path: Path) -> None:
    items = read_items()
    items[0]["choice4"] += " Edited."
    mirror = mini_mirror(tmp_path, items)
    path = write_lines(tmp_path / "p.jsonl", option_rows())
    result = neghub("evaluate", "nubench", path, "--mode", "option", "--data-dir", mirror)
    data = mirror / "nubench" / "multiple-choice" / "test.jsonl"
    digest = hashlib.sha256(data.read_bytes()).hexdigest()
    pinned = hashlib.sha256(TEST_FILE.read_bytes()).hexdigest()
    assert result.code == 2
    assert result.err.splitlines() == [
        f"error: {data}: sha256 mismatch: expected {pinned}, got {digest}; the file differs from the pinned "
        "release (pass --unverified to score against it anyway)"
    ]
    result = neghub("evaluate", "nubench", path, "--mode", "option", "--data-dir", mirror, "--unverified", "--json")
    assert result.code == 0 and flat_result(json.loads(result.out))["verified"] is False


@pytest.mark.parametrize(
    ("item", "message"),
    [
        (
            mini_item(0, "non-applicable", choice2="local"),
            "choice2: must be null or empty when choice2_type is non-applicable (three options)",
        ),
        (
            mini_item(0, "pp_part", choice2=""),
            "choice2: empty, but choice2_type is pp_part (expected the local negation)",
        ),
        (
            mini_item(0, "pp_clause"),
            "choice2_type: invalid record: Input should be 'relative_part', 'pp_part', "
            "'adverb_part', 'compound_part' or 'non-applicable'",
        ),
        (
            {**mini_item(0), "wikipedia_index": 118342},
            "wikipedia_index: invalid record: Input should be a valid string",
        ),
        ({**mini_item(0), "label": 0}, "label: invalid record: Extra inputs are not permitted"),
    ],
)
def test_bad_release_record(neghub: Any, tmp_path: Path, item: dict[str, Any], message: str) -> None:
    mirror = mini_mirror(tmp_path, [item, mini_item(1)])
    path = write_lines(tmp_path / "p.jsonl", [{"id": 0, "output": "A"}, {"id": 1, "output": "A"}])
    result = neghub("evaluate", "nubench", path, "--mode", "option", "--data-dir", mirror, "--unverified")
    data = mirror / "nubench" / "multiple-choice" / "test.jsonl"
    assert (result.code, result.err.splitlines()) == (2, [f"error: {data}:1: {message}"])


def test_duplicate_index_in_the_release(neghub: Any, tmp_path: Path) -> None:
    mirror = mini_mirror(tmp_path, [mini_item(0), mini_item(0)])
    path = write_lines(tmp_path / "p.jsonl", [{"id": 0, "output": "A"}])
    result = neghub("evaluate", "nubench", path, "--mode", "option", "--data-dir", mirror, "--unverified")
    data = mirror / "nubench" / "multiple-choice" / "test.jsonl"
    assert (result.code, result.err.splitlines()) == (
        2,
        [f"error: {data}:2: index: duplicate index 0 (first on line 1)"],
    )
