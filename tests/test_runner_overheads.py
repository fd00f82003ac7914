"""What a run costs around the model: files hashed once (and not at all on a later run), a GGUF file parsed once,
no torch._dynamo without compiling, a packing check that catches a model ignoring the mask, batches sized by
tokens, and a run whose selection keeps nothing writes no file (what the runner writes always validates)."""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from neghub.evaluator.cli import main
from neghub.evaluator.protocol.plans import token_batches
from neghub.evaluator.runners import hashing
from neghub.evaluator.runners.hashing import HASH_STATS, file_sha256, folder_sha256

ROOT = Path(__file__).parents[1]


@pytest.fixture
def neghub_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "neghub-cache"
    monkeypatch.setenv("NEGHUB_CACHE", str(cache))
    return cache


# --- hashing ------------------------------------------------------------------------------------------------


def test_a_file_is_read_once_then_its_digest_comes_from_the_cache_until_it_changes(
    tmp_path: Path, neghub_cache: Path
) -> None:
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"weights" * 1000)
    truth = hashlib.sha256(weights.read_bytes()).hexdigest()
    before = HASH_STATS.files_read
    assert file_sha256(weights) == truth
    assert file_sha256(weights) == truth  # a second run: from $NEGHUB_CACHE
    assert HASH_STATS.files_read == before + 1
    assert (neghub_cache / "sha256").is_dir()
    # the same size and a new modification time: read again, the new digest
    weights.write_bytes(b"WEIGHTS" * 1000)
    os.utime(weights, ns=(1, 1))
    assert file_sha256(weights) == hashlib.sha256(weights.read_bytes()).hexdigest()
    assert HASH_STATS.files_read == before + 2
    # verify=True (what neghub reproduce checks) reads the file whatever the cache holds
    assert file_sha256(weights, verify=True) == hashlib.sha256(weights.read_bytes()).hexdigest()
    assert HASH_STATS.files_read == before + 3


def test_a_hub_cache_lfs_file_is_named_by_its_sha256_and_verify_reads_it(tmp_path: Path, neghub_cache: Path) -> None:
    repo = tmp_path / "hub" / "models--org--model"
    content = b"safetensors bytes"
    named = hashlib.sha256(b"what huggingface_hub checked on download").hexdigest()
    (repo / "blobs").mkdir(parents=True)
    (repo / "blobs" / named).write_bytes(content)
    snapshot = repo / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "model.safetensors").symlink_to(Path("../..") / "blobs" / named)
    before = (HASH_STATS.files_read, HASH_STATS.from_hub_cache)
    assert file_sha256(snapshot / "model.safetensors") == named  # the blob's name, nothing read
    assert (HASH_STATS.files_read, HASH_STATS.from_hub_cache) == (before[0], before[1] + 1)
    assert file_sha256(snapshot / "model.safetensors", verify=True) == hashlib.sha256(content).hexdigest()
    # a git file's blob is named by its 40-hex git id: hashed
    (repo / "blobs" / ("b" * 40)).write_text("{}")
    (snapshot / "config.json").symlink_to(Path("../..") / "blobs" / ("b" * 40))
    assert file_sha256(snapshot / "config.json") == hashlib.sha256(b"{}").hexdigest()


def test_a_read_only_cache_costs_a_read_not_a_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("NEGHUB_CACHE", str(blocked))
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"x")
    assert file_sha256(weights) == file_sha256(weights) == hashlib.sha256(b"x").hexdigest()


torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from neghub.evaluator.runners.loading import GGUF_PARSES, ModelSource, load_backend, resolve_source  # noqa: E402
from neghub.evaluator.runners.loglikelihood import packing_agrees  # noqa: E402
from tests.test_runners import _causal  # noqa: E402
from tests.tiny_models import tiny_llama_gguf  # noqa: E402


