"""Every error that suggests a fix names one that exists: each test below makes the error happen, checks that it is
one line saying what to do, then does what the line says and runs the same command again, which must get past it.

And the few ways a command's output can be cut short: a pipe whose reader leaves early (`| head`) ends the command
quietly, with its own exit status.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.fileio import safe_yaml
from neghub.evaluator.releases.loading import DATA_DIR_ENV

from .conftest import ROOT
from .upstream_server import UpstreamServer, build_site

# a valid submission of one SCN run (no release to read, so these tests need no ../shared)
VALID = ROOT / "tests" / "catalogue" / "valid"


def cli(env: dict[str, str], *args: Any, stdout: Any = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """The command line in a fresh process: nothing cached in memory, the context of each command its own."""
    return subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", *map(str, args)],
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=600,
        cwd=ROOT,
    )


@pytest.fixture
def offline(tmp_path: Path) -> dict[str, str]:
    """No mirror, an empty cache, the network off (as the variable NegHub documents for it)."""
    env = {k: v for k, v in os.environ.items() if k != DATA_DIR_ENV}
    env.update(NEGHUB_CACHE=str(tmp_path / "cache"), NEGHUB_OFFLINE="1", HF_HUB_OFFLINE="1")
    return env


def error_lines(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr, done.stderr
    return [line for line in done.stderr.splitlines() if line.startswith("error: ")]


# --- metadata.yaml indented with a tab ------------------------------------------------------------------------


def test_a_tab_in_metadata_says_indent_with_spaces_and_spaces_fix_it(tmp_path: Path, neghub: Any) -> None:
    folder = shutil.copytree(VALID, tmp_path / "tabbed")
    metadata = folder / "metadata.yaml"
    lines = metadata.read_text(encoding="utf-8").splitlines(keepends=True)
    tabbed_at = next(i for i, line in enumerate(lines) if line.startswith("  "))
    lines[tabbed_at] = "\t" + lines[tabbed_at][2:]
    metadata.write_text("".join(lines), encoding="utf-8")
    result = neghub("validate", folder)
    assert result.code == 2
    assert result.err == (
        f"error: tabbed/metadata.yaml:{tabbed_at + 1}: invalid YAML: a tab character in the indentation: indent "
        "with spaces (YAML does not allow tabs there)\n"
    )
    metadata.write_text(metadata.read_text(encoding="utf-8").replace("\t", "  "), encoding="utf-8")  # the fix
    assert neghub("validate", folder).code == 0


# --- a prediction file in CSV or TSV --------------------------------------------------------------------------


@pytest.mark.parametrize("separator", [",", "\t"])
def test_a_csv_or_tsv_file_is_one_line_with_the_json_lines_line_to_write(
    separator: str, tmp_path: Path, neghub: Any
) -> None:
    jsonl = tmp_path / "first.jsonl"
    assert neghub("baseline", "nubench", "--kind", "first", "--mode", "option", "-o", jsonl).code == 0
    rows = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    table = tmp_path / "first.csv"
    with table.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter=separator, lineterminator="\n")
        writer.writerow(["id", "output"])
        writer.writerows([row["id"], row["output"]] for row in rows)
    result = neghub("evaluate", "nubench", table, "--mode", "option")
    assert result.code == 2
    kind = "CSV (values separated by commas)" if separator == "," else "TSV (values separated by tabs)"
    first = json.dumps({"id": rows[0]["id"], "output": rows[0]["output"]})  # the file's first row, by hand
    assert result.err == (
        f"error: {table}:1: is {kind}, not JSON Lines: write one JSON object per line, like {first}\n"
    )
    # the fix: every row written as the example writes the first (the header's names as keys, whole numbers bare)
    example = json.loads(first)
    fixed = tmp_path / "first-fixed.jsonl"
    with table.open(encoding="utf-8", newline="") as handle:
        read = list(csv.DictReader(handle, delimiter=separator))
    assert {key: type(value) for key, value in example.items()} == {"id": int, "output": str}
    fixed.write_text("".join(json.dumps({"id": int(r["id"]), "output": r["output"]}) + "\n" for r in read))
    assert neghub("evaluate", "nubench", fixed, "--mode", "option").code == 0


def test_a_csv_file_without_a_header_is_shown_a_line_of_json_lines() -> None:
    from neghub.evaluator.fileio.jsonl import JSONL_EXAMPLE, tabular_file

    assert tabular_file("12,contradiction\n13,neutral\n") == (
        f"is CSV (values separated by commas), not JSON Lines: write one JSON object per line, like {JSONL_EXAMPLE}"
    )
    assert tabular_file('{"id": 12, "prediction": "a,b"}\n') is None  # JSON with commas inside is JSON
    assert tabular_file("not json 0\nnot json 1\n") is None  # garbage without separators: each line says why


# --- a release that cannot be read here ------------------------------------------------------------------------


def option_names(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", text))


def command_options(env: dict[str, str], *command: str) -> set[str]:
    """The options `neghub COMMAND --help` lists."""
    done = cli(env, *command, "--help")
    assert done.returncode == 0, done.stderr
    return option_names(done.stdout)


def test_convert_offline_names_data_dir_which_convert_takes(
    shared_datasets: Path, offline: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "jnli-neg"
    done = cli(offline, "datasets", "convert", "jnli-neg", "-o", out)
    assert done.returncode == 3
    (line,) = error_lines(done)
    assert "pass --data-dir DIR" in line
    assert option_names(line) <= command_options(offline, "datasets", "convert")
    fixed = cli(offline, "datasets", "convert", "jnli-neg", "--data-dir", shared_datasets, "-o", out)  # the fix
    assert fixed.returncode == 0, fixed.stderr
    assert (out / "README.md").is_file()


def test_fetch_offline_names_no_option_fetch_lacks_and_its_fix_fetches(
    shared_datasets: Path, offline: dict[str, str], tmp_path: Path
) -> None:
    offline["NEGHUB_UPSTREAM_ENDPOINT"] = "http://127.0.0.1:9"  # the discard port: nothing answers
    del offline["NEGHUB_OFFLINE"], offline["HF_HUB_OFFLINE"]
    done = cli(offline, "datasets", "fetch", "jnli-neg")
    assert done.returncode == 3
    (line,) = error_lines(done)
    assert "--data-dir" not in line and option_names(line) <= command_options(offline, "datasets", "fetch")
    assert "set NEGHUB_UPSTREAM_ENDPOINT=http://HOST:PORT, a host that serves the upstream paths" in line
    site = tmp_path / "www"
    build_site(shared_datasets, site)
    server = UpstreamServer(site)
    try:
        offline["NEGHUB_UPSTREAM_ENDPOINT"] = server.url  # the fix
        fixed = cli(offline, "datasets", "fetch", "jnli-neg")
    finally:
        server.stop()
    assert fixed.returncode == 0, fixed.stderr


@pytest.mark.parametrize(
    "command",
    [
        ("evaluate", "jnli-neg", "PREDICTIONS", "--split", "valid"),
        ("baseline", "jnli-neg", "--kind", "majority", "--split", "valid", "-o", "OUT"),
        ("datasets", "verify", "jnli-neg"),
    ],
)
def test_each_command_offline_names_only_options_it_has_and_data_dir_fixes_it(
    command: tuple[str, ...], shared_datasets: Path, offline: dict[str, str], tmp_path: Path
) -> None:
    predictions = tmp_path / "predictions.jsonl"  # a whole split's, made from the mirror, for a command that reads one
    if "PREDICTIONS" in command:
        made = cli(
            offline, "baseline", "jnli-neg", "--kind", "majority", "--data-dir", shared_datasets, "-o", predictions
        )
        assert made.returncode == 0, made.stderr
    out = str(tmp_path / "out.jsonl")
    argv = [str(predictions) if a == "PREDICTIONS" else out if a == "OUT" else a for a in command]
    done = cli(offline, *argv)
    lines = error_lines(done)
    if command[0] == "datasets":  # verify reads no release: it says there is none to check, with the option
        assert done.returncode == 2 and "pass --data-dir DIR" in done.stdout
        names = option_names(done.stdout)
    else:
        assert done.returncode == 3 and len(lines) == 1 and "pass --data-dir DIR" in lines[0]
        names = option_names(lines[0])
    assert names <= command_options(offline, *command[: 2 if command[0] == "datasets" else 1])
    fixed = cli(offline, *argv, "--data-dir", shared_datasets)  # the fix
    assert fixed.returncode == 0, fixed.stderr


# --- a pipe whose reader leaves early ----------------------------------------------------------------------------


def closed_reader(env: dict[str, str], *args: Any) -> subprocess.CompletedProcess[str]:
    """The command with its stdout a pipe that nobody reads: closed before the command writes (`| head -c 0`)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return cli(env, *args, stdout=write_end)
    finally:
        os.close(write_end)


