"""The command line's conventions, from a user's side (the installed `neghub` in its own process, as a shell
runs it; README, "Command-line conventions"):

- `-` reads the standard input where a file is read;
- exit codes: 0 success, 2 bad input, 3 a source that cannot be reached here (a dataset release), with a message
  naming what is missing; a missing input file is reported as such whatever the network does;
- `--json` prints exactly one JSON object on stdout, the problems when there are any;
- counts are integers in the downloads (a board's CSV loads them as integers);
- no table prints `-0.00` or `n/a%`.

The tests point upstream downloads at a closed port on 127.0.0.1 (tests/conftest.py): a network that fails.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from neghub.evaluator.core.numbers import fixed, percent
from neghub.leaderboard.site import fmt
from tests.rule_submissions import one_line_file, rule_submission

from .conftest import ROOT
from .processes import run_process

SUBMISSIONS = ROOT / "submissions"


def scn_predictions() -> Path:
    return rule_submission("never") / "predictions" / "scn" / "predictions.jsonl"


def jnli_neg_majority() -> Path:
    return rule_submission("majority") / "predictions" / "jnli-neg" / "valid.jsonl"


def jnli_neg_line() -> Path:
    """A JNLI-Neg prediction file that exists without the release (the tests of an unreachable release)."""
    return one_line_file("jnli-neg", {"id": 0, "prediction": "contradiction"})


FEW = ("--bootstrap-resamples", "20")


def neghub(
    *args: str | Path, stdin: bytes | None = None, cwd: Path, mirror: bool = True
) -> subprocess.CompletedProcess[str]:
    """`neghub ARGS` in its own process, from `cwd` (not the checkout: the installed package answers); without
    `mirror`, NEGHUB_DATA_DIR unset (the releases then come from the network, which fails here)."""
    env = {k: v for k, v in os.environ.items() if mirror or k != "NEGHUB_DATA_DIR"}
    command = [sys.executable, "-m", "neghub.evaluator.cli", *args]
    return run_process(command, cwd=cwd, env=env, timeout=300, stdin=stdin)


def one_json_object(stdout: str) -> dict[str, Any]:
    """stdout is exactly one JSON object (json.loads refuses anything after it)."""
    record = json.loads(stdout)
    assert isinstance(record, dict)
    return record


# --- `-` is the standard input -----------------------------------------------------------------------


def test_evaluate_reads_the_predictions_from_stdin(tmp_path: Path) -> None:
    from_file = neghub("evaluate", "scn", scn_predictions(), *FEW, "--json", cwd=tmp_path)
    from_stdin = neghub("evaluate", "scn", "-", *FEW, "--json", stdin=scn_predictions().read_bytes(), cwd=tmp_path)
    assert from_file.returncode == from_stdin.returncode == 0, from_stdin.stderr
    assert one_json_object(from_stdin.stdout) == one_json_object(from_file.stdout)


def test_a_problem_in_stdin_is_said_of_stdin(tmp_path: Path) -> None:
    done = neghub("evaluate", "nubench", "-", "--mode", "option", stdin=b'{"id": 0, "output": 2}\n', cwd=tmp_path)
    assert done.returncode == 2
    first = done.stderr.splitlines()[0]
    assert first.startswith("error: <stdin>:1: output: "), first
    assert "neghub-stdin-" not in done.stderr  # the temporary copy is never named


def test_import_reads_the_answers_from_stdin(tmp_path: Path) -> None:
    """`neghub prompts` for JSTS-Neg (the tests' own fixture release), answered by a trivial engine (always
    "3"), imported from a file and from stdin: the same predictions."""
    release = ("--prompt", "llm-jp-eval", "--data-dir", ROOT / "tests" / "fixtures" / "mirror", "--unverified")
    prompts = tmp_path / "prompts.jsonl"
    assert neghub("prompts", "jsts-neg", *release, "-o", prompts, cwd=tmp_path).returncode == 0
    answers = "".join(
        json.dumps({"id": json.loads(line)["id"], "text": "3"}) + "\n"
        for line in prompts.read_text(encoding="utf-8").splitlines()
    ).encode()
    (tmp_path / "answers.jsonl").write_bytes(answers)
    model = ("--model-name", "Three", "--parameters", "1", "--license", "mit")
    model += ("--repo-id", "example-org/three", "--revision", "0123456789abcdef0123456789abcdef01234567")
    model += (
        "--submitter-name",
        "A. Tester",
        "--submitter-contact",
        "tester@example.org",
        "--submitter-github",
        "tester",
    )
    file, stdin = tmp_path / "from-file", tmp_path / "from-stdin"
    by_file = neghub("import", "jsts-neg", tmp_path / "answers.jsonl", *release, *model, "-o", file, cwd=tmp_path)
    by_stdin = neghub("import", "jsts-neg", "-", *release, *model, "-o", stdin, stdin=answers, cwd=tmp_path)
    assert by_file.returncode == by_stdin.returncode == 0, by_stdin.stderr
    written = sorted(p.relative_to(file) for p in file.rglob("*.jsonl"))
    assert written and written == sorted(p.relative_to(stdin) for p in stdin.rglob("*.jsonl"))
    for rel in written:
        assert (stdin / rel).read_bytes() == (file / rel).read_bytes()


# --- exit codes ----------------------------------------------------------------------------------------


def test_a_release_that_cannot_be_downloaded_is_exit_code_3_naming_it(tmp_path: Path) -> None:
    done = neghub("evaluate", "jnli-neg", jnli_neg_line(), "--data-dir", tmp_path / "empty-mirror", cwd=tmp_path)
    # an explicit mirror without the task's folder: nothing wrong with the predictions, the data is not here
    assert done.returncode == 3
    assert done.stderr == (
        f"error: {tmp_path / 'empty-mirror' / 'jnli-neg'}: no jnli-neg folder in the data directory "
        f"{tmp_path / 'empty-mirror'} (expected <data-dir>/jnli-neg/)\n"
    )


def test_an_unreachable_download_is_exit_code_3_naming_the_url(tmp_path: Path) -> None:
    done = neghub("evaluate", "jnli-neg", jnli_neg_line(), *FEW, cwd=tmp_path, mirror=False)
    assert done.returncode == 3
    (line,) = done.stderr.splitlines()
    assert re.fullmatch(
        r"error: http://127\.0\.0\.1:\d+/asahi-y/JNLI-Neg/[0-9a-f]{40}/data/jnli-neg-v1\.1/"
        r"jnli-neg-train-v1\.1\.jsonl: cannot download the pinned file: [^;]{1,60}; to read a local copy instead, "
        r"pass --data-dir DIR, or set NEGHUB_DATA_DIR to a mirror holding a jnli-neg/ folder",
        line,
    ), line


def test_a_missing_predictions_file_is_bad_input_whatever_the_network(tmp_path: Path) -> None:
    """The download would fail too (a closed port): the missing file is what the user must hear of."""
    done = neghub("evaluate", "jnli-neg", tmp_path / "typo.jsonl", cwd=tmp_path, mirror=False)
    assert done.returncode == 2
    assert done.stderr == f"error: {tmp_path / 'typo.jsonl'}: file not found\n"


def test_validate_exits_3_when_only_the_data_is_missing_and_2_when_the_submission_is_wrong(tmp_path: Path) -> None:
    folder = tmp_path / "baseline-majority"
    shutil.copytree(rule_submission("majority"), folder)
    empty = tmp_path / "mirror"
    empty.mkdir()
    unreadable = neghub("validate", folder, "--data-dir", empty, cwd=tmp_path)
    assert unreadable.returncode == 3, unreadable.stderr
    assert "cannot be checked here: the jnli-neg release cannot be read" in unreadable.stderr
    (folder / "notes.txt").write_text("an unlisted file\n")
    wrong = neghub("validate", folder, "--data-dir", empty, cwd=tmp_path)
    assert wrong.returncode == 2


# --- --json: one object, always ------------------------------------------------------------------------


def test_json_on_success_is_the_result(tmp_path: Path) -> None:
    done = neghub("evaluate", "scn", scn_predictions(), *FEW, "--json", cwd=tmp_path)
    assert done.returncode == 0
    assert one_json_object(done.stdout)["provenance"]["task"] == "scn"


@pytest.mark.parametrize(
    ("args", "code", "error"),
    [
        (("evaluate", "nubench", "-", "--mode", "option"), 2, "bad input"),  # stdin: one bad line
        (("evaluate", "scn", "missing.jsonl"), 2, "bad input"),
        (("evaluate", "jnli-neg", "{jnli-neg file}", "--data-dir", "no-such-mirror"), 3, "source unavailable"),
        (("evaluate", "scn"), 2, "bad input"),  # a usage error: argparse's own message
        (("evaluate", "scn", "{scn file}", "--mode", "greedy"), 2, "bad input"),
    ],
)
def test_json_on_failure_is_one_object_with_the_problems(
    args: tuple[str, ...], code: int, error: str, tmp_path: Path
) -> None:
    files = {"{jnli-neg file}": str(jnli_neg_line()), "{scn file}": str(scn_predictions())}
    done = neghub(*(files.get(a, a) for a in args), "--json", stdin=b'{"id": 0, "output": 2}\n', cwd=tmp_path)
    assert done.returncode == code, done.stderr
    record = one_json_object(done.stdout)
    assert record["error"] == error and record["exit_code"] == code
    assert record["problems"] and all(set(p) == {"file", "line", "field", "message"} for p in record["problems"])
    # the same problems as the error lines on stderr, for a person watching
    assert all(p["message"] in done.stderr for p in record["problems"])


def test_validate_json_is_one_object_with_the_problems(tmp_path: Path) -> None:
    folder = tmp_path / "baseline-never"
    shutil.copytree(rule_submission("never"), folder)
    (folder / "notes.txt").write_text("an unlisted file\n")
    done = neghub("validate", folder, "--json", cwd=tmp_path)
    assert done.returncode == 2
    (submission,) = one_json_object(done.stdout)["submissions"]
    assert submission["valid"] is False and submission["problems"]


# --- no -0.00, no n/a% ---------------------------------------------------------------------------------


def test_a_report_says_n_a_without_a_unit(tmp_path: Path) -> None:
    """Every answer right: no incorrect choice to distribute, so the distribution does not exist."""
    perfect = tmp_path / "first.jsonl"
    kind = ("--kind", "constant:choice1", "--mode", "completion")
    made = neghub("baseline", "nubench", *kind, "-o", perfect, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    done = neghub("evaluate", "nubench", perfect, "--mode", "completion", *FEW, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "acc 100.00%" in done.stdout
    assert "local_negation n/a, contradiction n/a, paraphrase n/a" in done.stdout
    assert "n/a%" not in done.stdout


def test_a_report_never_prints_minus_zero(shared_datasets: Path, tmp_path: Path) -> None:
    """The majority baseline's AccChg on M_u is exactly zero; its bootstrap interval's low end was zero less a
    float's rounding, which printed as -0.00. The interval is now n/a (the baseline answers both members of
    every pair alike: no discordant pair, nothing to resample), and no other figure prints -0.00 either."""
    done = neghub("evaluate", "jnli-neg", jnli_neg_majority(), "--data-dir", shared_datasets, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (m_u,) = [line for line in done.stdout.splitlines() if line.startswith("M_u ")]
    assert m_u.split()[4:6] == ["0.00", "n/a"]  # AccChg and its interval
    assert not re.search(r"-0\.0+(?![0-9])", done.stdout)


@given(st.floats(allow_nan=True, allow_infinity=False, width=64) | st.none())
def test_no_figure_is_minus_zero(value: float | None) -> None:
    for text in (
        fixed(value),
        fixed(value, 4),
        percent(value),
        percent(value, unit="%"),
        fmt(value),
        fmt(value, "points"),
        fmt(value, "correlation"),
    ):
        if value is None or math.isnan(value):
            assert text in ("n/a", "—")
        elif text.startswith("-"):  # a sign only where the printed number is below zero
            assert float(text.rstrip("%").replace(",", "")) < 0, text


def test_percent_rounds_as_before_but_never_signs_a_zero() -> None:
    assert percent(0.123456) == "12.35"
    assert percent(-0.00004) == "0.00"  # -0.004 points: no loss at two decimals
    assert percent(-0.0001) == "-0.01"
    assert percent(None, unit="%") == "n/a"
    assert percent(0.5, unit="%") == "50.00%"
    assert fmt(-1e-17, "points") == "0.00"
    assert fmt(-0.0004, "correlation") == "0.000"


# --- downloads: counts are integers --------------------------------------------------------------------


def test_the_long_tables_pandas_metadata_is_what_pandas_writes() -> None:
    """exports.py writes the pandas metadata itself, so that a site build does not import pandas: it must be what
    pandas writes for a frame of the same types (the versions aside), so that read_parquet restores them."""
    import json

    import pandas as pd
    import pyarrow as pa

    from neghub.leaderboard.exports import INTEGER_COLUMNS, LONG_COLUMNS, _pandas_metadata

    fields = []
    for name in LONG_COLUMNS:
        if name in INTEGER_COLUMNS:
            fields.append(pa.field(name, pa.int64()))
        elif name == "is_sample":
            fields.append(pa.field(name, pa.bool_()))
        elif name in ("value", "ci_low", "ci_high", "sd"):
            fields.append(pa.field(name, pa.float64()))
        else:
            fields.append(pa.field(name, pa.dictionary(pa.int32(), pa.string())))
    table = pa.schema(fields).empty_table()
    empty = pd.DataFrame(
        {
            f.name: pd.Series(
                dtype="Int64"
                if f.name in INTEGER_COLUMNS
                else ("category" if pa.types.is_dictionary(f.type) else f.type.to_pandas_dtype())
            )
            for f in table.schema
        }
    )
    theirs = json.loads(pa.Schema.from_pandas(empty, preserve_index=False).metadata[b"pandas"])
    ours = json.loads(_pandas_metadata(table)[b"pandas"])
    # what read_parquet restores the frame from (the versions and, from pandas 2.1, `attributes` aside)
    for key in ("columns", "index_columns", "column_indexes"):
        assert ours[key] == theirs[key], key


def test_every_board_download_loads_its_counts_as_integers(tmp_path: Path) -> None:
    """pandas, as a reader loads them: a count written `1177.0` loaded as a float from the CSV."""
    import pandas as pd

    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.site import build_pages

    subs = tmp_path / "submissions"
    for name in ("baseline-first", "baseline-never", "baseline-repeat", "baseline-random"):
        shutil.copytree(rule_submission(name.removeprefix("baseline-")), subs / name)
    files = build_pages(collect(subs, reported=False))
    boards = sorted(name for name in files if re.fullmatch(r"data/[^/]+\.csv", name) and "results-long" not in name)
    assert boards
    for name in boards:
        from_csv = pd.read_csv(io.BytesIO(files[name]))  # type: ignore[arg-type]
        counts = [c for c in from_csv.columns if c.endswith((".n", ".n_items", ".n_triplets"))]
        assert counts and all(str(from_csv[c].dtype) == "int64" for c in counts), name
    # the long table is Parquet only (exports.py): typed columns, counts and ranks as integers, missing or not
    long = pd.read_parquet(io.BytesIO(files["data/results-long.parquet"]))  # type: ignore[arg-type]
    for column in ("shots", "seed", "rank_low", "rank_high", "parameters", "n_runs"):
        assert str(long[column].dtype) == "Int64", column
