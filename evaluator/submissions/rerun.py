"""The command that makes a trial's whole run, as `neghub run` prints it after a trial and `neghub validate` prints
it once for a folder of partial runs: the recorded command without `--max-items`, writing to the folder a pull
request adds (`submissions/<id>`), with what metadata.yaml could not record (a path of the submitter's machine)
either filled from the options given to `neghub validate` or written as a placeholder that says it is one, in
angle brackets with what to put there: `<DATA_DIR: the folder that holds the releases>`.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from ..protocol.plans import without_trial_option
from .format import PATH_PLACEHOLDER, SUBMISSION_ID_PATTERN, Metadata

DATA_DIR_PLACEHOLDER = "<DATA_DIR: the folder that holds the releases>"
OUTPUT_OPTIONS = ("-o", "--output")
DEFAULT_SUBMISSION_ID = "my-model"


def submission_id(model_name: str) -> str:
    """A submission folder's name for a model: its name in lower case, each run of characters other than letters,
    digits, `.` and `_` as one hyphen (`SmolLM2-135M-Instruct` -> `smollm2-135m-instruct`); `my-model` where
    nothing of the name is left or the result is not a valid submission id."""
    words = re.split(r"[^a-z0-9._]+", model_name.lower())
    name = "-".join(word for word in words if word).strip("._-")[:80].strip("._-")
    return name if re.fullmatch(SUBMISSION_ID_PATTERN, name) else DEFAULT_SUBMISSION_ID


def submission_folder(model_name: str) -> Path:
    """Where the whole run goes: the folder a pull request adds."""
    return Path("submissions") / submission_id(model_name)


def model_placeholder(name: str) -> str:
    """How a rerun command names a local model that metadata.yaml records by its folder's or file's name only."""
    return f"<MODEL: the path of the model folder or file {name}>"


def with_output(words: list[str], folder: Path) -> list[str]:
    """A command's words with its output folder (`-o`, `--output`, in either spelling) replaced by `folder`."""
    replaced: list[str] = []
    for word in words:
        option, equals, _ = word.partition("=")
        if replaced and replaced[-1] in OUTPUT_OPTIONS:
            replaced.append(str(folder))
        elif equals and option in OUTPUT_OPTIONS:
            replaced.append(f"{option}={folder}")
        else:
            replaced.append(word)
    return replaced


def rerun_command(metadata: Metadata, *, model: str | None = None, data_dir: Path | None = None) -> str | None:
    """The whole run's command for a submission whose recorded `neghub run` command holds `--max-items`, or None
    (no command recorded, or not a trial's). The model: `model` where given, else a Hub model's repo id as
    recorded, else a placeholder (a local folder or file is recorded by its name only); the data mirror:
    `data_dir` where given, else a placeholder, where the command named one."""
    try:
        words = shlex.split(str((metadata.provenance or {}).get("command") or ""))
    except ValueError:
        return None
    kept = without_trial_option(words)
    if len(words) < 2 or words[:2] != ["neghub", "run"] or len(kept) == len(words):
        return None
    recorded = getattr(metadata.model, "repo_id", None) or getattr(metadata.model, "file", None) or metadata.model.name
    is_hub = metadata.model.kind == "hub"
    filled: list[str] = []
    model_seen = False
    data = str(data_dir) if data_dir is not None else DATA_DIR_PLACEHOLDER
    for word in kept:
        previous = filled[-1] if filled else ""
        if previous == "--data-dir" and word == PATH_PLACEHOLDER:
            word = data
        elif word == f"--data-dir={PATH_PLACEHOLDER}":
            word = f"--data-dir={data}"
        elif not model_seen and word == recorded and not previous.startswith("-"):
            model_seen = True
            if model is not None:
                word = model
            elif not is_hub:
                word = model_placeholder(recorded)
        filled.append(word)
    return shlex.join(with_output(filled, submission_folder(metadata.model.name)))
