"""`neghub datasets ...`: verify a release against its pins, build a Hub release folder, publish it; pin a
commit of a release its authors publish on the Hub (pin.py).

Where the pinned revision is recorded: in the task module itself, on its `revision=` line (and the
`hub_repo_id=` line, which `--repo-id` may change). One source of truth for a release's identity:
the metadata readers see, the loader uses and the card prints are the same object, and a pin
change is a one-line diff in review. `pin_revision` is that text edit; it refuses a module where
the line is not found exactly once, rather than guess.

The Hub `README.md` of a release is its card rendered `for_hub` (see evaluator/releases/cards.py); the
release's `LICENSE` is copied unchanged from the release folder.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..core.errors import InputError, Problem, SourceUnavailable
from ..fileio.files import atomic_write
from ..protocol.metadata import DatasetMetadata
from .cards import (
    compute_statistics,
    has_statistics,
    metadata_module,
    metadata_of,
    release_root,
    render_card,
    validate_card,
    write_text,
)
from .loading import DATA_DIR_ENV, sha256_file

CheckStatus = Literal["OK", "MISMATCH", "MISSING", "UNPINNED"]
LICENSE_FILE = "LICENSE"
CARD_FILE = "README.md"
REVISION_LINE = re.compile(r'^    revision=(None|"[0-9a-f]{40}"),$', re.M)
REPO_ID_LINE = re.compile(r'^    hub_repo_id="[^"\n]*",$', re.M)


@dataclass(frozen=True)
class FileCheck:
    """One release file compared with its pin."""

    path: Path
    status: CheckStatus
    expected: str | None
    actual: str | None

    def line(self) -> str:
        if self.status == "OK":
            return f"OK        {self.path}  {self.actual}"
        if self.status == "MISSING":
            return f"MISSING   {self.path}"
        if self.status == "UNPINNED":
            return f"UNPINNED  {self.path}  {self.actual}  (no sha256 pinned for this file yet)"
        return f"MISMATCH  {self.path}  expected {self.expected}, got {self.actual}"


def check_files(metadata: DatasetMetadata, root: Path) -> list[FileCheck]:
    checks = []
    for release_file in metadata.files:
        path = root / release_file.path
        if not path.is_file():
            checks.append(FileCheck(path, "MISSING", release_file.sha256, None))
            continue
        digest = sha256_file(path)
        if release_file.sha256 is None:
            checks.append(FileCheck(path, "UNPINNED", None, digest))
        else:
            status: CheckStatus = "OK" if digest == release_file.sha256 else "MISMATCH"
            checks.append(FileCheck(path, status, release_file.sha256, digest))
    return checks


def failures(checks: list[FileCheck]) -> list[Problem]:
    problems = []
    for check in checks:
        if check.status == "MISMATCH":
            problems.append(
                Problem(
                    str(check.path),
                    None,
                    None,
                    f"sha256 mismatch: expected {check.expected}, got {check.actual}; "
                    "the file differs from the pinned release",
                )
            )
        elif check.status == "MISSING":
            problems.append(Problem(str(check.path), None, None, "missing: the pinned release has this file"))
    return problems


def cached_snapshot(metadata: DatasetMetadata) -> Path | None:
    """The Hub snapshot of the pinned revision in the local huggingface_hub cache, without any download."""
    if metadata.revision is None:
        return None
    from huggingface_hub import snapshot_download

    try:
        return Path(
            snapshot_download(
                repo_id=metadata.hub_repo_id,
                repo_type="dataset",
                revision=metadata.revision,
                allow_patterns=[f.path for f in metadata.files],
                local_files_only=True,
            )
        )
    except Exception:  # not in the cache: the library raises several kinds, all mean "absent"
        return None


def cached_upstream(metadata: DatasetMetadata) -> Path | None:
    """The folder of the release's upstream files in NegHub's cache, when any was downloaded (no download here)."""
    if not metadata.upstream:
        return None
    from .upstream import cache_root

    root = cache_root() / "releases" / metadata.name
    return root if any((root / f.path).is_file() for f in metadata.files) else None


def verify(data_dir: Path | None, tasks: list[str], *, explicit: bool = True) -> int:
    """Print one line per file; raise InputError (exit 2) naming every file that is missing or differs.

    `data_dir` from $NEGHUB_DATA_DIR (`explicit` False) is a default for every task, as for the loader: a task
    it has no folder for is looked for elsewhere (the Hub cache, the upstream cache, the package)."""
    from ..core.registry import benchmark_names

    names = tasks or benchmark_names()
    roots: list[tuple[DatasetMetadata, Path]] = []
    for name in names:
        metadata = metadata_of(name)
        if data_dir is not None and (explicit or (data_dir / name).is_dir()):
            root = data_dir / name
            if root.is_dir():
                roots.append((metadata, root))
            elif tasks:
                raise InputError.single(str(root), f"no {name} folder in the data directory {data_dir}")
            continue
        found = cached_snapshot(metadata) or cached_upstream(metadata) or release_root(metadata, None)
        if found is None:
            print(f"SKIP      {name}: no copy on this machine (no Hub or upstream cache; pass --data-dir DIR)")
        else:
            roots.append((metadata, found))
    if not roots:
        where = str(data_dir) if data_dir is not None else "the Hub cache or the package"
        raise InputError.single(where, f"no release folder of {', '.join(names)} found")
    problems: list[Problem] = []
    for metadata, root in roots:
        checks = check_files(metadata, root)
        for check in checks:
            print(check.line())
        problems += failures(checks)
    if problems:
        raise InputError(problems)
    return 0


@dataclass(frozen=True)
class PlannedFile:
    """One file of a Hub commit: where it goes, what it holds."""

    path_in_repo: str
    content: bytes

    @property
    def size(self) -> int:
        return len(self.content)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()


def hub_card(metadata: DatasetMetadata, release_dir: Path) -> str:
    """The card as the Hub README.md of the release in `release_dir` (statistics from its files)."""
    statistics = compute_statistics(metadata, release_dir) if has_statistics(metadata) else None
    card = render_card(metadata, statistics, for_hub=True)
    validate_card(card, release_dir)
    return card


def plan_release(metadata: DatasetMetadata, release_dir: Path) -> list[PlannedFile]:
    """The release's files (each matching its pin), its card as README.md and its LICENSE, in that order."""
    checks = check_files(metadata, release_dir)
    problems = failures(checks) + [
        Problem(str(c.path), None, None, "no pinned sha256: pin the file in the task's metadata before publishing")
        for c in checks
        if c.status == "UNPINNED"
    ]
    license_path = release_dir / (metadata.license_file.path if metadata.license_file else LICENSE_FILE)
    if not license_path.is_file():
        problems.append(Problem(str(license_path), None, None, "missing: a release carries its license text"))
    elif metadata.license_file is not None and sha256_file(license_path) != metadata.license_file.sha256:
        problems.append(
            Problem(
                str(license_path),
                None,
                None,
                f"sha256 mismatch: expected {metadata.license_file.sha256}, got {sha256_file(license_path)}; "
                "the license text differs from the pinned one",
            )
        )
    if problems:
        raise InputError(problems)
    planned = [PlannedFile(f.path, (release_dir / f.path).read_bytes()) for f in metadata.files]
    planned.append(PlannedFile(CARD_FILE, hub_card(metadata, release_dir).encode("utf-8")))
    planned.append(PlannedFile(LICENSE_FILE, license_path.read_bytes()))
    return planned


