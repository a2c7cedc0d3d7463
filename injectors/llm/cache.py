"""The content-addressed cache of LLM calls: one SQLite row per model, prompt version, messages, params, seed.

A rebuild with the same inputs finds every answer here and makes no request, so LLM-written instances are
as reproducible as rule-written ones. The file is safe to share between threads (one connection behind a
lock, WAL journal) and processes (a bounded busy timeout), is readable by its owner only, and holds no
secret: the API key is masked in answers, and the base URL enters only the hash of a key, never a row.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 30.0  # how long a call waits for another process's write lock before reporting it
BYPASS_FACTOR = 10  # after a lock is reported, calls skip the cache for this many busy timeouts
FILE_MODE = 0o600  # the cache holds the prompts (the standards' text) and the answers: the owner's only


class LLMCacheError(ValueError):
    """The cache file cannot be used now (locked by another process past the busy timeout, a permission),
    though it is not damaged: reported, never moved aside."""


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    """Only a file SQLite cannot read as a database is damaged; a lock, a permission or a full disk is an
    OperationalError and says nothing about the file's content."""
    return not isinstance(exc, sqlite3.OperationalError)


SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    prompt_id TEXT NOT NULL,
    request TEXT NOT NULL,
    content TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    retried TEXT NOT NULL
)
"""


def cache_key(
    model: str,
    prompt_id: str,
    messages: Sequence[dict[str, str]],
    params: dict[str, Any],
    seed: int,
    *,
    endpoint: str = "",
) -> str:
    """SHA-256 of the canonical JSON of everything that determines an answer, the endpoint included
    (it enters only the hash, never a row)."""
    payload: dict[str, Any] = {
        "model": model,
        "prompt_id": prompt_id,
        "messages": list(messages),
        "params": params,
        "seed": seed,
    }
    if endpoint:
        payload["endpoint"] = endpoint
    canonical = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedCompletion:
    content: str
    prompt_tokens: int
    completion_tokens: int
    retried: tuple[str, ...] = ()  # transport failures before the answer: provenance must not change on a hit


class LLMCache:
    """SQLite file of completions; `get` and `put` may be called from any thread.

    The cache heals itself: a file SQLite cannot read (garbled header, truncation, a damaged page) is moved
    aside as `<name>.corrupt-<UTC time>` and a fresh cache takes its place, with a warning; a row that
    cannot be decoded is deleted and counts as a miss, so the answer is asked for and written again. A
    cache is an accelerator: losing it costs requests, never a run.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        warn: Callable[[str], None] = log.warning,
        busy_timeout: float = BUSY_TIMEOUT_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.busy_timeout = busy_timeout
        self._monotonic = monotonic
        self._bypass_until = float("-inf")
        _private(self.path)
        self._clock = clock
        self._warn = warn
        self._lock = threading.Lock()
        self.healed: list[str] = []  # what was moved aside or dropped, for the run's report
        with self._lock:
            try:
                self._db = self._connect(check=True)
            except sqlite3.DatabaseError as exc:
                if not _damaged(exc):
                    raise LLMCacheError(self._unusable(exc)) from None
                self._db = self._replace(exc)

    def _unusable(self, exc: sqlite3.Error) -> str:
        if "locked" in str(exc) or "busy" in str(exc):
            return (
                f"LLM cache {self.path} is locked by another process (waited {self.busy_timeout:g} s); "
                "it is not damaged: try again when that process is done"
            )
        return f"LLM cache {self.path} cannot be used ({exc})"

    def _connect(self, *, check: bool) -> sqlite3.Connection:
        db = sqlite3.connect(
            str(self.path), timeout=self.busy_timeout, check_same_thread=False, isolation_level=None
        )
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(SCHEMA)
            if check:
                verdict = db.execute("PRAGMA quick_check").fetchone()
                if verdict is None or verdict[0] != "ok":
                    raise sqlite3.DatabaseError(f"integrity check failed: {verdict[0] if verdict else '?'}")
        except BaseException:
            db.close()
            raise
        return db

    def _replace(self, exc: BaseException) -> sqlite3.Connection:
        """Move the unreadable file (and its WAL and shared-memory files) aside and start a fresh cache."""
        stamp = self._clock().strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                os.replace(part, f"{aside}{suffix}")
        self._report(f"is unreadable ({exc}); moved it to {aside.name} and started a fresh one")
        _private(self.path)
        return self._connect(check=False)

    def _report(self, what: str) -> None:
        """Warn with the full path; keep only the file name for the run's report (it goes into manifests)."""
        self.healed.append(f"LLM cache {self.path.name} {what}")
        self._warn(f"LLM cache {self.path} {what}")

    def _heal(self, exc: sqlite3.DatabaseError) -> None:
        """Called with the lock held, when a query fails: a damaged file is replaced; a lock held past the
        busy timeout (or another operational failure) is reported and the call goes without the cache."""
        if not _damaged(exc):
            self._bypass_until = self._monotonic() + BYPASS_FACTOR * self.busy_timeout
            self._warn(
                self._unusable(exc)
                + f": calls go without the cache for the next {BYPASS_FACTOR * self.busy_timeout:g} s"
            )
            return
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = self._replace(exc)

    def _bypassed(self) -> bool:
        """Whether the file was found locked a moment ago: calls then go without it instead of each
        waiting the busy timeout again."""
        return self._monotonic() < self._bypass_until

    def get(self, key: str) -> CachedCompletion | None:
        with self._lock:
            if self._bypassed():
                return None
            try:
                row = self._db.execute(
                    "SELECT content, prompt_tokens, completion_tokens, retried FROM completions "
                    "WHERE key = ?",
                    (key,),
                ).fetchone()
            except sqlite3.DatabaseError as exc:
                self._heal(exc)
                return None
            if row is None:
                return None
            try:
                retried = json.loads(row[3])
                if not isinstance(retried, list) or not isinstance(row[0], str):
                    raise ValueError("not a list of failures")
                return CachedCompletion(row[0], int(row[1]), int(row[2]), tuple(str(r) for r in retried))
            except (ValueError, TypeError) as exc:  # JSONDecodeError is a ValueError
                self._report(f"dropped an unreadable row ({type(exc).__name__}); it will be asked again")
                try:
                    self._db.execute("DELETE FROM completions WHERE key = ?", (key,))
                except sqlite3.DatabaseError as db_exc:
                    self._heal(db_exc)
                return None

    def put(
        self, key: str, completion: CachedCompletion, *, model: str, prompt_id: str, request: dict[str, Any]
    ) -> None:
        """Store an answer; the request (messages, params, seed) is kept for audits, never any credential."""
        row = (
            key,
            model,
            prompt_id,
            json.dumps(request, ensure_ascii=False, sort_keys=True),
            completion.content,
            completion.prompt_tokens,
            completion.completion_tokens,
            json.dumps(list(completion.retried)),
        )
        with self._lock:
            if self._bypassed():
                return
            for attempt in range(2):
                try:
                    self._db.execute(
                        "INSERT OR REPLACE INTO completions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row
                    )
                    return
                except sqlite3.DatabaseError as exc:
                    if attempt:
                        raise
                    self._heal(exc)
                    if not _damaged(exc):
                        return

    def forget(self, key: str) -> None:
        """Drop one answer (it failed its constraints): the next run asks for it again."""
        with self._lock:
            try:
                self._db.execute("DELETE FROM completions WHERE key = ?", (key,))
            except sqlite3.DatabaseError as exc:
                self._heal(exc)

    def __len__(self) -> int:
        with self._lock:
            try:
                return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])
            except sqlite3.DatabaseError as exc:
                self._heal(exc)
                return 0

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> LLMCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _private(path: Path) -> None:
    """Create the file readable by its owner only, or make an existing one so (SQLite gives its WAL and
    shared-memory files the database file's mode)."""
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE))
        if path.stat().st_mode & 0o077:
            os.chmod(path, FILE_MODE)
    except OSError:
        pass  # not ours to change, or not writable: SQLite reports what matters when it opens the file
