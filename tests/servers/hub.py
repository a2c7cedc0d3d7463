"""A Hugging Face Hub stand-in on 127.0.0.1 that speaks the endpoints huggingface_hub's upload path uses.

The protocol follows huggingface_hub 2.4.0's own source (hf_api.py: whoami, create_repo, dataset_info,
list_repo_refs, _validate_yaml, create_tag, delete_tag; _commit_api.py: _fetch_upload_modes, _send_commit;
lfs.py: post_lfs_batch_info, lfs_upload) with Xet disabled (HF_HUB_DISABLE_XET=1):

    GET    /api/whoami-v2                                     who owns the token
    GET    /api/agent-harnesses                               user-agent registry (built with every header)
    POST   /api/repos/create                                  create a repo (409 + url when it exists)
    GET    /api/{type}s/{ns}/{name}[/revision/{rev}]          repo info (sha, private, siblings)
    GET    /api/{type}s/{ns}/{name}/refs                      branches and tags
    POST   /api/validate-yaml                                 README.md front matter check
    POST   /api/{type}s/{ns}/{name}/preupload/{rev}           upload mode per file ("regular" unless told)
    POST   /{type}s/{ns}/{name}.git/info/lfs/objects/batch    LFS batch API, "basic" transfer
    PUT    /_lfs/{oid}                                        LFS upload href (stores the bytes)
    POST   /_lfs/{oid}/verify                                 LFS verify href
    POST   /api/{type}s/{ns}/{name}/commit/{rev}              NDJSON commit (header, file, lfsFile, deleted*)
    POST   /api/{type}s/{ns}/{name}/tag/{rev}                 create a tag on a revision
    DELETE /api/{type}s/{ns}/{name}/tag/{tag}                 delete a tag

and the read side `load_dataset` uses (tree, paths-info, resolve: see servers/hub_files.py).

Every request is recorded (method, path, route, whether an Authorization header came along); any route
can be made to answer an error status (5xx, 401 …) or to hang (read the request, never answer) until the
server stops. The route names, the request record and the handler are in servers/hub_http.py, the repositories
(files, commits, branches, tags) in servers/hub_repos.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any

from tests.servers.hub_http import HubHandler, RecordedRequest, Reply
from tests.servers.hub_repos import HubRepo, StoredCommit, StoredFile

HANG_LIMIT_S = 120.0  # a hanging handler gives up after this even if the server is never stopped

_URL_PREFIX = {"model": "", "dataset": "datasets/", "space": "spaces/"}
_GITATTRIBUTES = (
    b"*.parquet filter=lfs diff=lfs merge=lfs -text\n*.arrow filter=lfs diff=lfs merge=lfs -text\n"
)


@dataclass(frozen=True)
class _Fault:
    status: int | None  # None: hang
    message: str


class LocalHub:
    """A threaded HTTP server on a free 127.0.0.1 port holding repos in memory; use as a context manager.

    `tokens`: accepted bearer tokens (None accepts any non-empty one); `lfs_suffixes`: paths answered
    "lfs" by preupload (default none: every file "regular", committed inline as base64).
    """

    def __init__(
        self,
        *,
        tokens: tuple[str, ...] | None = None,
        token_role: str = "write",
        user: str = "gbtbench-tester",
        lfs_suffixes: tuple[str, ...] = (),
    ) -> None:
        self.tokens = tokens
        self.token_role = token_role
        self.user = user
        self.lfs_suffixes = lfs_suffixes
        self.requests: list[RecordedRequest] = []
        self.repos: dict[tuple[str, str], HubRepo] = {}
        self.lfs_objects: dict[str, bytes] = {}
        self._faults: dict[str, _Fault] = {}
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._commit_counter = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------------------------

    def __enter__(self) -> LocalHub:
        server = ThreadingHTTPServer(("127.0.0.1", 0), HubHandler)
        server.daemon_threads = True
        server.hub = self  # type: ignore[attr-defined]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="local-hub", daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()  # hanging handlers close their connection without answering
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def url(self) -> str:
        assert self._server is not None, "use LocalHub as a context manager"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # -- fault injection and inspection --------------------------------------------------------------

    def fail(self, route: str, status: int, message: str = "simulated failure") -> None:
        """Answer every request to `route` with `status` (e.g. 503, 401) until clear_faults()."""
        with self._lock:
            self._faults[route] = _Fault(status, message)

    def hang(self, route: str) -> None:
        """Read requests to `route`, then never answer (until the server stops or HANG_LIMIT_S passes)."""
        with self._lock:
            self._faults[route] = _Fault(None, "")

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def repo(self, repo_id: str, repo_type: str = "dataset") -> HubRepo | None:
        with self._lock:
            return self.repos.get((repo_type, repo_id))

    def routes(self) -> list[str]:
        with self._lock:
            return [r.route for r in self.requests]

    # -- request handling (called from handler threads) ----------------------------------------------

    def _record(self, request: RecordedRequest) -> _Fault | None:
        with self._lock:
            self.requests.append(request)
            return self._faults.get(request.route)

    def _wait_released(self) -> None:
        self._release.wait(timeout=HANG_LIMIT_S)

    def _check_token(self, authorization: str | None, *, required: bool) -> bool:
        """True when a valid token came along; raises 401 for a wrong one, or for none when required."""
        if authorization is None:
            if required:
                raise Reply(401, "Invalid username or password.")
            return False
        scheme, _, token = authorization.partition(" ")
        valid = scheme.lower() == "bearer" and bool(token) and (self.tokens is None or token in self.tokens)
        if not valid:
            raise Reply(401, "Invalid credentials in Authorization header")
        return True

    def _repo_or_404(self, repo_type: str, repo_id: str, authenticated: bool) -> HubRepo:
        repo = self.repos.get((repo_type, repo_id))
        if repo is None or (repo.private and not authenticated):
            raise Reply(404, "Repository not found", "RepoNotFound")
        return repo

    def _repo_url(self, repo: HubRepo) -> str:
        return f"{self.url}/{_URL_PREFIX[repo.repo_type]}{repo.repo_id}"

    def _new_commit(
        self, repo: HubRepo, branch: str, files: dict[str, StoredFile], summary: str, description: str
    ) -> StoredCommit:
        parent = repo.branches.get(branch)
        self._commit_counter += 1
        digest = hashlib.sha1()
        digest.update(f"{repo.repo_id}\n{parent}\n{summary}\n{self._commit_counter}\n".encode())
        for path in sorted(files):
            digest.update(f"{path}\0{files[path].oid}\n".encode())
        commit = StoredCommit(digest.hexdigest(), parent, summary, description, files)
        repo.commits[commit.oid] = commit
        repo.branches[branch] = commit.oid
        return commit

    def whoami(self, auth: str | None) -> dict[str, Any]:
        self._check_token(auth, required=True)
        return {
            "type": "user",
            "name": self.user,
            "fullname": "gbtbench test user",
            "orgs": [],
            "auth": {"type": "access_token", "accessToken": {"displayName": "test", "role": self.token_role}},
        }

    def create_repo(self, auth: str | None, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self._check_token(auth, required=True)
        repo_type = payload.get("type") or "model"
        if repo_type not in _URL_PREFIX:
            raise Reply(400, f"invalid repo type {repo_type!r}")
        namespace = payload.get("organization") or self.user
        repo_id = f"{namespace}/{payload['name']}"
        with self._lock:
            existing = self.repos.get((repo_type, repo_id))
            if existing is not None:
                return 409, {
                    "error": f"You already created this {repo_type} repo",
                    "url": self._repo_url(existing),
                }
            repo = HubRepo(repo_type, repo_id, private=payload.get("visibility") == "private")
            self.repos[(repo_type, repo_id)] = repo
            initial = {".gitattributes": StoredFile(_GITATTRIBUTES, lfs=False)}
            self._new_commit(repo, "main", initial, "initial commit", "")
            return 200, {"url": self._repo_url(repo), "name": repo_id, "id": repo_id}

    def repo_info(self, auth: str | None, repo_type: str, repo_id: str, revision: str) -> dict[str, Any]:
        authenticated = self._check_token(auth, required=False)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, authenticated)
            oid = repo.resolve(revision)
            if oid is None:
                raise Reply(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            files = repo.commits[oid].files
            return {
                "id": repo_id,
                "author": repo_id.split("/")[0],
                "sha": oid,
                "private": repo.private,
                "siblings": [{"rfilename": p, "size": len(f.content)} for p, f in sorted(files.items())],
                "tags": [],
            }

    def files_for_download(
        self, auth: str | None, repo_type: str, repo_id: str, revision: str
    ) -> tuple[str, dict[str, tuple[bytes, bool]]]:
        """The commit a revision names and its files (content, lfs), for the read routes."""
        authenticated = self._check_token(auth, required=False)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, authenticated)
            oid = repo.resolve(revision)
            if oid is None:
                raise Reply(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            return oid, {p: (f.content, f.lfs) for p, f in repo.commits[oid].files.items()}

    def refs(self, auth: str | None, repo_type: str, repo_id: str) -> dict[str, Any]:
        authenticated = self._check_token(auth, required=False)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, authenticated)
            return {
                "branches": [
                    {"name": n, "ref": f"refs/heads/{n}", "targetCommit": oid}
                    for n, oid in sorted(repo.branches.items())
                ],
                "converts": [],
                "tags": [
                    {"name": n, "ref": f"refs/tags/{n}", "targetCommit": oid}
                    for n, oid in sorted(repo.tags.items())
                ],
                "pullRequests": [],
            }

    def validate_yaml(self, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        content = payload.get("content", "")
        if content.startswith("---"):
            import yaml

            front, _, _ = content[3:].partition("\n---")
            try:
                yaml.safe_load(front)
            except yaml.YAMLError as exc:
                return 400, {"errors": [{"message": f"invalid YAML: {exc}"}], "warnings": []}
        return 200, {"errors": [], "warnings": []}

    def preupload(
        self, auth: str | None, repo_type: str, repo_id: str, revision: str, payload: dict[str, Any]
    ) -> dict[str, Any]:
        self._check_token(auth, required=True)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, True)
            head = repo.branches.get(revision)
            current = repo.commits[head].files if head else {}
            answers = []
            for item in payload["files"]:
                path = item["path"]
                mode = "lfs" if path.endswith(self.lfs_suffixes) and self.lfs_suffixes else "regular"
                existing = current.get(path)
                answers.append(
                    {
                        "path": path,
                        "uploadMode": mode,
                        "shouldIgnore": False,
                        "oid": existing.oid
                        if existing is not None and existing.lfs == (mode == "lfs")
                        else None,
                    }
                )
            return {"files": answers, "commitOid": head}

    def lfs_batch(self, auth: str | None, repo_type: str, repo_id: str, payload: dict[str, Any]) -> dict:
        self._check_token(auth, required=True)
        if payload.get("operation") != "upload" or "basic" not in payload.get("transfers", ["basic"]):
            raise Reply(422, "only the basic upload transfer is implemented")
        with self._lock:
            self._repo_or_404(repo_type, repo_id, True)
            objects = []
            for obj in payload["objects"]:
                entry: dict[str, Any] = {"oid": obj["oid"], "size": obj["size"], "authenticated": True}
                if obj["oid"] not in self.lfs_objects:
                    entry["actions"] = {
                        "upload": {"href": f"{self.url}/_lfs/{obj['oid']}", "header": {}},
                        "verify": {"href": f"{self.url}/_lfs/{obj['oid']}/verify", "header": {}},
                    }
                objects.append(entry)
            return {"transfer": "basic", "objects": objects, "hash_algo": "sha256"}

    def lfs_upload(self, oid: str, body: bytes) -> None:
        if hashlib.sha256(body).hexdigest() != oid:
            raise Reply(400, "content does not match its oid")
        with self._lock:
            self.lfs_objects[oid] = body

    def lfs_verify(self, auth: str | None, oid: str, payload: dict[str, Any]) -> None:
        self._check_token(auth, required=True)
        with self._lock:
            stored = self.lfs_objects.get(oid)
        if stored is None or payload.get("oid") != oid or payload.get("size") != len(stored):
            raise Reply(404, f"LFS object {oid} not uploaded")

    def commit(self, auth: str | None, repo_type: str, repo_id: str, branch: str, body: bytes) -> dict:
        self._check_token(auth, required=True)
        lines = [json.loads(line) for line in body.decode("utf-8").splitlines() if line.strip()]
        if not lines or lines[0].get("key") != "header":
            raise Reply(400, "commit payload must start with a header line")
        header = lines[0]["value"]
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, True)
            if branch not in repo.branches:
                raise Reply(404, f"Invalid rev id: {branch}", "RevisionNotFound")
            parent = header.get("parentCommit")
            if parent is not None and parent != repo.branches[branch]:
                raise Reply(412, "A commit has happened since the parent commit")
            files = dict(repo.commits[repo.branches[branch]].files)
            for line in lines[1:]:
                key, value = line["key"], line["value"]
                if key == "file":
                    if value.get("encoding") != "base64":
                        raise Reply(400, "only base64 file content is implemented")
                    files[value["path"]] = StoredFile(base64.b64decode(value["content"]), lfs=False)
                elif key == "lfsFile":
                    content = self.lfs_objects.get(value["oid"])
                    if content is None:
                        raise Reply(422, f"LFS object {value['oid']} was never uploaded")
                    files[value["path"]] = StoredFile(content, lfs=True)
                elif key == "deletedFile":
                    files.pop(value["path"], None)
                elif key == "deletedFolder":
                    prefix = value["path"].rstrip("/") + "/"
                    files = {p: f for p, f in files.items() if not p.startswith(prefix)}
                else:
                    raise Reply(400, f"unknown commit line {key!r}")
            commit = self._new_commit(repo, branch, files, header["summary"], header.get("description", ""))
            return {
                "success": True,
                "commitOid": commit.oid,
                "commitUrl": f"{self._repo_url(repo)}/commit/{commit.oid}",
                "hookOutput": "",
                "pullRequestUrl": None,
            }

    def create_tag(
        self, auth: str | None, repo_type: str, repo_id: str, revision: str, payload: dict[str, Any]
    ) -> None:
        self._check_token(auth, required=True)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, True)
            oid = repo.resolve(revision)
            if oid is None:
                raise Reply(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            tag = payload["tag"]
            if tag in repo.tags or tag in repo.branches:
                raise Reply(409, f"Tag {tag} already exists")
            repo.tags[tag] = oid

    def delete_tag(self, auth: str | None, repo_type: str, repo_id: str, tag: str) -> None:
        self._check_token(auth, required=True)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, True)
            if repo.tags.pop(tag, None) is None:
                raise Reply(404, f"Invalid rev id: {tag}", "RevisionNotFound")
