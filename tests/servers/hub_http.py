"""The local Hub's HTTP side: which route a request takes, and the handler that reads it and answers.

The handler records every request on the hub, applies the faults a test set (an error status, or a hang),
and calls the hub's method for the route (see servers/hub.py for the protocol and the repository logic).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from tests.servers import hub_files
from tests.servers.hub_files import PATHS_INFO, RESOLVE, TREE

if TYPE_CHECKING:
    from tests.servers.hub import LocalHub

MAX_BODY_BYTES = 256 * 1024 * 1024  # a test never sends more; protects the test process
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


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    route: str
    has_auth: bool


class Reply(Exception):
    """Raised inside a handler to answer with an error status (the Hub's JSON error shape)."""

    def __init__(self, status: int, message: str, error_code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_code = error_code


def route_of(method: str, path: str) -> tuple[str, dict[str, str]]:
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


class HubHandler(BaseHTTPRequestHandler):
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
            raise Reply(413, "request body too large for the local hub")
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
                raise Reply(413, "request body too large for the local hub")
            yield self.rfile.read(size)
            self.rfile.readline(1024)

    def _handle(self, method: str) -> None:
        path = urlsplit(self.path).path
        route, parts = route_of(method, path)
        auth = self.headers.get("Authorization")
        fault = self.hub._record(RecordedRequest(method, path, route, auth is not None))
        try:
            body = self._read_body()
            if fault is not None and fault.status is None:
                self.hub._wait_released()
                self.close_connection = True
                return
            if fault is not None and fault.status is not None:
                raise Reply(fault.status, fault.message)
            if route == RESOLVE:
                self._send_file(method, parts, auth)
                return
            status, answer = self._dispatch(route, parts, auth, body)
        except Reply as reply:
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
        if route in (TREE, PATHS_INFO):
            return self._listing(route, parts, auth, body)
        return self._upload(route, parts, auth, body, payload)

    def _upload(
        self, route: str, parts: dict[str, str], auth: str | None, body: bytes, payload: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """The routes that write: the upload's preflight, LFS, the commit, the tags."""
        hub = self.hub
        repo_type, repo_id, rev = parts.get("repo_type", ""), parts.get("repo_id", ""), parts.get("rev", "")
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
        raise Reply(404, f"the local hub does not implement {self.command} {self.path}")

    def _listing(
        self, route: str, parts: dict[str, str], auth: str | None, body: bytes
    ) -> tuple[int, dict[str, Any]]:
        """A repo's tree, or the information on the paths the body names."""
        _, files = self.hub.files_for_download(auth, parts["repo_type"], parts["repo_id"], parts["rev"])
        if route == PATHS_INFO:
            return 200, hub_files.paths_info(files, body)  # type: ignore[return-value]
        try:
            entries = hub_files.tree_entries(files, parts["path"], urlsplit(self.path).query)
        except LookupError as exc:
            raise Reply(404, str(exc), "EntryNotFound") from None
        return 200, entries  # type: ignore[return-value]

    def _send_file(self, method: str, parts: dict[str, str], auth: str | None) -> None:
        """A resolve answer: metadata headers, and for GET the bytes (or the requested range)."""
        commit, files = self.hub.files_for_download(auth, parts["repo_type"], parts["repo_id"], parts["rev"])
        if parts["path"] not in files:
            raise Reply(404, f"{parts['path']} does not exist at {parts['rev']}", "EntryNotFound")
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
