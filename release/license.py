"""The data licence of a build and the citation, as the dataset card states them.

The code is Apache-2.0 (LICENSE); the data is another matter. The project's own corpus was written by the
project, so its releases carry an open data licence (CC-BY-4.0 unless `--license` says otherwise). Any
other corpus is presumed to be third-party standards whose copyright stays with their publishers: the
card says so, and the licence is `other` unless the builder, who knows their rights, names one.
"""

from __future__ import annotations

import re
from pathlib import Path

OWN_CORPUS_LICENSE = "cc-by-4.0"
THIRD_PARTY_LICENSE = "other"
THIRD_PARTY_LICENSE_NAME = "third-party-standards"
CODE_LICENSE = "Apache-2.0"
_LICENSE_ID = re.compile(r"^[a-z0-9][a-z0-9.+-]{0,63}$")

BIBTEX = """@misc{gbtbench,
  title        = {gbtbench: injected drafting errors in Chinese standards for document-review benchmarks},
  author       = {{gbtbench maintainers}},
  year         = {2026},
  note         = {Dataset release %(version)s, built by the gbtbench pipeline},
  howpublished = {%(where)s}
}"""


class LicenseError(ValueError):
    """A `--license` value that cannot be a Hugging Face licence identifier."""


def check_license(value: str) -> str:
    """A Hub licence identifier such as cc-by-4.0, cc-by-nc-4.0, apache-2.0 or other (lower case)."""
    license_id = value.strip().lower()
    if not _LICENSE_ID.match(license_id):
        raise LicenseError(
            f"--license {value!r} is not a licence identifier (e.g. cc-by-4.0, cc-by-nc-4.0, other)"
        )
    return license_id


def is_own_corpus(corpus: Path) -> bool:
    """Whether the build reads a corpus the project wrote itself: a manifest beside its `.std` sources
    (corpus/README.md). Anything else counts as third-party standards."""
    corpus = Path(corpus)
    try:
        return (corpus / "manifest").is_file() and any((corpus / "sources").glob("*.std"))
    except OSError:
        return False


def data_license(corpus: Path, requested: str | None = None) -> tuple[str, bool]:
    """(licence id, third_party) for a build of `corpus`; `requested` (--license) wins when given."""
    third_party = not is_own_corpus(corpus)
    if requested:
        return check_license(requested), third_party
    return (THIRD_PARTY_LICENSE if third_party else OWN_CORPUS_LICENSE), third_party


def front_matter(license_id: str) -> dict[str, str]:
    """The card's licence keys; the Hub asks for a name when the licence is `other`."""
    if license_id == THIRD_PARTY_LICENSE:
        return {"license": license_id, "license_name": THIRD_PARTY_LICENSE_NAME}
    return {"license": license_id}


def license_section(license_id: str, third_party: bool) -> str:
    """The card's "Licence" paragraph."""
    if third_party:
        data = (
            "The documents of this build are third-party standards: their text (and the corrupted copies "
            "derived from it) remains the copyright of the standards' publishers. "
            + (
                "No licence is granted for it here (`license: other`); obtain the publishers' permission "
                "before redistributing it."
                if license_id == THIRD_PARTY_LICENSE
                else f"The builder released it under `{license_id}`; check that the publishers allow it."
            )
        )
    else:
        data = (
            "The documents were written by the gbtbench project itself (no text from real standards); "
            f"the data is released under `{license_id}`."
        )
    return f"{data} The gbtbench code that built it is {CODE_LICENSE}."


def bibtex(version: str, repo_id: str) -> str:
    """The card's BibTeX entry (`repo_id` is a placeholder until publish fills in the real one)."""
    return BIBTEX % {"version": version, "where": f"\\url{{https://huggingface.co/datasets/{repo_id}}}"}
