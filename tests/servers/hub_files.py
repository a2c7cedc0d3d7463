"""The read side of the local Hub: what `load_dataset(repo_id, config, revision=tag)` asks for.

Follows huggingface_hub 2.4.0 (hf_api.list_repo_tree, get_paths_info; file_download's HEAD/GET of
`resolve` URLs with X-Repo-Commit, ETag, X-Linked-Etag / X-Linked-Size for LFS files) and what
`datasets` 5.2 does with them through HfFileSystem:

    GET  /api/{type}s/{ns}/{name}/tree/{rev}[/{path}]?recursive=…   files and folders under a path
    POST /api/{type}s/{ns}/{name}/paths-info/{rev}                   the entries for given paths
    HEAD /[{type}s/]{ns}/{name}/resolve/{rev}/{path}                 a file's metadata
    GET  /[{type}s/]{ns}/{name}/resolve/{rev}/{path}                 its bytes (Range honoured)
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import parse_qs, unquote

TREE = "tree"
PATHS_INFO = "paths_info"
RESOLVE = "resolve"

_RESOLVE = re.compile(
    r"^/(?:(?P<prefix>datasets|spaces)/)?(?P<ns>[^/]+)/(?P<name>[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)$"
)
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


def resolve_route(path: str) -> dict[str, str] | None:
    """The parts of a `resolve` URL (repo type, id, revision, path in repo), None for any other path."""
    m = _RESOLVE.match(path)
    if m is None:
        return None
    repo_type = {"datasets": "dataset", "spaces": "space", None: "model"}[m["prefix"]]
    return {
        "repo_type": repo_type,
        "repo_id": f"{unquote(m['ns'])}/{unquote(m['name'])}",
        "rev": unquote(m["rev"]),
        "path": unquote(m["path"]),
    }


def split_revision_path(raw: str) -> tuple[str, str]:
    """`{rev}/{path}` of a tree URL, the revision still quoted (a branch may contain %2F)."""
    rev, _, path = raw.partition("/")
    return unquote(rev), unquote(path).strip("/")


def _entry(path: str, content: bytes, lfs: bool) -> dict[str, Any]:
    blob = hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()
    entry: dict[str, Any] = {"type": "file", "path": path, "size": len(content), "oid": blob}
    if lfs:
        entry["lfs"] = {"oid": hashlib.sha256(content).hexdigest(), "size": len(content), "pointerSize": 134}
    return entry


def _folder(path: str) -> dict[str, Any]:
    return {"type": "directory", "path": path, "oid": hashlib.sha1(path.encode()).hexdigest()}


def tree_entries(files: dict[str, tuple[bytes, bool]], path: str, query: str) -> list[dict[str, Any]]:
    """Entries under `path`: direct children, or everything below with recursive=true (folders too)."""
    recursive = parse_qs(query).get("recursive", ["false"])[0].lower() == "true"
    prefix = f"{path}/" if path else ""
    if path and path in files:
        raise LookupError(f"{path} is a file, not a folder")
    if path and not any(p.startswith(prefix) for p in files):
        raise LookupError(f"{path} not found")
    out: dict[str, dict[str, Any]] = {}
    for name, (content, lfs) in sorted(files.items()):
        if not name.startswith(prefix):
            continue
        rest = name[len(prefix) :].split("/")
        for depth in range(1, len(rest)):
            folder = prefix + "/".join(rest[:depth])
            if recursive or depth == 1:
                out.setdefault(folder, _folder(folder))
        if recursive or len(rest) == 1:
            out[name] = _entry(name, content, lfs)
    return [out[k] for k in sorted(out)]


def paths_info(files: dict[str, tuple[bytes, bool]], body: bytes) -> list[dict[str, Any]]:
    """Entries of the requested paths that exist (form field `paths`, repeated)."""
    wanted = parse_qs(body.decode("utf-8")).get("paths", [])
    out = []
    for raw in wanted:
        path = raw.strip("/")
        if path in files:
            content, lfs = files[path]
            out.append(_entry(path, content, lfs))
        elif any(p.startswith(f"{path}/") for p in files):
            out.append(_folder(path))
    return out


def file_headers(commit: str, content: bytes, lfs: bool) -> dict[str, str]:
    """The metadata headers of a resolve answer, as huggingface_hub reads them."""
    entry = _entry("", content, lfs)
    headers = {"X-Repo-Commit": commit, "ETag": f'"{entry["oid"]}"', "Accept-Ranges": "bytes"}
    if lfs:
        headers["X-Linked-Etag"] = f'"{entry["lfs"]["oid"]}"'
        headers["X-Linked-Size"] = str(len(content))
    return headers


def byte_range(header: str | None, size: int) -> tuple[int, int] | None:
    """(start, end inclusive) of a `Range: bytes=a-b` header; None for the whole file."""
    if not header:
        return None
    m = _RANGE.match(header.strip())
    if m is None or (not m[1] and not m[2]):
        return None
    if not m[1]:  # the last n bytes
        n = int(m[2])
        return max(size - n, 0), size - 1
    start = int(m[1])
    end = min(int(m[2]), size - 1) if m[2] else size - 1
    return start, end
