"""A release's license as its metadata states it, and as a Hub dataset card writes it.

A license is one SPDX license id (`cc-by-sa-4.0`, `MIT`; matched without regard to case, as the SPDX
specification says ids are), an https URL of the terms, or "not specified": what mteb's task metadata
accepts, so that a data set without a stated license need not claim one. SPDX ids are checked against the
SPDX License List that `packaging` vendors (`packaging.licenses`, the list pip and PyPI check PEP 639
`License-Expression` metadata against); an expression (`MIT OR Apache-2.0`) or a `LicenseRef-` is not one id.

The Hub's card metadata takes its own identifiers (`HUB_LICENSES`); for anything else it takes
`license: other` with a `license_name` and a `license_link`, and `unknown` for no stated license.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, Field

NOT_SPECIFIED = "not specified"
_URL = re.compile(r"^https://[^\s/]+(/\S*)?$")

# The Hub's license identifiers, from huggingface/hub-docs, docs/hub/repositories-licenses.md (the table
# between its "region licenses" comments), in its order.
HUB_LICENSES = (
    "apache-2.0", "mit", "openrail", "bigscience-openrail-m", "creativeml-openrail-m", "bigscience-bloom-rail-1.0",
    "bigcode-openrail-m", "afl-3.0", "artistic-2.0", "bsl-1.0", "bsd", "bsd-2-clause", "bsd-3-clause",
    "bsd-3-clause-clear", "c-uda", "cc", "cc0-1.0", "cc-by-2.0", "cc-by-2.5", "cc-by-3.0", "cc-by-4.0",
    "cc-by-sa-3.0", "cc-by-sa-4.0", "cc-by-nc-2.0", "cc-by-nc-3.0", "cc-by-nc-4.0", "cc-by-nd-4.0",
    "cc-by-nc-nd-3.0", "cc-by-nc-nd-4.0", "cc-by-nc-sa-2.0", "cc-by-nc-sa-3.0", "cc-by-nc-sa-4.0",
    "cdla-sharing-1.0", "cdla-permissive-1.0", "cdla-permissive-2.0", "wtfpl", "ecl-2.0", "epl-1.0", "epl-2.0",
    "etalab-2.0", "eupl-1.1", "agpl-3.0", "gfdl", "gpl", "gpl-2.0", "gpl-3.0", "lgpl", "lgpl-2.1", "lgpl-3.0",
    "isc", "lppl-1.3c", "ms-pl", "mpl-2.0", "odc-by", "odbl", "openrail++", "osl-3.0", "postgresql", "ofl-1.1",
    "ncsa", "unlicense", "zlib", "pddl", "lgpl-lr", "deepfloyd-if-license", "llama2", "gemma", "unknown", "other",
)  # fmt: skip
# SPDX ids whose Hub identifier is not the id in lower case: the GNU licenses' `-only`/`-or-later` forms (the
# Hub has one id per version) and the Open Data Commons ids (the Hub names the family)
_HUB_ALIASES = {
    "gpl-2.0-only": "gpl-2.0",
    "gpl-2.0-or-later": "gpl-2.0",
    "gpl-3.0-only": "gpl-3.0",
    "gpl-3.0-or-later": "gpl-3.0",
    "lgpl-2.1-only": "lgpl-2.1",
    "lgpl-2.1-or-later": "lgpl-2.1",
    "lgpl-3.0-only": "lgpl-3.0",
    "lgpl-3.0-or-later": "lgpl-3.0",
    "agpl-3.0-only": "agpl-3.0",
    "agpl-3.0-or-later": "agpl-3.0",
    "odc-by-1.0": "odc-by",
    "odbl-1.0": "odbl",
    "pddl-1.0": "pddl",
}


def spdx_id(value: str) -> str | None:
    """The canonical SPDX id of `value` (`cc-by-sa-4.0` -> `CC-BY-SA-4.0`), None for a URL or "not specified";
    ValueError for anything else."""
    if value == NOT_SPECIFIED or _URL.match(value):
        return None
    from packaging.licenses import InvalidLicenseExpression, canonicalize_license_expression

    try:
        canonical = str(canonicalize_license_expression(value))
    except InvalidLicenseExpression:
        canonical = ""
    if not canonical or " " in canonical or canonical.startswith("LicenseRef-") or "(" in canonical:
        raise ValueError(
            f"{value!r} is not a license NegHub accepts: expected one SPDX license id (https://spdx.org/licenses/, "
            f'e.g. cc-by-sa-4.0), an https URL of the terms, or "{NOT_SPECIFIED}"'
        )
    return canonical


def _checked(value: str) -> str:
    spdx_id(value)
    return value


License = Annotated[
    str,
    AfterValidator(_checked),
    Field(
        description=f'one SPDX license id (case-insensitive), an https URL of the terms, or "{NOT_SPECIFIED}"',
        examples=["cc-by-sa-4.0", "https://example.org/terms", NOT_SPECIFIED],
    ),
]


def hub_license_fields(value: str) -> dict[str, Any]:
    """The license keys of a Hub card's front matter for `value`."""
    canonical = spdx_id(value)
    if value == NOT_SPECIFIED:
        return {"license": "unknown"}
    if canonical is None:  # a URL
        return {"license": "other", "license_name": "see-license-link", "license_link": value}
    lowered = canonical.lower()
    hub = _HUB_ALIASES.get(lowered, lowered)
    if hub in HUB_LICENSES:
        return {"license": hub}
    return {"license": "other", "license_name": lowered, "license_link": f"https://spdx.org/licenses/{canonical}.html"}
