"""`neghub datasets verify | publish | convert`: pins checked, commit operations built, releases reproducible."""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from neghub.evaluator.core.registry import benchmark_names, get_benchmark
from neghub.evaluator.releases import commands as hub
from neghub.evaluator.releases.cards import has_statistics, render_card

from .conftest import ROOT, SHARED_DATASETS

TRAIN_SHA = "adc27dfba32e0c56c5f4bc84c03e346dcb4a73266ca9b7db38bfa8d379247302"  # SHA256SUMS of the upstream release
VALID_SHA = "da5c18369face5a6e338b67732c9beeef4aefd0937f314e9249119e2d988ea03"
COMMIT = "89abcdef0123456789abcdef0123456789abcdef"


# The tasks with a release NegHub can read here: JNLI-Neg's upstream files beside the checkout, NUBench's
# sample and SCN's word lists inside the package. JSTS-Neg has none: no file of it is pinned.
RELEASE_TASKS = ("jnli-neg", "nubench", "scn")
# what each release folder on the Hub holds: its data files (ls), README.md (the card) and LICENSE
HUB_FILES = {
    "jnli-neg": ["jnli-neg-train-v1.1.jsonl", "jnli-neg-valid-v1.1.jsonl", "README.md", "LICENSE"],
    "nubench": [
        "multiple-choice/test.jsonl",
        "multiple-choice/demonstration.jsonl",
        "sentence-negation/train.jsonl",
        "README.md",
        "LICENSE",
    ],
    "scn": ["female_names.txt", "male_names.txt", "professions.tsv", "verbs.txt", "README.md", "LICENSE"],
}


def release_source(task: str) -> Path:
    """The folder a task's release is converted and published from (skips JNLI-Neg without ../shared)."""
    if task == "jnli-neg":
        if not (SHARED_DATASETS / "jnli-neg").is_dir():
            pytest.skip(f"../shared/datasets is absent ({SHARED_DATASETS}): the real JNLI-Neg release is not here")
        return SHARED_DATASETS / "jnli-neg"
    bundled = get_benchmark(task).bundled_release
    assert bundled is not None, f"{task} ships no release in the package"
    return bundled


def test_the_release_tasks_are_every_task_with_a_pinned_release() -> None:
    assert {task for task in benchmark_names() if has_statistics(get_benchmark(task).metadata)} == set(RELEASE_TASKS)


@pytest.mark.parametrize("task", RELEASE_TASKS)
def test_every_release_converts_and_dry_run_publishes(task: str, tmp_path: Path, neghub: Any) -> None:
    source = release_source(task)
    metadata = get_benchmark(task).metadata
    out = tmp_path / task
    result = neghub("datasets", "convert", task, "--source", source, "-o", out)
    assert result.code == 0, result.err
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(HUB_FILES[task])
    for release_file in metadata.files:
        assert hashlib.sha256((out / release_file.path).read_bytes()).hexdigest() == release_file.sha256
    assert (out / "LICENSE").read_bytes() == (source / "LICENSE").read_bytes()

    result = neghub("datasets", "publish", task, "--repo-id", f"neghub/{task}", "--dry-run", "--release-dir", source)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == f"would commit to hf://datasets/neghub/{task} ({len(HUB_FILES[task])} files):"
    assert [line.split()[1] for line in lines[1:]] == HUB_FILES[task]
    for line in lines[1:]:  # "  add PATH  SIZE bytes  sha256 DIGEST": the very bytes convert wrote
        _, path, size, _, _, digest = line.split()
        assert int(size) == (out / path).stat().st_size, path
        assert digest == hashlib.sha256((out / path).read_bytes()).hexdigest(), path


