"""Review decisions in SQLite: an append-only history; the latest decision per annotator is the current one.

WAL mode lets the web app, a second app process and a build read and write at once. Rows are never updated
or deleted (triggers refuse it), so two browser tabs deciding the same item both stay in the history, and
"current" is simply the last row per (release, instance, annotator).

Reads go through connections of their own, one per thread, never through the writing connection: a writer
waiting for another process's lock holds that connection for up to its busy timeout, and a WAL reader
needs no lock, so a page load must not queue behind it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

DECISIONS = ("accept", "reject", "fix")
REJECT_REASONS = {
    "not_this_type": "not an error of this type",
    "not_detectable": "not detectable",
    "unnatural": "unnatural",
    "collateral": "collateral damage",
    "description_wrong": "description wrong",
    "other": "other",
}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    release TEXT NOT NULL,
    instance_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('accept', 'reject', 'fix')),
    reason TEXT NOT NULL DEFAULT '',
    comment TEXT NOT NULL DEFAULT '',
    fix_description TEXT,
    fix_error_type TEXT,
    fix_location TEXT,
    decided_at TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT 'app'
);
CREATE INDEX IF NOT EXISTS decisions_item ON decisions (release, instance_id, annotator, id);
CREATE TABLE IF NOT EXISTS assignments (
    release TEXT NOT NULL,
    instance_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    PRIMARY KEY (release, instance_id, annotator)
);
CREATE TRIGGER IF NOT EXISTS decisions_no_update BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'review history is append-only'); END;
CREATE TRIGGER IF NOT EXISTS decisions_no_delete BEFORE DELETE ON decisions
BEGIN SELECT RAISE(ABORT, 'review history is append-only'); END;
"""
_COLUMNS = (
    "id, release, instance_id, annotator, decision, reason, comment, fix_description, fix_error_type, "
    "fix_location, decided_at, source"
)


class ReviewStoreError(Exception):
    """The review database cannot be used; the message names the file and the reason."""


@dataclass(frozen=True)
class Decision:
    """One annotator's decision on one instance of one release (a fix carries the corrected fields)."""

    release: str
    instance_id: str
    annotator: str
    decision: str
    reason: str = ""
    comment: str = ""
    fix_description: str | None = None
    fix_error_type: str | None = None
    fix_location: str | None = None
    decided_at: str = ""
    source: str = "app"
    id: int | None = None

    def __post_init__(self) -> None:
        if self.decision not in DECISIONS:
            raise ValueError(f"unknown decision {self.decision!r}: expected accept, reject or fix")
        if self.decision == "reject" and self.reason not in REJECT_REASONS:
            raise ValueError(f"a rejection needs a reason, one of {', '.join(REJECT_REASONS)}")
        if not self.annotator.strip():
            raise ValueError("an annotator name is required")

    @property
    def label(self) -> str:
        """accept or reject, as agreement counts it: a fix keeps the instance, so it counts as accept."""
        return "reject" if self.decision == "reject" else "accept"


def _utc_now() -> datetime:
    return datetime.now(UTC)


