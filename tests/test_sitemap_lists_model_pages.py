"""A model page is written outside MkDocs' Markdown pipeline (site.model_page), so MkDocs' sitemap does not list
it; the hook adds each to `sitemap.xml` and its gzip copy after the build. The built site's own sitemap is checked
in test_site_browser.py (test_404_page_and_sitemap_use_the_site_url)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

# the sitemap as MkDocs 1.6's template writes it, one rendered page
MKDOCS_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url>
         <loc>https://acme.github.io/negbench/models/</loc>
    </url>
</urlset>"""
BUILD_TIME = 1_700_000_000


def _site(tmp_path: Path) -> Path:
    (tmp_path / "sitemap.xml").write_text(MKDOCS_SITEMAP, encoding="utf-8")
    with gzip.GzipFile(tmp_path / "sitemap.xml.gz", mode="wb", mtime=BUILD_TIME) as gz:
        gz.write(MKDOCS_SITEMAP.encode("utf-8"))
    return tmp_path


def test_each_model_page_is_added_at_the_site_s_address(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    from neghub.leaderboard.mkdocs_hooks import with_model_pages

    site = _site(tmp_path)
    with_model_pages(site, "https://acme.github.io/negbench/", ["models/a-1.html", "models/b.html"])
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert text == MKDOCS_SITEMAP.replace(
        "</urlset>",
        "    <url>\n         <loc>https://acme.github.io/negbench/models/a-1.html</loc>\n    </url>\n"
        "    <url>\n         <loc>https://acme.github.io/negbench/models/b.html</loc>\n    </url>\n</urlset>",
    )
    with gzip.open(site / "sitemap.xml.gz", "rt", encoding="utf-8") as zipped:
        assert zipped.read() == text
    assert int.from_bytes((site / "sitemap.xml.gz").read_bytes()[4:8], "little") == BUILD_TIME


def test_an_address_is_written_as_xml(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    from neghub.leaderboard.mkdocs_hooks import with_model_pages

    site = _site(tmp_path)
    with_model_pages(site, "https://a.github.io/x&y/", ["models/m.html"])
    assert "<loc>https://a.github.io/x&amp;y/models/m.html</loc>" in (site / "sitemap.xml").read_text("utf-8")


def test_a_site_without_an_address_keeps_its_sitemap(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    from neghub.leaderboard.mkdocs_hooks import with_model_pages

    site = _site(tmp_path)
    zipped = (site / "sitemap.xml.gz").read_bytes()
    with_model_pages(site, None, ["models/m.html"])
    assert (site / "sitemap.xml").read_text(encoding="utf-8") == MKDOCS_SITEMAP
    assert (site / "sitemap.xml.gz").read_bytes() == zipped


def test_a_sitemap_in_another_form_is_left_as_it_is(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    from neghub.leaderboard.mkdocs_hooks import with_model_pages

    other = '<?xml version="1.0"?>\n<sitemapindex></sitemapindex>\n'
    (tmp_path / "sitemap.xml").write_text(other, encoding="utf-8")
    with_model_pages(tmp_path, "https://a.github.io/x/", ["models/m.html"])
    assert (tmp_path / "sitemap.xml").read_text(encoding="utf-8") == other
    assert not (tmp_path / "sitemap.xml.gz").exists()  # none was written, none is made
