"""Publishing a release folder to the Hugging Face Hub as one dataset commit tagged with its version.

What goes where (one commit, so the tag names the whole release):

- `hf/` becomes the repo root: its README.md (the dataset card, whose YAML declares the configs; its
  `<org>/<name>` placeholders become the real repo id) and `data/<config>/*.parquet` are where
  `load_dataset(repo_id, config, revision=version)` looks, and the card's chart keeps its relative path;
  the `save_to_disk` arrow copy in `hf/` (for local `load_from_disk`) is not uploaded: the Parquet files
  are the data;
- everything else in the version folder (the Parquet tables, `instructions/`, `validation/`,
  `manifest.json` …) goes under `release/` with its layout unchanged, so the tag also carries the full
  build for anyone who wants the tables or the lm-eval task files.

huggingface_hub's HTTP client has no timeout and a hanging network blocks its calls forever, so this
module keeps its own clock: a preflight GET /api/whoami-v2 with a short explicit timeout, then
create_repo / upload_folder / create_tag in a daemon worker thread that is abandoned at the deadline
(the thread may linger in the background until its connection closes; the process can still exit).
The token is never printed or logged and is masked out of every message.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from injectors.llm.masking import mask_secret
from release.gate import UnvalidatedReleaseError, check_publishable
from release.hub_errors import (
    HubAuthError,
    HubRefusedError,
    HubUnreachableError,
    MissingTokenError,
    PublishError,
    PublishTimeoutError,
    TagExistsError,
)
from release.hub_layout import PUBLIC_HUB
from release.hub_plan import (
    EXTRA_PREFIX,
    PlannedFile,
    _stage,
    plan_upload,
    read_version,
    resolve_release_folder,
    write_published_card,
)

if TYPE_CHECKING:
    from huggingface_hub import HfApi


log = logging.getLogger(__name__)


DEFAULT_ENDPOINT = PUBLIC_HUB


DEFAULT_DEADLINE_S = 900.0


DEFAULT_PREFLIGHT_S = 10.0


REPO_TYPE = "dataset"


_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")


T = TypeVar("T")


@dataclass(frozen=True)
class PublishResult:
    repo_id: str
    version: str
    endpoint: str
    files: tuple[PlannedFile, ...]
    dry_run: bool
    private: bool
    repo_url: str | None = None
    commit_oid: str | None = None
    commit_url: str | None = None
    replaced_tag_commit: str | None = None  # where the tag pointed before force=True moved it

    @property
    def total_bytes(self) -> int:
        return sum(f.size for f in self.files)


class _Worker(threading.Thread, Generic[T]):
    """A daemon thread running one blocking call, so the caller can stop waiting for it."""

    def __init__(self, call: Callable[[_Worker[T]], T], name: str) -> None:
        super().__init__(name=name, daemon=True)  # daemon: a hung call never keeps the process alive
        self._call = call
        self.result: T | None = None
        self.error: BaseException | None = None
        self.step = "starting"

    def set_step(self, step: str) -> None:
        self.step = step
        log.info("publish: %s", step)

    def run(self) -> None:
        try:
            self.result = self._call(self)
        except BaseException as exc:  # handed to the waiting thread, which decides what to say
            self.error = exc


def _run_bounded(call: Callable[[_Worker[T]], T], seconds: float, name: str) -> _Worker[T]:
    """Run call in a worker and wait at most `seconds`; the caller checks is_alive() for a timeout."""
    worker: _Worker[T] = _Worker(call, name)
    worker.start()
    worker.join(timeout=max(seconds, 0.0))
    return worker


class _Masker:
    """Replaces the token in any text that may reach a user or a log."""

    def __init__(self, token: str | None) -> None:
        self._token = token or ""

    def __call__(self, text: str) -> str:
        return mask_secret(text, self._token)


def _resolve_endpoint(endpoint: str | None) -> str:
    """endpoint, else HF_ENDPOINT read now (huggingface_hub reads it only at import time), else the Hub."""
    value = (endpoint or os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")
    if not value.startswith(("http://", "https://")):
        raise PublishError(f"Hub endpoint {value!r} is not an http(s) URL")
    return value


def _resolve_token(token: str | None, seconds: float) -> str:
    """token, else huggingface_hub's own lookup (HF_TOKEN, then the stored login), bounded in time."""
    if token:
        return token
    from huggingface_hub import get_token

    worker = _run_bounded(lambda _w: get_token(), seconds, "gbtbench-token")
    if worker.is_alive():  # refreshing a stored OAuth / OIDC login goes over the network
        raise HubUnreachableError(f"reading the stored Hugging Face login took more than {seconds:g} s")
    if worker.error is not None:  # e.g. a failed OIDC exchange; its text is not shown, it may hold secrets
        raise MissingTokenError(f"could not read the Hugging Face login ({type(worker.error).__name__})")
    if not worker.result:
        raise MissingTokenError(
            "no Hugging Face token: set HF_TOKEN or run `hf auth login` (publishing needs write access)"
        )
    return worker.result