def test_the_nubench_sample_carries_the_cc_by_nc_sa_text_its_metadata_names() -> None:
    metadata = get_benchmark("nubench").metadata
    assert metadata.license == "cc-by-nc-sa-4.0"  # the paper's Ethics statement: CC BY-NC-SA 4.0
    text = (release_source("nubench") / "LICENSE").read_text(encoding="utf-8")
    assert "Creative Commons Attribution-NonCommercial-ShareAlike 4.0 International Public License" in text
    assert "NonCommercial means not primarily intended for or directed towards commercial advantage" in text
    assert "Creative Commons may be contacted at creativecommons.org." in text  # the legal code's last line


def writable_copy(shared_datasets: Path, tmp_path: Path) -> Path:
    mirror = tmp_path / "mirror"
    shutil.copytree(shared_datasets / "jnli-neg", mirror / "jnli-neg")
    for path in (mirror / "jnli-neg").iterdir():
        path.chmod(0o644)
    return mirror


def test_verify_passes_on_the_shared_mirror(shared_datasets: Path, neghub: Any) -> None:
    result = neghub("datasets", "verify", "--data-dir", shared_datasets)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines == [
        f"OK        {shared_datasets / 'jnli-neg' / 'jnli-neg-train-v1.1.jsonl'}  {TRAIN_SHA}",
        f"OK        {shared_datasets / 'jnli-neg' / 'jnli-neg-valid-v1.1.jsonl'}  {VALID_SHA}",
    ]


def test_verify_fails_clearly_on_one_changed_byte(shared_datasets: Path, tmp_path: Path, neghub: Any) -> None:
    mirror = writable_copy(shared_datasets, tmp_path)
    target = mirror / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl"
    data = bytearray(target.read_bytes())
    data[100] ^= 0x01  # one bit of one byte
    target.write_bytes(bytes(data))
    changed = hashlib.sha256(bytes(data)).hexdigest()
    result = neghub("datasets", "verify", "--data-dir", mirror)
    assert result.code == 2
    assert f"OK        {mirror / 'jnli-neg' / 'jnli-neg-train-v1.1.jsonl'}  {TRAIN_SHA}" in result.out
    assert f"MISMATCH  {target}  expected {VALID_SHA}, got {changed}" in result.out
    assert result.err == (
        f"error: {target}: sha256 mismatch: expected {VALID_SHA}, got {changed}; "
        "the file differs from the pinned release\n"
    )


def test_verify_reports_a_missing_file(shared_datasets: Path, tmp_path: Path, neghub: Any) -> None:
    mirror = writable_copy(shared_datasets, tmp_path)
    (mirror / "jnli-neg" / "jnli-neg-train-v1.1.jsonl").unlink()
    result = neghub("datasets", "verify", "jnli-neg", "--data-dir", mirror)
    assert result.code == 2
    assert f"MISSING   {mirror / 'jnli-neg' / 'jnli-neg-train-v1.1.jsonl'}" in result.out
    assert "missing: the pinned release has this file" in result.err


def test_verify_names_an_empty_data_dir(tmp_path: Path, neghub: Any) -> None:
    result = neghub("datasets", "verify", "--data-dir", tmp_path)
    assert result.code == 2
    assert "no release folder of" in result.err


def test_publish_dry_run_prints_the_exact_operations_and_changes_nothing(
    shared_datasets: Path, neghub: Any, tmp_path: Path
) -> None:
    module = ROOT / "evaluator" / "benchmarks" / "jnli_neg" / "metadata.py"
    before = module.read_bytes()
    release = shared_datasets / "jnli-neg"
    result = neghub(
        "datasets", "publish", "jnli-neg", "--repo-id", "neghub/jnli-neg", "--dry-run", "--release-dir", release
    )
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == "would commit to hf://datasets/neghub/jnli-neg (4 files):"
    # sizes of the upstream files (ls -l ../shared/datasets/jnli-neg): 2,769,955 / 699,473 / 19,592 bytes
    assert lines[1] == f"  add jnli-neg-train-v1.1.jsonl  2769955 bytes  sha256 {TRAIN_SHA}"
    assert lines[2] == f"  add jnli-neg-valid-v1.1.jsonl  699473 bytes  sha256 {VALID_SHA}"
    card = hub.hub_card(get_benchmark("jnli-neg").metadata, release).encode("utf-8")
    assert lines[3] == f"  add README.md  {len(card)} bytes  sha256 {hashlib.sha256(card).hexdigest()}"
    license_sha = hashlib.sha256((release / "LICENSE").read_bytes()).hexdigest()
    assert lines[4] == f"  add LICENSE  19592 bytes  sha256 {license_sha}"
    assert len(lines) == 5
    assert module.read_bytes() == before


