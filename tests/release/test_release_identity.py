"""A release is what it says it is: `load_dataset` serves exactly its rows even after another release was
loaded into the same cache, and every line of its card is read from its data."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import huggingface_hub.constants
import pyarrow.parquet as pq
import pytest
import yaml

from injectors.taxonomy import DIMENSIONS
from release.card import size_category
from release.config import BuildConfig
from release.manifest import read_manifest
from release.writer import write_release
from tests.servers.hub import LocalHub
from tests.support.release_data import SEED, injected, shared_release

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "flows.cli"]


def _front(card: str) -> dict:
    return yaml.safe_load(card.split("---\n")[1])


def _doc_ids(path: Path) -> list[str]:
    return sorted(pq.read_table(path, columns=["doc_id"]).column("doc_id").to_pylist())


def test_two_releases_load_their_own_rows_from_one_cache(tmp_path: Path) -> None:
    import datasets

    first = write_release(injected(), BuildConfig(seed=SEED, version="v0.1.0"), tmp_path / "out").path
    second = write_release(injected()[:2], BuildConfig(seed=SEED, version="v0.1.1"), tmp_path / "out").path
    # the same version rebuilt elsewhere from other data: only the data fingerprint tells them apart
    rebuilt = write_release(injected()[1:], BuildConfig(seed=SEED, version="v0.1.0"), tmp_path / "b").path
    fingerprints = {read_manifest(p)["data_fingerprint"] for p in (first, second, rebuilt)}
    assert len(fingerprints) == 3
    cache = str(tmp_path / "cache")
    for release in (first, second, rebuilt, first):
        for name in ("items", "instances"):
            loaded = datasets.load_dataset(str(release / "hf"), name, split="test", cache_dir=cache)
            assert sorted(loaded["doc_id"]) == _doc_ids(release / f"{name}.parquet"), (release, name)
        if name == "instances":
            ids = pq.read_table(release / "instances.parquet", columns=["instance_id"])
            assert sorted(loaded["instance_id"]) == sorted(ids.column("instance_id").to_pylist())
    configs = _front((second / "hf" / "README.md").read_text(encoding="utf-8"))["configs"]
    fingerprint = read_manifest(second)["data_fingerprint"]
    assert all(c["version"] == "0.1.1" and fingerprint in c["description"] for c in configs)


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_release(tmp_path_factory)


def test_the_card_lists_the_types_without_a_correction_example_from_the_data(release: Path) -> None:
    instances = pq.read_table(release / "instances.parquet", columns=["instance_id", "error_type"])
    rows = (release / "instructions" / "correction_zero_shot.jsonl").read_text(encoding="utf-8").splitlines()
    corrected = {json.loads(r)["id"].removeprefix("correction_zero_shot_") for r in rows if r.strip()}
    types = dict(zip(*instances.to_pydict().values(), strict=True))
    expected = set(types.values()) - {types[i] for i in corrected}
    card = (release / "hf" / "README.md").read_text(encoding="utf-8")
    note = card.split("The correction task asks", 1)[1].split("## Statistics", 1)[0]
    listed = set(re.findall(r"^- ([A-Z]+-\d\d) ", note, re.M))
    assert listed == expected and expected  # the corpus's three documents lack some
    count = "one type has" if len(expected) == 1 else f"{len(expected)} types have"
    assert f"in this release {count} no correction example" in note
    assert _front(card)["size_categories"] == [
        size_category(pq.read_metadata(release / "items.parquet").num_rows)
    ]


def _card_row(card: str, name: str) -> list[str]:
    line = next(row for row in card.splitlines() if row.startswith(f"| {name} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_the_card_baselines_are_what_evaluate_gives_with_the_same_seed(release: Path, tmp_path: Path) -> None:
    card = (release / "hf" / "README.md").read_text(encoding="utf-8")
    for name in ("random", "linter"):
        done = subprocess.run(
            [*CLI, "evaluate", str(release), "--baseline", name, "--seed", str(SEED), "--out", str(tmp_path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        scores = json.loads(next(tmp_path.glob(f"baseline-{name}/*/scores.json")).read_text(encoding="utf-8"))
        ours = scores["gbtbench"]
        expected = [name]
        for dimension in DIMENSIONS:
            row = ours["by_dimension"].get(dimension)
            expected.append("–" if row is None or not row["ground_truth_count"] else f"{row['recall']:.1%}")
        expected.append(f"{ours['levels']['diagnosis']['recall']:.1%}")
        assert _card_row(card, name)[: len(expected)] == expected
    assert f"--baseline random --seed {SEED}" in card


def test_publish_preview_is_the_card_publish_uploads(
    release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from release.hub import publish

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    with LocalHub(tokens=("hf_test_token",)) as hub:
        env = {**os.environ, "HF_ENDPOINT": hub.url}
        preview = subprocess.run(
            [*CLI, "publish", str(release), "--repo-id", "org/bench", "--preview", str(tmp_path / "preview")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert preview.returncode == 0, preview.stderr
        assert hub.repo("org/bench") is None  # nothing was sent
        result = publish(release, "org/bench", token="hf_test_token", endpoint=hub.url, deadline_s=60)
        repo = hub.repo("org/bench")
        assert repo is not None
        uploaded = repo.files_at(result.version)["README.md"].decode("utf-8")
    previewed = (tmp_path / "preview" / "README.md").read_text(encoding="utf-8")
    assert previewed == uploaded
    assert f"howpublished = {{\\url{{{hub.url}/datasets/org/bench}}}}" in previewed
    assert "huggingface.co" not in previewed and "<org>/<name>" not in previewed
