"""Which files of a corpus folder make up the corpus: one file per document, and what was left out.

A folder with a `manifest` (the project's own corpus, where every standard exists as DOCX and PDF) is
read through it, taking the preferred format; any other folder contributes every supported regular file.
Whatever looks like a standard but cannot be one (a FIFO, a link to a device, a link loop, a hidden file,
a name that is not UTF-8) is listed with the reason, so a build reports it instead of dropping it silently
or failing on it.
"""

from __future__ import annotations

import csv
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from parsers import SUFFIXES

FORMATS = ("pdf", "docx")


@dataclass(frozen=True)
class Skipped:
    """A corpus entry that is not read: `source` is printable (bytes that are not UTF-8 are escaped)."""

    source: str
    reason: str


@dataclass(frozen=True)
class CorpusListing:
    files: tuple[Path, ...]
    skipped: tuple[Skipped, ...] = ()


def printable(name: str) -> str:
    """A file name as text that can be written anywhere: undecodable bytes shown as \\xNN."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _skip_reason(path: Path) -> str | None:
    """Why an entry with a standard's suffix cannot be read as one (None: a regular file)."""
    try:
        info = path.stat()
    except OSError as exc:
        if path.is_symlink():
            return "symbolic link loop" if exc.errno == errno.ELOOP else "broken symbolic link"
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISREG(info.st_mode):
        return None
    if stat.S_ISDIR(info.st_mode):
        return ""  # a folder named like a file: walked as a folder
    kind = (
        "a FIFO"
        if stat.S_ISFIFO(info.st_mode)
        else "a character device"
        if stat.S_ISCHR(info.st_mode)
        else "a block device"
        if stat.S_ISBLK(info.st_mode)
        else "a socket"
        if stat.S_ISSOCK(info.st_mode)
        else "a special file"
    )
    return f"not a regular file ({kind})"


def scan(folder: Path) -> CorpusListing:
    """Every supported regular file under `folder` (sorted, links to folders not followed), and the entries
    with a supported suffix that are left out, with the reason."""
    files: list[Path] = []
    skipped: list[Skipped] = []

    def walk(directory: Path) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: os.fsencode(e.name))
        except OSError as exc:
            skipped.append(Skipped(_source(directory, folder), f"folder cannot be read ({exc.strerror})"))
            return
        for entry in entries:
            path = Path(entry.path)
            hidden = entry.name.startswith(".")
            if entry.is_dir(follow_symlinks=False):
                if not hidden:
                    walk(path)
                continue
            if path.suffix.lower() not in SUFFIXES or entry.name.lower() == "readme.md":
                continue
            reason = "hidden file" if hidden else _skip_reason(path)
            if reason == "":
                continue
            if reason is None and not _utf8(entry.name):
                reason = "file name is not valid UTF-8 (unpacked with another encoding?): rename it"
            if reason is None:
                files.append(path)
            else:
                skipped.append(Skipped(_source(path, folder), reason))

    walk(folder)
    return CorpusListing(tuple(files), tuple(skipped))


def _source(path: Path, root: Path) -> str:
    try:
        return printable(str(path.relative_to(root)))
    except ValueError:
        return printable(path.name)


def corpus_listing(folder: Path, prefer: str = "pdf") -> CorpusListing:
    if prefer not in FORMATS:
        raise ValueError(f"unknown format {prefer!r}: expected one of {', '.join(FORMATS)}")
    manifest = folder / "manifest"
    if manifest.is_file():
        with manifest.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t"))
        files = []
        for row in rows:
            fallback = [f for f in FORMATS if f != prefer]
            for fmt in (prefer, *fallback):
                candidate = folder / fmt / Path(row[fmt]).name
                if candidate.is_file():
                    files.append(candidate)
                    break
        return CorpusListing(tuple(sorted(files)))
    return scan(folder)


def corpus_files(folder: Path, prefer: str = "pdf") -> list[Path]:
    return list(corpus_listing(folder, prefer).files)
