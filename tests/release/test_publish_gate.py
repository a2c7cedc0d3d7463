"""`publish` refuses a release whose critical validation failed, and every secret is
masked by the one function (point 9: a Hub error body echoing a shortened token)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import huggingface_hub.constants
import pytest

from injectors.llm.config import redact
from injectors.llm.masking import mask_secret
from release.gate import critical_failures
from release.hub import publish
from release.hub_errors import PublishError
from tests.release.test_hub import REPO, SENTINEL, write_release
from tests.servers.hub import LocalHub
from tests.servers.hub_http import CREATE_REPO

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def local_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    monkeypatch.delenv("HF_TOKEN", raising=False)


def fail_validation(folder: Path, *names: str) -> None:
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["validation"] = {"success": False, "critical_failures": list(names)}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_a_release_that_failed_critical_validation_is_not_published(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    fail_validation(folder, "doc_id_unique", "errors_per_document")
    warnings: list[str] = []
    with LocalHub() as hub:
        with pytest.raises(PublishError, match=r"critical validation failed \(doc_id_unique, errors_per"):
            publish(folder, REPO, token=SENTINEL, endpoint=hub.url)
        assert hub.repo(REPO) is None  # nothing was created, uploaded or tagged
        forced = publish(folder, REPO, token=SENTINEL, endpoint=hub.url, force=True, warn=warnings.append)
        repo = hub.repo(REPO)
    assert repo is not None and repo.tags == {"v0.0.1": forced.commit_oid}
    assert len(warnings) == 1 and "critical validation failed" in warnings[0] and "--force" in warnings[0]


def test_a_manifest_without_a_validation_record_is_refused(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    (folder / "manifest.json").write_text(json.dumps({"version": "v0.0.1"}), encoding="utf-8")
    assert critical_failures(folder) == ["no validation recorded"]
    with pytest.raises(PublishError, match="no validation recorded"):
        publish(folder, REPO, dry_run=True)


def test_cli_publish_refuses_then_warns_with_force(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    fail_validation(folder, "instance_id_unique")
    base = [sys.executable, "-m", "flows.cli", "publish", str(folder), "--repo-id", REPO, "--dry-run"]
    refused = subprocess.run(base, capture_output=True, text=True, cwd=ROOT, check=False)
    forced = subprocess.run([*base, "--force"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "critical validation failed (instance_id_unique)" in refused.stderr
    assert forced.returncode == 0 and "WARNING: publishing" in forced.stderr


def test_a_hub_error_echoing_a_shortened_token_is_masked(tmp_path: Path) -> None:
    folder = write_release(tmp_path / "outputs")
    echoed = f"invalid token {SENTINEL[:7]}...{SENTINEL[-6:]} for this repo"
    with LocalHub() as hub:
        hub.fail(CREATE_REPO, 500, echoed)
        with pytest.raises(PublishError) as caught:
            publish(folder, REPO, token=SENTINEL, endpoint=hub.url)
    message = str(caught.value)
    assert "500" in message or "failed" in message
    assert SENTINEL[:7] not in message and SENTINEL[-6:] not in message


def test_one_masking_function_for_every_secret() -> None:
    key = "sk-proj-ABCDEFGHIJKLMNOP1234"
    text = f"Incorrect API key provided: sk-proj-****GHIJKLMNOP1234; also {key}; token hf_sent…999"
    assert redact(text, key) == mask_secret(text, key)
    masked = mask_secret(mask_secret(text, key), "hf_sentinel_token_999")
    assert "GHIJKLMNOP" not in masked and key not in masked and "hf_sent" not in masked
    assert mask_secret("nothing secret here", key) == "nothing secret here"