def test_a_result_into_a_closed_pipe_ends_quietly_with_success(tmp_path: Path) -> None:
    env = dict(os.environ)
    predictions = VALID / "predictions" / "scn" / "run.jsonl"
    done = closed_reader(env, "evaluate", "scn", predictions, "--json", "--bootstrap-resamples", "10")
    assert (done.returncode, done.stderr) == (0, "")


def test_a_refused_file_into_a_closed_pipe_keeps_exit_code_2(tmp_path: Path) -> None:
    env = dict(os.environ)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    done = closed_reader(env, "evaluate", "scn", bad, "--json")
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_validate_into_a_closed_pipe_keeps_its_exit_code(tmp_path: Path) -> None:
    env = dict(os.environ)
    folder = shutil.copytree(VALID, tmp_path / "broken")
    (folder / "metadata.yaml").write_text("model: [\n")
    done = closed_reader(env, "validate", folder, "--json")
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_the_quiet_stream_passes_everything_until_its_reader_leaves() -> None:
    from neghub.evaluator.fileio.pipes import _QuietWhenClosed

    class Leaves(io.StringIO):
        def write(self, text: str) -> int:
            if "stop" in text:
                raise BrokenPipeError
            return super().write(text)

    target = Leaves()
    stream = _QuietWhenClosed(target)
    stream.write("kept\n")
    stream.write("stop\n")
    stream.write("dropped\n")
    stream.flush()
    assert target.getvalue() == "kept\n" and stream.reader_gone


def test_tab_message_is_what_the_loader_raises() -> None:
    with pytest.raises(safe_yaml.SafeYAMLError) as caught:
        safe_yaml.load("model:\n\tkind: hub\n")
    assert (caught.value.message, caught.value.line) == (safe_yaml.TAB_MESSAGE, 2)
