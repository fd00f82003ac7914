"""Whether NegHub's GPU runner can hold a submission's pinned Hub model, read from the Hub before anything is queued.

A submission whose pinned weights do not fit the runner could never be re-run, so it could never rank: it is
refused with the limit, before the queue or the runner ever sees it. The size is the Hub's own answer for the pinned
revision (`GET {endpoint}/api/models/{repo_id}/revision/{revision}?blobs=true`, `huggingface_hub`'s `model_info`
route): the sum of the weight files' sizes (`siblings[].size`, the LFS size where a file is stored in LFS), taking
safetensors files where the revision has any (what transformers loads), else PyTorch `.bin` files, else the one
`model.file` the metadata names. Nothing is downloaded.

The limit is the runner's memory for weights: its GPU (80 GB, noxfile.GPU_SETTING) less room for the activations
of a batch (`--batch-tokens`), in bytes as stored (bfloat16 for most Hub checkpoints: the re-run loads them in the
recorded dtype, never wider). A model the Hub cannot describe (gated, missing, unreachable) is refused too: one
line, naming what was asked and the fix.

`python -m neghub.evaluator.submissions.pin_size submissions/<id>` checks one submission (exit 0: fits or not a Hub
model; 2: refused, one line), for the pull-request check.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import InputError

GIB = 2**30
# weights the runner holds: 80 GB of GPU memory less about 20 GiB for a batch's activations and the CUDA context
RUNNER_WEIGHT_LIMIT_BYTES = 60 * GIB
DEFAULT_ENDPOINT = "https://huggingface.co"
TIMEOUT_S = 30.0


@dataclass(frozen=True)
class PinnedSize:
    """A pinned Hub model's weight files and their total size, as the Hub reports them."""

    repo_id: str
    revision: str
    files: tuple[str, ...]
    total_bytes: int


def hub_endpoint() -> str:
    """The Hub's address: HF_ENDPOINT where set (as huggingface_hub reads it), else the public Hub."""
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def _size(sibling: dict[str, Any]) -> int | None:
    lfs = sibling.get("lfs")
    size = lfs.get("size") if isinstance(lfs, dict) else sibling.get("size")
    return size if isinstance(size, int) and not isinstance(size, bool) and size >= 0 else None


def weight_files(info: dict[str, Any], file: str | None = None) -> dict[str, int | None]:
    """The files a re-run loads, with their sizes, from the Hub's answer for a revision (see the module docstring)."""
    siblings = [s for s in info.get("siblings") or [] if isinstance(s, dict) and isinstance(s.get("rfilename"), str)]
    sizes = {s["rfilename"]: _size(s) for s in siblings}
    if file is not None:
        return {file: sizes.get(file)} if file in sizes else {}
    for suffix in (".safetensors", ".bin"):
        chosen = {name: size for name, size in sizes.items() if name.endswith(suffix)}
        if chosen:
            return chosen
    return {}


def read_pinned_size(
    repo_id: str, revision: str, file: str | None = None, *, endpoint: str | None = None
) -> PinnedSize:
    """The pinned revision's weight files and total size, from the Hub's API (one request; InputError, one line,
    where the Hub cannot say)."""
    base = endpoint or hub_endpoint()
    quoted = urllib.parse.quote(revision, safe="")
    url = f"{base}/api/models/{repo_id}/revision/{quoted}?blobs=true"
    where = f"model {repo_id}@{revision}"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
            info = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        code = error.headers.get("X-Error-Code") or str(error.code)
        fix = "NegHub's runner downloads without a token: pin a public model" if error.code in (401, 403) else ""
        fix = fix or "pin a repository and a commit that exist on the Hub"
        raise InputError.single(where, f"the Hub cannot describe it ({code}): {fix}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise InputError.single(where, f"the Hub could not be read ({error}): try again later") from None
    files = weight_files(info if isinstance(info, dict) else {}, file)
    if not files:
        raise InputError.single(where, "the Hub lists no weights file (.safetensors or .bin) at this revision")
    unknown = [name for name, size in files.items() if size is None]
    if unknown:
        raise InputError.single(where, f"the Hub gives no size for {', '.join(sorted(unknown))}")
    total = sum(size for size in files.values() if size is not None)
    return PinnedSize(repo_id, revision, tuple(sorted(files)), total)


def pin_size_problem(size: PinnedSize, limit_bytes: int = RUNNER_WEIGHT_LIMIT_BYTES) -> str | None:
    """The refusal, in a line, for weights the runner cannot hold (None: they fit)."""
    if size.total_bytes <= limit_bytes:
        return None
    return (
        f"model {size.repo_id}@{size.revision}: its weights are {size.total_bytes / GIB:.1f} GiB "
        f"({len(size.files)} files), more than NegHub's runner holds ({limit_bytes / GIB:.0f} GiB): NegHub cannot "
        "re-run it, so it cannot rank; submit a smaller model or a quantised checkpoint"
    )


def check_submission_pin(folder: Path, limit_bytes: int = RUNNER_WEIGHT_LIMIT_BYTES) -> str | None:
    """For submissions/<id>/: the refusal for a pinned Hub model the runner cannot hold (None: it fits, or the model
    is not a Hub pin, which the queue does not re-run from the Hub)."""
    import yaml

    from .format import Metadata

    metadata = Metadata.model_validate(yaml.safe_load((folder / "metadata.yaml").read_text(encoding="utf-8")))
    model = metadata.model
    if model.kind != "hub":
        return None
    return pin_size_problem(read_pinned_size(model.repo_id, model.revision, model.file), limit_bytes)


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m neghub.evaluator.submissions.pin_size", description=__doc__)
    parser.add_argument("submission", type=Path, help="the submission folder (submissions/<id>)")
    parser.add_argument("--limit-gib", type=float, default=RUNNER_WEIGHT_LIMIT_BYTES / GIB)
    args = parser.parse_args(argv)
    try:
        problem = check_submission_pin(args.submission, int(args.limit_gib * GIB))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:
        print(f"error: {args.submission / 'metadata.yaml'}: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
