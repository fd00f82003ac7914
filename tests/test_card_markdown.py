"""The cards' Markdown escaping (evaluator/releases/markdown.py) and the licenses the metadata accepts."""

from __future__ import annotations

import html
import re
from typing import Any

import markdown as python_markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from neghub.evaluator.core.registry import get_benchmark
from neghub.evaluator.protocol.licenses import NOT_SPECIFIED, License, hub_license_fields
from neghub.evaluator.protocol.metadata import CardText
from neghub.evaluator.releases import markdown
from neghub.evaluator.releases.cards import front_matter, render_card

TAG = re.compile(r"<[^>]+>")
# what a metadata string may hold, Markdown's and HTML's special characters above all
TEXT = st.text(alphabet=st.sampled_from(list("ab1 \n\t*_`[]()<>&#|-+=!.\\{}~:")), min_size=1, max_size=30)


def rendered_text(markdown_source: str) -> str:
    """The text a reader sees: rendered as MkDocs does (Python-Markdown with tables), tags dropped."""
    page = python_markdown.markdown(markdown_source, extensions=["tables"])
    return " ".join(html.unescape(TAG.sub("", page)).split())


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_escaped_text_renders_as_the_text_itself(text: str) -> None:
    assert rendered_text(markdown.escape(text)) == " ".join(text.split())


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_escaped_text_opens_no_markup(text: str) -> None:
    page = python_markdown.markdown(markdown.escape(text), extensions=["tables"])
    # one paragraph of text: no emphasis, link, code, heading, list, rule or raw HTML
    assert set(re.findall(r"<(\w+)", page)) <= {"p"}, page


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_a_cell_stays_one_cell_and_a_code_span_holds_the_text_verbatim(text: str) -> None:
    table = f"| a | b |\n|---|---|\n| {markdown.cell(text)} | {markdown.cell(markdown.code(text))} |\n"
    page = python_markdown.markdown(table, extensions=["tables"])
    cells = re.findall(r"<td>(.*?)</td>", page, re.S)
    assert len(cells) == 2, page
    assert " ".join(html.unescape(TAG.sub("", cells[0])).split()) == " ".join(text.split())


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab`\n ")), min_size=1, max_size=20))
def test_a_fence_holds_any_content_verbatim(text: str) -> None:
    page = python_markdown.markdown(markdown.fence(text, "python"), extensions=["fenced_code"])
    code = re.search(r"<code[^>]*>(.*)</code>", page, re.S)
    assert code is not None, page
    # Python-Markdown trims the block's edges and blank lines' spaces: compare what is left
    assert [line.rstrip() for line in html.unescape(code.group(1)).strip().splitlines()] == [
        line.rstrip() for line in text.strip().splitlines()
    ]


def test_a_template_prints_values_escaped_unless_a_filter_made_them_markdown() -> None:
    env = markdown.environment()
    template = env.from_string("{{ value }} / {{ value|code }} / {{ link|url }}")
    out = template.render(value="<script>*x*</script>", link="https://example.org/a_b")
    assert out == "&lt;script&gt;\\*x\\*&lt;/script&gt; / `<script>*x*</script>` / <https://example.org/a_b>"


def test_card_prose_with_raw_html_is_refused() -> None:
    with pytest.raises(ValidationError, match="Markdown without raw HTML expected, found '<img src=x>"):
        CardText(construction="Built by hand. <img src=x> More.")
    CardText(construction="A `<tag>` in a code span is text, and so is a < b.")


@pytest.mark.parametrize(
    ("value", "hub"),
    [
        ("cc-by-sa-4.0", {"license": "cc-by-sa-4.0"}),
        ("CC-BY-NC-SA-4.0", {"license": "cc-by-nc-sa-4.0"}),  # SPDX ids are case-insensitive
        ("GPL-3.0-only", {"license": "gpl-3.0"}),
        ("MIT", {"license": "mit"}),
        # an SPDX id the Hub has no identifier for: `other`, named, with the SPDX page as its link
        (
            "CECILL-2.1",
            {
                "license": "other",
                "license_name": "cecill-2.1",
                "license_link": "https://spdx.org/licenses/CECILL-2.1.html",
            },
        ),
        (
            "https://example.org/terms",
            {"license": "other", "license_name": "see-license-link", "license_link": "https://example.org/terms"},
        ),
        (NOT_SPECIFIED, {"license": "unknown"}),
    ],
)
def test_any_spdx_id_a_url_or_not_specified_is_a_license(value: str, hub: dict[str, Any]) -> None:
    assert TypeAdapter(License).validate_python(value) == value
    assert hub_license_fields(value) == hub


@pytest.mark.parametrize(
    "value", ["cc-by-sa", "MIT OR Apache-2.0", "LicenseRef-mine", "http://example.org/terms", "", "unknown"]
)
def test_what_is_not_one_spdx_id_a_url_or_not_specified_is_refused(value: str) -> None:
    with pytest.raises(ValidationError, match="not a license NegHub accepts: expected one SPDX license id"):
        TypeAdapter(License).validate_python(value)


@pytest.mark.parametrize("value", ["CECILL-2.1", "https://example.org/terms", NOT_SPECIFIED])
def test_a_card_with_any_accepted_license_passes_the_hub_s_front_matter_checks(value: str) -> None:
    from neghub.evaluator.releases.cards import validate_card

    metadata = get_benchmark("jsts-neg").metadata.model_copy(update={"license": value})
    card = render_card(metadata, None)
    model = validate_card(card, None)
    assert {k: v for k, v in front_matter(metadata, None).items() if k.startswith("license")} == hub_license_fields(
        value
    )
    assert model.license == hub_license_fields(value)["license"]
    assert f"License: `{value}`." in card
