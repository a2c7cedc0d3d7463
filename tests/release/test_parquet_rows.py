"""Tables written a row group at a time read back as the rows given, and hash as the same table in memory."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from release.instructions import INSTRUCTION_SCHEMA
from release.parquet import STREAMED_ROW_GROUP, ParquetRows, parquet_hash, table_hash
from release.tables import canonical_json, canonical_json_bytes


def _rows(n: int) -> list[dict[str, object]]:
    document = "5.1 要求\n产品应符合表1的规定。" * 50
    return [
        {
            "id": f"localisation_zero_shot_{k}",
            "query": f"文件：\n{document}{k}",
            "answer": f"5.{k % 7}",
            "text": document,
            "choices": [] if k % 2 else ["STR", "SCP"],
            "gold": -1 if k % 2 else k % 2,
            "doc_id": f"d{k // 10}",
            "exemplar_id": "",
            "prompt": document,
            "exemplar": document,
            "release_fingerprint": "0123456789abcdef",
        }
        for k in range(n)
    ]


def test_rows_stream_into_groups_and_read_back_whole(tmp_path: Path) -> None:
    rows = _rows(2 * STREAMED_ROW_GROUP + 5)
    writer = ParquetRows(tmp_path / "t.parquet", INSTRUCTION_SCHEMA)
    for row in rows:
        writer.add(row)
    streamed_hash = writer.close()
    source = pq.ParquetFile(tmp_path / "t.parquet")
    assert source.metadata.num_row_groups == 3
    assert [source.metadata.row_group(g).num_rows for g in range(3)] == [STREAMED_ROW_GROUP] * 2 + [5]
    table = pq.read_table(tmp_path / "t.parquet")
    assert table.schema == INSTRUCTION_SCHEMA and table.to_pylist() == rows
    in_memory = pa.Table.from_pylist(rows, schema=INSTRUCTION_SCHEMA)
    assert parquet_hash(tmp_path / "t.parquet") == table_hash(in_memory) == streamed_hash  # read back or not


def test_the_same_rows_give_the_same_bytes(tmp_path: Path) -> None:
    for name in ("a", "b"):
        writer = ParquetRows(tmp_path / f"{name}.parquet", INSTRUCTION_SCHEMA)
        for row in _rows(STREAMED_ROW_GROUP + 1):
            writer.add(row)
        writer.close()
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_each_row_gives_back_the_json_its_hash_reads(tmp_path: Path) -> None:
    writer = ParquetRows(tmp_path / "t.parquet", INSTRUCTION_SCHEMA)
    row = _rows(1)[0]
    line = writer.add(row)
    assert json.loads(line) == row and line == canonical_json(row).encode()
    incomplete = {k: v for k, v in row.items() if k != "exemplar"}
    with pytest.raises(ValueError, match="exemplar"):  # a missing column would be hashed as absent
        writer.add(incomplete)
    writer.close()


# values where a fast encoder could differ from the standard library's JSON: escapes, non-BMP text, line
# separators, floats' shortest forms, integers at and beyond 64 bits, keys that are not strings, a tuple
TRICKY: list[object] = [
    {"z": '\x00\x1f\x7f"\\/\n\r\t\b\f', "a": "中文\u2028\u2029\ufeff😀", "m": ["", "—“”"], "n": None},
    {
        "gold": -1,
        "big": 2**63 - 1,
        "bigger": 2**64 - 1,
        "beyond": 2**64,
        "low": -(2**63),
        "lower": -(2**63) - 1,
    },
    {"f": 1e16, "g": 1e-05, "h": 0.1, "i": 2.0, "j": float("inf")},
    {1: "keys that are not strings", 2: "sort as numbers"},
    {"t": ("a", 1, [True, None]), "nested": {"y": [{"x": "1"}], "x": 3}},
]


@pytest.mark.parametrize("value", TRICKY)
def test_the_fast_json_is_the_canonical_json(value: object) -> None:
    assert canonical_json_bytes(value) == canonical_json(value).encode()


def test_text_that_is_not_utf8_fails_as_before() -> None:
    with pytest.raises(UnicodeEncodeError):
        canonical_json_bytes({"a": "\ud800"})