def commit_operations(planned: list[PlannedFile]) -> list[Any]:
    from huggingface_hub import CommitOperationAdd

    return [CommitOperationAdd(path_in_repo=p.path_in_repo, path_or_fileobj=p.content) for p in planned]


def pin_revision(source: str, repo_id: str, revision: str) -> str:
    """Rewrite the `hub_repo_id=` and `revision=` lines of a task module's METADATA (each must appear once)."""
    if not re.fullmatch(r"[0-9a-f]{40}", revision):
        raise ValueError(f"not a commit hash: {revision!r}")
    for pattern, what in ((REVISION_LINE, "revision="), (REPO_ID_LINE, "hub_repo_id=")):
        found = len(pattern.findall(source))
        if found != 1:
            raise ValueError(f"expected exactly one `{what}` line in the metadata, found {found}")
    source = REVISION_LINE.sub(f'    revision="{revision}",', source)
    return REPO_ID_LINE.sub(f'    hub_repo_id="{repo_id}",', source)


def module_file(task: str) -> Path:
    """The source file holding the benchmark's metadata (its `revision=` line)."""
    return Path(str(metadata_module(task).__file__))


def publish(
    task: str, repo_id: str, release_dir: Path, *, dry_run: bool, api: Any = None, module_path: Path | None = None
) -> str | None:
    """One Hub commit with the release, its card and its license; then the commit hash is pinned in the module."""
    metadata = metadata_of(task).model_copy(update={"hub_repo_id": repo_id})
    planned = plan_release(metadata, release_dir)
    header = f"{'would commit' if dry_run else 'committing'} to hf://datasets/{repo_id} ({len(planned)} files):"
    print(header)
    for p in planned:
        print(f"  add {p.path_in_repo}  {p.size} bytes  sha256 {p.sha256}")
    if dry_run:
        return None
    if api is None:
        from huggingface_hub import HfApi

        api = HfApi()
    info = api.create_commit(
        repo_id=repo_id,
        repo_type="dataset",
        operations=commit_operations(planned),
        commit_message=f"{metadata.pretty_name} {metadata.version}: release files, card and license (NegHub)",
    )
    revision = str(info.oid)
    path = module_path or module_file(task)
    write_text(path, pin_revision(path.read_text(encoding="utf-8"), repo_id, revision))
    print(f"pinned {task} to {repo_id}@{revision} in {path}; regenerate the cards with `nox -s cards`")
    return revision


