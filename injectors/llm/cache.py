"""The content-addressed cache of LLM calls: one SQLite row per model, prompt version, messages, params, seed.

A rebuild with the same inputs finds every answer here and makes no request, so LLM-written instances are
as reproducible as rule-written ones. The file is safe to share between threads (one connection behind a
lock, WAL journal) and holds no secret: neither the API key nor the base URL enters a key or a row.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    model: str, prompt_id: str, messages: Sequence[dict[str, str]], params: dict[str, Any], seed: int
) -> str:
    """SHA-256 of the canonical JSON of everything that determines an answer."""
    payload = {
        "model": model,
        "prompt_id": prompt_id,
        "messages": list(messages),
        "params": params,
        "seed": seed,
    }
    canonical = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedCompletion:
    content: str
    prompt_tokens: int
    completion_tokens: int
    retried: tuple[str, ...] = ()  # transport failures before the answer: provenance must not change on a hit


class LLMCache:
    """SQLite file of completions; `get` and `put` may be called from any thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(SCHEMA)

    def get(self, key: str) -> CachedCompletion | None:
        with self._lock:
            row = self._db.execute(
                "SELECT content, prompt_tokens, completion_tokens, retried FROM completions WHERE key = ?",
                (key,),
            ).fetchone()
        if row is None:
            return None
        return CachedCompletion(row[0], row[1], row[2], tuple(json.loads(row[3])))

    def put(
        self, key: str, completion: CachedCompletion, *, model: str, prompt_id: str, request: dict[str, Any]
    ) -> None:
        """Store an answer; the request (messages, params, seed) is kept for audits, never any credential."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO completions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    model,
                    prompt_id,
                    json.dumps(request, ensure_ascii=False, sort_keys=True),
                    completion.content,
                    completion.prompt_tokens,
                    completion.completion_tokens,
                    json.dumps(list(completion.retried)),
                ),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> LLMCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
