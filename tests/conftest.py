"""Shared test helpers: where the real standards live, and the project's corpus."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
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


@pytest.fixture(scope="session")
def prefect_api() -> Iterator[str]:
    """One Prefect server (with a temporary database) for the whole session; yields its API URL.

    Flows run in the test process use it, and tests that run the CLI in a subprocess pass the URL on
    (`PREFECT_API_URL`), so that no build starts a server of its own.
    """
    from flows import settings

    settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))  # before Prefect is imported
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield str(PREFECT_API_URL.value())
