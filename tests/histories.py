"""A repository whose main grows as GitHub grows it, for the tests of what GitHub recorded (leaderboard/history.py).

`Main` is a git repository laid out as NegHub's (submissions/, reproductions/, clearances.yaml). Its main branch
gets commits two ways, as on GitHub: a maintainer's direct push (`push`), and a pull request's merge commit, made
the way GitHub's merge button makes it (`merge`: a branch from main's tip or from an older commit, its own commits
with any date their author typed, then `git merge --no-ff` with GitHub's subject "Merge pull request #N from
OWNER/BRANCH"). The site is then built from it (`build`) and read as a reader reads it (`Site`): each page's text
without markup, a board's rows by model, the home page's leader line.

Submission folders are written by `submission`: one JNLI-Neg validation run (or a NUBench run) of given answers,
with metadata naming the model, its pin and the GitHub account.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neghub.evaluator.core.registry import benchmark_names, get_benchmark

Files = Mapping[str, str | bytes | None]  # path from the repository's root -> content (None: delete)


def git(root: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        timeout=120,
    )
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr}")
    return done.stdout


def _dated(date: str | None) -> dict[str, str]:
    return {} if date is None else {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}


REPOSITORY = "neghub/neghub"  # the tests' repository (its .github/neghub.yaml)


@dataclass
class Main:
    """A NegHub repository on disk whose `main` grows by pushes and GitHub merge commits."""

    root: Path
    _branches: int = 0

    @classmethod
    def create(cls, root: Path) -> Main:
        (root / "submissions").mkdir(parents=True)
        (root / "reproductions").mkdir()
        git(root, "init", "-q", "-b", "main")
        (root / "README.md").write_text("a NegHub repository of the tests\n", encoding="utf-8")
        # its identity, as a deployment names it (leaderboard/deployment.py): the merge commits name its branches
        (root / ".github").mkdir()
        (root / ".github" / "neghub.yaml").write_text(f"repository: {REPOSITORY}\n", encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "The repository", env=_dated("2026-01-01T00:00:00Z"))
        return cls(root)

    def _write(self, files: Files) -> None:
        for name, content in files.items():
            path = self.root / name
            if content is None:
                if path.is_dir():
                    shutil.rmtree(path)
                elif path.exists() or path.is_symlink():
                    path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")

    def push(self, message: str, files: Files, date: str | None = None) -> str:
        """A maintainer's commit pushed to main directly."""
        self._write(files)
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", message, env=_dated(date))
        return git(self.root, "rev-parse", "HEAD").strip()

    def merge(
        self,
        number: int,
        owner: str,
        files: Files,
        *,
        branch: str | None = None,
        date: str | None = None,
        base: str | None = None,
    ) -> str:
        """Pull request #number from OWNER/BRANCH, its one commit dated `date` (any date its author typed) and
        branched from `base` (default: main's tip), merged as GitHub's merge button merges it."""
        self._branches += 1
        name = branch or f"topic-{self._branches}"
        git(self.root, "checkout", "-q", "-b", name, base or "main")
        self._write(files)
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", f"{owner}'s change", env=_dated(date))
        git(self.root, "checkout", "-q", "main")
        git(self.root, "merge", "-q", "--no-ff", "-m", f"Merge pull request #{number} from {owner}/{name}", name)
        return git(self.root, "rev-parse", "HEAD").strip()

    def head(self) -> str:
        return git(self.root, "rev-parse", "HEAD").strip()


# --- submissions --------------------------------------------------------------------------------------------


def hub_model(name: str, repo: str, revision: str, file: str | None = None) -> dict[str, Any]:
    model = {
        "kind": "hub",
        "name": name,
        "repo_id": repo,
        "revision": revision,
        "parameters": 1_000_000,
        "open_weights": True,
        "license": "apache-2.0",
    }
    if file is not None:
        model["file"] = file
    return model


def metadata_yaml(model: Mapping[str, Any], github: str, runs: list[dict[str, Any]], **extra: Any) -> str:
    import yaml

    document = {
        "model": dict(model),
        "submitter": {
            "name": extra.pop("submitter_name", github),
            "contact": f"https://example.org/{github}",
            "github": github,
        },
        "date": extra.pop("date", "2026-05-01"),
        "description": extra.pop("description", "Made for NegHub's tests."),
        "runs": runs,
    }
    if extra.get("provenance"):
        document["provenance"] = extra["provenance"]
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


def jnli_run(
    answers: Mapping[int, str | None],
    *,
    file: str = "run.jsonl",
    shots: int = 0,
    prompt: str = "llm-jp-eval",
    chat_template: bool = False,
    split: str = "valid",
    seed: int | None = None,
) -> tuple[dict[str, Any], str]:
    """A JNLI-Neg run entry and its prediction file's text."""
    lines = [
        json.dumps({"id": i, "prediction": None, "raw_output": "?"} if a is None else {"id": i, "prediction": a})
        for i, a in answers.items()
    ]
    run = {
        "task": "jnli-neg",
        "split": split,
        "file": f"predictions/jnli-neg/{file}",
        "shots": shots,
        "seed": seed,
        "prompt": prompt,
        "chat_template": chat_template,
    }
    return run, "\n".join(lines) + "\n"


