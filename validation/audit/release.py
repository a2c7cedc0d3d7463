"""A release folder read back for the audit: each document's original and corrupted text and its instances.

The audit reads only the published Parquet tables (`documents`, `sections`, `instances`), never the build's
objects, so it measures exactly what users download and can be run on any release, old or new.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from injectors.edit import Edit, edit_from_row
from parsers.model import Document, Section


class AuditInputError(Exception):
    """A release folder the audit cannot read (missing or malformed table)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class AuditInstance:
    instance_id: str
    doc_id: str
    error_type: str
    location: str
    original_section: Section | None
    corrupted_section: Section | None
    edit: Edit


@dataclass(frozen=True)
class AuditDocument:
    original: Document
    corrupted: Document
    instances: tuple[AuditInstance, ...]


@dataclass(frozen=True)
class Release:
    path: Path
    documents: tuple[AuditDocument, ...]

    @property
    def instances(self) -> tuple[AuditInstance, ...]:
        return tuple(i for d in self.documents for i in d.instances)


def _section(row: dict[str, Any] | None) -> Section | None:
    if row is None:
        return None
    return Section(
        number=row["number"],
        title=row["title"] or "",
        text=row["text"] or "",
        level=int(row["level"]),
        kind=row["kind"],
        annex_marker=row.get("annex_marker") or "",
    )


# what the audit reads of the documents table (not its two full texts: the sections carry them)
DOCUMENT_COLUMNS = ("doc_id", "source", "format", "standard_id", "title", "drafting_rules")


def _read(path: Path, name: str, columns: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
    """A table's rows (those `columns` of it, or all), a batch at a time (a large release's sections would
    be every text twice over as dicts at once)."""
    file = path / f"{name}.parquet"
    if not file.is_file():
        raise AuditInputError(path, f"{file.name} not found: not a gbtbench release folder")
    try:
        wanted = list(columns) if columns is not None else None
        for batch in pq.ParquetFile(file).iter_batches(batch_size=4096, columns=wanted):
            yield from batch.to_pylist()
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise AuditInputError(file, f"unreadable Parquet table ({exc.__class__.__name__})") from None


def load_release(path: Path) -> Release:
    """The release at `path` (a version folder such as outputs/v0.1.0)."""
    path = Path(path)
    if not path.is_dir():
        raise AuditInputError(path, "release folder not found")
    documents = list(_read(path, "documents", DOCUMENT_COLUMNS))
    by_doc: dict[tuple[str, str], list[tuple[int, Section]]] = {}
    for row in _read(path, "sections"):
        section = _section(row)
        if section is not None:
            by_doc.setdefault((row["doc_id"], row["variant"]), []).append((row["position"], section))
    per_doc: dict[str, list[AuditInstance]] = {}
    for row in _read(path, "instances"):
        try:
            raw = row["edit"]  # a typed struct; older releases stored it as a JSON string
            edit = edit_from_row(raw) if isinstance(raw, dict) else Edit.from_dict(json.loads(raw))
        except (ValueError, KeyError, TypeError) as exc:
            raise AuditInputError(
                path, f"instance {row.get('instance_id')}: unreadable edit ({exc})"
            ) from None
        per_doc.setdefault(row["doc_id"], []).append(
            AuditInstance(
                instance_id=row["instance_id"],
                doc_id=row["doc_id"],
                error_type=row["error_type"],
                location=row["location"],
                original_section=_section(row["original_section"]),
                corrupted_section=_section(row["corrupted_section"]),
                edit=edit,
            )
        )
    out = []
    for d in sorted(documents, key=lambda r: r["doc_id"]):
        variants = []
        for variant in ("original", "corrupted"):
            rows = sorted(by_doc.get((d["doc_id"], variant), []), key=lambda r: r[0])
            variants.append(
                Document(
                    doc_id=d["doc_id"],
                    source=d["source"] or "",
                    format=d["format"],
                    standard_id=d["standard_id"] or "",
                    title=d["title"] or "",
                    drafting_rules=d["drafting_rules"],
                    sections=tuple(section for _, section in rows),
                )
            )
        out.append(AuditDocument(variants[0], variants[1], tuple(per_doc.get(d["doc_id"], ()))))
    return Release(path, tuple(out))
