"""A run's numeric setting: recorded by `neghub run`, used by `neghub reproduce` by default, and another setting
gives a drift report, never a reproduction (runners/setting.py, runners/reproduce.py). bfloat16 runs on CPU."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from neghub.evaluator.cli import main
from neghub.evaluator.runners.reproduce import line_drift, summary, verdict
from neghub.evaluator.runners.setting import describe, recorded_setting, setting_differences
from neghub.evaluator.submissions.reproduction import NumericSetting, ReproducedRun, Reproduction
from tests.reproduction_records import minimal_record

ROOT = Path(__file__).parents[1]


def _setting(**changes: object) -> NumericSetting:
    values: dict[str, object] = {
        "device": "cpu",
        "dtype": "bfloat16",
        "attn_implementation": "sdpa",
        "batch_size": 8,
        "batch_tokens": 8192,
        "device_name": "some CPU",
        "torch_version": "2.13.0+cpu",
        "transformers_version": "5.23.0",
        "cuda_version": None,
    }
    return NumericSetting.model_validate({**values, **changes})


# --- which settings are one, no model needed ---------------------------------------------------------------


def test_device_type_and_dtype_define_the_setting_and_16_bits_add_attention_and_batches() -> None:
    recorded = _setting()
    assert setting_differences(recorded, _setting()) == []
    # shown, never compared: the processor and the library versions
    assert setting_differences(recorded, _setting(device_name="another CPU", torch_version="2.14.0")) == []
    assert setting_differences(recorded, _setting(dtype="float32")) == ["dtype: bfloat16 recorded, float32 here"]
    assert setting_differences(recorded, _setting(device="cuda")) == ["device: cpu recorded, cuda here"]
    # in bfloat16 the batches and the attention move log-likelihoods by tenths of a nat: they must match
    assert setting_differences(recorded, _setting(batch_size=4)) == ["batch_size: 8 recorded, 4 here"]
    assert setting_differences(recorded, _setting(batch_tokens=None)) == ["batch_tokens: 8192 recorded, none here"]
    assert setting_differences(recorded, _setting(attn_implementation="eager")) == [
        "attn_implementation: sdpa recorded, eager here"
    ]
    # in float32 they move them by 1e-5 nats: they need not
    f32 = _setting(dtype="float32")
    assert setting_differences(f32, _setting(dtype="float32", batch_size=2, attn_implementation="eager")) == []


def test_the_committed_smollm2_submission_reads_as_cpu_float32_in_batches_of_16() -> None:
    # made before the setting was recorded: the batch size comes from its command, the attention is unknown
    metadata = yaml.safe_load((ROOT / "submissions/smollm2-135m-instruct/metadata.yaml").read_text(encoding="utf-8"))
    recorded = recorded_setting(metadata["provenance"])
    assert (recorded.device, recorded.dtype, recorded.batch_size) == ("cpu", "float32", 16)
    assert (recorded.attn_implementation, recorded.batch_tokens) == (None, None)
    here = _setting(dtype="float32", batch_size=16, batch_tokens=None)
    assert setting_differences(recorded, here) == []
    # an unrecorded device or dtype (a submission imported from another engine) is never the same setting
    assert setting_differences(recorded_setting({}), here) == [
        "device: not recorded, cpu here",
        "dtype: not recorded, float32 here",
    ]
    # a command without --batch-size ran with the runner's default
    assert recorded_setting({"command": "neghub run model.gguf --tasks nubench -o out"}).batch_size == 8


def test_drift_counts_answers_and_numbers_apart() -> None:
    mine = [{"id": 1, "loglikelihoods": {"choice1": -1.0, "choice2": None, "choice3": -2.0}}]
    moved = [{"id": 1, "loglikelihoods": {"choice1": -1.25, "choice2": None, "choice3": -2.5}}]
    assert line_drift(mine, moved) == (True, [0.25, 0.5])  # the same arg-max: the same answer
    flipped = [{"id": 1, "loglikelihoods": {"choice1": -3.0, "choice2": None, "choice3": -2.0}}]
    assert line_drift(mine, flipped) == (False, [])  # choice3 is now the answer
    assert line_drift([{"id": 1, "output": " A"}], [{"id": 1, "output": " B"}]) == (False, [])
    assert line_drift(mine, []) == (False, [])  # an SCN pair that selected other triplets


def _record(kind: str, **run: object) -> Reproduction:
    values: dict[str, object] = {
        "file": "predictions/x.jsonl",
        "predictions_sha256": "0" * 64,
        "items_checked": 200,
        "items_agreeing": 194,
        "comparison": "test",
        "answers_differing": 3,
        "max_abs_delta": 0.677,
        "median_abs_delta": 0.0123,
    }
    return minimal_record(
        kind=kind,
        recorded_setting=_setting(device="cuda", device_name="an H100", cuda_version="13.0"),
        run_setting=_setting(dtype="float32"),
        setting_differences=["device: cuda recorded, cpu here", "dtype: bfloat16 recorded, float32 here"],
        items_per_run=200,
        runs=[ReproducedRun.model_validate({**values, **run})],
    )


def test_the_summary_says_agree_and_differ_in_the_recorded_setting_and_drift_across() -> None:
    assert summary(_record("same-setting")) == ["predictions/x.jsonl: 194/200 sampled items agree; 6 differ"]
    drift = _record("across-settings")
    assert summary(drift) == [
        "predictions/x.jsonl: 200 items compared across settings; 3 answers differ; "
        "|Δ log-likelihood| max 0.677, median 0.0123"
    ]
    said = verdict(drift)
    assert "reproduced" not in said.replace("not a reproduction", "")
    assert describe(drift.recorded_setting) in said and describe(drift.run_setting) in said  # type: ignore[arg-type]
    # a drift report never counts as agreeing, even when every item does
    assert not _record("across-settings", items_agreeing=200).agrees()
    # nor does a record that compared a sample (schema 1 to 3): only one that compared every item of its runs
    sampled = _record("same-setting", items_agreeing=200)
    assert not sampled.agrees()
    whole = sampled.model_dump()
    whole.update(schema_version=4, metadata_sha256="0" * 64, sample_seed=None, items_per_run=None)
    whole["runs"][0]["items_in_run"] = 200
    assert Reproduction.model_validate(whole).agrees()


def test_a_schema_2_record_says_its_kind_and_a_schema_1_record_still_reads() -> None:
    with pytest.raises(ValueError, match="says its kind"):
        Reproduction.model_validate({**_record("same-setting").model_dump(), "kind": None})
    with pytest.raises(ValueError, match="is schema_version 2 or later"):
        Reproduction.model_validate({**_record("same-setting").model_dump(), "schema_version": 1})
    old = json.loads((ROOT / "reproductions/smollm2-135m-instruct.json").read_text(encoding="utf-8"))
    old.pop("kind", None)
    for key in ("recorded_setting", "run_setting", "setting_differences"):
        old.pop(key, None)
    del old["schema_version"]  # a record that names no version is read as version 1
    for run in old["runs"]:
        for key in ("answers_differing", "max_abs_delta", "median_abs_delta"):
            run.pop(key, None)
    record = Reproduction.model_validate(old)
    assert record.kind is None and not record.agrees()  # not a reproduction: its setting is unknown


# --- a tiny model in bfloat16, end to end -------------------------------------------------------------------

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tests.test_runners import _causal  # noqa: E402


@pytest.fixture(scope="module")
def bf16_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A tiny causal model's NUBench submission made in bfloat16 on the CPU, in batches of 4."""
    root = tmp_path_factory.mktemp("bf16")
    model = _causal(root / "model")
    out = root / "tiny-bf16"
    argv = ["run", str(model), "--tasks", "nubench", "--dtype", "bfloat16", "--batch-size", "4", "-o", str(out)]
    assert main([*argv, "--no-progress"]) == 0
    return model, out


