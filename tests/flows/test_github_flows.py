"""The pull-request and Pages flows run the way GitHub runs them (`nox -s github_flows`).

A fresh clone of the repository in a folder with no `shared/` beside it, `NEGHUB_DATA_DIR` unset, and the
JNLI-Neg release served under its upstream layout by a real HTTP server on 127.0.0.1
(`NEGHUB_UPSTREAM_ENDPOINT`). In the clone, the very commands of the workflows: submission.yml's
`nox -s validate -- --changed ...` and `nox -s rescore -- --changed ...` on a pull request's submissions,
then pages.yml's `nox -s site`, once with the server up and once with it stopped (from the cache).
Slow (each nox session makes its own venv), so it sits behind the `flows` marker. The two pull requests are checked
in one clone: GitHub's runner starts each job from a fresh one, but what `nox -s validate` prints depends only on the
pull request's folders and the base branch's code, and the second reusing the first one's environment of `validate`
saves building it again (a clone, a venv and NegHub's dependencies: about 15 s of `.ci/run`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..rule_submissions import rule_submission
from ..upstream_server import UpstreamServer, build_site

pytestmark = pytest.mark.flows
ROOT = Path(__file__).resolve().parents[2]
NEW_ID = "pr-majority-again"
NEW_NAME = "Majority label, resubmitted"


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def nox(clone: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nox", "-f", str(clone / "noxfile.py"), *args],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )


def pull_request(clone: Path, work: Path) -> Path:
    """The pull request's `submissions/` as submission.yml checks it out: the base's, plus one new folder (the
    JNLI-Neg predictions of `neghub baseline`'s majority rule, under another id and model name)."""
    head = work / "pull-request" / "submissions"
    shutil.copytree(clone / "submissions", head)
    new = head / NEW_ID
    shutil.copytree(rule_submission("majority"), new)
    meta = new / "metadata.yaml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("name: 'Rule: majority'", f"name: {NEW_NAME}"))
    assert NEW_NAME in meta.read_text(encoding="utf-8")
    return head


def upstream_for(shared_datasets: Path, tmp_path: Path) -> tuple[UpstreamServer, dict[str, str]]:
    """A local HTTP server with the JNLI-Neg release under its upstream layout, and the environment a clone's
    nox runs in: nothing of NegHub's or nox's from this process, a cache of its own, the server as upstream."""
    site = tmp_path / "www"
    build_site(shared_datasets, site)
    server = UpstreamServer(site)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEGHUB_", "NOX_"))}
    env.update({"NEGHUB_CACHE": str(tmp_path / "cache"), "NEGHUB_UPSTREAM_ENDPOINT": server.url})
    return server, env


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh clone with nothing beside it, what GitHub's runner has; its nox environments are kept between the
    module's tests."""
    work = tmp_path_factory.mktemp("runner")
    clone = work / "neghub"
    git("clone", "--quiet", str(ROOT), str(clone), cwd=work)
    assert not (clone.parent / "shared").exists()
    return clone


def test_pull_request_and_pages_flows_without_shared(shared_datasets: Path, clone: Path, tmp_path: Path) -> None:
    head = pull_request(clone, tmp_path)

    server, env = upstream_for(shared_datasets, tmp_path)
    try:
        # submission.yml: only the new folder is checked, with the base branch's code
        validated = nox(clone, env, "-s", "validate", "--", "--changed", str(head), "submissions")
        assert validated.returncode == 0, validated.stdout[-3000:] + validated.stderr[-3000:]
        oks = re.findall(r"^ok: (.+)$", validated.stdout, flags=re.M)
        assert oks == [str(head / NEW_ID)]
        rescored = nox(clone, env, "-s", "rescore", "--", "--changed", str(head), "submissions")
        assert rescored.returncode == 0, rescored.stdout[-3000:] + rescored.stderr[-3000:]
        assert "Traceback" not in rescored.stdout + rescored.stderr
        assert f"{NEW_ID}: 1 runs re-scored twice" in rescored.stdout
        assert any("jnli-neg" in r for r in server.requests)  # the data came from the upstream server

        # pages.yml: the site shows the committed JNLI-Neg runs re-scored, beside the rule rows it computed
        built = nox(clone, env, "-s", "site")
        assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
        assert_jnli_neg_rows(clone / "public")
    finally:
        server.stop()
    # again with the server stopped: everything comes from the cache
    shutil.rmtree(clone / "public")
    again = nox(clone, env, "-s", "site")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert_jnli_neg_rows(clone / "public")


def assert_jnli_neg_rows(public: Path) -> None:
    page = (public / "benchmarks" / "jnli-neg.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="neghub-row-(\w+)[^"]*">(.*?)</tr>', page, flags=re.S)
    # the rule rows NegHub computes from the release the build fetched: always 'contradiction' is the gold label
    # of 357 of the 787 M_i treatments (45.36 %), on each of the committed runs' two boards
    contradiction = [
        row for kind, row in rows if kind == "reference" and 'data-value="rule: always &#39;contradiction&#39;"' in row
    ]
    assert len(contradiction) == 2 and all("<strong>45.36</strong>" in row for row in contradiction), contradiction
    # SmolLM2's two committed JNLI-Neg runs, re-scored from the fetched release: shown, not left out
    assert len([row for kind, row in rows if kind == "verified" and ">SmolLM2-135M-Instruct</a>" in row]) == 2
    report = (public / "maintainers.html").read_text(encoding="utf-8")
    assert "could not read the jnli-neg release" not in report
    home = (public / "index.html").read_text(encoding="utf-8")
    assert "Rows are missing" not in home
    assert "NEGHUB_DATA_DIR" not in home and "--data-dir" not in home  # no internal message for readers


def test_a_broken_pull_request_names_its_submission_on_every_line(
    shared_datasets: Path, clone: Path, tmp_path: Path
) -> None:
    head = pull_request(clone, tmp_path)
    broken = head / "pr-broken"
    shutil.copytree(head / NEW_ID, broken)
    (broken / "predictions" / "jnli-neg" / "valid.jsonl").write_text('{"id": 0, "prediction": "maybe"}\n')
    server, env = upstream_for(shared_datasets, tmp_path)
    try:
        validated = nox(clone, env, "-s", "validate", "--", "--changed", str(head), "submissions")
    finally:
        server.stop()
    assert validated.returncode != 0
    output = validated.stdout + validated.stderr
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert errors, output[-3000:]
    assert errors and all(line.startswith("error: pr-broken/") for line in errors)
    assert re.findall(r"^ok: (.+)$", validated.stdout, flags=re.M) == [str(head / NEW_ID)]