def write_content(content: bytes, handle: Any) -> None:
    handle.write(content)


def convert(task: str, source: Path, output: Path) -> list[Path]:
    """Build the Hub release folder: the upstream files byte for byte, README.md (the card), LICENSE."""
    metadata = metadata_of(task)
    planned = plan_release(metadata, source)
    expected = {p.path_in_repo for p in planned}
    if output.exists():
        strays = sorted(
            str(p.relative_to(output))
            for p in output.rglob("*")
            if p.is_file() and p.relative_to(output).as_posix() not in expected
        )
        if strays:
            raise InputError.single(
                str(output), f"not empty: holds files outside the release ({', '.join(strays[:5])})"
            )
    written = []
    for p in planned:
        target = output / p.path_in_repo
        atomic_write(target, functools.partial(write_content, p.content), mode="wb")
        written.append(target)
    return written


def found_release(task: str, data_dir: Path | None = None) -> Path:
    """The folder of `task`'s release as the loader finds it (in `data_dir`, a mirror, where given; else
    downloading pinned upstream files if need be)."""
    from ..core.registry import get_benchmark
    from .loading import find_release

    entry = get_benchmark(task)
    return find_release(entry.metadata, data_dir=data_dir, bundled=entry.bundled_release).materialise()


def fetch_releases(tasks: list[str]) -> int:
    """Download (or find in the cache) every file of the upstream-pinned releases; one line per file."""
    from ..core.registry import benchmark_names, get_benchmark
    from .upstream import cache_root

    names = tasks or [name for name in benchmark_names() if get_benchmark(name).metadata.upstream]
    problems: list[Problem] = []
    unreachable: list[Problem] = []  # alone, they make exit code 3: nothing was asked wrongly
    for name in names:
        metadata = get_benchmark(name).metadata
        if not metadata.upstream:
            problems.append(Problem(name, None, None, "has no pinned upstream URL to fetch from"))
            continue
        from .loading import Release

        release = Release(metadata, cache_root() / "releases" / name, "upstream", unverified_allowed=False)
        try:
            root = release.materialise()
        except SourceUnavailable as exc:
            unreachable += exc.problems
            continue
        except InputError as exc:
            problems += exc.problems
            continue
        for check in check_files(metadata, root):
            print(check.line())
    if problems:
        raise InputError([*problems, *unreachable])
    if unreachable:
        raise SourceUnavailable(unreachable)
    return 0