def test_a_run_records_its_numeric_setting(bf16_run: tuple[Path, Path]) -> None:
    _, sub = bf16_run
    provenance = yaml.safe_load((sub / "metadata.yaml").read_text(encoding="utf-8"))["provenance"]
    assert {k: provenance[k] for k in ("device", "dtype", "attn_implementation", "batch_size", "batch_tokens")} == {
        "device": "cpu",
        "dtype": "bfloat16",
        "attn_implementation": "sdpa",
        "batch_size": 4,
        "batch_tokens": 8192,
    }
    assert provenance["torch_version"] == torch.__version__ and provenance["cuda_version"] == torch.version.cuda
    assert provenance["transformers_version"] and provenance["device_name"]


def _reproduce(sub: Path, model: Path, records: Path, *extra: str) -> Reproduction:
    assert main(["reproduce", str(sub), "--model", str(model), "-o", str(records), *extra]) == 0
    return Reproduction.model_validate_json((records / f"{sub.name}.json").read_text(encoding="utf-8"))


def test_a_bf16_submission_reproduces_in_its_own_setting_by_default(
    bf16_run: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, sub = bf16_run
    record = _reproduce(sub, model, tmp_path)
    assert record.kind == "same-setting" and record.agrees()
    assert record.run_setting is not None and record.run_setting.dtype == "bfloat16"
    assert record.recorded_setting == record.run_setting  # this machine, these libraries: every field alike
    assert "bfloat16" in record.device
    # the same batches give the same bits: nothing moved at all
    assert all(run.answers_differing == 0 and run.max_abs_delta in (0.0, None) for run in record.runs)
    err = capsys.readouterr().err
    assert "reproducing in the recorded setting: cpu bfloat16" in err and ": reproduced in the recorded setting" in err


def test_a_forced_float32_check_of_a_bf16_submission_is_a_drift_report(
    bf16_run: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, sub = bf16_run
    record = _reproduce(sub, model, tmp_path, "--dtype", "float32")
    assert record.kind == "across-settings" and not record.agrees()
    assert record.recorded_setting is not None and record.recorded_setting.dtype == "bfloat16"
    assert record.run_setting is not None and record.run_setting.dtype == "float32"
    assert record.setting_differences == ["dtype: bfloat16 recorded, float32 here"]
    completion = next(run for run in record.runs if "completion" in run.file)
    assert completion.max_abs_delta is not None and completion.max_abs_delta > 0  # bfloat16 is not float32
    out, err = capsys.readouterr()
    assert all("items compared across settings" in line for line in out.strip().splitlines())
    assert "a drift report across settings, not a reproduction" in err and "reproduced" not in err.replace(
        "not a reproduction", ""
    )
    # in bfloat16, other batches are another setting too
    assert _reproduce(sub, model, tmp_path, "--batch-size", "2").setting_differences == [
        "batch_size: 4 recorded, 2 here"
    ]
