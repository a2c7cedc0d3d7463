"""The local Hub's repositories: files, commits, branches and tags, held in memory the way git holds them.

The HTTP side (servers/hub.py, servers/hub_http.py) reads and writes them under the hub's lock.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StoredFile:
    content: bytes
    lfs: bool

    @property
    def oid(self) -> str:
        """The oid the Hub reports in preupload: sha256 for LFS files, the git blob sha1 otherwise."""
        if self.lfs:
            return hashlib.sha256(self.content).hexdigest()
        return hashlib.sha1(b"blob %d\0" % len(self.content) + self.content).hexdigest()


@dataclass(frozen=True)
class StoredCommit:
    oid: str
    parent: str | None
    summary: str
    description: str
    files: dict[str, StoredFile]


@dataclass
class HubRepo:
    repo_type: str
    repo_id: str
    private: bool
    commits: dict[str, StoredCommit] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def resolve(self, revision: str) -> str | None:
        """A branch, a tag, a full commit oid or an unambiguous prefix of at least 7 characters."""
        if revision in self.branches:
            return self.branches[revision]
        if revision in self.tags:
            return self.tags[revision]
        if revision in self.commits:
            return revision
        if len(revision) >= 7:
            matches = [oid for oid in self.commits if oid.startswith(revision)]
            if len(matches) == 1:
                return matches[0]
        return None

    def files_at(self, revision: str = "main") -> dict[str, bytes]:
        oid = self.resolve(revision)
        if oid is None:
            raise KeyError(f"no revision {revision!r} in {self.repo_id}")
        return {path: f.content for path, f in self.commits[oid].files.items()}
