"""The suite's own sharing machinery: values computed once per session across processes, the order and
groups handed to xdist, and a Prefect server that never outlives its session."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from tests.servers import prefect_server
from tests.support import balance, session_store
from tests.support.balance import arrange, plain_id

TESTS = Path(__file__).resolve().parents[1]

# a second process using the store: it counts its computations in `log` and prints the value it got
WORKER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from tests.support import session_store
session_store.configure(Path(sys.argv[2]))
def compute():
    with open(sys.argv[3], "a") as log:
        log.write("computed\\n")
    time.sleep(0.5)
    return {"value": 42}
print(session_store.shared("answer", compute)["value"])
"""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Path]:
    """A store of this test's own (the session's is put back afterwards)."""
    before = list(session_store._root)
    session_store.configure(tmp_path / "store")
    yield tmp_path / "store"
    session_store._root[:] = before


def test_a_value_is_computed_once_per_session_by_whichever_process_comes_first(
    store: Path, tmp_path: Path
) -> None:
    log = tmp_path / "computations"
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(TESTS), str(store), str(log)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [w.communicate(timeout=60)[0].strip() for w in workers]
    assert outputs == ["42", "42"]
    assert log.read_text().splitlines() == ["computed"]  # the second waited for the first, then read
    assert session_store.shared("answer", lambda: pytest.fail("computed again")) == {"value": 42}


def test_a_failed_computation_leaves_nothing_behind(store: Path) -> None:
    def broken() -> int:
        raise RuntimeError("no corpus")

    with pytest.raises(RuntimeError):
        session_store.shared("broken", broken)
    assert session_store.shared("broken", lambda: 7) == 7


