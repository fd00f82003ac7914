"""The generated pages' HTML blocks skip Markdown (leaderboard/raw_html.py) and the page comes out as Markdown would
have made it, byte for byte, with the same table of contents: on every page a realistic build generates, and on
the shapes a page could take that the stash must leave to Markdown."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import markdown
import pytest
import yaml

from neghub.leaderboard.collect import collect
from neghub.leaderboard.history import History
from neghub.leaderboard.raw_html import restore, stash
from neghub.leaderboard.site import build_pages

from .conftest import ROOT, realistic_submissions
from .test_score_cache import NUMBERS


def _converter() -> markdown.Markdown:
    """Python-Markdown as MkDocs sets it up for this site: its own extensions and mkdocs.yml's."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    extensions: list[str] = ["toc", "tables", "fenced_code"]
    configs: dict[str, Any] = {}
    for entry in config["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        if name not in extensions:
            extensions.append(name)
        if options:
            configs[name] = options
    return markdown.Markdown(extensions=extensions, extension_configs=configs)


def _both_ways(text: str) -> tuple[tuple[str, Any], tuple[str, Any]] | None:
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
    whole = _converter()
    expected = (whole.convert(body), whole.toc_tokens)  # type: ignore[attr-defined]
    stashed = stash(body)
    if stashed is None:
        return None
    fast = _converter()
    html = restore(fast.convert(stashed[0]), stashed[1])
    return expected, (html, fast.toc_tokens)  # type: ignore[attr-defined]


def test_every_generated_page_of_a_realistic_build_comes_out_as_markdown_makes_it(tmp_path: Path) -> None:
    realistic = realistic_submissions()
    folder = tmp_path / "submissions"
    folder.mkdir()
    items = [json.loads(line) for line in realistic.NUBENCH_TEST.read_text(encoding="utf-8").splitlines() if line]
    for number in NUMBERS:
        realistic.write_submission(folder, number, ([], []), items, realistic.scn_triplets())
    pages = build_pages(collect(folder, history=History(False, "a test's temp folder")))
    stashed = []
    for uri, text in pages.items():
        if uri.endswith(".md") and isinstance(text, str):
            compared = _both_ways(text)
            if compared is not None:
                assert compared[1] == compared[0], uri
                stashed.append(uri)
    # the pages the stash exists for: every benchmark page (a model page is a whole HTML page, no Markdown)
    assert {"benchmarks/nubench.md", "benchmarks/scn.md"} <= set(stashed)


@pytest.mark.parametrize(
    "page",
    [
        "## Results\n\n<div class='x'><table>\n<tr><td>a</td></tr>\n\n<tr><td>b\n\nc *d*</td></tr>\n</table></div>\n",
        "## A\n<details><summary>s</summary>\n\n<p>x</p>\n\n</details>\n\n## B {#b}\n\ntext *em*\n",
        "<p>one</p>\n<div>two</div>\n\n<p>three</p>\n",
        "text\n<div>right below a paragraph</div>\n",
        "<p>one</p><p>two on the same line</p>\n",
        "<div>never closed\n\n## heading\n",
        "<div>\n<div>nested</div>\n</div>\ntext right below\n",
        "```\n<div>in a fence</div>\n```\n",
        "<hr>\n\ntext\n",
        "<p>a</p>\n\n<details>\n<div>x</div>\n</details>",
    ],
)
def test_a_page_comes_out_as_markdown_makes_it_or_is_left_to_markdown(page: str) -> None:
    compared = _both_ways(page)
    if compared is not None:
        assert compared[1] == compared[0]


def test_a_generated_pages_blocks_skip_markdown_in_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("neghub_hooks", ROOT / "leaderboard" / "mkdocs_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    monkeypatch.setattr(hooks, "_GENERATED", {"benchmarks/scn.md"})
    text = "## Results\n\n<div>the table</div>\n"
    page = SimpleNamespace(file=SimpleNamespace(src_uri="benchmarks/scn.md"), meta={})
    converted = hooks.on_page_markdown(text, page=page)
    assert "<div>" not in converted
    html = hooks.on_page_content(markdown.markdown(converted), page=page)
    assert "<div>the table</div>" in html
