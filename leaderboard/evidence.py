"""What the rules may trust of a submission, a reproduction record and a clearance: the facts GitHub recorded.

- **Account.** A submission is the account's that added its folder (history.py's `added`: a maintainer's later
  fix of its files leaves it the submitter's). A folder added by a pull request is its author's: the pull-request
  check (pull_request.py) refuses a pull request unless each submission it adds has `submitter.github` equal to
  the event's `pull_request.user.login`, and refuses a change to a folder another account landed (maintainers
  excepted), so the field of a landed submission names the account that landed it. A folder pushed to main
  directly is the maintainers' (only they can push to main).
- **The maintainers' run.** A submission whose folder the maintainers pushed to main, or that a pull request from
  this repository's `gpu-eval/` branch (the gpu-eval workflow's) added, changing that submission's folder alone,
  with the workflow's account as its `submitter.github`; and whose prediction files and the metadata its row shows
  (`metadata_sha256`) were last changed the same way (history.py's `submissions`). The trust is bound to the
  answers as the maintainers or the workflow landed them: a later change by anyone else's pull request (an
  organisation member's too) makes it another row, until the maintainers land the files again. The pull-request
  check refuses such a pull request (pull_request.py) besides.
- **A reproduction record** counts only where it landed by a direct push or by a pull request from this
  repository's `reproduce/` branch (the gpu-reproduce workflow's) that changed that record alone, after the
  submission it reproduced landed (a folder withdrawn and landed again, by anyone, lands anew), only for
  the files and metadata it names: every prediction file's sha256 and the sha256 of the metadata fields the row
  shows or the re-run used (evaluator.submissions.reproduction.metadata_sha256), and only where it compared
  every item of each of the row's runs (schema 4): a record that compared a sample does not count, whatever it
  found (the submitter chose the batches a sample is drawn in, and can doctor those a sample seldom draws).
  Only a record that kept NegHub's own answers (schema 5: `reproductions/<id>/<run.file>`, landed with the record
  by the same landing) ranks the row, by the figure the build scores from those answers; the record may be of
  either kind (NegHub's run in its own setting is NegHub's run of the pinned weights). Records of schema 1 to 4
  hold no answers: the row is listed as not run by NegHub.
- **A clearance** counts only where it landed (a direct push, or a pull request whose check held its `by:` equal
  to the pull request's author, an account .github/MAINTAINERS lists on the base branch), after the submission's
  landing (new answers or a new model entry need a new review; a description's typo does not).

Where the build has no record (history.py), no account is known, nothing is the maintainers' run and no record or
clearance counts: a verdict never rests on a file alone.
"""

from __future__ import annotations

from pathlib import Path

from ..evaluator.submissions.format import Metadata
from ..evaluator.submissions.reproduction import Reproduction, metadata_sha256
from . import deployment
from .deployment import repository as deployment_repository
from .facts import Account, RecordFacts
from .history import History, Landing

DEFAULT_BOT = deployment.DEFAULT_BOT  # the workflows' account where the deployment names none
SUBMISSION_BRANCH = "gpu-eval/"  # the branch gpu-eval.yml pushes a submission to (its pull-request job)
RECORD_BRANCH = "reproduce/"  # the branch gpu-reproduce.yml pushes a record to (its pull-request job)
MAINTAINERS = Account("maintainers", "the maintainers", maintainers=True)


def repository(history: History) -> str:
    """OWNER/NAME of this deployment (deployment.repository: `.github/neghub.yaml` of the repository the history is
    read from, else $GITHUB_REPOSITORY; never a constant, and an InputError where neither names one)."""
    return deployment_repository(history.root)


def workflow_account(history: History) -> str:
    """The account the GPU workflows open pull requests as (deployment.workflow_account: the NegHub App's bot)."""
    return deployment.workflow_account(history.root)


def _from_own_branch(history: History, landing: Landing, prefix: str) -> bool:
    """Whether GitHub's merge commit names a branch of this repository under `prefix` (a fork's branch is named
    FORK_OWNER/BRANCH: nobody outside the repository can push a branch into it)."""
    if landing.branch is None or "/" not in landing.branch:
        return False
    # a branch of no workflow's prefix is nobody's own, whatever the repository: only a branch that could be the
    # workflows' asks which repository this is (and stops the build where the deployment names none)
    if not landing.branch.split("/", 1)[1].startswith(prefix):
        return False
    owner = repository(history).split("/", 1)[0]
    return landing.branch.startswith(f"{owner}/{prefix}")


def account_of(history: History, sid: str, metadata: Metadata) -> Account:
    """Who landed submission `sid` (see the module docstring)."""
    if not history.recorded:
        return Account(f"unrecorded:{sid}", "not on record (this build has no history of main)")
    landing = history.added.get(sid)
    if landing is None:
        return Account(f"unrecorded:{sid}", "not on record (the folder has not landed on main)")
    if landing.pull_request is None:
        return MAINTAINERS
    login = metadata.submitter.github
    return Account(f"github:{login.lower()}", f"@{login}")