def test_a_run_hashes_each_model_file_once_and_the_next_run_none(tmp_path: Path, neghub_cache: Path) -> None:
    model = _causal(tmp_path / "model")
    files = len(hashing.folder_files(model))
    argv = ["run", str(model), "--tasks", "nubench", "--mode", "completion", "--no-progress"]
    before = HASH_STATS.files_read
    assert main([*argv, "-o", str(tmp_path / "first")]) == 0
    assert HASH_STATS.files_read == before + files
    assert main([*argv, "-o", str(tmp_path / "second")]) == 0
    assert HASH_STATS.files_read == before + files  # every digest from $NEGHUB_CACHE
    pins = [__import__("yaml").safe_load((tmp_path / o / "metadata.yaml").read_text()) for o in ("first", "second")]
    assert pins[0]["model"]["sha256"] == pins[1]["model"]["sha256"] == folder_sha256(model, verify=True)


def test_a_source_hashes_its_gguf_file_once(tmp_path: Path, neghub_cache: Path) -> None:
    path = tmp_path / "tiny.gguf"
    tiny_llama_gguf(path)
    source = resolve_source(str(path), None)
    before = HASH_STATS.files_read
    truth = hashlib.sha256(path.read_bytes()).hexdigest()
    assert source.gguf_sha256 == source.local_sha256 == source.gguf_sha256 == truth
    assert HASH_STATS.files_read == before + 1


# --- loading ------------------------------------------------------------------------------------------------


def test_a_gguf_file_is_parsed_once_and_loads_what_transformers_loads(tmp_path: Path) -> None:
    import transformers

    path = tmp_path / "tiny.gguf"
    tok = tiny_llama_gguf(path)
    before = (GGUF_PARSES.readers_built, GGUF_PARSES.metadata_parsed)
    backend = load_backend(resolve_source(str(path), None))
    # configuration, model configuration, tokenizer and tensors: one gguf parse, one metadata read by gguf's reader;
    # transformers' own reader (where this transformers has one) once without string arrays and once with the
    # tokenizer's
    own_reader = importlib.util.find_spec("transformers.integrations.gguf.reader") is not None
    parsed = 1 + (2 if own_reader else 0)
    assert (GGUF_PARSES.readers_built, GGUF_PARSES.metadata_parsed) == (before[0] + 1, before[1] + parsed)
    assert GGUF_PARSES.metadata_asked >= 2
    plain = transformers.AutoModelForCausalLM.from_pretrained(tmp_path, gguf_file=path.name, dtype=torch.float32)
    mine, theirs = backend.model.state_dict(), plain.state_dict()
    assert mine.keys() == theirs.keys() and all(torch.equal(mine[k], theirs[k]) for k in mine)
    text = "She is not happy . run"
    assert backend.encode(text) == tok(text, add_special_tokens=False)["input_ids"]


OPENS_SCRIPT = """
import os, sys
from pathlib import Path
target = os.path.realpath(sys.argv[1])
opens = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, os.PathLike)) and os.path.realpath(args[0]) == target:
        opens.append(event)
sys.addaudithook(hook)
from neghub.evaluator.runners.loading import load_backend, resolve_source
for _ in range(2):
    opens.clear()
    source = resolve_source(target, None)
    load_backend(source)
    assert source.gguf_sha256
    print(len(opens))
"""


