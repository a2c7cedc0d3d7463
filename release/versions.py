"""Release versions beside each other in one output root: names, the `latest` pointer, the next version,
and the hidden staging folder a release is written into before it is renamed into place."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from release.lock import remove_stale_temps, temp_prefix

LATEST_NAME = "latest"


class ReleaseError(Exception):
    """A release could not be written; the message says why and what to do."""


class ReleaseExistsError(ReleaseError, FileExistsError):
    """The version folder exists already: versions are immutable."""


class InvalidVersionError(ReleaseError, ValueError):
    """The version cannot name a release folder."""


def check_version(version: str) -> None:
    """A version names one folder beside `latest`; anything else would escape or clash."""
    if (
        not version
        or version in (".", "..", LATEST_NAME)
        or version.startswith(".")
        or any(c in version for c in "/\\\0")
    ):
        raise InvalidVersionError(
            f"invalid release version {version!r}: use a plain folder name such as v0.1.0"
        )


def refuse_existing(final: Path) -> None:
    if final.exists() or final.is_symlink():
        raise ReleaseExistsError(
            f"{final} exists: a released version is never overwritten; choose a new version"
        )


def open_staging(out_root: Path, version: str) -> Path:
    """A fresh hidden folder `.<version>.tmp-<pid>-xxxx` in out_root (those of dead builds removed)."""
    check_version(version)
    out_root.mkdir(parents=True, exist_ok=True)
    refuse_existing(out_root / version)
    remove_stale_temps(out_root, version)  # left by builds that died while writing (never a live one)
    staging = Path(tempfile.mkdtemp(prefix=temp_prefix(version), dir=out_root))
    os.chmod(staging, 0o755)
    return staging


def publish_staging(staging: Path, final: Path) -> None:
    """Rename the complete staging folder into place; a version that appeared meanwhile is kept."""
    if final.exists() or final.is_symlink():
        raise ReleaseExistsError(f"{final} appeared while writing: a released version is never overwritten")
    os.rename(staging, final)


def point_latest(out_root: Path, version: str) -> None:
    """`latest` → version, replaced atomically: a relative symlink, or a one-line file where links fail."""
    link = out_root / LATEST_NAME
    if link.is_dir() and not link.is_symlink():
        raise ReleaseError(f"{link} is a folder; remove it so that it can point at the latest release")
    tmp = out_root / f".{LATEST_NAME}.tmp-{os.getpid()}"
    if tmp.exists() or tmp.is_symlink():
        tmp.unlink()
    try:
        os.symlink(version, tmp, target_is_directory=True)
    except OSError:
        tmp.write_text(version + "\n", encoding="utf-8")
    os.replace(tmp, link)


def latest_version(out_root: Path) -> str | None:
    """The version `latest` points at, whichever form it has; None when there is none."""
    link = Path(out_root) / LATEST_NAME
    if link.is_symlink():
        return Path(os.readlink(link)).name
    if link.is_file():
        return link.read_text(encoding="utf-8").strip() or None
    return None


_VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")


def next_version(out_root: Path, first: str = "v0.1.0") -> str:
    """The highest vX.Y.Z folder in out_root with its patch number raised; `first` when there is none."""
    root = Path(out_root)
    found = []
    if root.is_dir():
        for p in root.iterdir():
            match = _VERSION.match(p.name)
            if match and p.is_dir():
                found.append(tuple(int(g) for g in match.groups()))
    if not found:
        return first
    major, minor, patch = max(found)
    return f"v{major}.{minor}.{patch + 1}"