def _preflight(endpoint: str, token: str, seconds: float, mask: _Masker) -> str:
    """GET /api/whoami-v2 with an explicit timeout: a dead network or a bad token fails fast and clearly."""
    from huggingface_hub.utils import build_hf_headers, get_session

    url = f"{endpoint}/api/whoami-v2"
    worker = _run_bounded(
        lambda _w: get_session().get(url, headers=build_hf_headers(token=token), timeout=seconds),
        seconds + 0.5,
        "gbtbench-preflight",
    )
    where = f"Hub not reachable at {endpoint} within {seconds:g} s"
    if worker.is_alive():
        raise HubUnreachableError(f"{where}: no answer to GET /api/whoami-v2")
    if worker.error is not None:
        reason = mask(str(worker.error)) or "no answer"
        raise HubUnreachableError(f"{where}: {type(worker.error).__name__}: {reason}")
    response = worker.result
    assert response is not None
    if response.status_code in (401, 403):
        raise HubAuthError(
            f"the Hub at {endpoint} rejected the token (HTTP {response.status_code}): "
            "set HF_TOKEN to a valid write token or run `hf auth login`"
        )
    if response.status_code == 429:
        raise HubRefusedError(
            f"the Hub at {endpoint} rate-limited GET /api/whoami-v2 (HTTP 429): retry later"
        )
    if response.status_code != 200:
        body = mask(response.text[:200].strip())
        raise HubRefusedError(
            f"the Hub at {endpoint} answered HTTP {response.status_code} to GET /api/whoami-v2: {body}"
        )
    try:
        who: dict[str, Any] = response.json()
    except ValueError:
        raise HubRefusedError(
            f"{endpoint}/api/whoami-v2 did not answer JSON: is this a Hub endpoint?"
        ) from None
    role = ((who.get("auth") or {}).get("accessToken") or {}).get("role")
    if role == "read":
        raise HubAuthError(
            f"the token for {endpoint} is read-only: publishing needs a token with write access"
        )
    return str(who.get("name", "?"))


@dataclass(frozen=True)
class _Pushed:
    repo_url: str
    commit_oid: str
    commit_url: str
    replaced_tag_commit: str | None


def _push(
    api: HfApi,
    worker: _Worker[_Pushed],
    *,
    staging: Path,
    repo_id: str,
    version: str,
    private: bool,
    force: bool,
    n_files: int,
    total_bytes: int,
) -> _Pushed:
    """The Hub side of publish, in order: tag check, repo, one commit with every file, tag on that commit."""
    from huggingface_hub.errors import RepositoryNotFoundError

    worker.set_step(f"checking the tags of datasets/{repo_id}")
    try:
        tags = {t.name: t.target_commit for t in api.list_repo_refs(repo_id, repo_type=REPO_TYPE).tags}
    except RepositoryNotFoundError:
        tags = {}
    old = tags.get(version)
    if old is not None and not force:
        raise TagExistsError(
            f"tag {version} already exists in datasets/{repo_id} (commit {old[:12]}): a published version is "
            "immutable; build a new version, or pass --force to move the tag"
        )
    worker.set_step(f"creating the dataset repo {repo_id}")
    repo_url = api.create_repo(repo_id, repo_type=REPO_TYPE, private=True if private else None, exist_ok=True)
    if private:
        worker.set_step(f"checking that {repo_id} is private")
        if not api.dataset_info(repo_id).private:
            raise PublishError(
                f"datasets/{repo_id} already exists and is public: --private cannot change that; "
                "make it private on the Hub first, or publish without --private"
            )
    worker.set_step(f"uploading {n_files} files ({total_bytes:,} bytes)")
    commit = api.upload_folder(
        repo_id=repo_id,
        folder_path=staging,
        repo_type=REPO_TYPE,
        commit_message=f"Release {version}",
        commit_description=(
            f"gbtbench release {version}: {n_files} files, {total_bytes:,} bytes "
            f"(hf/ at the root, the rest of the build under {EXTRA_PREFIX}/)."
        ),
    )
    if old == commit.oid:  # forced again with unchanged files: the tag already names this commit
        return _Pushed(str(repo_url), commit.oid, commit.commit_url, None)
    if old is not None:
        worker.set_step(f"removing the old tag {version}")
        api.delete_tag(repo_id, tag=version, repo_type=REPO_TYPE)
    worker.set_step(f"tagging commit {commit.oid[:12]} as {version}")
    api.create_tag(
        repo_id,
        tag=version,
        revision=commit.oid,
        repo_type=REPO_TYPE,
        tag_message=f"gbtbench release {version}",
    )
    return _Pushed(str(repo_url), commit.oid, commit.commit_url, old)


