"""Whether a release may be published: its manifest must record a validation with no critical failure.

A build that fails a critical expectation still writes its folder (to be inspected) but never moves
`latest`; without this gate `publish outputs/v0.3.0` would upload and tag it anyway.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


class UnvalidatedReleaseError(Exception):
    """The release's critical validation failed (or was never recorded); --force overrides."""


def critical_failures(folder: Path) -> list[str]:
    """The names of the failed critical expectations recorded in `folder/manifest.json`.

    A manifest without a validation record counts as one failure ("no validation recorded").
    """
    try:
        manifest = json.loads((Path(folder) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ["manifest.json unreadable"]
    validation = manifest.get("validation") if isinstance(manifest, dict) else None
    if not isinstance(validation, dict) or "success" not in validation:
        return ["no validation recorded"]
    failures = [str(name) for name in validation.get("critical_failures") or []]
    if not validation["success"] and not failures:
        failures = ["validation failed"]
    return failures


def check_publishable(folder: Path, *, force: bool, warn: Callable[[str], None]) -> list[str]:
    """Raise UnvalidatedReleaseError for a release that failed critical validation, unless `force`
    (then `warn` is told and the failures are returned)."""
    failures = critical_failures(folder)
    if not failures:
        return []
    listed = ", ".join(failures)
    if not force:
        raise UnvalidatedReleaseError(
            f"{folder}: critical validation failed ({listed}); "
            "fix the build, or pass --force to publish anyway"
        )
    warn(f"publishing {folder} although its critical validation failed ({listed}) because of --force")
    return failures


__all__ = ["UnvalidatedReleaseError", "check_publishable", "critical_failures"]
