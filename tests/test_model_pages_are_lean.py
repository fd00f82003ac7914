"""A model page is a whole HTML page without the theme's navigation (issue 37, item 6: the site's size).

The site has a page per submission. Written by MkDocs, about half of each model page's bytes were Material's
navigation, header and footer (12 of 24 KB at 250 submissions); the page is written outside MkDocs' Markdown and
search pipeline instead: the theme's stylesheets, NegHub's script, a header that links back to the site and to
every benchmark, its content as before.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from neghub.evaluator.core.registry import benchmark_names
from neghub.leaderboard.collect import collect
from neghub.leaderboard.site import build_pages, lean_assets

ROOT = Path(__file__).resolve().parents[1]
SID = "smollm2-135m-instruct"  # the committed submission
THEME = ("assets/stylesheets/main.57a0d79d.min.css", "assets/stylesheets/palette.fb2fffe2.min.css")


@pytest.fixture(scope="module")
def page() -> str:
    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    board = collect(ROOT / "submissions", data_dir=Path(data_dir) if data_dir else None)
    assets = lean_assets([*THEME, "assets/javascripts/bundle.f1a2b3c4.min.js"], ["assets/neghub.css"], ["x.js"])
    files = build_pages(board, assets=assets)
    assert f"models/{SID}.md" not in files  # no Markdown page for MkDocs to wrap in its theme
    text = files[f"models/{SID}.html"]
    assert isinstance(text, str)
    return text


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.classes: set[str] = set()
        self.links: list[str] = []
        self.sheets: list[str] = []
        self.scripts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.tags.append(tag)
        self.classes.update((named.get("class") or "").split())
        if tag == "a" and named.get("href"):
            self.links.append(str(named["href"]))
        if tag == "link" and named.get("rel") == "stylesheet":
            self.sheets.append(str(named["href"]))
        if tag == "script" and named.get("src"):
            self.scripts.append(str(named["src"]))


def test_a_model_page_carries_no_theme_navigation(page: str) -> None:
    tags = _Tags()
    tags.feed(page)
    theme_chrome = {c for c in tags.classes if re.match(r"md-(nav|header|footer|sidebar|search|tabs|top)", c)}
    assert theme_chrome == set()
    assert "__config" not in page and "search" not in page.lower().split("</header>")[0]
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")


def test_a_model_page_links_back_to_the_site_and_every_benchmark(page: str) -> None:
    tags = _Tags()
    tags.feed(page)
    header = page.split("<header", 1)[1].split("</header>", 1)[0]
    assert '"../index.html"' in header and '"../models/index.html"' in header
    for task in benchmark_names():
        assert f'"../benchmarks/{task}.html"' in header, task
    # readable on a phone: the viewport is the device's; one main landmark holding the article and its title
    assert '<meta name="viewport" content="width=device-width,initial-scale=1">' in page
    assert tags.tags.count("main") == 1 and tags.tags.count("h1") == 1
    assert re.search(r"<main[^>]*>.*<article[^>]*md-typeset[^>]*>\s*<h1>", page, re.DOTALL)


def test_a_model_page_loads_the_themes_stylesheets_and_neghubs_own(page: str) -> None:
    tags = _Tags()
    tags.feed(page)
    # the theme's main sheet before its palette, then NegHub's; NegHub's script, not the theme's (its navigation)
    assert tags.sheets == ["../" + THEME[0], "../" + THEME[1], "../assets/neghub.css"]
    assert tags.scripts == ["../x.js"]


def test_a_model_page_keeps_its_sections_and_their_anchors(page: str) -> None:
    # every section keeps its anchor and a link to it; JNLI-Neg's flip analysis is there where its release reads
    # (without ../shared the committed row's JNLI-Neg runs are not scored, and the page has no such section)
    headings = re.findall(r'<h2 id="([^"]+)">[^<]+<a class="headerlink" href="#([^"]+)"', page)
    assert len(headings) == page.count("<h2") and all(anchor == link for anchor, link in headings)
    expected = ["results", "metadata", "the-models-own-answers", "provenance"]
    data_dir = os.environ.get("NEGHUB_DATA_DIR")
    if data_dir and (Path(data_dir) / "jnli-neg").is_dir():
        expected.insert(2, "flip-analysis")
    assert [anchor for anchor, _ in headings if anchor in {*expected, "flip-analysis"}] == expected
    assert 'id="model-results"' in page and "SmolLM2" in page


def test_a_theme_without_the_main_stylesheet_it_names_stops_the_build() -> None:
    with pytest.raises(ValueError, match="main stylesheet"):
        lean_assets(["assets/stylesheets/palette.fb2fffe2.min.css"], ["assets/neghub.css"], [])
