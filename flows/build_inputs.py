"""What a build reads: the corpus files, their hashes, the review decisions and the fingerprint (the
pipeline prepares it, the steps and executors take it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from review.decisions import ReviewDecisions


@dataclass(frozen=True)
class BuildInputs:
    """The corpus files of a build, their hashes, the review decisions it applies, and the fingerprint that
    says whether anything changed."""

    corpus: Path
    out: Path
    files: tuple[Path, ...]
    digests: tuple[str, ...]
    fingerprint: str
    up_to_date: bool
    decisions: ReviewDecisions | None = None
    skipped: tuple[dict[str, str], ...] = ()  # corpus entries that are not files to read, with the reason
