"""Content addresses for caching: the code version and the inputs of a build."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE_PACKAGES = ("parsers", "injectors", "validation", "release")


@cache
def code_version() -> str:
    """Hash of the pipeline's own source: a change to parsing, injection or validation invalidates caches."""
    digest = hashlib.sha256()
    for package in CODE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def combine(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]
