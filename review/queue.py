"""A release's review queue as annotators see it: items with their evidence, read once into memory.

Reads `review_queue.parquet` (what to review and why), `sections.parquet` (the corrupted document around
each item) and `documents.parquet` (titles). Nothing here touches the request: items and documents are
looked up by id in dictionaries, never by path.
"""

from __future__ import annotations

import difflib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq


class ReleaseReadError(Exception):
    """A release folder cannot be reviewed; the message names the file and the reason."""


@dataclass(frozen=True)
class Segment:
    """A run of characters that both texts share ("equal") or that only one of them has."""

    kind: str  # equal | delete | insert
    text: str


@dataclass(frozen=True)
class SectionView:
    position: int
    number: str
    title: str
    text: str
    level: int


@dataclass(frozen=True)
class QueueItem:
    instance_id: str
    doc_id: str
    dimension: str
    error_type: str
    location: str
    reason: str  # flagged | sample | llm_rejected
    flags: tuple[tuple[str, str], ...]
    description: str
    original_text: str | None
    corrupted_text: str | None
    generator: str

    @property
    def flag_codes(self) -> tuple[str, ...]:
        return tuple(code for code, _ in self.flags)


@dataclass(frozen=True)
class DocumentView:
    doc_id: str
    standard_id: str
    title: str
    sections: tuple[SectionView, ...]  # the corrupted document


def diff_segments(original: str | None, corrupted: str | None) -> tuple[list[Segment], list[Segment]]:
    """Character-level differences: (original with deletions marked, corrupted with insertions marked)."""
    a, b = original or "", corrupted or ""
    left: list[Segment] = []
    right: list[Segment] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            left.append(Segment("equal", a[i1:i2]))
            right.append(Segment("equal", b[j1:j2]))
            continue
        if i2 > i1:
            left.append(Segment("delete", a[i1:i2]))
        if j2 > j1:
            right.append(Segment("insert", b[j1:j2]))
    return left, right


def resolve_release(path: Path) -> Path:
    """A release folder; an outputs root (with `latest`) means its latest release."""
    path = Path(path)
    if not (path / "manifest.json").is_file() and (path / "latest").exists():
        path = path / "latest"
    if not (path / "manifest.json").is_file():
        raise ReleaseReadError(f"{path}: not a release folder (no manifest.json)")
    return path.resolve()


def _read(path: Path, columns: Sequence[str]) -> list[dict[str, Any]]:
    try:
        return pq.read_table(path, columns=list(columns)).to_pylist()
    except FileNotFoundError:
        raise ReleaseReadError(f"{path}: missing from the release") from None
    except Exception as exc:  # pyarrow raises several types for damaged files
        raise ReleaseReadError(f"{path}: unreadable ({exc})") from None


class ReleaseQueue:
    """One release's queue, its documents and lookups by id."""

    def __init__(self, release_dir: Path) -> None:
        self.path = resolve_release(release_dir)
        try:
            manifest = json.loads((self.path / "manifest.json").read_text(encoding="utf-8"))
            self.version = str(manifest["version"])
        except (OSError, ValueError, KeyError) as exc:
            raise ReleaseReadError(f"{self.path / 'manifest.json'}: unreadable ({exc})") from None
        rows = _read(
            self.path / "review_queue.parquet",
            [
                "instance_id",
                "doc_id",
                "dimension",
                "error_type",
                "location",
                "reason",
                "flags",
                "description",
                "original_text",
                "corrupted_text",
                "generator",
            ],
        )
        self.items: list[QueueItem] = [
            QueueItem(**{**r, "flags": tuple((f["code"], f["message"]) for f in r["flags"] or ())})
            for r in rows
        ]
        self.by_id = {item.instance_id: item for item in self.items}
        self.index = {item.instance_id: n for n, item in enumerate(self.items)}
        titles = {
            r["doc_id"]: r for r in _read(self.path / "documents.parquet", ["doc_id", "standard_id", "title"])
        }
        sections: dict[str, list[SectionView]] = {}
        for r in _read(
            self.path / "sections.parquet",
            ["doc_id", "variant", "position", "number", "title", "text", "level"],
        ):
            if r["variant"] == "corrupted":
                sections.setdefault(r["doc_id"], []).append(
                    SectionView(r["position"], r["number"], r["title"], r["text"], r["level"])
                )
        self.documents = {
            doc_id: DocumentView(
                doc_id,
                str(titles.get(doc_id, {}).get("standard_id") or ""),
                str(titles.get(doc_id, {}).get("title") or ""),
                tuple(sorted(secs, key=lambda s: s.position)),
            )
            for doc_id, secs in sections.items()
        }
        self._numbers = {
            doc_id: {s.number: n for n, s in enumerate(doc.sections)}
            for doc_id, doc in self.documents.items()
        }

    def neighbours(self, item: QueueItem, around: int = 1) -> list[SectionView]:
        """The sections just before and after the item's location in the corrupted document."""
        doc = self.documents.get(item.doc_id)
        at = self._numbers.get(item.doc_id, {}).get(item.location)
        if doc is None or at is None:
            return []
        return [s for s in doc.sections[max(0, at - around) : at + around + 1] if s.number != item.location]

    def has_location(self, doc_id: str, location: str) -> bool:
        return location in self._numbers.get(doc_id, {})

    def dimension_of(self) -> dict[str, str]:
        return {item.instance_id: item.dimension for item in self.items}


def overlap_assignments(
    ids: Sequence[str], annotators: Sequence[str], overlap: float, seed: int
) -> list[tuple[str, str]]:
    """Split `ids` among annotators, with a seeded `overlap` share given to everyone (for agreement)."""
    if not annotators:
        return []
    rng = random.Random(f"{seed}:assign")
    shuffled = sorted(ids)
    rng.shuffle(shuffled)
    shared = round(len(shuffled) * max(0.0, min(1.0, overlap)))
    pairs = [(i, a) for i in shuffled[:shared] for a in annotators]
    pairs += [(i, annotators[n % len(annotators)]) for n, i in enumerate(shuffled[shared:])]
    return pairs
