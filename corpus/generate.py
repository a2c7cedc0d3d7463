"""Builds the project's own corpus: every corpus/sources/*.std rendered to DOCX and PDF, plus the manifest.

Usage: python corpus/generate.py [--force] [--only SLUG] [--check]

A document is rendered again only when its source's SHA-256 (or its DOCX numbering) differs from the
manifest, so a second run changes nothing; output is byte-for-byte deterministic, so --force on unchanged
sources changes nothing either. --check renders in memory and exits 1 if any committed file is stale.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

from corpus.docx_render import render_docx, style_for
from corpus.pdf_render import FontsMissingError, render_pdf
from corpus.stdsource import SourceDocument, load

ROOT = Path(__file__).resolve().parents[1]

CORPUS = ROOT / "corpus"


@dataclass(frozen=True)
class ManifestRow:
    """One line of corpus/manifest; paths are relative to the repository root."""

    slug: str
    source: str
    docx: str
    pdf: str
    standard_id: str
    drafting_rules: str
    docx_numbering: str  # auto | literal
    source_sha256: str


COLUMNS = tuple(f.name for f in fields(ManifestRow))


def read_manifest(path: Path) -> dict[str, ManifestRow]:
    """The manifest's rows by slug ({} when there is no manifest yet)."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or tuple(lines[0].split("\t")) != COLUMNS:
        raise ValueError(f"{path}:1: manifest header is not the columns {', '.join(COLUMNS)}")
    rows: dict[str, ManifestRow] = {}
    for n, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{path}:{n}: expected {len(COLUMNS)} tab-separated fields")
        row = ManifestRow(*cells)
        rows[row.slug] = row
    return rows


def write_manifest(path: Path, rows: list[ManifestRow]) -> None:
    lines = ["\t".join(COLUMNS)]
    lines += ["\t".join(getattr(r, c) for c in COLUMNS) for r in sorted(rows, key=lambda r: r.slug)]
    text = "\n".join(lines) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def render_document(doc: SourceDocument, index: int) -> tuple[bytes, bytes]:
    """DOCX and PDF bytes of the source at `index` in sorted order (the index picks the DOCX style)."""
    pdf, labels = render_pdf(doc)
    docx = render_docx(doc, style_for(index), labels)
    return docx, pdf


def sources(corpus: Path) -> list[Path]:
    return sorted((corpus / "sources").glob("*.std"))


def _rel(path: Path, corpus: Path) -> str:
    return path.relative_to(corpus.parent).as_posix()


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def generate(
    corpus: Path = CORPUS,
    *,
    force: bool = False,
    only: str | None = None,
    check: bool = False,
    log: Callable[[str], None] = print,
) -> int:
    """Render what is stale and rewrite the manifest; returns a process exit status (0 = all good)."""
    paths = sources(corpus)
    if only is not None and only not in [p.stem for p in paths]:
        log(f"no source named {only}.std in {corpus / 'sources'}")
        return 2
    manifest_path = corpus / "manifest"
    old = read_manifest(manifest_path)
    rows: dict[str, ManifestRow] = {}
    status = 0
    for index, path in enumerate(paths):
        slug = path.stem
        tag = f"[{index + 1:2d}/{len(paths)}] {slug}"
        if only is not None and slug != only:
            if slug in old:
                rows[slug] = old[slug]
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        numbering = style_for(index).numbering
        docx_path, pdf_path = corpus / "docx" / f"{slug}.docx", corpus / "pdf" / f"{slug}.pdf"
        previous = old.get(slug)
        fresh = (
            previous is not None
            and previous.source_sha256 == digest
            and previous.docx_numbering == numbering
            and docx_path.exists()
            and pdf_path.exists()
        )
        if fresh and not force and not check:
            assert previous is not None
            rows[slug] = previous
            log(f"{tag}: up to date")
            continue
        started = time.perf_counter()
        try:
            doc = load(path)
            docx, pdf = render_document(doc, index)
        except (ValueError, FontsMissingError) as exc:
            log(f"{tag}: FAILED: {exc}")
            status = 1
            if previous is not None:
                rows[slug] = previous
            continue
        row = ManifestRow(
            slug=slug,
            source=_rel(path, corpus),
            docx=_rel(docx_path, corpus),
            pdf=_rel(pdf_path, corpus),
            standard_id=doc.standard_id,
            drafting_rules=doc.drafting_rules,
            docx_numbering=numbering,
            source_sha256=digest,
        )
        rows[slug] = row
        seconds = time.perf_counter() - started
        what = f"{numbering}, {doc.drafting_rules}, docx {len(docx) // 1024} KiB, pdf {len(pdf) // 1024} KiB"
        if check:
            stale = _stale(((docx_path, docx), (pdf_path, pdf)), previous, row)
            log(f"{tag}: {'STALE: ' + ', '.join(stale) if stale else 'ok'} ({what}, {seconds:.1f} s)")
            status = max(status, 1 if stale else 0)
            continue
        changed = [p.name for p, b in ((docx_path, docx), (pdf_path, pdf)) if _write_if_changed(p, b)]
        log(f"{tag}: {'wrote ' + ', '.join(changed) if changed else 'unchanged'} ({what}, {seconds:.1f} s)")
    if not check:
        write_manifest(manifest_path, list(rows.values()))
    _warn_orphans(corpus, {p.stem for p in paths}, log)
    return status


def _stale(
    rendered: tuple[tuple[Path, bytes], ...], previous: ManifestRow | None, row: ManifestRow
) -> list[str]:
    """What `--check` finds out of date for one document: its files on disk, its manifest row."""
    stale = [p.name for p, b in rendered if not p.exists() or p.read_bytes() != b]
    if previous != row:
        stale.append("manifest row")
    return stale


def _warn_orphans(corpus: Path, slugs: set[str], log: Callable[[str], None]) -> None:
    for folder in ("docx", "pdf"):
        for orphan in sorted((corpus / folder).glob(f"*.{folder}")):
            if orphan.stem not in slugs:
                log(f"warning: {_rel(orphan, corpus)} has no source any more; delete it")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="render even when the manifest says up to date")
    parser.add_argument("--only", metavar="SLUG", help="render this document only")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if any output is stale")
    args = parser.parse_args(argv)
    return generate(force=args.force, only=args.only, check=args.check)


if __name__ == "__main__":
    sys.exit(main())
