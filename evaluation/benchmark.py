"""A release as the scorer sees it: per document the gold errors, the pre-existing violations and the
corrupted sections, read from the release's Parquet tables (never through the `release` package)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from parsers.model import Document, Section


class ReleaseError(ValueError):
    """A release folder that cannot be scored; the message names the folder and the reason."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason


@dataclass(frozen=True)
class GoldError:
    """A gold error or a pre-existing violation: where, which dimension, which type."""

    location: str
    dimension: str
    error_type: str
    description: str = ""


@dataclass(frozen=True)
class BenchmarkItem:
    doc_id: str
    gold: tuple[GoldError, ...]
    pre_existing: tuple[GoldError, ...]
    document: Document | None = None  # the corrupted document, for baselines (None when not loaded)


@dataclass(frozen=True)
class Benchmark:
    version: str
    items: tuple[BenchmarkItem, ...]
    fingerprint: str = ""  # the release's data fingerprint (manifest `data_fingerprint`; "" before it)

    def by_id(self) -> dict[str, BenchmarkItem]:
        return {item.doc_id: item for item in self.items}

    def first(self, limit: int | None) -> Benchmark:
        """The first `limit` documents (all of them for None): a run with --limit is scored on those."""
        return self if limit is None else replace(self, items=self.items[:limit])

    def only(self, doc_ids: Iterable[str]) -> Benchmark:
        """The documents named, in the release's order: a run is scored on the documents it was asked."""
        wanted = set(doc_ids)
        return replace(self, items=tuple(i for i in self.items if i.doc_id in wanted))


def _entries(value: Any) -> tuple[GoldError, ...]:
    """A gold / pre-existing column: a JSON string (current releases) or a list of structs."""
    if value is None:
        return ()
    rows = json.loads(value) if isinstance(value, str) else value
    return tuple(
        GoldError(
            str(r.get("location") or ""),
            str(r.get("dimension") or ""),
            str(r.get("error_type") or ""),
            str(r.get("description") or r.get("message") or ""),
        )
        for r in rows
    )


def _documents(documents: pa.Table | None, sections: pa.Table | None) -> dict[str, Document]:
    """The corrupted documents rebuilt from the sections table (variant "corrupted")."""
    if documents is None or sections is None:
        return {}
    by_doc: dict[str, list[Section]] = {}
    for row in sections.to_pylist():
        if row["variant"] != "corrupted":
            continue
        by_doc.setdefault(row["doc_id"], []).append(
            Section(
                number=row["number"],
                title=row["title"],
                text=row["text"],
                level=row["level"],
                kind=row["kind"],
                annex_marker=row.get("annex_marker") or "",
            )
        )
    out = {}
    for row in documents.to_pylist():
        out[row["doc_id"]] = Document(
            doc_id=row["doc_id"],
            source=row.get("source") or "",
            format=row.get("format") or "",
            standard_id=row.get("standard_id") or "",
            title=row.get("title") or "",
            drafting_rules=row.get("drafting_rules") or "unknown",
            sections=tuple(by_doc.get(row["doc_id"], ())),
        )
    return out


def benchmark_from_tables(version: str, tables: Mapping[str, pa.Table]) -> Benchmark:
    """From in-memory tables (`items`, and `documents` + `sections` for the baselines that read text)."""
    documents = _documents(tables.get("documents"), tables.get("sections"))
    items = []
    for row in tables["items"].select(["doc_id", "gold", "pre_existing"]).to_pylist():
        items.append(
            BenchmarkItem(
                row["doc_id"],
                _entries(row["gold"]),
                _entries(row["pre_existing"]),
                documents.get(row["doc_id"]),
            )
        )
    return Benchmark(version, tuple(sorted(items, key=lambda i: i.doc_id)))


def load_benchmark(release_dir: Path | str, *, with_documents: bool = False) -> Benchmark:
    """A release folder (outputs/<version>/) as a Benchmark; ReleaseError when it is not one."""
    root = Path(release_dir)
    if not (root / "items.parquet").is_file():
        raise ReleaseError(root, "not a release folder (no items.parquet)")
    version, fingerprint = root.resolve().name, ""
    manifest = root / "manifest.json"
    if manifest.is_file():
        try:
            facts = json.loads(manifest.read_text(encoding="utf-8"))
            version = str(facts.get("version") or version)
            fingerprint = str(facts.get("data_fingerprint") or "")
        except (OSError, json.JSONDecodeError, AttributeError) as exc:
            raise ReleaseError(root, f"manifest.json unreadable: {exc}") from None
    names = ["items", "documents", "sections"] if with_documents else ["items"]
    try:
        tables = {name: pq.read_table(root / f"{name}.parquet") for name in names}
    except (OSError, pa.ArrowException) as exc:
        raise ReleaseError(root, f"cannot read the tables: {exc}") from None
    return replace(benchmark_from_tables(version, tables), fingerprint=fingerprint)