def maintainers_run(history: History, sid: str, account: Account) -> bool:
    """Whether submission `sid` is the maintainers' run (see the module docstring): both the landing that added its
    folder and the one that last changed its prediction files or what its row shows are the maintainers' (a direct
    push) or the gpu-eval workflow's; so the trust is bound to the files and the row as they landed them, and a later
    change by anyone else (an organisation member's pull request included) makes it another row."""
    if not history.recorded:
        return False
    added, current = history.added.get(sid), history.submissions.get(sid)
    if added is None or current is None:
        return False
    folder = f"{history.prefix}{sid}/"
    if not _maintainers_landing(history, added, folder) or not _maintainers_landing(history, current, folder):
        return False
    # a folder the workflow added is its run only where it names the workflow's account (the check holds that field
    # equal to the pull request's author, and nobody else can push a branch of this repository)
    return added.pull_request is None or account.key == f"github:{workflow_account(history).lower()}"


def _maintainers_landing(history: History, landing: Landing, folder: str) -> bool:
    """A direct push to main, or a merge of this repository's gpu-eval/ branch that changed `folder` alone."""
    if landing.pull_request is None:
        return True
    return _from_own_branch(history, landing, SUBMISSION_BRANCH) and all(
        path.startswith(folder) for path in landing.paths
    )


def record_facts(
    history: History, path: Path, record: Reproduction, metadata: Metadata, files: dict[str, str], sid: str
) -> RecordFacts:
    """What a reproduction record of submission `sid`'s row counts for: `files` is each of the row's prediction
    files (as metadata.yaml lists it) with its sha256."""
    why_not = _record_landing(history, path)
    if why_not is None:
        why_not = _record_binding(record, metadata, files)
    if why_not is None:
        why_not = _record_after(history, path, sid)
    if why_not is not None:
        return RecordFacts(False, f"not run by NegHub: NegHub's record does not count ({why_not})")
    if record.schema_version < 5 or any(r.rerun_file is None or r.rerun_sha256 is None for r in record.runs):
        return RecordFacts(
            False, f"not run by NegHub: its record ({record.date}) kept none of NegHub's answers to score"
        )
    by_file = {run.file: run for run in record.runs}
    mine = [by_file[name] for name in files]
    if not all(run.compared_whole for run in mine):
        sampled = sum(run.items_checked for run in mine)
        return RecordFacts(
            False,
            f"not run by NegHub: NegHub's record does not count: it compared a sample of {sampled} items, and a record "
            "must compare every item",
        )
    checked = sum(r.items_checked for r in mine)
    agreeing = sum(r.items_agreeing for r in mine)
    unexpected = sum(r.unexpected_items for r in mine)
    runs = "its run" if len(mine) == 1 else f"its {len(mine)} runs"
    setting = ", in NegHub's own numeric setting" if record.kind == "across-settings" else ""
    words = f"run by NegHub: NegHub re-ran every item of {runs} ({record.date}{setting}) and scored its own answers"
    return RecordFacts(
        True,
        words,
        checked,
        agreeing,
        unexpected,
        record.date,
        record.weights_sha256,
        rerun=True,
        across_settings=record.kind == "across-settings",
    )


def _record_after(history: History, path: Path, sid: str) -> str | None:
    """Why a record that names the submission's files does not count for it: it landed before the submission did
    (a folder withdrawn and landed again with the same files, by anyone), or None."""
    landing, submission = history.landing_of_file(path), history.submissions.get(sid)
    if landing is not None and submission is not None and landing.position <= submission.position:
        return f"it landed before the submission it would vouch for ({submission.words})"
    return None


def _record_landing(history: History, path: Path) -> str | None:
    if not history.recorded:
        return "this build has no history of main, so nothing shows how the record landed"
    landing = history.landing_of_file(path)
    if landing is None:
        return "the record has not landed on main"
    if landing.pull_request is None:
        return None
    relative = path.resolve().relative_to(history.root).as_posix() if history.root is not None else path.name
    # the record and NegHub's answers it kept (reproductions/<id>/...), nothing else
    kept = relative.removesuffix(".json") + "/"
    if _from_own_branch(history, landing, RECORD_BRANCH) and all(
        p == relative or p.startswith(kept) for p in landing.paths
    ):
        return None
    return (
        f"it landed by pull request #{landing.pull_request} from {landing.branch or 'a branch not on record'}, not by "
        f"the gpu-reproduce workflow's branch of {repository(history)} changing that record alone"
    )


def _record_binding(record: Reproduction, metadata: Metadata, files: dict[str, str]) -> str | None:
    if record.kind != "same-setting" and not (record.schema_version >= 5 and record.kind == "across-settings"):
        return (
            "a drift report: it re-ran the model in another numeric setting"
            if record.kind == "across-settings"
            else "it was made before numeric settings were recorded"
        )
    if record.metadata_sha256 is None:
        return "it names no sha256 of the metadata it reproduced"
    if record.metadata_sha256 != metadata_sha256(metadata):
        return "the metadata changed since (model, size, identity, setting or prompt)"
    by_file = {run.file: run.predictions_sha256 for run in record.runs}
    left = {run.file: run.why for run in record.not_rerun}
    for name, sha256 in files.items():
        if name in left:
            return f"NegHub did not re-run {name}: {left[name]}"
        if name not in by_file:
            return f"NegHub did not re-run {name}"
        if by_file[name] != sha256:
            return f"{name} is not the file it reproduced"
    return None


def clearance_words(history: History, landing: Landing | None, login: str) -> str | None:
    """Who cleared, as GitHub recorded it (None: the entry does not count)."""
    if not history.recorded or landing is None:
        return None
    if landing.pull_request is None:
        return f"the maintainers (@{login}, pushed to main)"
    return f"@{login} (pull request #{landing.pull_request})"