def test_a_gguf_file_is_opened_at_most_four_times_in_a_first_run_and_fewer_in_a_second(tmp_path: Path) -> None:
    """Opens of the file counted by Python's audit hook (numpy's memory maps, gguf's reader and the hash each open
    it): a first run parses and hashes, a second finds the hash in NegHub's cache. A run is a new process; the two
    loads here share a process, as their caches do across processes (the hash's is on disk)."""
    path = tmp_path / "tiny.gguf"
    tiny_llama_gguf(path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NEGHUB_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", OPENS_SCRIPT, str(path)], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    first, second = (int(line) for line in done.stdout.split())
    assert first <= 4 and second < first, (first, second)


def _printed_in_a_fresh_interpreter(script: str) -> list[str]:
    """The lines `script` prints, run by a Python of its own (what a process imports is the process's alone)."""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_a_run_that_compiles_nothing_never_imports_torch_dynamo(tmp_path: Path) -> None:
    model = _causal(tmp_path / "model")
    script = (
        "import sys\n"
        "from neghub.evaluator.cli import main\n"
        f"argv = ['run', {str(model)!r}, '--tasks', 'nubench,scn', '--max-pairs', '1', '--no-progress', '-o', "
        f"{str(tmp_path / 'out')!r}]\n"
        "assert main(argv) == 0\n"
        "print(sorted(name for name in sys.modules if name == 'torch._dynamo' or name.startswith('torch._dynamo.')))\n"
        "import torch._dynamo  # what a run that compiles gets: the real module\n"
        "print(callable(torch._dynamo.optimize))\n"
    )
    printed = _printed_in_a_fresh_interpreter(script)
    # the one helper masking_utils imports, loaded from its own file, and nothing else of torch._dynamo
    assert printed[-2:] == ["['torch._dynamo._trace_wrapped_higher_order_op']", "True"]


def test_a_run_on_a_model_folder_never_imports_the_gguf_reader(tmp_path: Path) -> None:
    # gguf's reader and transformers' GGUF loader (with the Gemma tokenizer it imports) are start-up a folder's run
    # pays for nothing it reads (SmolLM2-135M: about 0.1 CPU seconds of 4)
    model = _causal(tmp_path / "model")
    script = (
        "import sys\n"
        "from neghub.evaluator.cli import main\n"
        f"argv = ['run', {str(model)!r}, '--tasks', 'nubench', '--mode', 'completion', '--no-progress', '-o', "
        f"{str(tmp_path / 'out')!r}]\n"
        "assert main(argv) == 0\n"
        "print(sorted(n for n in sys.modules if n in ('gguf', 'transformers.modeling_gguf_pytorch_utils')))\n"
    )
    printed = _printed_in_a_fresh_interpreter(script)
    assert printed[-1] == "[]"


def test_the_collector_is_paused_while_a_model_loads_and_left_as_it_was_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import transformers

    model = _causal(tmp_path / "model")
    collecting: list[bool] = []  # whether the collector ran while the weights and then the tokenizer loaded
    for auto in (transformers.AutoModelForCausalLM, transformers.AutoTokenizer):
        loader = auto.from_pretrained

        def recording(*args: object, loader: object = loader, **kwargs: object) -> object:
            collecting.append(gc.isenabled())
            return loader(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(auto, "from_pretrained", recording)
    load_backend(ModelSource("folder", str(model)))
    assert collecting == [False, False] and gc.isenabled()
    gc.disable()
    try:
        load_backend(ModelSource("folder", str(model)))
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_only_a_command_that_is_its_process_s_own_leaves_its_objects_out_of_the_exit_s_collections() -> None:
    script = (
        "import gc, sys\n"
        "from neghub.evaluator.cli import main\n"
        "assert main(['tasks']) == 0\n"
        "print('frozen', gc.get_freeze_count())\n"  # a caller's argv: its objects stay the collector's
        "sys.argv = ['neghub', 'tasks']\n"
        "assert main() == 0\n"
        "print('frozen', gc.get_freeze_count() > 0)\n"
    )
    printed = _printed_in_a_fresh_interpreter(script)
    assert [line for line in printed if line.startswith("frozen ")] == ["frozen 0", "frozen True"]


def test_weights_load_onto_the_device_and_device_map_auto_is_accepted(tmp_path: Path) -> None:
    model = _causal(tmp_path / "model")
    placed = load_backend(ModelSource("folder", str(model)), device_map="auto")  # no GPU: accelerate keeps the CPU
    plain = load_backend(ModelSource("folder", str(model)))
    assert {p.device.type for p in plain.model.parameters()} == {"cpu"}
    context, options = "Negate the sentence .\nSentence : She is happy\nNegation:", [" She is not happy", " run"]
    assert placed.loglikelihoods(context, options) == plain.loglikelihoods(context, options)
    assert placed.info["device_map"] == "auto"


def test_the_packing_check_catches_a_model_that_ignores_the_tree_mask(tmp_path: Path) -> None:
    backend = load_backend(ModelSource("folder", str(_causal(tmp_path / "model"))))
    with torch.no_grad():  # attention as peaked as a trained model's: a random one hardly looks at positions
        for layer in backend.model.model.layers:
            layer.self_attn.q_proj.weight.mul_(10)
            layer.self_attn.k_proj.weight.mul_(10)
    assert packing_agrees(backend)
    honest = backend.body

    def causal_only(**kwargs: object) -> object:  # what a model that builds its own causal mask computes
        mask = kwargs.get("attention_mask")
        if isinstance(mask, torch.Tensor) and mask.dim() == 4:
            width, keys = mask.shape[-2:]
            kwargs["attention_mask"] = torch.full_like(mask, torch.finfo(mask.dtype).min).triu(keys - width + 1)
        return honest(**kwargs)

    backend.body = causal_only  # type: ignore[method-assign]
    assert not packing_agrees(backend)

    def positions_ignored(**kwargs: object) -> object:  # one that numbers positions itself
        kwargs.pop("position_ids", None)
        return honest(**kwargs)

    backend.body = positions_ignored  # type: ignore[method-assign]
    assert not packing_agrees(backend)


# --- batches ------------------------------------------------------------------------------------------------


@given(
    st.lists(st.integers(1, 50), max_size=40),
    st.integers(1, 6),
    st.one_of(st.none(), st.integers(1, 120)),
)
def test_token_batches_keep_the_order_and_both_bounds(lengths: list[int], max_items: int, budget: int | None) -> None:
    items = list(range(len(lengths)))
    got = token_batches(items, lengths, max_items, budget)
    assert [i for batch in got for i in batch] == items and all(got)
    for batch in got:
        assert len(batch) <= max_items
        padded = len(batch) * max(lengths[i] for i in batch)
        assert budget is None or padded <= budget or len(batch) == 1  # a longer item runs alone
    # greedy: a batch closes only when the next item would break a bound
    for batch, following in itertools.pairwise(got):
        grown = [*batch, following[0]]
        too_long = budget is not None and len(grown) * max(lengths[i] for i in grown) > budget
        assert len(batch) == max_items or too_long


# --- what the runner writes validates -----------------------------------------------------------------------


def _never_a_verb(folder: Path) -> Path:
    """The constant causal model (every logit equal: the top-1 is token id 0), with "She" at id 0 instead of "run":
    its top-1 is never a verb, so SCN's selection keeps no triplet."""
    _causal(folder, constant=True)
    spec = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    vocab = spec["model"]["vocab"]
    vocab["run"], vocab["She"] = vocab["She"], vocab["run"]
    (folder / "tokenizer.json").write_text(json.dumps(spec), encoding="utf-8")
    return folder


def test_an_scn_run_that_keeps_no_triplet_writes_no_file_and_what_is_written_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = _never_a_verb(tmp_path / "model")
    out = tmp_path / "sub"
    argv = ["run", str(model), "--tasks", "nubench,scn", "--mode", "completion", "--max-pairs", "2", "--no-progress"]
    assert main([*argv, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "predictions/scn/scn-all-causal-0shot-seed0.jsonl: the model kept no triplet" in err
    assert "no file written, the run is left out" in err
    assert not list(out.glob("predictions/scn/*"))
    metadata = __import__("yaml").safe_load((out / "metadata.yaml").read_text(encoding="utf-8"))
    assert [run["task"] for run in metadata["runs"]] == ["nubench"]
    assert main(["validate", str(out)]) == 0  # what the runner wrote is what the validator accepts
    # SCN alone: no run gave a line, so no submission at all
    alone = tmp_path / "alone"
    assert main(["run", str(model), "--tasks", "scn", "--max-pairs", "2", "--no-progress", "-o", str(alone)]) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "error: neghub run: no run gave a prediction line: no submission written"
    assert not alone.exists()  # nothing half-written, not even empty folders
