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
server stops.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

from servers import hub_files
from servers.hub_files import PATHS_INFO, RESOLVE, TREE

MAX_BODY_BYTES = 256 * 1024 * 1024  # a test never sends more; protects the test process
HANG_LIMIT_S = 120.0  # a hanging handler gives up after this even if the server is never stopped
IDLE_CONNECTION_S = 30.0  # keep-alive sockets left open by a client are closed after this

# Route names, for fail() / hang() and for assertions on recorded requests.
WHOAMI = "whoami"
AGENT_HARNESSES = "agent_harnesses"
CREATE_REPO = "create_repo"
REPO_INFO = "repo_info"
REFS = "refs"
VALIDATE_YAML = "validate_yaml"
PREUPLOAD = "preupload"
LFS_BATCH = "lfs_batch"
LFS_UPLOAD = "lfs_upload"
LFS_VERIFY = "lfs_verify"
COMMIT = "commit"
CREATE_TAG = "create_tag"
DELETE_TAG = "delete_tag"
UNKNOWN = "unknown"

_API_REPO = re.compile(r"^/api/(?P<type>models|datasets|spaces)/(?P<ns>[^/]+)/(?P<name>[^/]+)(?P<rest>/.*)?$")
_LFS_BATCH = re.compile(
    r"^/(?:(?P<prefix>datasets|spaces)/)?(?P<ns>[^/]+)/(?P<name>[^/]+)\.git/info/lfs/objects/batch$"
)
_LFS_OBJECT = re.compile(r"^/_lfs/(?P<oid>[0-9a-f]{64})(?P<verify>/verify)?$")
_URL_PREFIX = {"model": "", "dataset": "datasets/", "space": "spaces/"}
_GITATTRIBUTES = (
    b"*.parquet filter=lfs diff=lfs merge=lfs -text\n*.arrow filter=lfs diff=lfs merge=lfs -text\n"
)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    route: str
    has_auth: bool


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


@dataclass(frozen=True)
class _Fault:
    status: int | None  # None: hang
    message: str


