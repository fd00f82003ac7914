"""The published schemas work for others: check-jsonschema (default settings, ECMA-262 regexes) accepts them and
every committed submission, and every pattern means the same set of strings to each regex engine that reads it.

The engines: pydantic's Rust `regex` (the gate), ECMA-262 in unicode mode through regress (check-jsonschema's
engine; Ajv compiles the same dialect), and Python's `re` (the jsonschema package).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Any

import pytest
import regress
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import StringConstraints, TypeAdapter, ValidationError

from neghub.evaluator.benchmarks.scn import PYTHON_WHITESPACE
from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.submissions.format import DATE_PATTERN, PATTERN_EXPECTATIONS, WHITE_SPACE


def prediction_kind(task: str, mode: str | None) -> str:
    """The schema a run's lines follow: prediction-<task>[-<mode>]."""
    return f"{task}-{mode}" if get_benchmark(task).modes else task


ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
SUBMISSIONS = ROOT / "submissions"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def check_jsonschema(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """check-jsonschema as a submitter runs it: its own process, default settings."""
    command = [sys.executable, "-m", "check_jsonschema", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def test_check_jsonschema_accepts_every_published_schema() -> None:
    result = check_jsonschema("--check-metaschema", *sorted(SCHEMAS.glob("*.json")))
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_jsonschema_refuses_a_quote_escaped_in_a_class(tmp_path: Path) -> None:
    # the contact and links patterns as they were: `\"` is no escape in an ECMA-262 unicode-mode regex
    schema = tmp_path / "old.schema.json"
    schema.write_text(json.dumps({"$schema": DRAFT, "type": "string", "pattern": r"^https://[^\s<>\"']+$"}))
    result = check_jsonschema("--check-metaschema", schema)
    assert result.returncode == 1
    assert "is not a 'regex'" in result.stdout


def test_every_committed_metadata_meets_the_submission_schema() -> None:
    metadata = sorted(SUBMISSIONS.glob("*/metadata.yaml"))
    assert metadata, "submissions/ has submissions"
    result = check_jsonschema("--schemafile", SCHEMAS / "submission.schema.json", *metadata)
    assert result.returncode == 0, result.stdout + result.stderr


def prediction_files() -> dict[str, list[Path]]:
    """Every committed prediction file, by the kind of its lines (task and mode from its metadata's runs)."""
    files: dict[str, list[Path]] = defaultdict(list)
    for metadata in sorted(SUBMISSIONS.glob("*/metadata.yaml")):
        for run in yaml.safe_load(metadata.read_text(encoding="utf-8"))["runs"]:
            files[prediction_kind(run["task"], run.get("mode"))].append(metadata.parent / run["file"])
    return files


def lines_as_arrays(kind: str, files: list[Path], folder: Path) -> tuple[Path, list[Path]]:
    """A schema for an array of lines (the published schema embedded as `items`, keeping its own $id) and each
    file's lines as one JSON array: check-jsonschema reads no JSON Lines, and one process per line would be slow."""
    line_schema = json.loads((SCHEMAS / f"prediction-{kind}.schema.json").read_text(encoding="utf-8"))
    wrapper = folder / f"lines-{kind}.schema.json"
    wrapper.write_text(json.dumps({"$schema": DRAFT, "type": "array", "items": line_schema}), encoding="utf-8")
    arrays = []
    for number, path in enumerate(files):
        lines = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
        assert lines, f"{path} is empty"
        arrays.append(folder / f"{kind}-{number}-{path.parent.parent.parent.name}.json")
        arrays[-1].write_text(json.dumps(lines, ensure_ascii=False), encoding="utf-8")
    return wrapper, arrays


def test_every_committed_prediction_line_meets_its_schema(tmp_path: Path) -> None:
    by_kind = prediction_files()
    assert {"jnli-neg", "nubench-completion", "nubench-option", "scn"} <= set(by_kind)
    for kind, files in sorted(by_kind.items()):
        wrapper, arrays = lines_as_arrays(kind, files, tmp_path)
        result = check_jsonschema("--schemafile", wrapper, *arrays)
        assert result.returncode == 0, f"{kind}: {result.stdout}{result.stderr}"[:3000]


def test_a_bad_line_in_an_array_is_found(tmp_path: Path) -> None:
    # the wrapper must reach every line: an unparseable answer without its raw_output is refused
    path = tmp_path / "run.jsonl"
    path.write_text('{"id": 0, "prediction": "neutral"}\n{"id": 1, "prediction": null}\n', encoding="utf-8")
    wrapper, arrays = lines_as_arrays("jnli-neg", [path], tmp_path)
    result = check_jsonschema("--schemafile", wrapper, *arrays)
    assert result.returncode == 1
    assert "$[1]" in result.stdout and "$[0]" not in result.stdout


def published_patterns() -> list[tuple[str, str]]:
    """(schema file, pattern) for every `pattern` and `patternProperties` key in schemas/."""
    found: list[tuple[str, str]] = []

    def walk(file: str, node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.append((file, node["pattern"]))
            found.extend((file, key) for key in node.get("patternProperties", {}))
            for value in node.values():
                walk(file, value)
        elif isinstance(node, list):
            for value in node:
                walk(file, value)

    for path in sorted(SCHEMAS.glob("*.json")):
        walk(path.name, json.loads(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize(("file", "pattern"), published_patterns())
def test_every_published_pattern_compiles_as_an_ecma_unicode_regex(file: str, pattern: str) -> None:
    regress.Regex(pattern, "u")  # raises RegressError on a pattern Ajv or check-jsonschema would refuse


def test_regress_refuses_what_ecma_unicode_mode_refuses() -> None:
    with pytest.raises(regress.RegressError):
        regress.Regex(r"[^\s\"']", "u")


# --- one set of strings per pattern, whichever engine reads it ------------------------------------

SCN_WORD_PATTERN = f"[^{PYTHON_WHITESPACE}]"
PATTERNS = [*sorted(PATTERN_EXPECTATIONS), SCN_WORD_PATTERN]
# not a surrogate (JSON text cannot carry a lone one, and regress refuses it)
BMP = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]


def rust_matches(pattern: str) -> TypeAdapter[str]:
    return TypeAdapter(Annotated[str, StringConstraints(pattern=pattern)])


def rust_accepts(adapter: TypeAdapter[str], text: str) -> bool:
    try:
        adapter.validate_python(text)
    except ValidationError:
        return False
    return True


def matched_by_all_three(class_body: str) -> set[str]:
    """The BMP characters `[class_body]` matches, after checking that the three engines agree on each."""
    rust = rust_matches(f"^[{class_body}]$")
    ecma = regress.Regex(f"^[{class_body}]$", "u")
    python = re.compile(f"^[{class_body}]$")
    by_rust = {c for c in BMP if rust_accepts(rust, c)}
    by_ecma = {c for c in BMP if ecma.find(c) is not None}
    by_python = {c for c in BMP if python.search(c) is not None}
    assert by_rust == by_ecma == by_python
    return by_rust


def test_white_space_is_unicode_white_space_in_every_engine() -> None:
    # what \s meant to the Rust engine in the URL and contact patterns before they spelled it out
    rust_backslash_s = rust_matches(r"^\s$")
    assert matched_by_all_three(WHITE_SPACE) == {c for c in BMP if rust_accepts(rust_backslash_s, c)}


def test_python_whitespace_is_what_str_strip_removes_in_every_engine() -> None:
    assert matched_by_all_three(PYTHON_WHITESPACE) == {c for c in BMP if c.isspace()}
    assert not any(chr(c).isspace() for c in range(0x10000, 0x110000))


# characters the engines disagree on in \s, \d or \w, and those the patterns name
TRICKY = st.sampled_from(
    [*" \t\n\r\x0b\x0c\x1c\x85\xa0\u1680\u2028\u3000\ufeff\u200b\"'<>@.-_/:٢２éAz09", "\U0001f600"]
)


@st.composite
def near_matches(draw: st.DrawFn, pattern: str) -> str:
    """A string the pattern matches (as Python reads it), often with one character replaced, inserted or cut."""
    text = draw(st.from_regex(pattern, fullmatch=True))
    if not text or draw(st.booleans()):
        return text
    at = draw(st.integers(0, len(text) - 1))
    edit = draw(st.sampled_from(["replace", "insert", "cut"]))
    if edit == "cut":
        return text[:at] + text[at + 1 :]
    return text[:at] + draw(TRICKY) + text[at + (edit == "replace") :]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_pattern_means_the_same_to_every_engine(pattern: str) -> None:
    rust = rust_matches(pattern)
    ecma = regress.Regex(pattern, "u")
    python = re.compile(pattern)

    @settings(max_examples=200, deadline=None)
    @given(st.one_of(near_matches(pattern), st.text(TRICKY, max_size=6)))
    def check(text: str) -> None:
        by_ecma = ecma.find(text) is not None
        assert rust_accepts(rust, text) is by_ecma
        if not text.endswith("\n"):  # Python's `$` also matches before a final newline (schemas.py)
            assert (python.search(text) is not None) is by_ecma

    check()


def test_python_dollar_is_the_one_documented_difference() -> None:
    assert re.search(DATE_PATTERN, "2025-05-01\n") is not None
    assert regress.Regex(DATE_PATTERN, "u").find("2025-05-01\n") is None
    assert not rust_accepts(rust_matches(DATE_PATTERN), "2025-05-01\n")
