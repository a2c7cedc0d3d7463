"""Scheduled rebuilds: a flow that builds a new version only when something changed, and may publish it."""

from __future__ import annotations

from pathlib import Path

from prefect import flow, get_run_logger

from flows.executors.prefect_flow import build
from flows.pipeline import prepare
from release.config import BuildConfig
from release.license import data_license
from release.lock import output_lock
from release.versions import latest_version, next_version

# `gbtbench serve` serves its own deployment; prefect.yaml's (run by a work pool) is named otherwise, since a
# deployment is identified by flow and name and one would silently replace the other's schedule
SERVED_DEPLOYMENT = "gbtbench-rebuild-served"
LOCK_WAIT_S = 3600.0  # a scheduled run waits for a manual build of the same folder instead of failing


@flow(name="gbtbench-scheduled-build", validate_parameters=True)
def scheduled_build(
    corpus: str,
    out: str,
    seed: int = 0,
    prefer: str = "pdf",
    publish_to: str | None = None,
    private: bool = False,
) -> str:
    """Returns the new version, or "unchanged" when corpus, configuration and code are as last time."""
    corpus, out = str(Path(corpus).resolve()), str(Path(out).resolve())
    with output_lock(Path(out), wait_s=LOCK_WAIT_S):
        licence, third_party = data_license(Path(corpus))
        config = BuildConfig(
            seed=seed, version=next_version(Path(out)), license=licence, third_party_corpus=third_party
        )
        inputs = prepare(Path(corpus), Path(out), config, prefer)  # review decisions included
        if inputs.up_to_date:
            get_run_logger().info(
                "nothing changed since %s (corpus, configuration, code and reviews): no new version",
                latest_version(Path(out)),
            )
            return "unchanged"
        summary = build(inputs, config)
    if summary.output is None or summary.critical_failures:
        raise RuntimeError(
            f"build {config.version} is not usable: {summary.critical_failures or 'no output'}"
        )
    if publish_to:
        from release.hub import publish

        publish(summary.output, publish_to, private=private)
    return summary.version


def serve(cron: str, corpus: Path, out: Path, seed: int, prefer: str, publish_to: str | None) -> None:
    """Serve the scheduled build from this process (Prefect's `flow.serve`) until interrupted."""
    scheduled_build.serve(
        name=SERVED_DEPLOYMENT,
        cron=cron,
        parameters={
            "corpus": str(corpus),
            "out": str(out),
            "seed": seed,
            "prefer": prefer,
            "publish_to": publish_to,
        },
    )