def _explain(
    error: BaseException, step: str, endpoint: str, repo_id: str, version: str, mask: _Masker
) -> PublishError:
    """A huggingface_hub / network exception as a PublishError saying what failed, token masked."""
    if isinstance(error, PublishError):
        return error
    import httpx2  # huggingface_hub 2.x's HTTP client (a dependency of the pinned huggingface-hub)
    from huggingface_hub.errors import HfHubHTTPError

    if isinstance(error, HfHubHTTPError) and error.response is not None:
        status = error.response.status_code
        detail = mask(error.server_message or str(error).strip().splitlines()[0])
        if status in (401, 403):
            return HubAuthError(
                f"the Hub at {endpoint} refused {step} (HTTP {status}): the token cannot write to "
                f"datasets/{repo_id} ({detail})"
            )
        if status == 409 and step.startswith("tagging"):
            return TagExistsError(
                f"tag {version} was created in datasets/{repo_id} by someone else meanwhile"
            )
        return HubRefusedError(f"the Hub at {endpoint} refused {step} (HTTP {status}): {detail}")
    if isinstance(error, httpx2.TransportError):
        return HubUnreachableError(
            f"lost the connection to the Hub at {endpoint} while {step}: {type(error).__name__}: "
            f"{mask(str(error)) or 'no detail'}"
        )
    return PublishError(f"{step} failed: {type(error).__name__}: {mask(str(error))}")


def preview_card(output_dir: Path, repo_id: str, dest_dir: Path, *, endpoint: str | None = None) -> Path:
    """Write the release's card into dest_dir/README.md exactly as publish would upload it; contacts
    nothing. Returns the file written."""
    if not _REPO_ID.match(repo_id):
        raise PublishError(f"repo id {repo_id!r} is not of the form ORG/NAME")
    folder = resolve_release_folder(output_dir)
    card = next((f for f in plan_upload(folder) if f.path_in_repo == "README.md"), None)
    if card is None:
        raise PublishError(f"{folder}: no dataset card (hf/README.md) to preview")
    dest = Path(dest_dir) / "README.md"
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_published_card(card.local_path, dest, repo_id, _resolve_endpoint(endpoint))
    except OSError as exc:
        raise PublishError(f"{dest}: cannot write the card preview: {exc.strerror or exc}") from None
    return dest


def publish(
    output_dir: Path,
    repo_id: str,
    *,
    private: bool = False,
    dry_run: bool = False,
    force: bool = False,
    token: str | None = None,
    endpoint: str | None = None,
    deadline_s: float = DEFAULT_DEADLINE_S,
    preflight_s: float = DEFAULT_PREFLIGHT_S,
    warn: Callable[[str], None] = log.warning,
) -> PublishResult:
    """Upload a release folder as one commit of dataset repo_id and tag it with the manifest's version.

    dry_run plans and returns the file list without contacting anything. Without private, a new repo gets
    the namespace's default visibility. Raises a PublishError subclass (message safe to show) on failure.
    """
    if not _REPO_ID.match(repo_id):
        raise PublishError(f"repo id {repo_id!r} is not of the form ORG/NAME")
    folder = resolve_release_folder(output_dir)
    version = read_version(folder)
    try:
        check_publishable(folder, force=force, warn=warn)
    except UnvalidatedReleaseError as exc:
        raise PublishError(str(exc)) from None
    files = plan_upload(folder)
    where = _resolve_endpoint(endpoint)
    plan = PublishResult(repo_id, version, where, files, dry_run=True, private=private)
    if dry_run:
        return plan

    started = time.monotonic()

    def remaining() -> float:
        return deadline_s - (time.monotonic() - started)

    token = _resolve_token(token, min(preflight_s, remaining()))
    mask = _Masker(token)
    user = _preflight(where, token, max(min(preflight_s, remaining()), 0.1), mask)
    log.info(
        "publish: %s as %s to %s/datasets/%s: %d files, %d bytes",
        version, user, where, repo_id, len(files), plan.total_bytes,
    )  # fmt: skip

    from huggingface_hub import HfApi

    api = HfApi(endpoint=where, token=token, library_name="gbtbench", library_version=_package_version())
    staging = Path(tempfile.mkdtemp(prefix="gbtbench-publish-"))
    try:
        _stage(files, staging, repo_id, where)
        worker = _run_bounded(
            lambda w: _push(
                api,
                w,
                staging=staging,
                repo_id=repo_id,
                version=version,
                private=private,
                force=force,
                n_files=len(files),
                total_bytes=plan.total_bytes,
            ),
            remaining(),
            "gbtbench-publish",
        )
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # removes the links, never the release files
    if worker.is_alive():
        raise PublishTimeoutError(
            f"publishing {version} to {where}/datasets/{repo_id} did not finish within {deadline_s:g} s "
            f"(stuck while {worker.step}); huggingface_hub has no network timeout, so its thread may "
            "linger in the background until the connection closes. The tag is created last: run publish "
            "again once the Hub answers (what already reached the Hub is not uploaded again)."
        )
    if worker.error is not None:
        raise _explain(worker.error, worker.step, where, repo_id, version, mask)
    pushed = worker.result
    assert pushed is not None
    log.info("publish: %s is at %s (commit %s)", version, pushed.repo_url, pushed.commit_oid)
    return PublishResult(
        repo_id,
        version,
        where,
        files,
        dry_run=False,
        private=private,
        repo_url=pushed.repo_url,
        commit_oid=pushed.commit_oid,
        commit_url=pushed.commit_url,
        replaced_tag_commit=pushed.replaced_tag_commit,
    )


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gbtbench")
    except PackageNotFoundError:
        return "unknown"
