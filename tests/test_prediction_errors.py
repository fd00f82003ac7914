"""Every bad prediction file of issue 2 point 5: one clear line (file, line, field), exit code 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, assert_json_problems
from tests.test_minimal_pairs import PREDICTIONS, RECORDS, write_jsonl

JSTS_MIRROR = FIXTURES / "mirror"


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    write_jsonl(tmp_path / "mirror" / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl", RECORDS)
    return tmp_path / "mirror"


def good_lines() -> list[str]:
    return [json.dumps({"id": i, "prediction": p}) for i, p in PREDICTIONS.items()]


def run_bad(neghub: Any, mirror: Path, tmp_path: Path, content: bytes, task: str = "jnli-neg") -> tuple[str, list[str]]:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    data = mirror if task == "jnli-neg" else JSTS_MIRROR
    result = neghub("evaluate", task, path, "--data-dir", data, "--unverified", "--json")
    assert result.code == 2
    assert_json_problems(result.out, result.err)
    assert "Traceback" not in result.err
    return str(path), result.err.splitlines()


def lines_bytes(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def test_missing_id(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(good_lines()[:-2]))
    assert err == [f"error: {path}: id: 2 ids of the valid split have no prediction: 5, 6"]


def test_extra_unknown_id(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = [*good_lines(), json.dumps({"id": 99, "prediction": "neutral"})]
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:8: id: unknown id 99 (not in the valid split)"]


def test_duplicate_id(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = [*good_lines(), json.dumps({"id": 1, "prediction": "neutral"})]
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:8: id: duplicate id 1 (first on line 2)"]


def test_label_outside_vocabulary(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[2] = json.dumps({"id": 2, "prediction": "Neutral"})
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:3: prediction: expected one of entailment, neutral, contradiction, got 'Neutral'"]


def test_null_prediction(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[0] = '{"id": 0, "prediction": null}'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:1: prediction: expected one of entailment, neutral, contradiction, got null"]


def test_missing_prediction_field(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[0] = '{"id": 0}'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:1: prediction: missing field"]


def test_id_as_string_and_unknown_field(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[0] = '{"id": "0", "prediction": "neutral"}'
    lines[1] = '{"id": 1, "prediction": "neutral", "confidence": 0.9}'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [
        f"error: {path}:1: id: expected an integer id, got a string",
        f"error: {path}:2: confidence: unknown field (expected only id, prediction and raw_output)",
        f"error: {path}: id: 1 ids of the valid split have no prediction: 0",
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("2.5", "expected an integer score from 0 to 5, got 2.5"),
        ("6", "expected an integer score from 0 to 5, got 6"),
        ("-1", "expected an integer score from 0 to 5, got -1"),
        ('"3"', "expected an integer score from 0 to 5, got '3'"),
        ("true", "expected an integer score from 0 to 5, got True"),
    ],
)
def test_sts_score_not_an_integer_in_range(neghub: Any, mirror: Path, tmp_path: Path, value: str, message: str) -> None:
    ids = [
        json.loads(line)["id"] for line in (JSTS_MIRROR / "jsts-neg" / "jsts-neg-test.jsonl").read_text().splitlines()
    ]
    lines = [json.dumps({"id": i, "prediction": 3}) for i in ids]
    lines[4] = f'{{"id": {ids[4]}, "prediction": {value}}}'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines), task="jsts-neg")
    assert err == [f"error: {path}:5: prediction: {message}"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("NaN", "NaN is not allowed (expected a finite number)"),
        ("Infinity", "Infinity is not allowed (expected a finite number)"),
        ("1e400", "number 1e400 is out of range (expected a finite number)"),
        ("1" * 5000, "number with 5000 digits is too long (at most 20)"),
    ],
)
def test_non_finite_and_huge_numbers(neghub: Any, mirror: Path, tmp_path: Path, raw: str, message: str) -> None:
    lines = good_lines()
    lines[3] = f'{{"id": 3, "prediction": {raw}}}'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err[0] == f"error: {path}:4: {message}"


def test_blank_line_in_the_middle(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines.insert(3, "")
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:4: blank line in the middle of the file"]


def test_trailing_blank_lines_are_fine(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    path = tmp_path / "ok.jsonl"
    path.write_bytes(lines_bytes(good_lines()) + b"\n\n")
    assert neghub("evaluate", "jnli-neg", path, "--data-dir", mirror, "--unverified").code == 0


def test_invalid_utf8(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    content = lines_bytes(good_lines()).replace(
        b'"id": 2, "prediction": "neutral"', b'"id": 2, "prediction": "\xffneutral"'
    )
    path, err = run_bad(neghub, mirror, tmp_path, content)
    # '{"id": 2, "prediction": "' is 25 bytes, so the 0xff byte is the 26th
    assert err[0] == f"error: {path}:3: invalid UTF-8 at byte 26 of the line"


def test_invalid_json(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[5] = '{"id": 5, "prediction": "contradiction"'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err == [f"error: {path}:6: invalid JSON: Expecting ',' delimiter (column 40)"]


def test_two_objects_on_one_line_and_a_top_level_array(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[0] = lines[0] + " " + lines[1]
    lines[1] = "[1, 2]"
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err[:2] == [
        f"error: {path}:1: invalid JSON: extra data after the object at column 35 (one object per line)",
        f"error: {path}:2: expected a JSON object, got an array",
    ]


def test_duplicate_key(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[0] = '{"id": 0, "prediction": "neutral", "prediction": "contradiction"}'
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err[0] == f"error: {path}:1: duplicate key 'prediction'"


def test_encodings_and_line_ends(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    text = "\n".join(good_lines()) + "\n"
    path, err = run_bad(neghub, mirror, tmp_path, b"\xef\xbb\xbf" + text.encode())
    assert err == [f"error: {path}:1: starts with a UTF-8 byte-order mark (expected UTF-8 without BOM)"]
    path, err = run_bad(neghub, mirror, tmp_path, text.encode("utf-16"))
    assert err == [f"error: {path}:1: is UTF-16 or binary (expected UTF-8 text)"]
    path, err = run_bad(neghub, mirror, tmp_path, text.replace("\n", "\r").encode())
    assert err[0] == f"error: {path}:1: has a CR line end (expected LF line ends)"


def test_deep_nesting(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    lines = good_lines()
    lines[0] = '{"id": 0, "prediction": ' + "[" * 50_000 + "]" * 50_000 + "}"
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err[0] == f"error: {path}:1: line is longer than 65536 bytes"
    lines[0] = '{"id": 0, "prediction": ' + "[" * 30_000 + "]" * 30_000 + "}"
    path, err = run_bad(neghub, mirror, tmp_path, lines_bytes(lines))
    assert err[0] == f"error: {path}:1: invalid JSON: nested too deeply"


def test_missing_file_and_unknown_task(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    result = neghub("evaluate", "jnli-neg", tmp_path / "nope.jsonl", "--data-dir", mirror, "--unverified")
    assert result.code == 2
    assert result.err == f"error: {tmp_path / 'nope.jsonl'}: file not found\n"
    result = neghub("evaluate", "jnli_neg", tmp_path / "nope.jsonl")
    assert result.code == 2
    assert result.err == "error: task: unknown task 'jnli_neg'; did you mean 'jnli-neg'?\n"


def test_unknown_split(neghub: Any, mirror: Path, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "p.jsonl", [{"id": 0, "prediction": "neutral"}])
    result = neghub("evaluate", "jnli-neg", path, "--split", "test", "--data-dir", mirror, "--unverified")
    assert result.code == 2
    assert result.err == "error: jnli-neg: split: unknown split 'test' (expected one of: train, valid)\n"
