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
    description: str = ""
    form: str | None = None  # which of its type's forms it takes (provenance.form; None in older releases)


@dataclass(frozen=True)
class AuditDocument:
    original: Document
    corrupted: Document
    instances: tuple[AuditInstance, ...]


@dataclass(frozen=True)
class Release:
    path: Path
    documents: tuple[AuditDocument, ...] | StreamedDocuments  # in doc_id order
    instances: tuple[AuditInstance, ...]  # every document's, in the same order


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


class StreamedDocuments:
    """A release's documents read from its tables again on every pass, one document at a time: an audit
    part never holds the corpus (its sections table is every text twice over), only what it keeps."""

    def __init__(
        self, path: Path, documents: list[dict[str, Any]], instances: dict[str, list[AuditInstance]]
    ):
        self._path = path
        self._documents = documents  # the documents table's rows, in doc_id order
        self._instances = instances

    def __len__(self) -> int:
        return len(self._documents)

    def __iter__(self) -> Iterator[AuditDocument]:
        rows = _read(self._path, "sections")
        pending = next(rows, None)
        for d in self._documents:
            sections: list[dict[str, Any]] = []
            while pending is not None and pending["doc_id"] == d["doc_id"]:
                sections.append(pending)
                pending = next(rows, None)
            yield _document(d, sections, self._instances.get(d["doc_id"], []))


def _document(
    row: dict[str, Any], sections: list[dict[str, Any]], instances: list[AuditInstance]
) -> AuditDocument:
    """One document's original and corrupted variants from its rows of the sections table."""
    variants = []
    for variant in ("original", "corrupted"):
        rows = sorted((r for r in sections if r["variant"] == variant), key=lambda r: r["position"])
        variants.append(
            Document(
                doc_id=row["doc_id"],
                source=row["source"] or "",
                format=row["format"],
                standard_id=row["standard_id"] or "",
                title=row["title"] or "",
                drafting_rules=row["drafting_rules"],
                sections=tuple(s for s in map(_section, rows) if s is not None),
            )
        )
    return AuditDocument(variants[0], variants[1], tuple(instances))


def _grouped_in_order(path: Path, doc_ids: Sequence[str]) -> bool:
    """Whether the sections table holds each document's rows together, in doc_id order, and no others (as
    a build writes it), so that it can be read one document at a time."""
    runs: list[str] = []
    for row in _read(path, "sections", ("doc_id",)):
        if not runs or runs[-1] != row["doc_id"]:
            runs.append(row["doc_id"])
    return runs == sorted(set(runs)) and set(runs) <= set(doc_ids)


def load_release(path: Path) -> Release:
    """The release at `path` (a version folder such as outputs/v0.1.0); its documents are read again on
    each pass over them when its sections table allows it (every release a build writes), else held."""
    path = Path(path)
    if not path.is_dir():
        raise AuditInputError(path, "release folder not found")
    documents = list(_read(path, "documents", DOCUMENT_COLUMNS))
    per_doc = _instances(path)
    ordered = sorted(documents, key=lambda r: r["doc_id"])
    instances = tuple(i for d in ordered for i in per_doc.get(d["doc_id"], []))
    if _grouped_in_order(path, [d["doc_id"] for d in documents]):
        return Release(path, StreamedDocuments(path, ordered, per_doc), instances)
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for row in _read(path, "sections"):
        by_doc.setdefault(row["doc_id"], []).append(row)
    held = tuple(_document(d, by_doc.get(d["doc_id"], []), per_doc.get(d["doc_id"], [])) for d in ordered)
    return Release(path, held, instances)


def _instances(path: Path) -> dict[str, list[AuditInstance]]:
    """Every instance of the release by document, in table order."""
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
                description=row.get("description") or "",
                form=_form(row.get("provenance")),
            )
        )
    return per_doc


def _form(provenance: Any) -> str | None:
    """The recorded form: a typed struct, or a JSON string in older releases (which have none)."""
    if isinstance(provenance, str):
        try:
            provenance = json.loads(provenance)
        except ValueError:
            return None
    return provenance.get("form") if isinstance(provenance, dict) else None
