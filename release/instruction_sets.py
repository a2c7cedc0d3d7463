"""The instruction-set step of a release: write every task and shot, and record each Parquet file's hashes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from injectors.planner import InjectionResult
from release.instructions import InstructionFiles, write_instructions
from release.parquet import file_hash

FOLDER = "instructions"


def write_instruction_sets(
    root: Path, results: Sequence[InjectionResult], fingerprint: str = ""
) -> tuple[list[InstructionFiles], dict[str, Any]]:
    """`root/instructions/` (JSONL, Parquet, lm-eval YAML), every row naming the release's data
    `fingerprint`; returns what was written and its records."""
    folder = root / FOLDER
    written = write_instructions(results, folder, fingerprint)
    info: dict[str, Any] = {}
    for w in written:
        info[f"{FOLDER}/{w.task}_{w.shot}"] = {
            "file": f"{FOLDER}/{w.parquet}",
            "rows": w.rows,
            "sha256": w.sha256,  # computed as the rows were written (`parquet_hash`)
            "file_sha256": file_hash(folder / w.parquet),
        }
    return written, info
