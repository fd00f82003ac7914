"""The site's address and the repository links its pages print are the deployment's (issue 38: "its repository from
GITHUB_REPOSITORY or one configuration file, never a constant"): site_url is where GitHub Pages serves the repository
that `.github/neghub.yaml` or $GITHUB_REPOSITORY names, and a build deployed elsewhere never links to NegHub's own.

The published JSON Schemas' `$id`s stay NegHub's (evaluator/submissions/schemas.py's BASE_ID): they name the data
contract, one for every deployment, and are committed files; the build serves them as they are.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from neghub.leaderboard.deployment import deployed_repository, pages_url
from tests.conftest import ROOT
from tests.processes import run_process


def test_pages_serves_a_project_under_its_name_and_the_owner_s_own_repository_at_the_root() -> None:
    assert pages_url("acme/negbench") == "https://acme.github.io/negbench/"
    assert pages_url("Acme/NegBench") == "https://acme.github.io/NegBench/"  # a host name is lower-case, a path not
    assert pages_url("acme/acme.github.io") == "https://acme.github.io/"


def test_the_repository_comes_from_the_configuration_file_then_github_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    assert deployed_repository(tmp_path) is None  # neither: no address, never a default
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/negbench")
    assert deployed_repository(tmp_path) == "acme/negbench"
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "neghub.yaml").write_text("repository: other/fork\n", encoding="utf-8")
    assert deployed_repository(tmp_path) == "other/fork"  # the file wins: a local build links where Pages does
    monkeypatch.setenv("GITHUB_REPOSITORY", "not a repository")
    (tmp_path / ".github" / "neghub.yaml").unlink()
    assert deployed_repository(tmp_path) is None


def test_the_hook_sets_site_url_from_the_deployment_and_none_without_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mkdocs")
    from neghub.leaderboard import mkdocs_hooks

    class Config(dict[str, object]):
        config_file_path = str(tmp_path / "mkdocs.yml")

    monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
    config = mkdocs_hooks.on_config(Config(site_url="https://neghub.github.io/neghub/"))
    assert config["site_url"] is None  # the build's "repository is not named" line says why
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/negbench")
    assert mkdocs_hooks.on_config(Config())["site_url"] == "https://acme.github.io/negbench/"


def test_a_build_deployed_as_acme_negbench_links_there_and_never_to_neghub(tmp_path: Path) -> None:
    """A whole build (no submission: the pages' own links) with GITHUB_REPOSITORY=acme/negbench, as the Pages
    workflow of acme/negbench runs it."""
    pytest.importorskip("mkdocs")
    submissions, out = tmp_path / "submissions", tmp_path / "public"
    submissions.mkdir()
    env = {
        **os.environ,
        "GITHUB_REPOSITORY": "acme/negbench",
        "NEGHUB_SUBMISSIONS_DIR": str(submissions),
        "NEGHUB_SCORE_CACHE": "off",
        "NO_MKDOCS_2_WARNING": "1",
    }
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", ROOT / "mkdocs.yml", "-d", out]
    done = run_process(build, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://acme.github.io/negbench/submit.html</loc>" in sitemap
    assert '<base href="/negbench/">' in (out / "404.html").read_text(encoding="utf-8")
    submit = (out / "submit.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/acme/negbench/blob/main/docs/submitting.md"' in submit
    written = [p for p in out.rglob("*") if p.is_file() and p.suffix in {".html", ".xml", ".json", ".csv", ".js"}]
    pages = [p for p in written if p.relative_to(out).parts[0] != "schemas"]  # the contract's $ids: see above
    assert pages
    named = [
        str(p.relative_to(out)) for p in pages if "neghub/neghub" in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert named == []
    hosted = [
        str(p.relative_to(out)) for p in pages if "neghub.github.io" in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert hosted == []