class _Reply(Exception):
    """Raised inside a handler to answer with an error status (the Hub's JSON error shape)."""

    def __init__(self, status: int, message: str, error_code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_code = error_code


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
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
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
                raise _Reply(401, "Invalid username or password.")
            return False
        scheme, _, token = authorization.partition(" ")
        valid = scheme.lower() == "bearer" and bool(token) and (self.tokens is None or token in self.tokens)
        if not valid:
            raise _Reply(401, "Invalid credentials in Authorization header")
        return True

    def _repo_or_404(self, repo_type: str, repo_id: str, authenticated: bool) -> HubRepo:
        repo = self.repos.get((repo_type, repo_id))
        if repo is None or (repo.private and not authenticated):
            raise _Reply(404, "Repository not found", "RepoNotFound")
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
            raise _Reply(400, f"invalid repo type {repo_type!r}")
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
                raise _Reply(404, f"Invalid rev id: {revision}", "RevisionNotFound")
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
                raise _Reply(404, f"Invalid rev id: {revision}", "RevisionNotFound")
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
            raise _Reply(422, "only the basic upload transfer is implemented")
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
            raise _Reply(400, "content does not match its oid")
        with self._lock:
            self.lfs_objects[oid] = body

    def lfs_verify(self, auth: str | None, oid: str, payload: dict[str, Any]) -> None:
        self._check_token(auth, required=True)
        with self._lock:
            stored = self.lfs_objects.get(oid)
        if stored is None or payload.get("oid") != oid or payload.get("size") != len(stored):
            raise _Reply(404, f"LFS object {oid} not uploaded")

    def commit(self, auth: str | None, repo_type: str, repo_id: str, branch: str, body: bytes) -> dict:
        self._check_token(auth, required=True)
        lines = [json.loads(line) for line in body.decode("utf-8").splitlines() if line.strip()]
        if not lines or lines[0].get("key") != "header":
            raise _Reply(400, "commit payload must start with a header line")
        header = lines[0]["value"]
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, True)
            if branch not in repo.branches:
                raise _Reply(404, f"Invalid rev id: {branch}", "RevisionNotFound")
            parent = header.get("parentCommit")
            if parent is not None and parent != repo.branches[branch]:
                raise _Reply(412, "A commit has happened since the parent commit")
            files = dict(repo.commits[repo.branches[branch]].files)
            for line in lines[1:]:
                key, value = line["key"], line["value"]
                if key == "file":
                    if value.get("encoding") != "base64":
                        raise _Reply(400, "only base64 file content is implemented")
                    files[value["path"]] = StoredFile(base64.b64decode(value["content"]), lfs=False)
                elif key == "lfsFile":
                    content = self.lfs_objects.get(value["oid"])
                    if content is None:
                        raise _Reply(422, f"LFS object {value['oid']} was never uploaded")
                    files[value["path"]] = StoredFile(content, lfs=True)
                elif key == "deletedFile":
                    files.pop(value["path"], None)
                elif key == "deletedFolder":
                    prefix = value["path"].rstrip("/") + "/"
                    files = {p: f for p, f in files.items() if not p.startswith(prefix)}
                else:
                    raise _Reply(400, f"unknown commit line {key!r}")
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
                raise _Reply(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            tag = payload["tag"]
            if tag in repo.tags or tag in repo.branches:
                raise _Reply(409, f"Tag {tag} already exists")
            repo.tags[tag] = oid

    def delete_tag(self, auth: str | None, repo_type: str, repo_id: str, tag: str) -> None:
        self._check_token(auth, required=True)
        with self._lock:
            repo = self._repo_or_404(repo_type, repo_id, True)
            if repo.tags.pop(tag, None) is None:
                raise _Reply(404, f"Invalid rev id: {tag}", "RevisionNotFound")


def _route(method: str, path: str) -> tuple[str, dict[str, str]]:
    """The route name and its captured parts (repo_type, repo_id, rev, oid) for a request path."""
    if path == "/api/whoami-v2" and method == "GET":
        return WHOAMI, {}
    if path == "/api/agent-harnesses" and method == "GET":
        return AGENT_HARNESSES, {}
    if path == "/api/repos/create" and method == "POST":
        return CREATE_REPO, {}
    if path == "/api/validate-yaml" and method == "POST":
        return VALIDATE_YAML, {}
    if m := _LFS_OBJECT.match(path):
        if m["verify"] and method == "POST":
            return LFS_VERIFY, {"oid": m["oid"]}
        if not m["verify"] and method == "PUT":
            return LFS_UPLOAD, {"oid": m["oid"]}
    if (m := _LFS_BATCH.match(path)) and method == "POST":
        repo_type = {"datasets": "dataset", "spaces": "space", None: "model"}[m["prefix"]]
        return LFS_BATCH, {"repo_type": repo_type, "repo_id": f"{unquote(m['ns'])}/{unquote(m['name'])}"}
    if method in ("GET", "HEAD") and (found := hub_files.resolve_route(path)) is not None:
        return RESOLVE, found
    if m := _API_REPO.match(path):
        parts = {"repo_type": m["type"][:-1], "repo_id": f"{unquote(m['ns'])}/{unquote(m['name'])}"}
        rest = m["rest"] or ""
        verb, _, arg = rest.lstrip("/").partition("/")
        if (verb, method) in (("tree", "GET"), ("paths-info", "POST")) and arg:
            rev, in_repo = hub_files.split_revision_path(arg)
            return (TREE if verb == "tree" else PATHS_INFO), {**parts, "rev": rev, "path": in_repo}
        arg = unquote(arg)
        table = {
            ("", "GET"): REPO_INFO,
            ("revision", "GET"): REPO_INFO,
            ("refs", "GET"): REFS,
            ("preupload", "POST"): PREUPLOAD,
            ("commit", "POST"): COMMIT,
            ("tag", "POST"): CREATE_TAG,
            ("tag", "DELETE"): DELETE_TAG,
        }
        route = table.get((verb, method))
        if route is not None and (verb in ("", "refs") or arg):
            return route, {**parts, "rev": arg or "main"}
    return UNKNOWN, {}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = IDLE_CONNECTION_S

    @property
    def hub(self) -> LocalHub:
        return self.server.hub  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default access log: tests read hub.requests instead."""

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def do_HEAD(self) -> None:
        self._handle("HEAD")

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            return b"".join(self._chunks())
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            raise _Reply(413, "request body too large for the local hub")
        return self.rfile.read(length)

    def _chunks(self) -> Iterator[bytes]:
        total = 0
        while True:  # bounded: every chunk adds to total, capped by MAX_BODY_BYTES
            size = int(self.rfile.readline(1024).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return
            total += size
            if total > MAX_BODY_BYTES:
                raise _Reply(413, "request body too large for the local hub")
            yield self.rfile.read(size)
            self.rfile.readline(1024)

    def _handle(self, method: str) -> None:
        path = urlsplit(self.path).path
        route, parts = _route(method, path)
        auth = self.headers.get("Authorization")
        fault = self.hub._record(RecordedRequest(method, path, route, auth is not None))
        try:
            body = self._read_body()
            if fault is not None and fault.status is None:
                self.hub._wait_released()
                self.close_connection = True
                return
            if fault is not None and fault.status is not None:
                raise _Reply(fault.status, fault.message)
            if route == RESOLVE:
                self._send_file(method, parts, auth)
                return
            status, answer = self._dispatch(route, parts, auth, body)
        except _Reply as reply:
            self._send(reply.status, {"error": reply.message}, reply.error_code, reply.message)
            return
        except Exception as exc:  # a bug in the stand-in: answer 500 so the test shows it
            self._send(500, {"error": f"local hub error: {type(exc).__name__}: {exc}"})
            return
        self._send(status, answer)

    def _dispatch(
        self, route: str, parts: dict[str, str], auth: str | None, body: bytes
    ) -> tuple[int, dict[str, Any]]:
        hub = self.hub
        payload: dict[str, Any] = {}
        if body and route not in (COMMIT, LFS_UPLOAD, PATHS_INFO):
            payload = json.loads(body)
        repo_type, repo_id, rev = parts.get("repo_type", ""), parts.get("repo_id", ""), parts.get("rev", "")
        if route == WHOAMI:
            return 200, hub.whoami(auth)
        if route == AGENT_HARNESSES:  # huggingface_hub fetches it once per process unless telemetry is off
            return 200, {"standardEnvVars": [], "harnesses": {}}
        if route == CREATE_REPO:
            return hub.create_repo(auth, payload)
        if route == VALIDATE_YAML:
            return hub.validate_yaml(payload)
        if route == REPO_INFO:
            return 200, hub.repo_info(auth, repo_type, repo_id, rev)
        if route == REFS:
            return 200, hub.refs(auth, repo_type, repo_id)
        if route == PREUPLOAD:
            return 200, hub.preupload(auth, repo_type, repo_id, rev, payload)
        if route == LFS_BATCH:
            return 200, hub.lfs_batch(auth, repo_type, repo_id, payload)
        if route == LFS_UPLOAD:
            hub.lfs_upload(parts["oid"], body)
            return 200, {}
        if route == LFS_VERIFY:
            hub.lfs_verify(auth, parts["oid"], payload)
            return 200, {}
        if route == COMMIT:
            return 200, hub.commit(auth, repo_type, repo_id, rev, body)
        if route == CREATE_TAG:
            hub.create_tag(auth, repo_type, repo_id, rev, payload)
            return 200, {}
        if route == DELETE_TAG:
            hub.delete_tag(auth, repo_type, repo_id, rev)
            return 200, {}
        if route in (TREE, PATHS_INFO):
            _, files = hub.files_for_download(auth, repo_type, repo_id, rev)
            if route == PATHS_INFO:
                return 200, hub_files.paths_info(files, body)  # type: ignore[return-value]
            try:
                entries = hub_files.tree_entries(files, parts["path"], urlsplit(self.path).query)
            except LookupError as exc:
                raise _Reply(404, str(exc), "EntryNotFound") from None
            return 200, entries  # type: ignore[return-value]
        raise _Reply(404, f"the local hub does not implement {self.command} {self.path}")

    def _send_file(self, method: str, parts: dict[str, str], auth: str | None) -> None:
        """A resolve answer: metadata headers, and for GET the bytes (or the requested range)."""
        commit, files = self.hub.files_for_download(auth, parts["repo_type"], parts["repo_id"], parts["rev"])
        if parts["path"] not in files:
            raise _Reply(404, f"{parts['path']} does not exist at {parts['rev']}", "EntryNotFound")
        content, lfs = files[parts["path"]]
        span = hub_files.byte_range(self.headers.get("Range"), len(content)) if method == "GET" else None
        data = content if span is None else content[span[0] : span[1] + 1]
        self.send_response(200 if span is None else 206)
        for name, value in hub_files.file_headers(commit, content, lfs).items():
            self.send_header(name, value)
        if span is not None:
            self.send_header("Content-Range", f"bytes {span[0]}-{span[1]}/{len(content)}")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if method == "GET":
            self.wfile.write(data)

    def _send(
        self, status: int, answer: dict[str, Any], error_code: str | None = None, message: str | None = None
    ) -> None:
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if error_code is not None:
            self.send_header("X-Error-Code", error_code)
        if message is not None:
            self.send_header("X-Error-Message", message)
        self.end_headers()
        if self.command != "HEAD":  # a HEAD answer has no body, or the connection's next answer breaks
            self.wfile.write(data)
