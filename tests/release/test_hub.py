"""Publishing a release to a Hub on 127.0.0.1: what arrives, how it is tagged, and how failures read."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
import time
import traceback
from pathlib import Path

import huggingface_hub.constants
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from release.hub import publish
from release.hub_errors import (
    HubAuthError,
    HubRefusedError,
    HubUnreachableError,
    PublishError,
    PublishTimeoutError,
    ReleaseFolderError,
    TagExistsError,
)
from tests.servers.hub import HANG_LIMIT_S, LocalHub
from tests.servers.hub_http import COMMIT, CREATE_REPO, LFS_BATCH, LFS_UPLOAD, PREUPLOAD, WHOAMI

ROOT = Path(__file__).resolve().parents[2]
SENTINEL = "hf_SENTINEL_never_print_me_8d1f0c2a"
REPO = "gbt-org/gbt-bench"
# A hung route holds its request for HANG_LIMIT_S (120 s): a publish that waited for the Hub would take that
# long, one that gave up on its own takes its timeout plus whatever a busy machine adds (CI once added 7 s).
GAVE_UP_S = HANG_LIMIT_S / 4
CARD = """---
license: cc-by-4.0
configs:
- config_name: documents
  data_files:
  - split: test
    path: data/documents.parquet
- config_name: instances
  data_files:
  - split: test
    path: data/instances.parquet
---
# GB/T drafting-error benchmark v0.0.1

