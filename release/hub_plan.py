"""Which files of a release folder go to the Hub, and where in the repository."""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from release.hub_errors import ReleaseFolderError
from release.hub_layout import arrow_copy_names, published_card

EXTRA_PREFIX = "release"  # where the parts of the version folder other than hf/ go in the repo


_TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$")


@dataclass(frozen=True)
class PlannedFile:
    path_in_repo: str
    local_path: Path
    size: int


def resolve_release_folder(output_dir: Path) -> Path:
    """The version folder itself; `outputs/latest` may be a symlink or a small file naming the version."""
    path = Path(output_dir)
    if path.is_file() and path.stat().st_size < 256:
        path = path.parent / path.read_text(encoding="utf-8").strip()
    path = path.resolve()
    if not path.is_dir():
        raise ReleaseFolderError(f"{output_dir}: not a folder (expected outputs/<version>/)")
    return path


def read_version(folder: Path) -> str:
    """The version from manifest.json: it becomes the tag, so it must be a valid git ref name."""
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        raise ReleaseFolderError(f"{folder}: no manifest.json (is this a finished release folder?)")
    try:
        version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError) as exc:
        raise ReleaseFolderError(f"{manifest}: not a JSON object ({exc})") from None
    if (
        not isinstance(version, str)
        or not _TAG.match(version)
        or ".." in version
        or version.endswith(".lock")
    ):
        raise ReleaseFolderError(f"{manifest}: version {version!r} cannot be a tag (expected e.g. v0.1.0)")
    return version


def _visible_files(root: Path) -> list[Path]:
    """Regular files under root, skipping hidden names (temporary files, .git, caches)."""
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        found.append(path)
    return found


def plan_upload(folder: Path) -> tuple[PlannedFile, ...]:
    """Every file of the release and its path in the repo: hf/ at the root (without the arrow copy of
    the tables), the rest under release/."""
    hf = folder / "hf"
    if not (hf / "README.md").is_file():
        raise ReleaseFolderError(f"{folder}: no hf/README.md (the dataset card load_dataset reads)")
    if not any((hf / "data").rglob("*.parquet")):
        raise ReleaseFolderError(f"{folder}: no hf/data/**/*.parquet (the data load_dataset reads)")
    arrow = arrow_copy_names(hf)
    planned = [
        PlannedFile(p.relative_to(hf).as_posix(), p, p.stat().st_size)
        for p in _visible_files(hf)
        if p.relative_to(hf).parts[0] not in arrow
    ]
    clash = [f.path_in_repo for f in planned if f.path_in_repo.split("/")[0] == EXTRA_PREFIX]
    if clash:
        raise ReleaseFolderError(f"{folder}: hf/{clash[0]} would collide with the {EXTRA_PREFIX}/ folder")
    for top in sorted(folder.iterdir()):
        if top.name == "hf" or top.name.startswith("."):
            continue
        files = [top] if top.is_file() else _visible_files(top) if top.is_dir() else []
        for p in files:
            rel = p.relative_to(folder).as_posix()
            planned.append(PlannedFile(f"{EXTRA_PREFIX}/{rel}", p, p.stat().st_size))
    return tuple(sorted(planned, key=lambda f: f.path_in_repo))


def _stage(files: tuple[PlannedFile, ...], staging: Path, repo_id: str, endpoint: str) -> None:
    """Lay the planned files out as the repo will look, by symlink (copy where links are not allowed).

    The card is the one file written anew: its loading snippet and citation name the real repo id on the
    Hub it goes to.
    """
    for f in files:
        dest = staging / f.path_in_repo
        dest.parent.mkdir(parents=True, exist_ok=True)
        if f.path_in_repo == "README.md":
            write_published_card(f.local_path, dest, repo_id, endpoint)
            continue
        try:
            os.symlink(f.local_path.resolve(), dest)
        except OSError:
            shutil.copy2(f.local_path, dest)


def write_published_card(card: Path, dest: Path, repo_id: str, endpoint: str) -> None:
    """The card exactly as publish uploads it (`publish --preview` writes it without uploading)."""
    dest.write_text(published_card(card.read_text(encoding="utf-8"), repo_id, endpoint), "utf-8")
