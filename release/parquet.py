"""Parquet files of a release with fixed writer options, and the content hashes the manifest records.

The options are fixed so the bytes depend only on the rows and the pyarrow version (which the manifest
records); the table hash is computed from the rows (sorted-key JSON), so it does not depend on how the
table is stored at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from release.tables import canonical_json, canonical_json_bytes

PARQUET_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "compression_level": 9,
    "use_dictionary": True,
    "write_statistics": True,
    "version": "2.6",
    "data_page_version": "1.0",
    "row_group_size": 65_536,
}


def write_parquet(table: pa.Table, path: Path) -> None:
    """Parquet with fixed options and no schema metadata (no pandas block, no timestamps)."""
    pq.write_table(table.replace_schema_metadata(None), path, **PARQUET_OPTIONS)


# Rows per row group of a table written row by row: an instruction row can carry a whole document several
# times, so the writer holds this many rows, never the table.
STREAMED_ROW_GROUP = 64
# zstd level of those files: their rows repeat whole documents, so a low level already packs them almost
# as tightly as a high one, in a fraction of its time
STREAMED_COMPRESSION_LEVEL = 3


class ParquetRows:
    """A Parquet file written a row group at a time, with the fixed options (the bytes still depend only
    on the rows: groups are cut every STREAMED_ROW_GROUP rows). Its `parquet_hash` is computed as the
    rows are added, from their canonical JSON (which `add` returns, so a caller writing the same row as
    JSON encodes it once), instead of reading the file back."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self.schema = schema.remove_metadata()
        options = {k: v for k, v in PARQUET_OPTIONS.items() if k != "row_group_size"}
        options["compression_level"] = STREAMED_COMPRESSION_LEVEL
        self._writer = pq.ParquetWriter(path, self.schema, **options)
        self._rows: list[dict[str, Any]] = []
        self._names = set(self.schema.names)
        self._digest = _rows_digest(self.schema.names)

    def add(self, row: dict[str, Any]) -> bytes:
        """Add one row (every column of the schema, no other); its canonical JSON, UTF-8."""
        if row.keys() != self._names:  # the hash reads the row as given: it must be the row stored
            raise ValueError(f"row columns {sorted(row)} are not the schema's {sorted(self._names)}")
        line = canonical_json_bytes(row)
        self._digest.update(b"\n")
        self._digest.update(line)
        self._rows.append(row)
        if len(self._rows) == STREAMED_ROW_GROUP:
            self._flush()
        return line

    def _flush(self) -> None:
        if self._rows:
            columns = {name: [row[name] for row in self._rows] for name in self.schema.names}
            table = pa.Table.from_pydict(columns, schema=self.schema)
            self._writer.write_table(table, row_group_size=len(self._rows))
            self._rows = []

    def close(self) -> str:
        """Finish the file; its `parquet_hash`."""
        self._flush()
        self._writer.close()
        return self._digest.hexdigest()


def table_hash(table: pa.Table) -> str:
    """sha256 of the column names and every row as sorted-key JSON: independent of how it is stored."""
    return _rows_hash(table.column_names, table.to_batches(max_chunksize=4096))


def parquet_hash(path: Path) -> str:
    """`table_hash` of a Parquet file, read a batch at a time (the file may not fit in memory)."""
    source = pq.ParquetFile(path)
    return _rows_hash(source.schema_arrow.names, source.iter_batches(batch_size=256))


def _rows_hash(columns: Sequence[str], batches: Iterable[pa.RecordBatch]) -> str:
    digest = _rows_digest(columns)
    for batch in batches:
        _hash_rows(digest, batch.to_pylist())
    return digest.hexdigest()


def _rows_digest(columns: Sequence[str]) -> Any:
    digest = hashlib.sha256()
    digest.update(canonical_json(list(columns)).encode())
    return digest


def _hash_rows(digest: Any, rows: Iterable[dict[str, Any]]) -> None:
    for row in rows:
        digest.update(b"\n")
        digest.update(canonical_json_bytes(row))


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def table_entry(table: pa.Table, root: Path, relative: str) -> dict[str, Any]:
    """The manifest's record of one written table: file, rows, content hash and file hash."""
    return {
        "file": relative,
        "rows": table.num_rows,
        "sha256": table_hash(table),
        "file_sha256": file_hash(root / relative),
    }


def write_tables(root: Path, tables: Mapping[str, pa.Table], names: Sequence[str]) -> dict[str, Any]:
    """`<name>.parquet` for each of `names`, in that order; returns their manifest records."""
    info: dict[str, Any] = {}
    for name in names:
        write_parquet(tables[name], root / f"{name}.parquet")
        info[name] = table_entry(tables[name], root, f"{name}.parquet")
    return info
