"""Shared test helpers: where the real standards live, and the project's corpus."""

from __future__ import annotations

import os
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
    """One Prefect server (with a temporary database) for the whole session (per xdist worker); yields its
    API URL.

    Flows run in the test process use it, and CLI builds run in a subprocess get the URL through the
    environment (`PREFECT_API_URL`), so that no build starts a server of its own (each start costs seconds).
    Every test module that runs a flow uses this fixture (`pytest.mark.usefixtures("prefect_api")`).
    """
    from flows import settings

    settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))  # before Prefect is imported
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        url = str(PREFECT_API_URL.value())
        # CLI builds started in a subprocess inherit the URL: they use this server instead of starting one
        before = os.environ.get("PREFECT_API_URL")
        os.environ["PREFECT_API_URL"] = url
        try:
            yield url
        finally:
            if before is None:
                os.environ.pop("PREFECT_API_URL", None)
            else:
                os.environ["PREFECT_API_URL"] = before


# fixtures every xdist worker sets up for itself anyway (grouping by them would put all their users on one
# worker); pytest's own fixtures have no base id
_PER_WORKER = {"prefect_api", "corpus_documents"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`), the tests of a module that share its module- or
    session-scoped fixtures (a release, a build, a browser) run on one worker, so that each is built once,
    not once per worker; every other test is handed to whichever worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group"):
            continue
        for name in info.names_closure:
            definitions = info.name2fixturedefs.get(name)
            if not definitions or name in _PER_WORKER:
                continue
            definition = definitions[-1]
            if definition.scope in ("module", "package", "session") and definition.baseid:
                item.add_marker(pytest.mark.xdist_group(definition.baseid))
                break