class ReviewStore:
    """The decisions of every release reviewed into one database file."""

    def __init__(self, path: Path, clock: Callable[[], datetime] = _utc_now, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.clock = clock
        self.timeout = timeout
        self._lock = threading.Lock()  # serialises the writing connection
        self._conn = self._open()
        self._local = threading.local()  # each thread's reading connection
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._closed = False

    def _open(self) -> sqlite3.Connection:
        if self.path.is_dir():
            raise ReviewStoreError(f"{self.path}: is a folder, not a review database")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=self.timeout, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        except OSError as exc:
            raise ReviewStoreError(f"{self.path}: cannot open the review database: {exc.strerror}") from None
        return conn

    def _error(self, exc: sqlite3.Error) -> ReviewStoreError:
        text = str(exc)
        if "locked" in text or "busy" in text:
            return ReviewStoreError(
                f"{self.path}: the review database is locked by another process (waited {self.timeout:g} s)"
            )
        if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
            return ReviewStoreError(f"{self.path}: not a usable review database (corrupt or not SQLite)")
        return ReviewStoreError(f"{self.path}: review database error: {text}")

    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[sqlite3.Cursor]:
        if not write:
            try:
                yield self._reader().cursor()
            except sqlite3.Error as exc:
                raise self._error(exc) from None
            return
        with self._lock:
            try:
                with self._conn:
                    yield self._conn.cursor()
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def _reader(self) -> sqlite3.Connection:
        """This thread's reading connection (opened on first use; the schema exists by then)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            conn = sqlite3.connect(self.path, timeout=self.timeout, check_same_thread=False)
            conn.execute("PRAGMA query_only=ON")
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def close(self) -> None:
        self._closed = True
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
        self._local = threading.local()
        self._conn.close()

    def __enter__(self) -> ReviewStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def record(self, decision: Decision) -> Decision:
        """Append one decision (stamped with the store's clock unless it carries its own time)."""
        return self.record_all([decision])[0]

    def record_all(self, decisions: Sequence[Decision]) -> list[Decision]:
        """Append decisions in one transaction: all of them are stored, or (on an error) none."""
        stamped = [d if d.decided_at else replace(d, decided_at=self._now()) for d in decisions]
        out = []
        with self._cursor(write=True) as cur:
            for d in stamped:
                cur.execute(
                    "INSERT INTO decisions (release, instance_id, annotator, decision, reason, comment, "
                    "fix_description, fix_error_type, fix_location, decided_at, source) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        d.release,
                        d.instance_id,
                        d.annotator,
                        d.decision,
                        d.reason,
                        d.comment,
                        d.fix_description,
                        d.fix_error_type,
                        d.fix_location,
                        d.decided_at,
                        d.source,
                    ),
                )
                out.append(replace(d, id=cur.lastrowid))
        return out

    def _now(self) -> str:
        return self.clock().astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    def _select(self, where: str = "", params: Iterable[object] = ()) -> list[Decision]:
        with self._cursor() as cur:
            rows = cur.execute(f"SELECT {_COLUMNS} FROM decisions {where} ORDER BY id", tuple(params))
            return [_decision(row) for row in rows.fetchall()]

    def history(self, release: str | None = None, instance_id: str | None = None) -> list[Decision]:
        """Every decision ever made, oldest first (of one release and instance when given)."""
        clauses, params = [], []
        if release is not None:
            clauses.append("release = ?")
            params.append(release)
        if instance_id is not None:
            clauses.append("instance_id = ?")
            params.append(instance_id)
        return self._select(("WHERE " + " AND ".join(clauses)) if clauses else "", params)

    def current(self, release: str | None = None) -> list[Decision]:
        """The latest decision per (release, instance, annotator), in the order they were made."""
        where = "WHERE id IN (SELECT MAX(id) FROM decisions {} GROUP BY release, instance_id, annotator)"
        if release is None:
            return self._select(where.format(""))
        return self._select(where.format("WHERE release = ?"), [release])

    def count(self) -> int:
        with self._cursor() as cur:
            return int(cur.execute("SELECT COUNT(*) FROM decisions").fetchone()[0])

    def assign(self, release: str, assignments: Iterable[tuple[str, str]]) -> int:
        """Record (instance_id, annotator) pairs for a release; returns how many were new."""
        rows = [(release, i, a) for i, a in assignments]
        with self._cursor(write=True) as cur:
            before = self._conn.total_changes
            cur.executemany("INSERT OR IGNORE INTO assignments VALUES (?, ?, ?)", rows)
            return self._conn.total_changes - before

    def assigned(self, release: str, annotator: str) -> set[str]:
        with self._cursor() as cur:
            rows = cur.execute(
                "SELECT instance_id FROM assignments WHERE release = ? AND annotator = ?",
                (release, annotator),
            )
            return {r[0] for r in rows.fetchall()}


def _decision(row: tuple[object, ...]) -> Decision:
    (id_, release, instance_id, annotator, decision, reason, comment, fdesc, ftype, floc, at, source) = row
    return Decision(
        release=str(release),
        instance_id=str(instance_id),
        annotator=str(annotator),
        decision=str(decision),
        reason=str(reason),
        comment=str(comment),
        fix_description=None if fdesc is None else str(fdesc),
        fix_error_type=None if ftype is None else str(ftype),
        fix_location=None if floc is None else str(floc),
        decided_at=str(at),
        source=str(source),
        id=int(id_),  # type: ignore[call-overload]
    )
