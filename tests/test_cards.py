"""Dataset cards: generated from metadata, valid front matter, statistics equal to the paper's, no drift."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from neghub.evaluator.core.errors import InputError
from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.releases import cards
from neghub.evaluator.releases.cards import CardFrontMatter, generate, render_card, split_front_matter, validate_card

from .conftest import ROOT, SHARED_DATASETS

CARDS_DIR = ROOT / "datasets_cards"
SECTIONS = (
    "## Summary",
    "## Negation phenomena",
    "## Structure and fields",
    "## Construction",
    "## Statistics",
    "## Loading",
    "### With `datasets`",
    "### With `neghub`",
    "## Licensing",
    "## Citation",
    "## Limitations",
    "## Release files and pins",
)


def needs_shared(task: str) -> None:
    if task == "jnli-neg" and not (SHARED_DATASETS / "jnli-neg").is_dir():
        pytest.skip(f"../shared/datasets is absent ({SHARED_DATASETS}): the JNLI-Neg statistics cannot be computed")


def table_rows(markdown: str) -> list[str]:
    return [line.strip() for line in markdown.splitlines() if line.startswith("| ")]


@pytest.mark.parametrize("task", cards.available_tasks())
def test_committed_card_equals_the_generated_one(task: str) -> None:
    needs_shared(task)
    committed = CARDS_DIR / f"{task}.md"
    assert committed.is_file(), f"{committed} is missing: run `nox -s cards`"
    assert committed.read_text(encoding="utf-8") == generate(task, SHARED_DATASETS), "drift: run `nox -s cards`"


@pytest.mark.parametrize("task", cards.available_tasks())
def test_committed_card_passes_both_validations_and_has_every_section(task: str) -> None:
    text = (CARDS_DIR / f"{task}.md").read_text(encoding="utf-8")
    metadata = get_benchmark(task).metadata
    root = cards.release_root(metadata, SHARED_DATASETS)
    if task == "jnli-neg":
        needs_shared(task)
    if task == "jsts-neg":
        assert root is None  # NegHub has no copy of the JSTS-Neg release; the card says so
        assert "Not available: the release is not pinned" in text
        assert text.count("not pinned yet") == 3
    model = validate_card(text, root)
    assert model.license == metadata.license
    assert model.pretty_name == metadata.pretty_name
    for section in SECTIONS:
        assert f"\n{section}\n" in text, section
    assert metadata.citation in text


def test_jnli_neg_card_statistics_equal_source_md(shared_datasets: Path) -> None:
    text = generate("jnli-neg", shared_datasets)
    # SOURCE.md's table (the paper's Tables 3 and 4), row by row, as the card must print it.
    source_rows = table_rows((shared_datasets / "jnli-neg" / "SOURCE.md").read_text(encoding="utf-8"))
    figures = [row for row in source_rows if row.startswith(("| D_", "| M_"))]
    assert len(figures) == 6
    for row in figures:
        assert row in table_rows(text), row
    # and the same numbers typed here from SOURCE.md, so the test fails if both the card and SOURCE.md were wrong alike
    assert "| D_orig instances | 823 | 186 |" in text
    assert "| D_neg instances | 4,671 | 1,177 |" in text
    assert "| M_i minimal pairs | 3,475 | 787 |" in text
    assert "| M_u minimal pairs | 3,260 | 935 |" in text
    # end + mid = the pair count: 2,177 + 1,298 = 3,475 and 1,494 + 1,766 = 3,260; 485 + 302 = 787, 424 + 511 = 935
    assert "| M_i cue at sentence end / middle | 2,177 / 1,298 | 485 / 302 |" in text
    assert "| M_u cue at sentence end / middle | 1,494 / 1,766 | 424 / 511 |" in text
    # 5,494 = 823 + 4,671 and 1,363 = 186 + 1,177 records
    assert "| `jnli-neg-train-v1.1.jsonl` | 5,494 |" in text
    assert "| `jnli-neg-valid-v1.1.jsonl` | 1,363 |" in text
    # 6,857 records in all: 1K < n < 10K
    assert split_front_matter(text)[0]["size_categories"] == ["1K<n<10K"]


def test_generation_is_deterministic(shared_datasets: Path) -> None:
    assert generate("jnli-neg", shared_datasets) == generate("jnli-neg", shared_datasets)


def test_statistics_need_the_pinned_data(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="statistics of the card need the pinned jnli-neg release"):
        generate("jnli-neg", tmp_path)


def test_statistics_refuse_a_file_that_differs_from_its_pin(shared_datasets: Path, tmp_path: Path) -> None:
    shutil.copytree(shared_datasets / "jnli-neg", tmp_path / "jnli-neg")
    target = tmp_path / "jnli-neg" / "jnli-neg-valid-v1.1.jsonl"
    target.chmod(0o644)
    target.write_bytes(target.read_bytes() + b"\n")
    with pytest.raises(InputError, match="sha256 mismatch"):
        generate("jnli-neg", tmp_path)


def test_pinned_revision_appears_in_the_loading_code_and_the_pins() -> None:
    revision = "0123456789abcdef0123456789abcdef01234567"
    metadata = get_benchmark("jsts-neg").metadata.model_copy(update={"revision": revision})
    text = render_card(metadata, None)
    assert 'load_dataset("neghub/jsts-neg", revision="0123456789abcdef0123456789abcdef01234567")' in text
    assert "Pinned revision: `0123456789abcdef0123456789abcdef01234567` of `neghub/jsts-neg`." in text
    assert "not yet published" not in text


def test_hub_rendering_points_to_the_metadata_instead_of_its_own_commit() -> None:
    metadata = get_benchmark("jsts-neg").metadata
    text = render_card(metadata, None, for_hub=True)
    assert "Pinned revision: the Hub commit that contains this card" in text
    assert "`evaluator/benchmarks/jsts_neg/metadata.py`" in text
    assert "not yet published" not in text


def test_scn_card_says_the_dataset_is_the_word_lists_and_how_triplets_are_recorded() -> None:
    text = generate("scn", None)
    assert 'its "dataset" is NegHub\'s word lists' in text
    assert "the prediction file lists the kept triplets" in text


def test_front_matter_model_refuses_unknown_keys_and_values() -> None:
    good = {
        "license": "cc-by-sa-4.0",
        "language": ["ja"],
        "task_categories": ["text-classification"],
        "size_categories": ["1K<n<10K"],
        "pretty_name": "X",
        "tags": ["negation"],
    }
    CardFrontMatter.model_validate(good)
    for bad in (
        {**good, "licence": "mit"},  # misspelt key
        {**good, "license": "cc-by-sa"},  # not in the Hub vocabulary
        {**good, "task_categories": ["nli"]},
        {**good, "language": ["Korean"]},  # a language code (ko), not its name
        {**good, "size_categories": ["1K-10K"]},
        {**good, "configs": [{"config_name": "default", "data_files": [{"split": "a b", "path": "x.jsonl"}]}]},
    ):
        with pytest.raises(ValidationError):
            CardFrontMatter.model_validate(bad)


def test_validate_card_names_data_files_missing_from_the_release(tmp_path: Path) -> None:
    text = render_card(get_benchmark("jsts-neg").metadata, None)
    (tmp_path / "jsts-neg-train.jsonl").write_text("")
    with pytest.raises(ValueError, match=r"not in the release .*jsts-neg-valid\.jsonl, jsts-neg-test\.jsonl"):
        validate_card(text, tmp_path)


def test_check_mode_reports_drift(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "jsts-neg.md").write_text("stale\n", encoding="utf-8")
    assert cards.main(["--check", "--out", str(tmp_path), "jsts-neg"]) == 1
    assert "jsts-neg.md: differs from its metadata: run `nox -s cards`" in capsys.readouterr().err
    assert cards.main(["--write", "--out", str(tmp_path), "jsts-neg"]) == 0
    assert cards.main(["--check", "--out", str(tmp_path), "jsts-neg"]) == 0


def test_scn_card_lists_its_tsv_config_first_so_datasets_reads_the_release_with_csv() -> None:
    # `datasets` picks one builder for a repository from the first config's files; the plain-text lists
    # then carry the csv options that read a line as one `text` value (tests/test_release_loading.py loads them)
    configs = cards.card_configs(get_benchmark("scn").metadata)
    assert [c["config_name"] for c in configs] == ["professions", "female_names", "male_names", "verbs"]
    assert configs[0] == {
        "config_name": "professions",
        "data_files": [{"split": "word_lists", "path": "professions.tsv"}],
        "quoting": 3,
        "na_filter": False,
    }
    assert configs[1]["default"] is True  # the metadata's first config stays the default
    assert all(c["column_names"] == ["text"] and c["header"] is None for c in configs[1:])
    assert "Every file holds data only (no comment lines)" in generate("scn", None)


def test_card_configs_refuse_a_release_no_single_builder_can_load() -> None:
    metadata = get_benchmark("nubench").metadata
    mixed = metadata.model_copy(
        update={"files": (metadata.files[0], metadata.files[2].model_copy(update={"path": "notes.txt"}))}
    )
    with pytest.raises(ValueError, match="one builder; the files call for json, text"):
        cards.card_configs(mixed)
