"""Shared test helpers: where the real standards live, and the project's corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.model import Document, doc_id_for

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT.parent / "shared" / "corpus-real"
CORPUS = ROOT / "corpus"


@pytest.fixture
def real_corpus() -> Path:
    if not REAL.is_dir():
        pytest.skip("../shared/corpus-real is absent")
    return REAL


def gold_document(path: Path) -> Document:
    """A corpus source as the Document every parser must produce (fast: no PDF or DOCX involved)."""
    import stdsource

    source = stdsource.load(path)
    return Document(
        doc_id=doc_id_for(path.read_bytes()),
        source=str(path),
        format="text",
        standard_id=source.standard_id,
        title=source.title,
        drafting_rules=source.drafting_rules,
        sections=stdsource.expected_sections(source),
        cover=stdsource.cover(source),
    )


def corpus_sources() -> list[Path]:
    return sorted((CORPUS / "sources").glob("*.std"))


@pytest.fixture(scope="session")
def corpus_documents() -> list[Document]:
    paths = corpus_sources()
    if not paths:
        pytest.skip("corpus/sources is empty")
    return [gold_document(p) for p in paths]