def test_commit_operations_carry_the_planned_bytes(shared_datasets: Path) -> None:
    from huggingface_hub import CommitOperationAdd

    planned = hub.plan_release(get_benchmark("jnli-neg").metadata, shared_datasets / "jnli-neg")
    operations = hub.commit_operations(planned)
    assert [op.path_in_repo for op in operations] == [
        "jnli-neg-train-v1.1.jsonl",
        "jnli-neg-valid-v1.1.jsonl",
        "README.md",
        "LICENSE",
    ]
    assert all(isinstance(op, CommitOperationAdd) for op in operations)
    # the library hashes what it will upload; it must be what we planned and pinned
    assert operations[0].upload_info.sha256.hex() == TRAIN_SHA
    assert operations[1].upload_info.sha256.hex() == VALID_SHA
    assert operations[1].upload_info.size == 699473


def test_publish_refuses_a_release_with_an_unpinned_file_or_no_license(tmp_path: Path, neghub: Any) -> None:
    release = tmp_path / "jsts-neg"
    release.mkdir()
    for name in ("jsts-neg-train.jsonl", "jsts-neg-valid.jsonl", "jsts-neg-test.jsonl"):
        (release / name).write_text("")
    result = neghub(
        "datasets", "publish", "jsts-neg", "--repo-id", "neghub/jsts-neg", "--dry-run", "--release-dir", release
    )
    assert result.code == 2
    assert result.err.count("no pinned sha256: pin the file") == 3
    assert f"error: {release / 'LICENSE'}: missing: a release carries its license text" in result.err


def test_the_bundled_scn_word_lists_publish_with_their_cc_by_license(neghub: Any) -> None:
    result = neghub("datasets", "publish", "scn", "--repo-id", "neghub/scn", "--dry-run")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == "would commit to hf://datasets/neghub/scn (6 files):"
    # the four word lists, then the card, then the license: file names in the metadata's order
    assert [line.split()[1] for line in lines[1:]] == [
        "female_names.txt",
        "male_names.txt",
        "professions.tsv",
        "verbs.txt",
        "README.md",
        "LICENSE",
    ]
    license_text = (ROOT / "evaluator" / "benchmarks" / "scn" / "word_lists" / "LICENSE").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 4.0 International" in license_text
    assert get_benchmark("scn").metadata.license == "cc-by-4.0"


def test_publish_rejects_a_bad_repo_id(neghub: Any) -> None:
    result = neghub("datasets", "publish", "jnli-neg", "--repo-id", "no-slash", "--dry-run")
    assert result.code == 2
    assert "error: --repo-id: expected ORG/NAME, got 'no-slash'" in result.err


