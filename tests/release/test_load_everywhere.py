"""Every config of the card loads with `datasets.load_dataset`: offline from the release folder, one config
folder alone, and from a Hub (127.0.0.1) after `publish`, then offline again from the cache.

Loading runs in a fresh interpreter so that HF_DATASETS_OFFLINE / HF_HUB_OFFLINE / HF_ENDPOINT are read
the way a user's would be (both libraries read them at import).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from release.config import BuildConfig
from release.hub import publish
from release.writer import read_manifest, write_release
from tests.servers.hub import LocalHub
from tests.servers.hub_files import PATHS_INFO, RESOLVE, TREE
from tests.support.balance import across_workers
from tests.support.release_data import SEED, injected, shared_release

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "hf_local_test_token_5c1e"
REPO = "gbt-org/gbt-bench"

# Loads each named config's `test` split and prints {config: {"rows": n, "columns": [...], "first": row}}.
LOADER = """
import json, sys
import datasets
datasets.disable_progress_bars()
source, revision, mode = sys.argv[1], sys.argv[2] or None, sys.argv[3]
out = {}
for name in sys.argv[4:]:
    if mode == "data_dir":
        ds = datasets.load_dataset("parquet", data_dir=f"{source}/data/{name}")
        assert list(ds) == ["test"], list(ds)
        ds = ds["test"]
    else:
        ds = datasets.load_dataset(source, name, revision=revision, split="test")
    first = ds[0] if ds.num_rows else None
    out[name] = {"rows": ds.num_rows, "columns": ds.column_names, "first": first}
print(json.dumps(out, ensure_ascii=False, default=str))
"""


def card_configs(hf: Path) -> dict[str, str]:
    front = yaml.safe_load((hf / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    return {c["config_name"]: c["data_files"][0]["path"] for c in front["configs"]}


def load(source: str, names: list[str], env: dict[str, str], mode: str = "card", revision: str = "") -> dict:
    done = subprocess.run(
        [sys.executable, "-c", LOADER, source, revision, mode, *names],
        env=env,
        cwd=ROOT.parent,  # not the project folder: nothing may depend on the working directory
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def offline_env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HF_HOME": str(home),
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
    }


@pytest.fixture(scope="module")
@across_workers  # the session's shared release, read only (publishing stages its files elsewhere)
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_release(tmp_path_factory)


def expected_rows(release: Path) -> dict[str, int]:
    tables = read_manifest(release)["tables"]
    rows = {name: info["rows"] for name, info in tables.items() if "/" not in name}
    rows |= {f"instructions_{k.split('/', 1)[1]}": v["rows"] for k, v in tables.items() if "/" in k}
    return rows


def test_every_config_loads_offline_from_the_release_folder(release: Path, tmp_path: Path) -> None:
    hf = release / "hf"
    configs = card_configs(hf)
    assert len(configs) == 5 + 10  # five tables, five instruction tasks × zero/one-shot
    loaded = load(str(hf), list(configs), offline_env(tmp_path / "home"))
    rows = expected_rows(release)
    assert {name: info["rows"] for name, info in loaded.items()} == {name: rows[name] for name in configs}
    # typed columns arrive as structs and lists of structs, not JSON strings
    item, instance = loaded["items"]["first"], loaded["instances"]["first"]
    assert isinstance(item["gold"], list) and set(item["gold"][0]) == {
        "location",
        "dimension",
        "error_type",
        "description",
    }
    assert isinstance(item["pre_existing"], list)
    assert instance["edit"]["op"] in ("modify", "remove", "insert", "move")
    assert instance["provenance"]["seed"] == SEED and instance["provenance"]["generator"]
    # the project's corpus has no pre-existing violations: the config still loads, one row per document
    assert loaded["pre_existing"]["rows"] == rows["documents"]
    assert loaded["pre_existing"]["columns"] == ["doc_id", "standard_id", "n_violations", "violations"]


def test_each_config_folder_loads_alone_as_a_test_split(release: Path, tmp_path: Path) -> None:
    hf = release / "hf"
    configs = card_configs(hf)
    assert all(path == f"data/{name}/test-00000-of-00001.parquet" for name, path in configs.items())
    loaded = load(str(hf), list(configs), offline_env(tmp_path / "home"), mode="data_dir")
    rows = expected_rows(release)
    assert {name: info["rows"] for name, info in loaded.items()} == {name: rows[name] for name in configs}


def test_empty_tables_are_listed_not_declared_and_the_rest_still_loads(tmp_path: Path) -> None:
    """A release whose documents have no instances: `instances` and the per-instance tasks are empty."""
    empty = [replace(r, instances=()) for r in injected()]
    written = write_release(empty, BuildConfig(seed=4, version="v0.0.9"), tmp_path / "out")
    hf = written.path / "hf"
    configs = card_configs(hf)
    assert "instances" not in configs and {"items", "pre_existing", "documents"} <= set(configs)
    card = (hf / "README.md").read_text(encoding="utf-8")
    assert "Empty in this version" in card and "`instances`" in card.split("Empty in this version")[1]
    loaded = load(str(hf), list(configs), offline_env(tmp_path / "home"))
    assert loaded["items"]["rows"] == len(empty) and loaded["items"]["first"]["gold"] == []


def test_every_config_loads_from_the_hub_after_publish_and_then_offline(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    configs = list(card_configs(release / "hf"))
    version = read_manifest(release)["version"]
    home = tmp_path / "home"
    with LocalHub(tokens=(TOKEN,), lfs_suffixes=(".parquet", ".png")) as hub:
        result = publish(release, REPO, token=TOKEN, endpoint=hub.url, deadline_s=120)
        repo = hub.repo(REPO)
        assert repo is not None
        published = repo.files_at(version)
        online = {
            **os.environ,
            "HF_HOME": str(home),
            "HF_ENDPOINT": hub.url,
            "HF_TOKEN": TOKEN,
            "HF_HUB_DISABLE_XET": "1",
            "HF_HUB_DISABLE_TELEMETRY": "1",
        }
        loaded = load(REPO, configs, online, revision=version)
        routes = hub.routes()
    assert result.version == version
    assert RESOLVE in routes and (TREE in routes or PATHS_INFO in routes)  # served by the Hub, not a copy
    # no second copy of the data: the save_to_disk arrow files stay local
    assert not [p for p in published if p.endswith(".arrow") or p.endswith("dataset_dict.json")]
    card = published["README.md"].decode("utf-8")
    assert "<org>/<name>" not in card and f'load_dataset("{REPO}", "items", revision="{version}"' in card
    rows = expected_rows(release)
    assert {name: info["rows"] for name, info in loaded.items()} == {name: rows[name] for name in configs}
    # the Hub server is gone: the same calls are answered from the cache, offline
    again = load(REPO, configs, {**offline_env(home), "HF_ENDPOINT": "http://127.0.0.1:9"}, revision=version)
    assert {name: info["rows"] for name, info in again.items()} == {name: rows[name] for name in configs}