def add_parser(sub: Any) -> None:
    """The `datasets` command group of `neghub`."""
    ds = sub.add_parser("datasets", help="verify, build and publish the pinned dataset releases")
    group = ds.add_subparsers(dest="datasets_command", required=True)
    ve = group.add_parser("verify", help="check a local mirror (or the cached Hub snapshot) against the pinned sha256s")
    ve.add_argument("tasks", nargs="*", help="tasks to check (default: every task found)")
    ve.add_argument("--data-dir", type=Path, default=None, help=f"mirror folder (default: ${DATA_DIR_ENV})")
    fe = group.add_parser(
        "fetch",
        help="download every release NegHub pins upstream into its cache, verified (then commands work offline)",
    )
    fe.add_argument("tasks", nargs="*", help="tasks to fetch (default: every task with a pinned upstream)")
    pu = group.add_parser("publish", help="upload a release folder, its card and LICENSE to the Hub in one commit")
    pu.add_argument("task")
    pu.add_argument("--repo-id", required=True, help="ORG/NAME of the Hub dataset repository")
    pu.add_argument(
        "--release-dir", type=Path, default=None, help="default: $NEGHUB_DATA_DIR/<task> or the bundled copy"
    )
    pu.add_argument("--dry-run", action="store_true", help="print the operations (path, size, sha256); change nothing")
    co = group.add_parser("convert", help="build the Hub release folder from the upstream files")
    co.add_argument("task")
    source = co.add_mutually_exclusive_group()
    source.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="a mirror folder with one sub-folder per dataset, as the other commands take it: converts DATA_DIR/TASK",
    )
    source.add_argument(
        "--source",
        type=Path,
        default=None,
        help="the release folder itself, e.g. ../shared/datasets/TASK (default: the release wherever NegHub "
        "finds it: $NEGHUB_DATA_DIR, the pinned Hub revision, the pinned upstream URLs, or the package)",
    )
    co.add_argument("-o", "--output", type=Path, required=True)
    pi = group.add_parser(
        "pin",
        help="pin a commit of the release the task's authors publish on the Hub, once its split sizes are the paper's",
    )
    pi.add_argument("task")
    pi.add_argument("--revision", required=True, help="the Hub commit to pin (40 hex digits)")
    pi.add_argument("--pin-file", type=Path, default=None, help="where to write the pin (default: beside the metadata)")
    pi.add_argument("--dry-run", action="store_true", help="download and check, print the pin; write nothing")


def run(args: argparse.Namespace) -> int:
    env_dir = os.environ.get(DATA_DIR_ENV)
    if args.datasets_command == "verify":
        data_dir = args.data_dir or (Path(env_dir) if env_dir else None)
        return verify(data_dir, list(args.tasks), explicit=args.data_dir is not None)
    if args.datasets_command == "pin":
        from .pin import pin

        pin(args.task, args.revision, output=args.pin_file, dry_run=args.dry_run)
        return 0
    if args.datasets_command == "publish":
        from pydantic import TypeAdapter, ValidationError

        from ..protocol.metadata import HubRepoId

        try:
            TypeAdapter(HubRepoId).validate_python(args.repo_id)
        except ValidationError:
            raise InputError.single("--repo-id", f"expected ORG/NAME, got {args.repo_id!r}") from None
        release_dir = args.release_dir or release_root(metadata_of(args.task), Path(env_dir) if env_dir else None)
        if release_dir is None:
            raise InputError.single("--release-dir", f"no {args.task} release folder found; pass --release-dir DIR")
        publish(args.task, args.repo_id, release_dir, dry_run=args.dry_run)
        return 0
    if args.datasets_command == "fetch":
        return fetch_releases(list(args.tasks))
    if args.datasets_command == "convert":
        source = args.source if args.source is not None else found_release(args.task, args.data_dir)
        for path in convert(args.task, source, args.output):
            print(f"wrote {path}  sha256 {sha256_file(path)}")
        return 0
    raise AssertionError(args.datasets_command)
