"""A build's results as Arrow tables with explicit schemas, in an order that never depends on the run.

Tables and their row order:

- documents: one row per document, by doc_id.
- sections: every section of the original and the corrupted document (variant "original" | "corrupted"),
  by doc_id, variant (original first), position.
- instances: the ErrorInstance contract, by doc_id, then the edit's target position in the original
  document, error type and instance id. `original_section` / `corrupted_section` are structs (null when a
  section was inserted / removed); `edit` and `provenance` are typed structs (release.structs), and
  `release.structs.edit_from_row(row["edit"])` restores the replayable edit; `generator` repeats
  provenance.generator for filtering; `flags` lists {code, message} (empty when nothing is doubtful).
- items: one benchmark item per document: the corrupted document as text (parsers.render.render_text) and
  the gold list [{location, dimension, error_type, description}] in document order, plus the pre-existing
  violations [{location, dimension, error_type, message}] so scorers need not count them as false
  positives (both lists of structs).
- pre_existing: per document (by doc_id), the violations the original already had, at their location in
  the corrupted document, in the linter's order.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import Any

import orjson
import pyarrow as pa

from injectors.instance import ErrorInstance
from injectors.planner import InjectionResult
from parsers.model import Document
from parsers.render import render_text
from release.stored_results import StoredResults
from release.structs import (
    EDIT_STRUCT,
    GOLD_LIST,
    PROVENANCE_STRUCT,
    SECTION_STRUCT,
    VIOLATION_LIST,
    edit_row,
    provenance_row,
    section_row,
)
from validation.traceability import Flag, merge_flags

FLAG_STRUCT = pa.struct([("code", pa.string()), ("message", pa.string())])

DOCUMENTS_SCHEMA = pa.schema(
    [
        ("doc_id", pa.string()),
        ("standard_id", pa.string()),
        ("title", pa.string()),
        ("source", pa.string()),
        ("format", pa.string()),
        ("drafting_rules", pa.string()),
        ("original_text", pa.string()),
        ("corrupted_text", pa.string()),
        ("n_sections", pa.int32()),
        ("n_errors", pa.int32()),
    ]
)
SECTIONS_SCHEMA = pa.schema(
    [
        ("doc_id", pa.string()),
        ("variant", pa.string()),
        ("position", pa.int32()),
        ("number", pa.string()),
        ("title", pa.string()),
        ("text", pa.string()),
        ("level", pa.int32()),
        ("kind", pa.string()),
        ("annex_marker", pa.string()),
    ]
)
INSTANCES_SCHEMA = pa.schema(
    [
        ("instance_id", pa.string()),
        ("doc_id", pa.string()),
        ("dimension", pa.string()),
        ("error_type", pa.string()),
        ("location", pa.string()),
        ("original_section", SECTION_STRUCT),
        ("corrupted_section", SECTION_STRUCT),
        ("edit", EDIT_STRUCT),
        ("description", pa.string()),
        ("provenance", PROVENANCE_STRUCT),
        ("generator", pa.string()),
        ("flags", pa.list_(FLAG_STRUCT)),
    ]
)
ITEMS_SCHEMA = pa.schema(
    [
        ("doc_id", pa.string()),
        ("standard_id", pa.string()),
        ("title", pa.string()),
        ("text", pa.string()),
        ("gold", GOLD_LIST),
        ("n_errors", pa.int32()),
        ("pre_existing", VIOLATION_LIST),
    ]
)
PRE_EXISTING_SCHEMA = pa.schema(
    [
        ("doc_id", pa.string()),
        ("standard_id", pa.string()),
        ("n_violations", pa.int32()),
        ("violations", VIOLATION_LIST),
    ]
)


def canonical_json(value: Any) -> str:
    """JSON that is the same for the same content: sorted keys, no ASCII escaping, no spaces."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def canonical_json_bytes(value: Any) -> bytes:
    """`canonical_json(value)` in UTF-8, by orjson where it writes the same bytes: an instruction row
    carries a whole document several times, and encoding the rows was a third of writing the instruction
    sets. orjson writes floats' shortest form differently and refuses integers beyond 64 bits and keys
    that are not strings: such values take the standard library's path."""
    if _plain(value):
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # e.g. a lone surrogate: fails below as it always did
            pass
    return canonical_json(value).encode()


def _plain(value: Any) -> bool:
    """Strings, booleans, None, integers of 64 bits, and lists and string-keyed dicts of these."""
    kind = type(value)
    if kind is str or value is None or kind is bool:
        return True
    if kind is dict:
        return all(type(k) is str and (type(v) is str or _plain(v)) for k, v in value.items())
    if kind is list or kind is tuple:
        return all(type(item) is str or _plain(item) for item in value)
    if isinstance(value, int):
        return -(2**63) <= value < 2**64
    return isinstance(value, str)  # a subclass (an enumeration's value) is written as the string


def source_name(document: Document) -> str:
    """The file name only: an absolute build path is neither reproducible nor anyone else's business."""
    return PurePath(document.source).name if document.source else ""


