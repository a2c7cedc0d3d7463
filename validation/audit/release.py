"""A release folder read back for the audit: each document's original and corrupted text and its instances.

The audit reads only the published Parquet tables (`documents`, `sections`, `instances`), never the build's
objects, so it measures exactly what users download and can be run on any release, old or new.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from injectors.edit import Edit, edit_from_row
from parsers.model import Document, Section

TABLES = ("documents", "sections", "instances")


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


def _read(path: Path, name: str) -> list[dict[str, Any]]:
    file = path / f"{name}.parquet"
    if not file.is_file():
        raise AuditInputError(path, f"{file.name} not found: not a gbtbench release folder")
    try:
        return pq.read_table(file).to_pylist()
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise AuditInputError(file, f"unreadable Parquet table ({exc.__class__.__name__})") from None


def load_release(path: Path) -> Release:
    """The release at `path` (a version folder such as outputs/v0.1.0)."""
    path = Path(path)
    if not path.is_dir():
        raise AuditInputError(path, "release folder not found")
    documents, sections, instances = (_read(path, name) for name in TABLES)
    by_doc: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in sections:
        by_doc.setdefault((row["doc_id"], row["variant"]), []).append(row)
    per_doc: dict[str, list[AuditInstance]] = {}
    for row in instances:
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
            rows = sorted(by_doc.get((d["doc_id"], variant), []), key=lambda r: r["position"])
            variants.append(
                Document(
                    doc_id=d["doc_id"],
                    source=d["source"] or "",
                    format=d["format"],
                    standard_id=d["standard_id"] or "",
                    title=d["title"] or "",
                    drafting_rules=d["drafting_rules"],
                    sections=tuple(s for s in map(_section, rows) if s is not None),
                )
            )
        out.append(AuditDocument(variants[0], variants[1], tuple(per_doc.get(d["doc_id"], ()))))
    return Release(path, tuple(out))