load_dataset("<org>/<name>", "instances", revision="v0.0.1")
"""


def write_release(outputs: Path, version: str = "v0.0.1", note: str = "") -> Path:
    """A small release folder shaped like the writer's: tables, hf/ (card + data), instructions, manifest."""
    folder = outputs / version
    (folder / "hf" / "data").mkdir(parents=True)
    documents = pa.table({"doc_id": ["a1", "b2"], "title": ["温室监测", "绿茶加工"], "n_errors": [12, 15]})
    instances = pa.table({"instance_id": ["i1", "i2", "i3"], "error_type": ["S01", "M02", "T03" + note]})
    for name, table in (("documents", documents), ("instances", instances)):
        pq.write_table(table, folder / "hf" / "data" / f"{name}.parquet")
        pq.write_table(table, folder / f"{name}.parquet")
    (folder / "hf" / "README.md").write_text(CARD, encoding="utf-8")
    # the save_to_disk copy the writer keeps for load_from_disk: never published
    (folder / "hf" / "dataset_dict.json").write_text('{"splits": ["documents"]}', encoding="utf-8")
    (folder / "hf" / "documents").mkdir()
    (folder / "hf" / "documents" / "data-00000-of-00001.arrow").write_bytes(b"arrow")
    (folder / "hf" / "type_distribution.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (folder / "instructions").mkdir()
    (folder / "instructions" / "review_zero_shot.jsonl").write_text(
        '{"id": "r1", "query": "审查"}\n', "utf-8"
    )
    (folder / "instructions" / "review.yaml").write_text("task: gbt_review\ndataset_path: json\n", "utf-8")
    (folder / "validation").mkdir()
    (folder / "validation" / "results.json").write_text('{"success": true}', encoding="utf-8")
    (folder / ".writer.tmp").write_text("never published", encoding="utf-8")
    validation = {"success": True, "critical_failures": []}  # as the writer records a passed validation
    manifest = {"version": version, "note": note, "validation": validation}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


EXPECTED_PATHS = {
    "README.md",
    "data/documents.parquet",
    "data/instances.parquet",
    "type_distribution.png",
    "release/documents.parquet",
    "release/instances.parquet",
    "release/instructions/review.yaml",
    "release/instructions/review_zero_shot.jsonl",
    "release/manifest.json",
    "release/validation/results.json",
}


def local_bytes(folder: Path, path_in_repo: str) -> bytes:
    """The file on disk that a repo path comes from (the mapping publish documents)."""
    if path_in_repo.startswith("release/"):
        return (folder / path_in_repo.removeprefix("release/")).read_bytes()
    return (folder / "hf" / path_in_repo).read_bytes()


@pytest.fixture(autouse=True)
def local_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """huggingface_hub read its environment at import, so set its constants for this process.

    Xet off: the local hub speaks the regular + LFS protocol. Telemetry off: otherwise building request
    headers fetches an agent registry from the import-time endpoint (huggingface.co), not 127.0.0.1.
    """
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    monkeypatch.delenv("HF_TOKEN", raising=False)


@pytest.fixture
def release(tmp_path: Path) -> Path:
    return write_release(tmp_path / "outputs")


@pytest.mark.parametrize("lfs_suffixes", [(), (".parquet", ".png")], ids=["regular", "lfs"])
def test_publish_uploads_every_file_and_tags_the_commit(release: Path, lfs_suffixes: tuple[str, ...]) -> None:
    with LocalHub(tokens=(SENTINEL,), lfs_suffixes=lfs_suffixes) as hub:
        result = publish(release, REPO, token=SENTINEL, endpoint=hub.url, deadline_s=30)
        repo = hub.repo(REPO)
        routes = hub.routes()
        requests = list(hub.requests)
        lfs_stored = set(hub.lfs_objects)

    assert repo is not None and repo.repo_type == "dataset" and not repo.private
    assert routes[:2] == [WHOAMI, "refs"] and CREATE_REPO in routes
    published = repo.files_at("v0.0.1")
    assert set(published) == EXPECTED_PATHS | {".gitattributes"}
    for path in EXPECTED_PATHS - {"README.md"}:
        assert published[path] == local_bytes(release, path), path
    card = published["README.md"].decode("utf-8")  # the only file changed on the way: the real repo id
    assert card == local_bytes(release, "README.md").decode("utf-8").replace("<org>/<name>", REPO)
    assert f'load_dataset("{REPO}", "instances"' in card
    assert repo.tags == {"v0.0.1": result.commit_oid}
    assert repo.branches["main"] == result.commit_oid
    assert "v0.0.1" in repo.commits[result.commit_oid].summary
    assert result.total_bytes == sum(len(local_bytes(release, p)) for p in EXPECTED_PATHS)
    if lfs_suffixes:  # Parquet and PNG went through the LFS batch API and the upload href
        lfs_paths = [p for p in EXPECTED_PATHS if p.endswith(lfs_suffixes)]
        assert LFS_BATCH in routes and routes.count(LFS_UPLOAD) == len(lfs_paths) == 5
        assert lfs_stored == {hashlib.sha256(published[p]).hexdigest() for p in lfs_paths}
        assert repo.commits[result.commit_oid].files["data/documents.parquet"].lfs
    else:
        assert LFS_BATCH not in routes
    for request in requests:  # the token goes to the Hub API, never to the storage href
        assert request.has_auth == (request.route != LFS_UPLOAD), request


def test_the_tagged_tree_is_what_load_dataset_reads(release: Path, tmp_path: Path) -> None:
    """The card's configs resolve at the repo root: load the tree at the tag the way the Hub serves it."""
    import datasets

    with LocalHub() as hub:
        result = publish(release, REPO, token=SENTINEL, endpoint=hub.url)
        repo = hub.repo(REPO)
        assert repo is not None
        tree = repo.files_at(result.version)
    checkout = tmp_path / "checkout"
    for path, content in tree.items():
        (checkout / path).parent.mkdir(parents=True, exist_ok=True)
        (checkout / path).write_bytes(content)
    datasets.disable_progress_bars()
    instances = datasets.load_dataset(str(checkout), "instances", cache_dir=str(tmp_path / "cache"))
    assert instances["test"]["error_type"] == ["S01", "M02", "T03"]


def test_private_repo_and_refusal_to_publish_privately_into_a_public_repo(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    with LocalHub() as hub:
        publish(folder, "gbt-org/private-bench", private=True, token=SENTINEL, endpoint=hub.url)
        publish(folder, "gbt-org/public-bench", token=SENTINEL, endpoint=hub.url)
        newer = write_release(tmp_path / "outputs", "v0.0.2")
        with pytest.raises(PublishError, match="already exists and is public"):
            publish(newer, "gbt-org/public-bench", private=True, token=SENTINEL, endpoint=hub.url)
        private, public = hub.repo("gbt-org/private-bench"), hub.repo("gbt-org/public-bench")
    assert private is not None and private.private
    assert public is not None and list(public.tags) == ["v0.0.1"]


def test_dry_run_lists_the_upload_and_contacts_nothing(release: Path) -> None:
    with LocalHub() as hub:
        result = publish(release, REPO, dry_run=True, endpoint=hub.url)  # no token needed either
        assert hub.requests == []
    assert result.dry_run and result.commit_oid is None
    assert {f.path_in_repo for f in result.files} == EXPECTED_PATHS
    sizes = {f.path_in_repo: f.size for f in result.files}
    assert sizes["release/manifest.json"] == (release / "manifest.json").stat().st_size
    assert result.total_bytes == sum(sizes.values())


def test_a_hanging_hub_fails_the_preflight_within_its_timeout(release: Path) -> None:
    with LocalHub() as hub:
        hub.hang(WHOAMI)
        started = time.monotonic()
        with pytest.raises(HubUnreachableError) as caught:
            publish(release, REPO, token=SENTINEL, endpoint=hub.url, preflight_s=1, deadline_s=10)
        elapsed = time.monotonic() - started
    assert elapsed < GAVE_UP_S
    assert str(caught.value).startswith(f"Hub not reachable at {hub.url} within 1 s: ")


def test_a_hub_that_hangs_mid_upload_fails_at_the_overall_deadline(release: Path) -> None:
    with LocalHub() as hub:
        hub.hang(COMMIT)
        started = time.monotonic()
        with pytest.raises(PublishTimeoutError) as caught:
            publish(release, REPO, token=SENTINEL, endpoint=hub.url, deadline_s=2.5)
        elapsed = time.monotonic() - started
        repo = hub.repo(REPO)
    assert 2.5 <= elapsed < GAVE_UP_S
    message = str(caught.value)
    assert "did not finish within 2.5 s (stuck while uploading 10 files" in message
    assert "may linger in the background" in message
    assert repo is not None and repo.tags == {}


def test_a_nearly_spent_deadline_still_bounds_the_preflight(release: Path) -> None:
    with LocalHub() as hub:
        hub.hang(WHOAMI)
        started = time.monotonic()
        with pytest.raises(HubUnreachableError):
            publish(release, REPO, token=SENTINEL, endpoint=hub.url, preflight_s=10, deadline_s=1)
        assert time.monotonic() - started < GAVE_UP_S


def test_a_rejected_token_gives_an_auth_message(release: Path) -> None:
    with LocalHub(tokens=("hf_the_right_token",)) as hub:
        with pytest.raises(HubAuthError) as caught:
            publish(release, REPO, token=SENTINEL, endpoint=hub.url)
        assert hub.routes() == [WHOAMI]  # nothing else is tried with a bad token
    assert "rejected the token (HTTP 401)" in str(caught.value)
    assert "HF_TOKEN" in str(caught.value)


def test_a_read_only_token_is_refused_before_uploading(release: Path) -> None:
    with LocalHub(token_role="read") as hub:
        with pytest.raises(HubAuthError, match="read-only"):
            publish(release, REPO, token=SENTINEL, endpoint=hub.url)
        assert hub.routes() == [WHOAMI]


def test_server_errors_say_which_step_failed(release: Path) -> None:
    with LocalHub() as hub:
        hub.fail(WHOAMI, 502, "bad gateway")
        with pytest.raises(HubRefusedError, match=r"answered HTTP 502 to GET /api/whoami-v2"):
            publish(release, REPO, token=SENTINEL, endpoint=hub.url)
        hub.clear_faults()
        hub.fail(CREATE_REPO, 503, "maintenance")
        with pytest.raises(HubRefusedError) as caught:
            publish(release, REPO, token=SENTINEL, endpoint=hub.url)
    assert f"refused creating the dataset repo {REPO} (HTTP 503): maintenance" in str(caught.value)


def test_an_existing_tag_is_refused_unless_forced(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    with LocalHub() as hub:
        first = publish(folder, REPO, token=SENTINEL, endpoint=hub.url)
        with pytest.raises(TagExistsError) as caught:
            publish(folder, REPO, token=SENTINEL, endpoint=hub.url)
        repo = hub.repo(REPO)
        assert repo is not None
        commits_after_refusal = len(repo.commits)
        rebuilt = write_release(tmp_path / "rebuilt", note="fixed")
        moved = publish(rebuilt, REPO, force=True, token=SENTINEL, endpoint=hub.url)
    assert f"tag v0.0.1 already exists in datasets/{REPO} (commit {first.commit_oid[:12]})" in str(
        caught.value
    )
    assert "--force" in str(caught.value)
    assert commits_after_refusal == 2  # the repo's initial commit and the release: the refusal sent nothing
    assert moved.replaced_tag_commit == first.commit_oid != moved.commit_oid
    assert repo.tags == {"v0.0.1": moved.commit_oid}
    assert repo.files_at("v0.0.1")["release/manifest.json"] == (rebuilt / "manifest.json").read_bytes()


def test_the_token_never_appears_in_output_logs_or_errors(
    release: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="huggingface_hub")
    texts: list[str] = []
    with LocalHub(tokens=(SENTINEL,), lfs_suffixes=(".parquet",)) as hub:
        publish(release, REPO, token=SENTINEL, endpoint=hub.url)
        for fault in ("tag", "401", "hang"):
            if fault == "401":
                hub.fail(CREATE_REPO, 401, "Invalid credentials in Authorization header")
            if fault == "hang":
                hub.clear_faults()
                hub.hang(WHOAMI)
            with pytest.raises(PublishError) as caught:
                publish(release, REPO, token=SENTINEL, endpoint=hub.url, preflight_s=0.5)
            texts += [str(caught.value), repr(caught.value), *traceback.format_exception(caught.value)]
    out, err = capfd.readouterr()
    records = [r.getMessage() for r in caplog.records]
    assert records and any("uploading" in r for r in records)  # logging did happen, and was searched
    for text in [out, err, *records, *texts]:
        assert SENTINEL not in text


def test_release_folder_problems_are_named(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    with pytest.raises(PublishError, match="not of the form ORG/NAME"):
        publish(folder, "no-namespace", dry_run=True)
    (folder / "hf" / "release").mkdir()
    (folder / "hf" / "release" / "x.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ReleaseFolderError, match="would collide with the release/ folder"):
        publish(folder, REPO, dry_run=True)
    (folder / "manifest.json").unlink()
    with pytest.raises(ReleaseFolderError, match=r"no manifest\.json"):
        publish(folder, REPO, dry_run=True)
    (tmp_path / "outputs" / "latest").write_text("v9.9.9\n", encoding="utf-8")
    with pytest.raises(ReleaseFolderError, match="not a folder"):
        publish(tmp_path / "outputs" / "latest", REPO, dry_run=True)


def run_cli(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "flows.cli", "publish", *args]
    return subprocess.run(
        command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=timeout, check=False
    )


def test_cli_publish(tmp_path: Path) -> None:
    outputs = tmp_path / "outputs"
    folder = write_release(outputs)
    (outputs / "latest").symlink_to(folder.name)
    with LocalHub(tokens=(SENTINEL,), lfs_suffixes=(".parquet",)) as hub:
        env = {
            **os.environ,
            "HF_ENDPOINT": hub.url,
            "HF_TOKEN": SENTINEL,
            "HF_HUB_DISABLE_XET": "1",
            "HF_HOME": str(tmp_path / "hf-home"),  # no stored login or cache of the developer's
            "HF_DEBUG": "1",  # huggingface_hub logs every request as curl: the token must still not show
        }
        dry = run_cli(str(outputs / "latest"), "--repo-id", REPO, "--dry-run", env=env)
        assert dry.returncode == 0, dry.stderr
        assert hub.requests == []
        done = run_cli(str(outputs / "latest"), "--repo-id", REPO, env=env)
        again = run_cli(str(folder), "--repo-id", REPO, env=env)
        wrong = run_cli(str(folder), "--repo-id", REPO, env={**env, "HF_TOKEN": "hf_wrong_token_123"})
        same = run_cli(str(folder), "--repo-id", REPO, "--force", env=env)
        hub.hang(PREUPLOAD)
        started = time.monotonic()
        stuck = run_cli(str(folder), "--repo-id", REPO, "--force", "--timeout", "3", env=env)
        stuck_s = time.monotonic() - started
        repo = hub.repo(REPO)

    assert "release/manifest.json" in dry.stdout and "dry run: 10 files" in dry.stderr
    assert done.returncode == 0, done.stderr
    assert 'load_dataset("gbt-org/gbt-bench", revision="v0.0.1")' in done.stdout
    assert repo is not None and repo.tags["v0.0.1"] in done.stderr
    assert set(repo.files_at("v0.0.1")) == EXPECTED_PATHS | {".gitattributes"}
    assert again.returncode == 1 and "ERROR: tag v0.0.1 already exists" in again.stderr
    assert wrong.returncode == 1 and "rejected the token (HTTP 401)" in wrong.stderr
    assert same.returncode == 0 and "tag moved" not in same.stderr  # unchanged files: no new commit
    assert stuck.returncode == 1 and "did not finish within 3 s" in stuck.stderr
    assert stuck_s < 20  # the process exits although huggingface_hub's thread is still blocked
    assert "Traceback" not in again.stderr + wrong.stderr + stuck.stderr
    for result in (dry, done, again, wrong, same, stuck):
        assert SENTINEL not in result.stdout + result.stderr
