"""The Prefect build as the UI shows it, read back from the session's Prefect server: one task run per
stage and item with readable names, the stage summaries in the run's logs, the release summary and the
type counts as artifacts; and the same tables as the plain-Python pipeline without Prefect."""

from __future__ import annotations

import json
from typing import Any

import pytest

from corpus.stdsource import gold_document
from flows.pipeline import build_dataset, prepare
from injectors.taxonomy import type_ids
from parsers.render import render_text
from release.config import BuildConfig
from release.writer import read_manifest
from tests.conftest import corpus_sources


@pytest.fixture(scope="module")
def flow_run(prefect_api: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, FlowRunFilter, LogFilter
    from prefect.client.schemas.sorting import LogSort
    from prefect.logging.handlers import APILogHandler

    from flows.executors.prefect_flow import build

    root = tmp_path_factory.mktemp("flow-run")
    corpus = root / "corpus"
    corpus.mkdir()
    sources = corpus_sources()[:2]
    for source in sources:
        (corpus / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")
    (corpus / "empty.txt").write_text("", encoding="utf-8")
    config = BuildConfig(seed=6, version="v0.1.0")
    state = build(prepare(corpus, root / "out", config), config, return_state=True)
    summary = state.result()
    APILogHandler().flush()  # the run logger sends in the background
    run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id={"any_": [run_id]}))
        logs = client.read_logs(
            log_filter=LogFilter(flow_run_id={"any_": [run_id]}), sort=LogSort.TIMESTAMP_ASC
        )
        artifacts = client.read_artifacts(artifact_filter=ArtifactFilter(flow_run_id={"any_": [run_id]}))
    return {
        "root": root,
        "corpus": corpus,
        "config": config,
        "summary": summary,
        "standard_ids": sorted(gold_document(s).standard_id for s in sources),
        "tasks": tasks,
        "logs": [log.message for log in logs],
        "artifacts": {a.key: a for a in artifacts},
    }


def test_one_task_run_per_stage_and_item(flow_run: dict[str, Any]) -> None:
    names = sorted(t.name for t in flow_run["tasks"])
    expected = ["parse empty.txt", *(f"parse {p.stem}.txt" for p in corpus_sources()[:2])]
    expected += [f"inject {s}" for s in flow_run["standard_ids"]]
    assert names == sorted([*expected, "choose", "assemble", "validate", "write"])
    assert {t.state_name for t in flow_run["tasks"]} == {"Completed"}


def test_the_run_logs_each_stage(flow_run: dict[str, Any]) -> None:
    logs = "\n".join(flow_run["logs"])
    assert "parse: 2 of 3 files parsed, 1 unreadable" in logs
    assert "inject: " in logs and "candidate errors in 2 documents" in logs
    assert "choose: " in logs and "assemble: 2 documents" in logs
    assert "validate: 0 critical" in logs
    assert f"write: {flow_run['summary'].output} (latest)" in logs


def test_the_run_publishes_the_release_summary_and_type_counts(flow_run: dict[str, Any]) -> None:
    summary = flow_run["summary"]
    manifest = read_manifest(summary.output)
    markdown = flow_run["artifacts"]["release-summary"]
    assert markdown.type == "markdown"
    assert f"Output: `{summary.output}`" in markdown.data
    assert f"| documents | {manifest['counts']['documents']} |" in markdown.data
    assert f"| errors | {manifest['counts']['instances']} |" in markdown.data
    assert "| `empty.txt` |" in markdown.data and "passed: critical failures: none" in markdown.data
    table = flow_run["artifacts"]["type-counts"]
    assert table.type == "table"
    rows = json.loads(table.data) if isinstance(table.data, str) else table.data
    assert [r["error_type"] for r in rows] == list(type_ids())
    assert {r["error_type"]: r["instances"] for r in rows} == manifest["counts"]["by_type"]


def test_the_plain_pipeline_gives_the_flows_tables(flow_run: dict[str, Any]) -> None:
    """No Prefect at all: `build_dataset` in this process writes the same tables as the flow."""
    out = flow_run["root"] / "plain"
    summary = build_dataset(flow_run["corpus"], out, flow_run["config"])
    assert summary.output == out / "v0.1.0"
    assert read_manifest(summary.output)["tables"] == read_manifest(flow_run["summary"].output)["tables"]
