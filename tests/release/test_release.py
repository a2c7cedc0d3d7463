"""Release tables, the review queue and the writer: what a maintainer finds in outputs/<version>/."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml

from injectors.instance import FlaggedCandidate, InjectionProvenance
from injectors.planner import InjectionResult
from injectors.taxonomy import type_ids
from parsers.render import render_text
from release import writer
from release.config import BuildConfig
from release.review_queue import REVIEW_QUEUE_SCHEMA, review_queue, sample_size
from release.structs import edit_from_row, provenance_row
from release.tables import (
    DOCUMENTS_SCHEMA,
    INSTANCES_SCHEMA,
    ITEMS_SCHEMA,
    PRE_EXISTING_SCHEMA,
    SECTIONS_SCHEMA,
    build_tables,
)
from release.writer import (
    EmptyReleaseError,
    ReleaseError,
    ReleaseExistsError,
    latest_fingerprint,
    latest_version,
    next_version,
    read_manifest,
    write_release,
)
from tests.support.release_data import SEED, injected, text_instance, with_added_text, with_unreplayable
from validation.traceability import Flag, check_results

CONFIG = BuildConfig(seed=SEED, version="v0.0.1")


def test_tables_have_their_schemas_and_one_row_per_thing() -> None:
    results = injected()
    tables = build_tables(results, check_results(results))
    assert tables.documents.schema == DOCUMENTS_SCHEMA
    assert tables.sections.schema == SECTIONS_SCHEMA
    assert tables.instances.schema == INSTANCES_SCHEMA
    assert tables.items.schema == ITEMS_SCHEMA
    assert tables.pre_existing.schema == PRE_EXISTING_SCHEMA
    doc_ids = sorted(r.original.doc_id for r in results)
    assert tables.documents.column("doc_id").to_pylist() == doc_ids
    assert tables.items.column("doc_id").to_pylist() == doc_ids
    assert tables.sections.num_rows == sum(
        len(r.original.sections) + len(r.corrupted.sections) for r in results
    )
    assert tables.instances.num_rows == sum(len(r.instances) for r in results)
    assert tables.pre_existing.column("doc_id").to_pylist() == doc_ids
    assert sum(tables.pre_existing.column("n_violations").to_pylist()) == sum(
        len(r.pre_existing) for r in results
    )
    assert tables.instances.column("doc_id").to_pylist() == sorted(
        tables.instances.column("doc_id").to_pylist()
    )


def test_rows_keep_the_contract_a_scorer_and_a_replayer_need() -> None:
    results = injected()
    tables = build_tables(results, {})
    by_doc = {r.original.doc_id: r for r in results}
    for item in tables.items.to_pylist():
        result = by_doc[item["doc_id"]]
        assert item["text"] == render_text(result.corrupted)
        gold = item["gold"]
        assert len(gold) == item["n_errors"] == len(result.instances)
        assert all(set(g) == {"location", "dimension", "error_type", "description"} for g in gold)
    instances = {i.instance_id: i for r in results for i in r.instances}
    for row in tables.instances.to_pylist():
        instance = instances[row["instance_id"]]
        assert edit_from_row(row["edit"]) == instance.edit
        assert row["provenance"]["seed"] == SEED
        assert row["provenance"] == provenance_row(instance.provenance)
        assert row["generator"] == instance.provenance.generator
        assert row["flags"] == []
    sources = tables.documents.column("source").to_pylist()
    assert all("/" not in s and s.endswith(".std") for s in sources)


def test_flags_reach_the_instance_table() -> None:
    results = injected()
    some = results[0].instances[0].instance_id
    tables = build_tables(results, {some: (Flag("refusal", "抱歉"), Flag("english_prose", "x"))})
    row = next(r for r in tables.instances.to_pylist() if r["instance_id"] == some)
    assert [f["code"] for f in row["flags"]] == ["english_prose", "refusal"]


def test_sample_size_rounds_halves_up_and_keeps_one_per_type() -> None:
    assert [sample_size(n, 0.3) for n in (0, 1, 2, 3, 5, 10)] == [0, 1, 1, 1, 2, 3]
    assert sample_size(7, 0.0) == 0
    assert sample_size(4, 1.0) == 4


def test_review_queue_holds_flagged_instances_and_a_stratified_sample() -> None:
    results = injected()
    flagged = results[1].instances[2].instance_id
    tables = build_tables(results, {flagged: (Flag("refusal", "抱歉"),)})
    queue = review_queue(tables.instances, fraction=0.3, seed=SEED)
    assert queue.schema == REVIEW_QUEUE_SCHEMA
    rows = queue.to_pylist()
    assert [r["instance_id"] for r in rows if r["reason"] == "flagged"] == [flagged]
    unflagged = Counter(r["error_type"] for r in tables.instances.to_pylist() if r["instance_id"] != flagged)
    sampled = Counter(r["error_type"] for r in rows if r["reason"] == "sample")
    assert sampled == {t: sample_size(n, 0.3) for t, n in unflagged.items()}
    assert queue.to_pylist() == review_queue(tables.instances, fraction=0.3, seed=SEED).to_pylist()
    others = [
        review_queue(tables.instances, fraction=0.3, seed=s).column("instance_id").to_pylist() for s in (1, 2)
    ]
    assert queue.column("instance_id").to_pylist() not in others  # the seed decides the sample


def test_rejected_llm_rewrites_wait_in_the_review_queue_and_never_in_the_gold(tmp_path: Path) -> None:
    results = list(injected())
    instance = text_instance(results[2])
    assert instance.original_section is not None
    candidate = FlaggedCandidate(
        doc_id=instance.doc_id,
        error_type=instance.error_type,
        location=instance.location,
        original_section=instance.original_section,
        candidate_section=replace(instance.original_section, text="抱歉，我无法完成这个请求。"),
        reasons=("refusal: 抱歉", "unchanged_modal"),
        provenance=InjectionProvenance("llm", "1", SEED, model="m", prompt_id="p", cache_key="k"),
    )
    results[2] = replace(results[2], flagged=(candidate,))
    tables = build_tables(results, {})
    queue = review_queue(tables.instances, fraction=0.3, seed=SEED, rejected=[candidate]).to_pylist()
    rejected = [r for r in queue if r["reason"] == "llm_rejected"]
    assert len(rejected) == 1 and rejected[0]["corrupted_text"] == "抱歉，我无法完成这个请求。"
    assert [f["message"] for f in rejected[0]["flags"]] == ["refusal: 抱歉", "unchanged_modal"]
    assert rejected[0]["instance_id"] not in tables.instances.column("instance_id").to_pylist()
    assert tables.instances.num_rows == sum(len(r.instances) for r in results)


@pytest.fixture(scope="module")
def release_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("outputs")
    write_release(
        injected(),
        CONFIG,
        root,
        bad_inputs=[("corpus/bad/empty.pdf", "empty file"), {"source": "x.doc", "reason": "legacy .doc"}],
        llm_stats={"calls": 0, "prompt_tokens": 0, "completion_tokens": 0},
        timings={"parse": 1.5, "inject": 2.0},
        code_version="abc1234",
        fingerprint="f" * 16,
    )
    return root


def test_release_layout_and_manifest(release_root: Path) -> None:
    release = release_root / CONFIG.version
    for name in writer.TABLE_NAMES:
        assert (release / f"{name}.parquet").is_file()
    manifest = read_manifest(release)
    assert manifest["version"] == CONFIG.version and manifest["seed"] == SEED
    assert manifest["code_version"] == "abc1234" and manifest["config"]["review_fraction"] == 0.3
    assert manifest["packages"]["pyarrow"] and manifest["packages"]["great-expectations"]
    counts = manifest["counts"]
    assert counts["instances"] == sum(len(r.instances) for r in injected())
    assert sum(counts["by_type"].values()) == counts["instances"] and list(counts["by_type"]) == list(
        type_ids()
    )
    assert sum(counts["by_dimension"].values()) == counts["instances"]
    # every type's version, the one its instances carry, with the digest recorded beside it
    assert list(manifest["types"]) == list(type_ids())
    carried = {(i.error_type, i.provenance.injector_version) for r in injected() for i in r.instances}
    assert carried and carried <= {(t, v["version"]) for t, v in manifest["types"].items()}
    assert all(len(v["digest"]) == 16 for v in manifest["types"].values())
    assert manifest["bad_inputs"] == [
        {"source": "corpus/bad/empty.pdf", "reason": "empty file"},
        {"source": "x.doc", "reason": "legacy .doc"},
    ]
    assert manifest["llm"] == {"mode": "none", "calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    assert manifest["timings"]["parse"] == 1.5
    assert manifest["timings"]["release"]["validation"] > 0
    assert manifest["validation"]["success"] is True
    for info in manifest["tables"].values():
        assert pq.read_table(release / info["file"]).num_rows == info["rows"]
    assert (release / "validation" / "results.json").is_file()
    assert (release / "validation" / "data_docs" / "index.html").is_file()
    assert latest_version(release_root) == CONFIG.version
    assert latest_fingerprint(release_root) == "f" * 16
    assert not [p for p in release_root.iterdir() if p.name.startswith(".")]


def test_next_version_raises_the_patch_of_the_highest_release(tmp_path: Path) -> None:
    assert next_version(tmp_path / "absent") == "v0.1.0"
    for name in ("v0.1.0", "v0.1.9", "v0.1.10", "notes", ".v0.9.0.tmp-x"):
        (tmp_path / name).mkdir()
    assert next_version(tmp_path) == "v0.1.11"


def test_hf_folder_loads_and_its_card_declares_existing_files(release_root: Path, tmp_path: Path) -> None:
    import datasets  # here, not at collection: a worker that runs no test of it never imports it

    hf = release_root / CONFIG.version / "hf"
    loaded = datasets.load_from_disk(str(hf))
    assert set(loaded) == {"documents", "sections", "instances", "items", "pre_existing"}
    assert loaded["items"].num_rows == len(injected())
    card = (hf / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(card.split("---\n")[1])
    names = [c["config_name"] for c in front["configs"]]
    assert names[:5] == ["items", "documents", "instances", "sections", "pre_existing"]
    assert "instructions_review_zero_shot" in names and "instructions_correction_one_shot" in names
    assert all([d["split"] for d in c["data_files"]] == ["test"] for c in front["configs"])
    for config in front["configs"]:
        for data_file in config["data_files"]:
            assert (hf / data_file["path"]).is_file(), data_file
    assert "| STR-01 |" in card and "type_distribution.png" in card
    assert (hf / "type_distribution.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # A cache of its own: datasets keys its cache by folder name, and every release has an hf/ folder.
    items = datasets.load_dataset(str(hf), "items", split="test", cache_dir=str(tmp_path / "cache"))
    assert items.num_rows == len(injected())


def test_two_cold_builds_give_identical_table_hashes(release_root: Path, tmp_path: Path) -> None:
    again = write_release(list(reversed(injected())), CONFIG, tmp_path)
    assert again.path == tmp_path / CONFIG.version and again.success
    first = read_manifest(release_root / CONFIG.version)["tables"]
    second = read_manifest(again.path)["tables"]
    assert {k: v["sha256"] for k, v in first.items()} == {k: v["sha256"] for k, v in second.items()}
    assert {k: v["file_sha256"] for k, v in first.items()} == {k: v["file_sha256"] for k, v in second.items()}


def test_an_existing_version_is_refused(release_root: Path) -> None:
    before = sorted(p.name for p in (release_root / CONFIG.version).iterdir())
    with pytest.raises(ReleaseExistsError, match="never overwritten"):
        write_release(injected(), CONFIG, release_root)
    assert sorted(p.name for p in (release_root / CONFIG.version).iterdir()) == before


def test_nothing_to_release_and_bad_versions_are_refused(tmp_path: Path) -> None:
    with pytest.raises(EmptyReleaseError):
        write_release([], CONFIG, tmp_path)
    for version in ("", "latest", "../up", ".hidden"):
        with pytest.raises(ReleaseError, match="invalid release version"):
            write_release(injected(), replace(CONFIG, version=version), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_validated_release_stays_hidden_until_it_is_written(tmp_path: Path) -> None:
    """The two halves a build runs as its `validate` and `write` stages."""
    config = replace(CONFIG, version="v0.0.7")
    validated = writer.validate_release_contents(injected(), config, tmp_path)
    assert validated.staging.parent == tmp_path and validated.staging.name.startswith(".v0.0.7.tmp-")
    assert (validated.staging / "validation" / "gx_results.json").is_file()
    assert validated.validation.success and not (tmp_path / "v0.0.7").exists()
    written = writer.write_validated(validated, fingerprint="f" * 16)
    assert written.path == tmp_path / "v0.0.7" and not validated.staging.exists()
    assert read_manifest(written)["build_fingerprint"] == "f" * 16
    assert list(read_manifest(written)["timings"]["release"])[:3] == ["traceability", "tables", "validation"]
    assert latest_version(tmp_path) == "v0.0.7"


def test_a_write_killed_midway_leaves_no_visible_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer.point_latest(tmp_path, "v0.0.0")

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt("killed while writing the card")

    monkeypatch.setattr(writer, "write_card", crash)
    with pytest.raises(KeyboardInterrupt):
        write_release(injected(), CONFIG, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest"]
    assert latest_version(tmp_path) == "v0.0.0"


def test_latest_moves_to_each_new_version_and_falls_back_to_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer.point_latest(tmp_path, "v1")
    assert (tmp_path / "latest").is_symlink() and latest_version(tmp_path) == "v1"
    writer.point_latest(tmp_path, "v2")
    assert os.readlink(tmp_path / "latest") == "v2"

    def no_symlinks(*args: object, **kwargs: object) -> None:
        raise OSError("symlinks are not supported here")

    monkeypatch.setattr(os, "symlink", no_symlinks)
    writer.point_latest(tmp_path, "v3")
    assert (tmp_path / "latest").is_file() and latest_version(tmp_path) == "v3"


def spoiled() -> tuple[list[InjectionResult], str]:
    results = list(injected())
    victim = text_instance(results[0])
    results[0] = with_added_text(results[0], victim, "抱歉，作为一个AI，我无法完成这个请求。")
    return results, victim.instance_id


def test_a_flagged_instance_ships_in_the_gold_and_waits_in_the_review_queue(tmp_path: Path) -> None:
    results, victim = spoiled()
    written = write_release(results, CONFIG, tmp_path)
    assert written.success and written.non_critical_failures == ["refusal"] and written.flagged == 1
    release = written.path
    manifest = read_manifest(release)
    assert manifest["validation"]["success"] is True
    assert "refusal" in manifest["validation"]["non_critical_failures"]
    assert manifest["counts"]["flagged"] == 1 and manifest["counts"]["review_queue"]["flagged"] == 1
    queue = pq.read_table(release / "review_queue.parquet").to_pylist()
    flagged = [r for r in queue if r["reason"] == "flagged"]
    assert [r["instance_id"] for r in flagged] == [victim]
    assert [f["code"] for f in flagged[0]["flags"]] == ["refusal"]
    instances = pq.read_table(release / "instances.parquet").column("instance_id").to_pylist()
    assert victim in instances
    assert latest_version(tmp_path) == CONFIG.version


def test_a_critical_failure_is_written_for_inspection_but_not_made_latest(tmp_path: Path) -> None:
    results = list(injected())
    results[1] = with_unreplayable(results[1], text_instance(results[1]))
    writer.point_latest(tmp_path, "v0.0.0")
    written = write_release(results, CONFIG, tmp_path)
    assert not written.success and written.critical_failures == ["replay_mismatch"]
    manifest = read_manifest(written.path)
    assert manifest["validation"]["success"] is False
    assert manifest["validation"]["critical_failures"] == ["replay_mismatch"]
    assert latest_version(tmp_path) == "v0.0.0"


def test_pre_existing_violations_are_typed_lists_per_document() -> None:
    from validation.linter import Violation

    first, *rest = injected()
    found = (Violation("5.1", "NMS-03", "“必须”不是能愿动词"), Violation("2", "NREF-04", "排列顺序错误"))
    results = [replace(first, pre_existing=found), *rest]
    tables = build_tables(results, {})
    rows = {r["doc_id"]: r for r in tables.pre_existing.to_pylist()}
    assert rows[first.original.doc_id]["n_violations"] == 2
    assert rows[first.original.doc_id]["violations"] == [v.to_dict() for v in found]
    assert all(rows[r.original.doc_id]["violations"] == [] for r in rest)
    item = next(i for i in tables.items.to_pylist() if i["doc_id"] == first.original.doc_id)
    assert item["pre_existing"][0] == {
        "location": "5.1",
        "dimension": "NMS",
        "error_type": "NMS-03",
        "message": "“必须”不是能愿动词",
    }
