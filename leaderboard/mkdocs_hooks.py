"""The MkDocs hook that generates the leaderboard's pages inside the build (`hooks:` in mkdocs.yml).

Nothing is written into `site/`: the pages, the CSV/JSON exports and plotly.js become files of the build (the
pages virtual, the downloads written to a temporary folder as each is made, which goes once MkDocs copied them),
so a plain `mkdocs build` (or `mkdocs serve`) from the repository root
re-scores every submission (or reads its scores from the score cache, leaderboard/score_cache.py, where the
same files were scored by the same code on the same releases before) and produces the complete site.
NEGHUB_SUBMISSIONS_DIR points it at another submissions folder (the tests and the benchmark use one in a temp
directory); NEGHUB_SCORE_CACHE at another score cache folder, or `off`. The hand-written
Submit page gets its list of model kinds from the submission models (leaderboard/submit_page.py). The site's
address and the repository links its pages print come from the deployment's repository (leaderboard/deployment.py),
never from a name written here.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.exceptions import Abort
from mkdocs.structure.files import File, Files

# MkDocs loads this file by its path (mkdocs.yml `hooks:`), outside the package: its imports are absolute
from neghub.evaluator.fileio.logs import log_safe
from neghub.evaluator.releases.loading import local_copy_advice
from neghub.leaderboard.boards import SlugCollision
from neghub.leaderboard.collect import collect, submissions_dir
from neghub.leaderboard.deployment import deployed_repository, pages_url
from neghub.leaderboard.raw_html import restore, stash
from neghub.leaderboard.score_cache import cache_folder
from neghub.leaderboard.site import build_pages, lean_assets
from neghub.leaderboard.submit_page import SUBMIT_PAGE, with_model_kinds

log = logging.getLogger("mkdocs.plugins.neghub")
PLOTLY_JS = "assets/plotly.min.js"
_GENERATED: set[str] = set()  # the Markdown pages this build generated (their HTML blocks skip Markdown)
_STASHED: dict[str, list[str]] = {}  # page -> its HTML blocks, between its Markdown and its content events
# what a hand-written page writes for the deployment's repository in a link (https://github.com/OWNER/NAME/...)
REPOSITORY_LINK = "https://github.com/OWNER/NAME/"
_REPOSITORY: dict[str, str] = {}  # "name": OWNER/NAME of this build's deployment, where one is named
_DOWNLOADS: list[Path] = []  # the folder this build's downloads are written to, until MkDocs copied them
_MODEL_PAGES: list[str] = []  # this build's model pages (models/<id>.html), which MkDocs' sitemap does not list


def plotly_js_path() -> Path:
    """The plotly.js bundled with the plotly package (served by the site itself: no CDN, works offline)."""
    import plotly  # type: ignore[import-untyped]

    path = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: install the site extra (pip install -e '.[site]')")
    return path


class BuildRefused(Abort):
    """A build NegHub refuses to write (two boards with one slug, two rows with one id): its one line, exit code 2
    (MkDocs prints an Abort's message alone, without a traceback, and exits with its code)."""

    code = 2
    exit_code = 2

    def show(self, *args: Any, **kwargs: Any) -> None:
        import click

        click.echo(self.format_message(), err=True)


def on_config(config: Any, **_: Any) -> Any:
    """site_url (the 404 page's base and the sitemap's addresses) is where GitHub Pages serves the deployment's
    repository: `.github/neghub.yaml`'s `repository:`, else $GITHUB_REPOSITORY. Where neither names one the site has
    no address, and the build's "repository is not named" line (deployment.announce) says so."""
    named = deployed_repository(Path(config.config_file_path).parent)
    _REPOSITORY.clear()
    if named is not None:
        _REPOSITORY["name"] = named
    config["site_url"] = pages_url(named) if named is not None else None
    return config


def on_files(files: Files, config: Any, **_: Any) -> Files:
    repository = Path(config.config_file_path).parent  # mkdocs.yml sits at the repository's root
    try:
        board = collect(submissions_dir(repository), score_cache=cache_folder(repository))
    except SlugCollision as error:
        raise BuildRefused(str(error)) from None
    for note in board.notes:  # every line in the build log; the site's build report shows the first few
        for message in note.messages:
            log.info("submission %s %s: %s", log_safe(note.submission), note.level, log_safe(message))
    for task in sorted({task for note in board.notes for task in note.unreadable}):  # said once, not per run
        log.info(
            "to show the %s runs left out, let the build reach the release's pinned source (its upstream URL, or a "
            "Hub revision once published), or %s",
            task,
            local_copy_advice(task, data_dir_option=False),
        )
    # a model page is a whole HTML page (no Markdown, no search entry) that loads the theme's stylesheets
    try:
        assets = lean_assets((f.src_uri for f in files), config["extra_css"], config["extra_javascript"])
    except ValueError as error:
        raise BuildRefused(str(error)) from None
    # the downloads are written to a folder of this build as each is made, not held until MkDocs writes every page
    # (at 1,000 submissions 62 MB at the build's peak); MkDocs copies them into the site, then the folder goes
    _remove_downloads()
    _DOWNLOADS.append(Path(tempfile.mkdtemp(prefix="neghub-downloads-")))
    pages = build_pages(board, repository / "datasets_cards", assets, downloads=_DOWNLOADS[-1])
    _GENERATED.clear()
    _GENERATED.update(uri for uri in pages if uri.endswith(".md"))
    _MODEL_PAGES[:] = sorted(uri for uri in pages if uri.startswith("models/") and uri.endswith(".html"))
    for src_uri, content in pages.items():
        if files.get_file_from_path(src_uri) is not None:
            files.remove(files.get_file_from_path(src_uri))  # type: ignore[arg-type]
        if isinstance(content, Path):
            files.append(File.generated(config, src_uri, abs_src_path=str(content)))
        else:
            files.append(File.generated(config, src_uri, content=content))
    files.append(File.generated(config, PLOTLY_JS, abs_src_path=str(plotly_js_path())))
    # the published JSON Schemas, at the URLs their $id names (https://<site>/schemas/<file>; a site file's schema
    # under its data contract's version, https://<site>/schemas/data-contract-<N>/<file>, and at schemas/<file> too)
    for schema in sorted((repository / "schemas").glob("*.json")):
        for src_uri in dict.fromkeys([f"schemas/{schema.name}", _served_at(schema)]):
            files.append(File.generated(config, src_uri, abs_src_path=str(schema)))
    return files


def _remove_downloads() -> None:
    while _DOWNLOADS:
        shutil.rmtree(_DOWNLOADS.pop(), ignore_errors=True)


def on_post_build(config: Any, **_: Any) -> None:
    """The downloads' folder goes once MkDocs copied its files into the site; the model pages join the sitemap."""
    _remove_downloads()
    with_model_pages(Path(config["site_dir"]), config["site_url"], _MODEL_PAGES)


def with_model_pages(site_dir: Path, site_url: str | None, pages: list[str]) -> None:
    """`pages` (site paths) added to the sitemap MkDocs wrote, `sitemap.xml` and its gzip copy where there is one.
    MkDocs lists only the pages it rendered, and a model page is written outside its Markdown pipeline
    (site.model_page): a search engine would find one only through the Models page. A site without an address has
    no sitemap entries (MkDocs writes none either)."""
    import gzip
    from xml.sax.saxutils import escape

    sitemap = site_dir / "sitemap.xml"
    if not site_url or not pages or not sitemap.is_file():
        return
    text = sitemap.read_text(encoding="utf-8")
    end = text.rfind("</urlset>")
    if end < 0:  # a theme's own sitemap, in a form this does not know: left as it is, and said
        log.info("sitemap.xml has no </urlset>: the %d model pages are not added to it", len(pages))
        return
    entries = "".join(f"\n    <url>\n         <loc>{escape(site_url + uri)}</loc>\n    </url>" for uri in pages)
    text = text[:end].rstrip() + entries + "\n" + text[end:]
    sitemap.write_text(text, encoding="utf-8")
    zipped = sitemap.with_name("sitemap.xml.gz")
    if zipped.is_file():  # MkDocs writes both; the copy keeps the time MkDocs gave it
        mtime = int.from_bytes(zipped.read_bytes()[4:8], "little")
        with zipped.open("wb") as raw, gzip.GzipFile(fileobj=raw, filename=str(zipped), mode="wb", mtime=mtime) as gz:
            gz.write(text.encode("utf-8"))


def on_build_error(**_: Any) -> None:
    _remove_downloads()


def _served_at(schema: Path) -> str:
    """Where the site serves a schema: the path its `$id` names under the site's schemas/ folder."""
    import json

    from neghub.evaluator.submissions.schemas import BASE_ID

    named = json.loads(schema.read_text(encoding="utf-8")).get("$id")
    if isinstance(named, str) and named.startswith(BASE_ID):
        return "schemas/" + named.removeprefix(BASE_ID)
    return f"schemas/{schema.name}"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """The Submit page gets its list of model kinds, generated from the submission models. A generated page's HTML
    blocks are kept out of Markdown (raw_html.py: Markdown converts its headings alone). A model page is no Markdown
    page (site.model_page): nothing here sees it, and the search index has no entry for it (the models' names are
    searchable on the Models page)."""
    uri = page.file.src_uri
    if "name" in _REPOSITORY:  # the deployment's repository in the hand-written pages' links
        markdown = markdown.replace(REPOSITORY_LINK, f"https://github.com/{_REPOSITORY['name']}/")
    if uri == SUBMIT_PAGE:
        return with_model_kinds(markdown)
    if uri in _GENERATED:
        stashed = stash(markdown)
        if stashed is not None:
            _STASHED[uri] = stashed[1]
            return stashed[0]
    return markdown


def on_page_content(html: str, page: Any, **_: Any) -> str:
    """A generated page's HTML blocks back where Markdown would have put them."""
    blocks = _STASHED.pop(page.file.src_uri, None)
    return html if blocks is None else restore(html, blocks)
