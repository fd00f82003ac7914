"""NegHub's overrides of the theme's templates (site/overrides/, mkdocs.yml `custom_dir`).

A copied partial hides the theme's own when the theme changes: each copy must equal the installed theme's file
but for what NegHub changed in it, so that a new mkdocs-material version that changes the partial fails here
(copy its new version and make the change again)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

material = pytest.importorskip("material", reason="the site extra is not installed (pip install -e '.[site]')")

OVERRIDES = Path(__file__).parents[1] / "site" / "overrides"
THEME = Path(material.__file__).parent / "templates"
# the leading {#- ... -#} comment of a template
COMMENT = re.compile(r"\A\{#-.*?-#\}\n", re.DOTALL)


def test_the_search_partial_is_the_themes_but_for_the_dialogs_name() -> None:
    ours = COMMENT.sub("", (OVERRIDES / "partials" / "search.html").read_text(encoding="utf-8"))
    theirs = COMMENT.sub("", (THEME / "partials" / "search.html").read_text(encoding="utf-8"))
    named = ' role="dialog" aria-label="{{ lang.t(\'search\') }}">'
    assert named in ours
    assert ours.replace(named, ' role="dialog">', 1) == theirs


def test_every_override_is_tested_here() -> None:
    """A new override is a new copy of the theme's to keep in step (or a template of NegHub's own, 404.html)."""
    overrides = sorted(p.relative_to(OVERRIDES).as_posix() for p in OVERRIDES.rglob("*") if p.is_file())
    assert overrides == ["404.html", "partials/search.html"]