def test_a_folder_half_written_by_a_failed_fill_is_written_again(store: Path, tmp_path: Path) -> None:
    def failing(folder: Path) -> None:
        (folder / "half").write_text("x")
        raise OSError("disk full")

    with pytest.raises(OSError):
        session_store.shared_folder("release", failing, tmp_path)
    folder = session_store.shared_folder("release", lambda f: (f / "whole").write_text("y"), tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["whole"]
    again = session_store.shared_folder("release", lambda f: pytest.fail("filled again"), tmp_path)
    assert again == folder


class FakeItem:
    """What `arrange` reads of a collected test: its id and its xdist_group marker."""

    def __init__(self, nodeid: str, group: str | None = None) -> None:
        self.nodeid = nodeid
        self.markers = [pytest.mark.xdist_group(group).mark] if group else []

    def get_closest_marker(self, name: str) -> pytest.Mark | None:
        return next((m for m in self.markers if m.name == name), None)

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.markers.append(marker.mark)


def test_the_longest_blocks_start_first_and_groups_stay_together() -> None:
    items = [
        FakeItem("tests/a.py::one"),
        FakeItem("tests/a.py::two"),
        FakeItem("tests/b.py::built", group="tests/b.py"),
        FakeItem("tests/c.py::alone"),
        FakeItem("tests/b.py::read", group="tests/b.py"),
    ]
    durations = {
        "tests/a.py::one": 3.0,
        "tests/a.py::two": 1.0,
        "tests/b.py::built": 20.0,
        "tests/c.py::alone": 9,
    }
    arrange(items, durations)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [
        "tests/b.py::built",  # group b: 21 s (an unrecorded test counts 1 s)
        "tests/b.py::read",
        "tests/c.py::alone",  # 9 s
        "tests/a.py::one",  # module a: 4 s, in collected order
        "tests/a.py::two",
    ]


def test_without_a_record_the_committed_durations_decide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh clone has no recorded durations: the committed file (written from a full session's durations
    and groups) orders the blocks; a block it does not know is guessed; a record, once there, wins."""
    monkeypatch.setattr(balance, "EXPECTED", tmp_path / "durations.json")
    groups = tmp_path / balance.GROUPS
    groups.write_text(json.dumps({"tests/b.py::built": "tests/b.py", "tests/b.py::read": "tests/b.py"}))
    session = {
        "tests/a.py::one": 30.0,
        "tests/a.py::two": 1.5,
        "tests/b.py::built": 8.0,
        "tests/b.py::read": 1,
    }
    balance.write_expected(session, groups)
    assert balance.expected_durations() == {"group tests/b.py": 9.0, "module tests/a.py": 31.5}

    def collected() -> list[FakeItem]:
        return [
            FakeItem("tests/b.py::built", group="tests/b.py"),
            FakeItem("tests/b.py::read", group="tests/b.py"),
            FakeItem("tests/c.py::alone"),  # not in the file: one second
            FakeItem("tests/a.py::one"),
            FakeItem("tests/a.py::two"),
        ]

    items = collected()
    arrange(items, {})  # type: ignore[arg-type]
    assert [i.nodeid for i in items][:3] == ["tests/a.py::one", "tests/a.py::two", "tests/b.py::built"]
    assert items[-1].nodeid == "tests/c.py::alone"
    items = collected()
    arrange(items, {"tests/a.py::one": 0.5, "tests/a.py::two": 0.5})  # type: ignore[arg-type]
    assert [i.nodeid for i in items][:2] == ["tests/b.py::built", "tests/b.py::read"]


def test_the_scheduler_keeps_the_arranged_order(tmp_path: Path) -> None:
    """xdist's default reorder (most tests per group first) would undo the longest-first order."""
    option = SimpleNamespace(loadscopereorder=True, dist="loadgroup")  # xdist's default
    config = SimpleNamespace(option=option, getvalue=lambda name: ["2*popen"] if name == "tx" else None)
    balance.GroupScheduling(config, None, tmp_path / balance.GROUPS)  # type: ignore[arg-type]
    assert option.loadscopereorder is False


def test_recorded_ids_drop_the_group_suffix_only() -> None:
    assert plain_id("tests/b.py::built@tests/b.py") == "tests/b.py::built"
    assert plain_id("tests/a.py::one[x]") == "tests/a.py::one[x]"
    assert plain_id("tests/a.py::mail[a@b.org]") == "tests/a.py::mail[a@b.org]"


def test_the_prefect_server_stops_when_the_session_that_owns_it_ends(tmp_path: Path) -> None:
    """The watchdog around a server of its own (the session's must live on); the app is a small stand-in
    for Prefect's (servers/health_app.py), which the session's own server start runs through `start`
    anyway and which costs seconds of CPU to start."""
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        url = prefect_server.start(
            tmp_path, owner=owner.pid, app=("health_app:create_app", TESTS / "servers")
        )
        assert prefect_server.running(tmp_path) == url and url.startswith("http://127.0.0.1:")
        assert httpx.get(f"{url}/health", timeout=10).status_code == 200
    finally:
        owner.kill()
        owner.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/health", timeout=2)
        except httpx.HTTPError:
            break  # nobody answers: the watchdog saw its owner go and stopped the server
        time.sleep(0.5)
    else:
        pytest.fail("the server outlived its session")
    prefect_server.stop(tmp_path)  # the record goes; the watchdog is already gone
    assert prefect_server.running(tmp_path) is None


def test_the_prefect_database_template_is_kept_once_and_copied_into_a_new_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first session keeps its server's database (as it was before any test) as the template; a later
    session's server starts from a copy of it; the session's later callers never replace it (the server
    has been used by then)."""
    import sqlite3

    monkeypatch.setenv("GBTBENCH_CACHE_DIR", str(tmp_path / "cache"))
    first, later = tmp_path / "first", tmp_path / "later"
    first.mkdir()
    later.mkdir()
    with sqlite3.connect(first / prefect_server.DATABASE) as db:
        db.execute("CREATE TABLE alembic_version (version_num TEXT)")
        db.execute("INSERT INTO alembic_version VALUES ('migrated')")
    prefect_server.keep_template(first)
    template = prefect_server.template()
    assert template.parent == tmp_path / "cache" / "tests" and template.is_file()
    with sqlite3.connect(first / prefect_server.DATABASE) as db:
        db.execute("INSERT INTO alembic_version VALUES ('used by a test')")
    prefect_server.keep_template(first)  # a later caller of the same session: too late to copy
    template.unlink()
    prefect_server.keep_template(first)
    assert not template.exists()
    prefect_server.keep_template(later)  # no database (the server never started): nothing is kept
    assert not template.exists()
    (later / "prefect-template.tried").unlink()
    with sqlite3.connect(later / prefect_server.DATABASE) as db:
        db.execute("CREATE TABLE alembic_version (version_num TEXT)")
        db.execute("INSERT INTO alembic_version VALUES ('migrated')")
    prefect_server.keep_template(later)  # no template: this session's (unused) database becomes it
    assert template.exists()
    copied = later / "copied"
    copied.mkdir()
    monkeypatch.setattr(prefect_server.subprocess, "Popen", lambda *a, **k: SimpleNamespace(pid=0))
    prefect_server.launch(copied, owner=0)
    with sqlite3.connect(copied / prefect_server.DATABASE) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("migrated",)]
