"""Small releases for the review tests, written with the production table and queue code (no validation).

`write_review_release` writes what the review app reads (manifest, documents, sections, instances and the
review queue) for injected corpus documents; `hostile` gives a document whose title and a clause carry
HTML/script payloads, to prove that every string reaches the page escaped.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from injectors.planner import InjectionResult
from release.review_queue import review_queue
from release.tables import build_tables
from release.writer import write_parquet
from tests.support.release_data import injected

SCRIPT = "<script>alert('x')</script>"
IMG = '"><img src=x onerror=alert(1)>'


def hostile(result: InjectionResult) -> InjectionResult:
    """The document with payloads in its title and in the clause of its first modified instance."""
    target = next(i for i in result.instances if i.corrupted_section is not None and i.original_section)
    section = replace(target.corrupted_section, text=target.corrupted_section.text + SCRIPT + IMG)
    number = target.corrupted_section.number
    corrupted = replace(
        result.corrupted,
        title=result.corrupted.title + SCRIPT + IMG,
        sections=tuple(
            replace(s, text=s.text + SCRIPT + IMG) if s.number == number else s
            for s in result.corrupted.sections
        ),
    )
    original = replace(result.original, title=result.original.title + SCRIPT + IMG)
    instances = tuple(
        replace(i, corrupted_section=section, description=i.description + IMG) if i is target else i
        for i in result.instances
    )
    return replace(result, original=original, corrupted=corrupted, instances=instances)


def write_review_release(
    root: Path,
    version: str = "v0.1.0",
    results: tuple[InjectionResult, ...] | None = None,
    fraction: float = 1.0,
) -> Path:
    """root/<version>/ with the tables the review app reads; every instance is queued at fraction 1."""
    results = results if results is not None else injected(2)
    folder = root / version
    folder.mkdir(parents=True)
    tables = build_tables(list(results))
    queue = review_queue(tables.instances, fraction=fraction, seed=0)
    for name, table in {**tables.as_dict(), "review_queue": queue}.items():
        write_parquet(table, folder / f"{name}.parquet")
    (folder / "manifest.json").write_text(json.dumps({"version": version}), encoding="utf-8")
    return folder