def ordered_results(results: Iterable[InjectionResult]) -> Iterable[InjectionResult]:
    """By doc_id (stable for equal ids), so the input order of files never shows in a table. Results kept
    on disk are stored in that order and read one at a time, so they are passed on as they are."""
    if isinstance(results, StoredResults):
        return results
    return sorted(results, key=lambda r: r.original.doc_id)


def ordered_instances(result: InjectionResult) -> list[ErrorInstance]:
    """Document order of the edit's target, then type and id: the order a reviewer reads them in."""
    return sorted(result.instances, key=lambda i: (i.edit.target, i.error_type, i.instance_id))


def instance_flags(instance: ErrorInstance, flags: Mapping[str, Sequence[Flag]]) -> tuple[Flag, ...]:
    """The build's flags for an instance plus any the injector itself attached (an optional `flags`)."""
    return merge_flags(flags.get(instance.instance_id, ()), getattr(instance, "flags", ()) or ())


def gold_entries(result: InjectionResult) -> list[dict[str, str]]:
    """The gold list a reviewer model is scored against, in document order."""
    return [
        {
            "location": i.location,
            "dimension": i.dimension,
            "error_type": i.error_type,
            "description": i.description,
        }
        for i in ordered_instances(result)
    ]


# Rows per record batch: a batch's rows exist as Python objects until it is converted. A row of `documents`
# or `items` carries a whole document's text (twice in `documents`), so those are cut every 64 documents; a
# row of the others is a section or an instance.
WHOLE_DOCUMENT_ROWS = 64
ROWS = 1024


def batch_rows(schema: pa.Schema) -> int:
    return WHOLE_DOCUMENT_ROWS if schema in (DOCUMENTS_SCHEMA, ITEMS_SCHEMA) else ROWS