def submission(
    sid: str, model: Mapping[str, Any], github: str, runs: list[tuple[dict[str, Any], str]], **extra: Any
) -> dict[str, str | bytes | None]:
    """The files of submissions/<sid>/ (its metadata and prediction files)."""
    files: dict[str, str | bytes | None] = {
        f"submissions/{sid}/metadata.yaml": metadata_yaml(model, github, [run for run, _ in runs], **extra)
    }
    for run, text in runs:
        files[f"submissions/{sid}/{run['file']}"] = text
    return files


# --- the site, as a reader reads it --------------------------------------------------------------------------


def clearances_yaml(
    submission: str, holds: list[str], by: str, date: str, why: str, boards: list[str] | None = None
) -> str:
    """clearances.yaml with one entry, as a maintainer writes it (the strings quoted: JSON's are YAML's too);
    `boards` defaults to JNLI-Neg's primary board, where jnli_run's rows land."""
    boards = [jnli_primary_slug()] if boards is None else boards
    return (
        "clearances:\n"
        f"  - submission: {submission}\n"
        f"    holds: [{', '.join(holds)}]\n"
        + (f"    boards: [{', '.join(boards)}]\n" if boards else "")
        + f"    by: {by}\n"
        f"    date: {json.dumps(date)}\n"
        f"    why: {json.dumps(why)}\n"
        "accepted_prompts: []\n"
    )


def jnli_primary_slug() -> str:
    """The slug of JNLI-Neg's primary board: a clearance names it to lift a hold of a jnli_run row there."""
    from neghub.leaderboard.boards import primary_board

    board = primary_board("jnli-neg")
    assert board is not None
    return board.slug


def text_of(page: str) -> str:
    """A page as a reader reads it: no markup, no scripts, entities decoded, white space folded."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.DOTALL)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page)).strip()


@dataclass
class Site:
    """The pages of one build, keyed by their path in the site (leaderboard.site.build_pages)."""

    pages: Mapping[str, str | bytes]
    board: Any = field(repr=False, default=None)

    def text(self, path: str) -> str:
        page = self.pages[path]
        assert isinstance(page, str)
        return text_of(page)

    def rows(self, task: str, board_words: str | None = None) -> dict[str, str]:
        """Each row of a benchmark page's boards (the first board whose heading contains `board_words`, or every
        board) as a reader reads it, the rows a long board loads when asked included, keyed by the model's name as
        the row shows it; a name twice is suffixed #2."""
        page = self.pages[f"benchmarks/{task}.md"]
        assert isinstance(page, str)
        out: dict[str, str] = {}
        for block in re.findall(r'<details class="neghub-board".*?</details>\n\n', page, flags=re.DOTALL):
            heading = text_of(re.search(r"<summary>(.*?)</summary>", block, flags=re.DOTALL).group(1))  # type: ignore[union-attr]
            if board_words is not None and board_words not in heading:
                continue
            later = re.search(r'data-more="\.\./(data/rows/[^"]+)"', block)  # the rows past those the page carries
            if later is not None:
                more = self.pages[later.group(1)]
                block += more if isinstance(more, str) else more.decode()
            for row in re.findall(r"<tr class=\"neghub-row-.*?</tr>", block, flags=re.DOTALL):
                name = text_of(
                    re.search(r'<td class="neghub-model-col"[^>]*>(.*?)(?:\n|<details)', row, flags=re.DOTALL).group(1)
                )  # type: ignore[union-attr]
                key, n = name, 2
                while key in out:
                    key, n = f"{name} #{n}", n + 1
                out[key] = text_of(row)
            if board_words is not None:
                break
        return out

    def leader(self, name: str) -> str:
        """The leader line of a benchmark (by its display name), as its page words it under "Leader:" (the home page
        names a leader only where there is one, beside the paper's mini board)."""
        task = next(t for t in benchmark_names() if get_benchmark(t).display.name == name)
        page = self.pages[f"benchmarks/{task}.md"]
        assert isinstance(page, str)
        found = re.search(r'<details class="neghub-leader".*?</summary>\s*<p>(.*?)</p>', page, flags=re.DOTALL)
        assert found is not None, page[:400]
        return text_of(found.group(1))

    def file(self) -> dict[str, Any]:
        page = self.pages["data/leaderboard.json"]
        return json.loads(page if isinstance(page, str) else page.decode())


def maintainers_pushed_submissions(root: Path, source: Path) -> Path:
    """A repository at `root` whose main holds the submissions of `source` (a checkout's submissions/ folder) as
    the maintainers pushed them: what a clone of NegHub's main shows, without depending on the checkout's own git
    history (an unpacked sdist has none, and there no row is NegHub's run)."""
    main = Main.create(root)
    files: Files = {
        f"submissions/{path.relative_to(source).as_posix()}": path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file()
    }
    main.push("NegHub's runs", files)
    return root


def build(root: Path, data_dir: Path | None = None) -> Site:
    """The site built from the repository at `root` as pages.yml builds it (its history read from git)."""
    from neghub.leaderboard.collect import collect
    from neghub.leaderboard.site import build_pages

    board = collect(root / "submissions", data_dir=data_dir)
    return Site(build_pages(board, root / "datasets_cards"), board)
