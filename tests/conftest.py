"""Shared test helpers: where the real standards live, and the project's corpus."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from parsers.model import Document
from tests.servers import prefect_server
from tests.support import balance, session_store


def _end_worker_at_once() -> None:
    """An xdist worker whose session ended normally exits without freeing its objects one by one: its
    heap (GX, Prefect, datasets, the parsed and injected documents) took the interpreter's finalisation
    seconds, which the main process waited for before the session could end. This runs last of the exit
    handlers (registered first); logs and streams are flushed first. Not when the multiprocessing exit
    handler was registered earlier (it would then be skipped)."""
    if not _WORKER_DONE or _EARLIER_MULTIPROCESSING:
        return
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(0)


_WORKER_DONE: list[bool] = []  # set by this worker's pytest_unconfigure
_EARLIER_MULTIPROCESSING = "multiprocessing.util" in sys.modules
if os.environ.get("PYTEST_XDIST_WORKER"):
    atexit.register(_end_worker_at_once)

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


@pytest.fixture(scope="session", autouse=True)
def session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where values shared by every xdist worker of this session are kept (see session_store)."""
    folder = session_store.session_root(tmp_path_factory) / "shared"
    session_store.configure(folder)
    return folder


def _session_owner() -> int:
    """The session's main pytest process: the xdist controller (a worker's parent), else this process."""
    return os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()


@pytest.fixture(scope="session")
def prefect_api(session_folder: Path) -> Iterator[str]:
    """One Prefect server (with a temporary database) for the whole session, shared by every xdist
    worker; yields its API URL.

    Flows run in the test process use it, and CLI builds run in a subprocess get the URL through the
    environment (`PREFECT_API_URL`), so that no build starts a server of its own (each start costs seconds).
    Every test module that runs a flow uses this fixture (`pytest.mark.usefixtures("prefect_api")`). The
    first worker that needs it starts it (a whole-suite run under xdist has it started before the workers
    collect: see pytest_sessionstart); the main pytest process stops it when the session ends.
    """
    from flows.runtime import settings

    settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))  # before Prefect is imported
    import prefect.context
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with session_store.locked("prefect-server") as folder:
        assert folder is not None
        if prefect_server.running(folder) is None:  # not launched early (see pytest_sessionstart)
            prefect_server.launch(folder, owner=_session_owner())
        url = prefect_server.wait_ready(folder)
        prefect_server.keep_template(folder)  # no test has used the server yet: the lock is held
    with (
        temporary_settings(updates={PREFECT_API_URL: url}),
        # as prefect_test_harness does: code in a context copied earlier sees the server too
        prefect.context._temporary_global_settings_context(prefect.context.get_settings_context()),
    ):
        # CLI builds started in a subprocess inherit the URL: they use this server instead of starting one
        before = os.environ.get("PREFECT_API_URL")
        os.environ["PREFECT_API_URL"] = url
        try:
            yield url
            _drain_prefect_workers()  # this worker's logs and events reach the server before it stops
        finally:
            if before is None:
                os.environ.pop("PREFECT_API_URL", None)
            else:
                os.environ["PREFECT_API_URL"] = before


@pytest.fixture
def prefect_home(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A PREFECT_HOME for a CLI build that starts its own API server (no PREFECT_API_URL), holding a
    migrated database already (a copy of the session server's template): migrating a new database costs
    each such build seconds of CPU before the part its test checks."""
    home = tmp_path / "prefect-home"
    if not prefect_server.seed_home(home):
        request.getfixturevalue("prefect_api")  # no template yet: the session's server keeps one
        prefect_server.seed_home(home)
    return home


def _drain_prefect_workers() -> None:
    import inspect

    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker
    from prefect.utilities.asyncutils import run_coro_as_sync

    async def drain() -> None:
        try:
            result = APILogWorker.instance().drain()
            if inspect.isawaitable(result):
                await result
        except RuntimeError:
            pass  # never started
        result = EventsWorker.drain_all()
        if inspect.isawaitable(result):
            await result

    run_coro_as_sync(drain())


@pytest.hookimpl(tryfirst=True)  # before xdist starts the workers
def pytest_sessionstart(session: pytest.Session) -> None:
    """A whole-suite run under xdist: the main process starts the Prefect server now, so that its start-up
    (seconds: the migrations of a new database) overlaps the workers' start and collection instead of
    holding up the first builds. Other runs start it when a test first needs it (`prefect_api`)."""
    config = session.config
    if os.environ.get("PYTEST_XDIST_WORKER") or not config.getoption("numprocesses", None):
        return
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    folder = session_store.session_root(config._tmp_path_factory) / "shared"
    session_store.configure(folder)
    saved = dict(os.environ)
    try:
        from flows.runtime import settings

        settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))  # the server's settings
        env = dict(os.environ)
    finally:  # the workers set their own (each its own result storage)
        os.environ.clear()
        os.environ.update(saved)
    with session_store.locked("prefect-server"):
        prefect_server.launch(folder, owner=os.getpid(), env=env)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """A worker's session ended normally: it may exit at once (see _end_worker_at_once)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _WORKER_DONE.append(True)


@pytest.hookimpl(trylast=True)  # after the session's fixtures are torn down (their logs drained)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The main process records the tests' durations and ends the session's Prefect server once every
    worker is done."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    balance.record(session.config, _durations)
    factory = getattr(session.config, "_tmp_path_factory", None)
    if os.environ.get(balance.WRITE_EXPECTED) and factory is not None and factory._basetemp is not None:
        balance.write_expected(_durations, session_store.session_root(factory) / "shared" / balance.GROUPS)
    if factory is not None and factory._basetemp is not None:  # a session that made no folder started none
        prefect_server.stop(session_store.session_root(factory) / "shared")


@pytest.hookimpl(tryfirst=True)  # before xdist's worker turns the groups into test ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`): tests sharing an expensive fixture run on one worker, and the
    longest groups start first (see balance)."""
    balance.arrange(items, balance.recorded(config))
    # for the scheduler (under xdist) and for a rewrite of the expected durations (see balance)
    balance.write_groups(items, session_store.session_root(config._tmp_path_factory) / "shared")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadgroup` scheduling with the groups the workers recorded (see balance.GroupScheduling)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    shared = session_store.session_root(config._tmp_path_factory) / "shared"
    return balance.GroupScheduling(config, log, shared / balance.GROUPS)


# this session's test durations (setup, call and teardown), gathered in the main process
_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        key = balance.plain_id(report.nodeid)
        _durations[key] = _durations.get(key, 0.0) + report.duration