def from_rows(rows: Iterable[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """A table from rows converted a batch at a time (`batch_rows`): a large release's rows (every
    section's text, the documents' full texts) never all exist as Python dicts at once."""
    batches: list[pa.RecordBatch] = []
    rows_in = _Batches(schema, batches.append)
    rows_in.extend(rows)
    rows_in.close()
    return pa.Table.from_batches(batches, schema=schema)


class _Batches:
    """Rows to record batches (`batch_rows`), each handed to `emit` (one empty batch when no row came)."""

    def __init__(self, schema: pa.Schema, emit: Callable[[pa.RecordBatch], Any]) -> None:
        self.schema, self.emit, self.batch = schema, emit, batch_rows(schema)
        self._pending: list[dict[str, Any]] = []
        self._made = False

    def extend(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self._pending.append(row)
            if len(self._pending) == self.batch:
                self._flush()

    def _flush(self) -> None:
        self.emit(pa.RecordBatch.from_pylist(self._pending, schema=self.schema))
        self._pending, self._made = [], True

    def close(self) -> None:
        if self._pending or not self._made:
            self._flush()


def documents_table(results: Iterable[InjectionResult]) -> pa.Table:
    return from_rows((_document_row(r) for r in ordered_results(results)), DOCUMENTS_SCHEMA)


def _document_row(r: InjectionResult) -> dict[str, Any]:
    return {
        "doc_id": r.original.doc_id,
        "standard_id": r.original.standard_id,
        "title": r.original.title,
        "source": source_name(r.original),
        "format": r.original.format,
        "drafting_rules": r.original.drafting_rules,
        "original_text": render_text(r.original),
        "corrupted_text": render_text(r.corrupted),
        "n_sections": len(r.original.sections),
        "n_errors": len(r.instances),
    }


def sections_table(results: Iterable[InjectionResult]) -> pa.Table:
    rows = (row for r in ordered_results(results) for row in _section_rows(r))
    return from_rows(rows, SECTIONS_SCHEMA)


def _section_rows(r: InjectionResult) -> Iterator[dict[str, Any]]:
    for variant, document in (("original", r.original), ("corrupted", r.corrupted)):
        for position, section in enumerate(document.sections):
            row = section_row(section)
            assert row is not None
            yield {"doc_id": document.doc_id, "variant": variant, "position": position, **row}


def instances_table(
    results: Iterable[InjectionResult], flags: Mapping[str, Sequence[Flag]] | None = None
) -> pa.Table:
    return from_rows(instance_rows(results, flags or {}), INSTANCES_SCHEMA)


def instance_rows(
    results: Iterable[InjectionResult], flags: Mapping[str, Sequence[Flag]]
) -> Iterator[dict[str, Any]]:
    """The instances table's rows, in its order."""
    for r in ordered_results(results):
        yield from _instance_rows(r, flags)


def _instance_rows(r: InjectionResult, flags: Mapping[str, Sequence[Flag]]) -> Iterator[dict[str, Any]]:
    for i in ordered_instances(r):
        provenance = provenance_row(i.provenance)
        yield (
            {
                "instance_id": i.instance_id,
                "doc_id": i.doc_id,
                "dimension": i.dimension,
                "error_type": i.error_type,
                "location": i.location,
                "original_section": section_row(i.original_section),
                "corrupted_section": section_row(i.corrupted_section),
                "edit": edit_row(i.edit),
                "description": i.description,
                "provenance": provenance,
                "generator": str(provenance.get("generator", "")),
                "flags": [f.to_dict() for f in instance_flags(i, flags)],
            }
        )


def items_table(results: Iterable[InjectionResult]) -> pa.Table:
    return from_rows((_item_row(r) for r in ordered_results(results)), ITEMS_SCHEMA)


def _item_row(r: InjectionResult) -> dict[str, Any]:
    return {
        "doc_id": r.original.doc_id,
        "standard_id": r.original.standard_id,
        "title": r.original.title,
        "text": render_text(r.corrupted),
        "gold": gold_entries(r),
        "n_errors": len(r.instances),
        "pre_existing": [v.to_dict() for v in r.pre_existing],
    }


def pre_existing_table(results: Iterable[InjectionResult]) -> pa.Table:
    """One row per document, so the table (and its Hub config) is never empty even when nothing was found."""
    return from_rows((_pre_existing_row(r) for r in ordered_results(results)), PRE_EXISTING_SCHEMA)


def _pre_existing_row(r: InjectionResult) -> dict[str, Any]:
    return {
        "doc_id": r.original.doc_id,
        "standard_id": r.original.standard_id,
        "n_violations": len(r.pre_existing),
        "violations": [v.to_dict() for v in r.pre_existing],
    }


SCHEMAS: dict[str, pa.Schema] = {
    "documents": DOCUMENTS_SCHEMA,
    "sections": SECTIONS_SCHEMA,
    "instances": INSTANCES_SCHEMA,
    "items": ITEMS_SCHEMA,
    "pre_existing": PRE_EXISTING_SCHEMA,
}


class _ArrowFile(_Batches):
    """An Arrow IPC file written as `from_rows` cuts a table in memory."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self._writer = pa.ipc.new_file(str(path), schema)
        super().__init__(schema, self._writer.write_batch)

    def close(self) -> None:
        super().close()
        self._writer.close()


@dataclass(frozen=True)
class ReleaseTables:
    """The five tables every release has, as Arrow files in `folder` (`files`: table name → file name).

    Each read maps its file into memory (no copy, nothing decoded) and is let go with the table: a large
    release's tables are never all held at once, and what was read leaves the process's memory when its
    reader is done. The review queue is derived from `instances` later."""

    folder: Path
    files: tuple[tuple[str, str], ...] = tuple((name, f"{name}.arrow") for name in SCHEMAS)
    # the folder's owner when the caller gave none: removed once no table set refers to it
    scratch: tempfile.TemporaryDirectory[str] | None = field(default=None, compare=False, repr=False)

    def table(self, name: str) -> pa.Table:
        with pa.memory_map(str(self.folder / dict(self.files)[name])) as source:
            return pa.ipc.open_file(source).read_all()

    @property
    def documents(self) -> pa.Table:
        return self.table("documents")

    @property
    def sections(self) -> pa.Table:
        return self.table("sections")

    @property
    def instances(self) -> pa.Table:
        return self.table("instances")

    @property
    def items(self) -> pa.Table:
        return self.table("items")

    @property
    def pre_existing(self) -> pa.Table:
        return self.table("pre_existing")

    def as_dict(self) -> dict[str, pa.Table]:
        return {name: self.table(name) for name, _ in self.files}

    def rewritten(self, name: str, rows: Iterable[dict[str, Any]]) -> ReleaseTables:
        """These tables with `name` written anew from `rows` (to a new file: a table read earlier stays
        as it was)."""
        handle, path = tempfile.mkstemp(dir=self.folder, prefix=f"{name}.", suffix=".arrow")
        os.close(handle)
        file = Path(path).name
        out = _ArrowFile(self.folder / file, SCHEMAS[name])
        out.extend(rows)
        out.close()
        return replace(self, files=tuple((n, file if n == name else f) for n, f in self.files))


def build_tables(
    results: Iterable[InjectionResult],
    flags: Mapping[str, Sequence[Flag]] | None = None,
    folder: Path | None = None,
) -> ReleaseTables:
    """All tables of a release from the build's results and the flags its checks raised, in one pass
    over the results, written to Arrow files in `folder` (created; a release's scratch space), or in a
    temporary folder of their own."""
    scratch = None
    if folder is None:
        scratch = tempfile.TemporaryDirectory(prefix="gbtbench-tables-")
        folder = Path(scratch.name)
    folder.mkdir(parents=True, exist_ok=True)
    files = {name: _ArrowFile(folder / f"{name}.arrow", schema) for name, schema in SCHEMAS.items()}
    found = flags or {}
    for r in ordered_results(results):
        files["documents"].extend([_document_row(r)])
        files["sections"].extend(_section_rows(r))
        files["instances"].extend(_instance_rows(r, found))
        files["items"].extend([_item_row(r)])
        files["pre_existing"].extend([_pre_existing_row(r)])
    for file in files.values():
        file.close()
    return ReleaseTables(folder, scratch=scratch)
