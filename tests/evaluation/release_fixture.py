"""A small release (three corpus documents) written once per session for the evaluation tests.

Imported by the test modules (a conftest.py here would shadow tests/conftest.py, which release_data imports).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.support.balance import across_workers
from tests.support.release_data import shared_release


@pytest.fixture(scope="session")
@across_workers
def release_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Written once per session for every module and worker (read only: evaluations write elsewhere)."""
    return shared_release(tmp_path_factory)


@pytest.fixture(scope="session")
@across_workers  # read from the shared release
def items(release_dir: Path) -> list[dict]:
    """items.parquet rows with `gold` decoded."""
    rows = pq.read_table(release_dir / "items.parquet").to_pylist()
    for row in rows:
        row["gold"] = json.loads(row["gold"]) if isinstance(row["gold"], str) else row["gold"]
    return rows