@dataclass
class RecordingApi:
    """Stands in for HfApi (the Hub cannot be reached here); records the one call publish makes."""

    calls: list[dict[str, Any]]

    def create_commit(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        return type("CommitInfo", (), {"oid": COMMIT})()


def test_publish_makes_one_commit_then_pins_its_hash(shared_datasets: Path, tmp_path: Path) -> None:
    module = tmp_path / "jnli_neg.py"
    shutil.copyfile(ROOT / "evaluator" / "benchmarks" / "jnli_neg" / "metadata.py", module)
    api = RecordingApi([])
    revision = hub.publish(
        "jnli-neg", "my-org/jnli-neg", shared_datasets / "jnli-neg", dry_run=False, api=api, module_path=module
    )
    assert revision == COMMIT
    assert len(api.calls) == 1
    call = api.calls[0]
    assert call["repo_id"] == "my-org/jnli-neg"
    assert call["repo_type"] == "dataset"
    assert [op.path_in_repo for op in call["operations"]] == [
        "jnli-neg-train-v1.1.jsonl",
        "jnli-neg-valid-v1.1.jsonl",
        "README.md",
        "LICENSE",
    ]
    text = module.read_text(encoding="utf-8")
    assert f'    revision="{COMMIT}",\n' in text
    assert '    hub_repo_id="my-org/jnli-neg",\n' in text


def test_pin_revision_changes_exactly_two_lines() -> None:
    source = (ROOT / "evaluator" / "benchmarks" / "jnli_neg" / "metadata.py").read_text(encoding="utf-8")
    pinned = hub.pin_revision(source, "neghub/jnli-neg", COMMIT)
    changed = [(a, b) for a, b in zip(source.splitlines(), pinned.splitlines(), strict=True) if a != b]
    assert changed == [("    revision=None,", f'    revision="{COMMIT}",')]  # the repo id was already this one
    again = hub.pin_revision(pinned, "other/name", "f" * 40)
    changed = [(a, b) for a, b in zip(pinned.splitlines(), again.splitlines(), strict=True) if a != b]
    assert changed == [
        ('    hub_repo_id="neghub/jnli-neg",', '    hub_repo_id="other/name",'),
        (f'    revision="{COMMIT}",', f'    revision="{"f" * 40}",'),
    ]
    compile(again, "jnli_neg.py", "exec")


def test_pin_revision_refuses_an_ambiguous_module() -> None:
    with pytest.raises(ValueError, match="exactly one `revision=` line in the metadata, found 0"):
        hub.pin_revision('    hub_repo_id="a/b",\n', "a/b", COMMIT)
    with pytest.raises(ValueError, match="found 2"):
        hub.pin_revision('    hub_repo_id="a/b",\n    revision=None,\n    revision=None,\n', "a/b", COMMIT)
    with pytest.raises(ValueError, match="not a commit hash"):
        hub.pin_revision("", "a/b", "main")


def test_convert_builds_a_reproducible_release(shared_datasets: Path, tmp_path: Path, neghub: Any) -> None:
    source = shared_datasets / "jnli-neg"
    first, second = tmp_path / "a", tmp_path / "b"
    for out in (first, second):
        result = neghub("datasets", "convert", "jnli-neg", "--source", source, "-o", out)
        assert result.code == 0, result.err
    names = sorted(p.name for p in first.iterdir())
    assert names == ["LICENSE", "README.md", "jnli-neg-train-v1.1.jsonl", "jnli-neg-valid-v1.1.jsonl"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert hashlib.sha256((first / "jnli-neg-train-v1.1.jsonl").read_bytes()).hexdigest() == TRAIN_SHA
    assert hashlib.sha256((first / "jnli-neg-valid-v1.1.jsonl").read_bytes()).hexdigest() == VALID_SHA
    assert (first / "LICENSE").read_bytes() == (source / "LICENSE").read_bytes()
    readme = (first / "README.md").read_text(encoding="utf-8")
    assert readme == hub.hub_card(get_benchmark("jnli-neg").metadata, source)
    assert readme != render_card(get_benchmark("jnli-neg").metadata, None)  # the Hub card carries the statistics
    # the converted folder is itself a mirror that verifies
    mirror = tmp_path / "mirror"
    shutil.copytree(first, mirror / "jnli-neg")
    assert neghub("datasets", "verify", "jnli-neg", "--data-dir", mirror).code == 0


def test_convert_refuses_a_folder_with_other_files(shared_datasets: Path, tmp_path: Path, neghub: Any) -> None:
    (tmp_path / "notes.txt").write_text("x")
    result = neghub("datasets", "convert", "jnli-neg", "--source", shared_datasets / "jnli-neg", "-o", tmp_path)
    assert result.code == 2
    assert "holds files outside the release (notes.txt)" in result.err
