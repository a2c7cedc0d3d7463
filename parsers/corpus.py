"""Which files of a corpus folder make up the corpus: one file per document.

A folder with a `manifest` (the project's own corpus, where every standard exists as DOCX and PDF) is
read through it, taking the preferred format; any other folder contributes every supported file.
"""

from __future__ import annotations

import csv
from pathlib import Path

from parsers import SUFFIXES, expand_paths

FORMATS = ("pdf", "docx")


def corpus_files(folder: Path, prefer: str = "pdf") -> list[Path]:
    if prefer not in FORMATS:
        raise ValueError(f"unknown format {prefer!r}: expected one of {', '.join(FORMATS)}")
    manifest = folder / "manifest"
    if manifest.is_file():
        with manifest.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        files = []
        for row in rows:
            fallback = [f for f in FORMATS if f != prefer]
            for fmt in (prefer, *fallback):
                candidate = folder / fmt / Path(row[fmt]).name
                if candidate.is_file():
                    files.append(candidate)
                    break
        return sorted(files)
    return [
        p
        for p in expand_paths([folder])
        if p.name.lower() != "readme.md"
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        and p.suffix.lower() in SUFFIXES
    ]
