"""Shared test helpers: where the real standards live, and the project's corpus."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "corpus-real"
CORPUS = ROOT / "corpus"
sys.path.insert(0, str(CORPUS))


@pytest.fixture
def real_corpus() -> Path:
    if not REAL.is_dir():
        pytest.skip("../shared/corpus-real is absent")
    return REAL
