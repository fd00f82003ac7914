"""The cost of one submission is bounded: time and peak memory of `neghub validate` on cap-sized files.

Three submissions, each with one prediction file just under the per-file cap (64 MiB):
- garbage: random bytes (no NUL) with a newline every 1..80 bytes (about 1.6 million lines, none of them JSON);
- garbage-json: valid JSON lines of the wrong shape (`{"x": 1}`), which the strict parser accepts and the
  task's reader must refuse line by line;
- valid: a real SCN prediction file (all five patterns of ~120,000 triplets from NegHub's word lists).
Targets (issue "The front door holds"): a garbage file is refused within 30 s with peak memory under 4x
its size; the valid file costs no more than before the bounds were added (`--baseline` figures, taken on
the same machine before the change: see the README's Benchmarks table). Each run is a fresh process
(`python -m neghub.evaluator.cli validate`), its peak resident memory read from getrusage of the child;
the ratio "peak / file size" counts the interpreter's own ~60 MB too. Medians of --repeats runs. Each refusal's
time is also given as a ratio to the valid file's, the baseline timed in the same run.

Before it times anything, each input is validated once, untimed (perf/measured.py: exit 1, "nothing measured"
otherwise): the valid submission must be accepted (exit 0), and each garbage one refused (exit 2) for its
prediction file, so that no timing is of a refusal of something else (the metadata, an empty file).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measured import machine_line, require
from scn_submission import triplet_lines, write_submission

CAP = 64 * 1024 * 1024  # the validator's per-file cap (Limits.prediction_file_bytes)


def garbage(size: int, seed: int = 0) -> bytes:
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        chunk = bytearray(rng.randbytes(rng.randint(1, 80)))
        # no newline inside a line, and no NUL byte (a file with one is refused at once as binary: too easy)
        chunk = chunk.replace(b"\n", b"x").replace(b"\x00", b"y")
        out += chunk + b"\n"
    return bytes(out[:size])


def garbage_json(size: int) -> bytes:
    line = b'{"x": 1}\n'
    return line * (size // len(line))


def valid_scn(size: int) -> bytes:
    """Whole triplets of well-formed lines, as many as fit in `size` bytes."""
    lines: list[bytes] = []
    total = 0
    for block in triplet_lines():
        block_size = sum(len(line) + 1 for line in block)
        if total + block_size > size:
            break
        lines += block
        total += block_size
    return b"".join(line + b"\n" for line in lines)


def validate(folder: Path) -> subprocess.CompletedProcess[str]:
    """One `neghub validate` of `folder`, its exit status and output."""
    command = [sys.executable, "-m", "neghub.evaluator.cli", "validate", str(folder)]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)


def check_input(name: str, folder: Path) -> None:
    """Refuse (nothing measured) an input `neghub validate` does not treat as the benchmark means it: the valid
    submission accepted, a garbage one refused for its prediction file."""
    done = validate(folder)
    said = (done.stdout + done.stderr).strip().splitlines()[:3]
    if name == "valid":
        require(done.returncode == 0, f"the valid submission was refused (exit {done.returncode}): {said}")
    else:
        refused_for_its_lines = done.returncode == 2 and "run.jsonl" in done.stdout + done.stderr
        require(refused_for_its_lines, f"{name}: not refused for its prediction file (exit {done.returncode}): {said}")


def measure(folder: Path) -> tuple[float, float, int, int]:
    """Seconds, peak RSS in MiB, exit code and printed lines of one `neghub validate` process."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "neghub.evaluator.cli", "validate", str(folder)], capture_output=True, timeout=900
    )
    seconds = time.perf_counter() - started
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: run each measurement in its own helper process
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    printed = len((done.stdout + done.stderr).splitlines())
    return seconds, peak_kib / 1024, done.returncode, printed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=("garbage", "garbage-json", "valid"), action="append")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: measure one folder in this process's child
    parser.add_argument(
        "--mib",
        type=float,
        default=None,
        help="the files' size in MiB (default: just under the cap; smaller: a check of the script, not a measurement)",
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(Path(args.one))))
        return 0
    print(f"{machine_line()}; medians of {args.repeats} runs")
    makers = {"garbage": garbage, "garbage-json": garbage_json, "valid": valid_scn}
    names = args.only or list(makers)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        folders, sizes, lines = {}, {}, {}
        for name in names:
            data = makers[name](CAP - 1024 if args.mib is None else int(args.mib * 1024 * 1024))
            folders[name] = write_submission(Path(tmp) / name, data)
            sizes[name], lines[name] = len(data) / 1024 / 1024, data.count(b"\n")
            del data
        for name in names:  # every input checked before anything is timed
            check_input(name, folders[name])
        inputs = ", ".join(f"{name} {lines[name]:,} lines" for name in names)
        print(f"inputs: {inputs}; the valid one accepted, the others refused for their lines")
        medians: dict[str, float] = {}
        for name in names:
            folder, size_mib = folders[name], sizes[name]
            runs = []
            for _ in range(args.repeats):
                # a helper process per run, so that getrusage(RUSAGE_CHILDREN) is this run's peak alone
                out = subprocess.run(
                    [sys.executable, __file__, "--one", str(folder)], capture_output=True, text=True, check=True
                )
                runs.append(json.loads(out.stdout))
            seconds = statistics.median(r[0] for r in runs)
            peak = statistics.median(r[1] for r in runs)
            code, printed = runs[0][2], runs[0][3]
            medians[name] = seconds
            verdict = ""
            if name == "valid":  # checked above; a timed run that differs is a fault all the same
                failed |= code != 0
                verdict = "" if code == 0 else "  NOT VALID: the baseline must be a submission validate accepts"
            elif args.mib is not None:  # a check of the script: the interpreter alone outweighs a small file
                failed |= code != 2
                verdict = "  (a check: the targets apply just under the cap)"
            else:
                ok = seconds < 30 and peak < 4 * size_mib and code == 2
                failed |= not ok
                verdict = "  OK" if ok else "  OVER THE TARGET (30 s, 4x the file)"
            print(
                f"{name:13s} {size_mib:5.1f} MiB: {seconds:6.2f} s, peak {peak:6.0f} MiB "
                f"({peak / size_mib:.2f}x the file), exit {code}, {printed} lines printed{verdict}"
            )
            (folder / "predictions" / "scn" / "run.jsonl").unlink()
        if "valid" in medians:
            for name in (n for n in names if n != "valid"):
                print(f"ratio {name} / valid (the same run's baseline): {medians[name] / medians['valid']:.2f}x time")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
