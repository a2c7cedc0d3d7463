"""Shared test helpers: where the real standards live, and the project's corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from parsers.model import Document

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "corpus-real"
CORPUS = ROOT / "corpus"


@pytest.fixture
def real_corpus() -> Path:
    if not REAL.is_dir():
        pytest.skip("../shared/corpus-real is absent")
    return REAL


def corpus_sources() -> list[Path]:
    return sorted((CORPUS / "sources").glob("*.std"))


@pytest.fixture(scope="session")
def corpus_documents() -> list[Document]:
    paths = corpus_sources()
    if not paths:
        pytest.skip("corpus/sources is empty")
    return [gold_document(p) for p in paths]
