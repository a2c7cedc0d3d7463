"""The Prefect build end to end: outputs, caching, resumption, incremental rebuilds, schedules, exit codes."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from corpus.stdsource import gold_document
from flows.runtime import settings
from tests.conftest import corpus_sources
from tests.support.sample_standard import THIN

settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))

from flows import stages  # noqa: E402  (Prefect reads its settings on import)
from flows.executors.prefect_flow import run_build  # noqa: E402
from flows.executors.schedule import scheduled_build  # noqa: E402
from injectors import planner  # noqa: E402
from parsers.render import render_text  # noqa: E402
from release.config import BuildConfig  # noqa: E402
from release.license import data_license  # noqa: E402
from release.writer import read_manifest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("prefect_api")  # one Prefect server for the session


def cli_env(api: str, **extra: str) -> dict[str, str]:
    """The environment of a CLI build in a subprocess: the session's Prefect server, no server of its own."""
    return {**os.environ, "PREFECT_API_URL": api, **extra}


def write_corpus(folder: Path, count: int = 3) -> list[Path]:
    """A small text corpus rendered from the project's own standards."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for source in corpus_sources()[:count]:
        path = folder / f"{source.stem}.txt"
        path.write_text(render_text(gold_document(source)), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every document the injection stage really processes (a cache hit records nothing)."""
    calls: list[str] = []
    real = planner.candidate_instances

    def spy(document, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(document.doc_id)
        return real(document, *args, **kwargs)

    monkeypatch.setattr(stages, "candidate_instances", spy)
    return calls


def test_build_writes_a_release_and_skips_unchanged_inputs(tmp_path: Path, counted: list[str]) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=2)
    (corpus / "broken.pdf").write_bytes(b"%PDF-1.7\n")  # truncated: reported, the rest goes on
    out = tmp_path / "out"
    # a seed no other in-process build of the suite uses: the worker's Prefect task cache is shared
    summary = run_build(corpus, out, BuildConfig(seed=31, version="v1.0.0"))
    assert summary.documents == 2 and not summary.critical_failures
    assert [b["source"] for b in summary.bad_inputs] == ["broken.pdf"]
    release = out / "v1.0.0"
    for name in ("documents", "sections", "instances", "items", "pre_existing", "review_queue"):
        assert (release / f"{name}.parquet").is_file()
    manifest = read_manifest(release)
    assert manifest["version"] == "v1.0.0" and manifest["seed"] == 31
    assert manifest["bad_inputs"] == [{"source": "broken.pdf", "reason": summary.bad_inputs[0]["reason"]}]
    assert (out / "latest").resolve() == release.resolve()
    assert len(counted) == 2

    again = run_build(corpus, out, BuildConfig(seed=31, version="v1.0.1"))
    assert again.up_to_date and not (out / "v1.0.1").exists()

    forced = run_build(corpus, out, BuildConfig(seed=31, version="v1.0.1"), force=True)
    assert forced.output == out / "v1.0.1"
    assert len(counted) == 2  # every document came from the cache
    assert read_manifest(out / "v1.0.1")["tables"] == manifest["tables"]


def test_one_changed_file_reprocesses_that_document_only(tmp_path: Path, counted: list[str]) -> None:
    corpus = tmp_path / "corpus"
    paths = write_corpus(corpus, count=2)
    out = tmp_path / "out"
    run_build(corpus, out, BuildConfig(seed=11, version="v0.1.0"))
    assert len(counted) == 2
    # a body clause changes; the document's scope, terms and references (what other documents' rule
    # templates draw on) stay the same, so the other documents' injections come from the cache
    lines = paths[1].read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("5.1.1")) + 1
    lines[at] += "（本版修订）"
    paths[1].write_text("\n".join(lines), encoding="utf-8")
    summary = run_build(corpus, out, BuildConfig(seed=11, version="v0.1.1"))
    assert summary.output == out / "v0.1.1"
    assert len(counted) == 3  # only the changed document was injected again


def test_an_existing_version_is_never_overwritten(tmp_path: Path, counted: list[str]) -> None:
    """…and the build that would overwrite it stops before any stage runs, not at its last step."""
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)
    out = tmp_path / "out"
    run_build(corpus, out, BuildConfig(seed=1, version="v2.0.0"))
    written = read_manifest(out / "v2.0.0")
    with pytest.raises(FileExistsError, match="never overwritten"):
        run_build(corpus, out, BuildConfig(seed=2, version="v2.0.0"))
    assert len(counted) == 1  # the refused build injected nothing
    assert read_manifest(out / "v2.0.0") == written


def cli_build(corpus: Path, out: Path, api: str, *options: str) -> dict[str, object]:
    """A cold `gbtbench build` in its own process (its own cache); returns the manifest's table hashes."""
    args = [sys.executable, "-m", "flows.cli", "build", f"--corpus={corpus}", f"--out={out}", *options]
    subprocess.run(args, cwd=ROOT, env=cli_env(api), check=True, capture_output=True)
    return json.loads((out / "v0.1.0" / "manifest.json").read_text(encoding="utf-8"))["tables"]


# the reference build's command, as `make build` runs it: --corpus corpus --out outputs, relative to the
# working folder (the other cold builds below give absolute paths, and must write the same tables)
RELATIVE_BUILD = [
    sys.executable,
    "-m",
    "flows.cli",
    "build",
    "--corpus",
    "corpus",
    "--out",
    "outputs",
    "--seed=9",
]


def reference_config(corpus: Path) -> BuildConfig:
    """The configuration the reference build's command line gives (`--seed=9`, the first version)."""
    licence, third_party = data_license(corpus)
    return BuildConfig(seed=9, version="v0.1.0", license=licence, third_party_corpus=third_party)


@pytest.fixture(scope="module")
def reference_build(
    tmp_path_factory: pytest.TempPathFactory, prefect_api: str
) -> tuple[Path, dict[str, object]]:
    """One cold default (process pool) CLI build of a two-document corpus with relative paths, the reference
    the other cold builds match; returns the corpus (absolute) and the table hashes."""
    root = tmp_path_factory.mktemp("reference")
    write_corpus(root / "corpus", count=2)
    result = subprocess.run(
        RELATIVE_BUILD, cwd=root, env=cli_env(prefect_api), capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return root / "corpus", read_manifest(root / "outputs" / "v0.1.0")["tables"]


def test_cli_exit_status_when_nothing_is_usable(tmp_path: Path, prefect_api: str) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "empty.txt").write_text("", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "flows.cli", "build", "--corpus", str(corpus), "--out", str(tmp_path / "out")],
        cwd=ROOT,
        env=cli_env(prefect_api),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "ERROR: empty.txt: " in result.stderr and "ERROR: nothing usable" in result.stderr


# `gbtbench build --llm openai` end to end: tests/reliability/test_llm_cache_recovery.py (one cold build
# checks the endpoint's use and the recovery from a garbled LLM cache)


def test_cold_builds_with_other_task_runners_and_paths_give_the_same_tables(
    tmp_path: Path, prefect_api: str, reference_build: tuple[Path, dict[str, object]]
) -> None:
    """The reference is the default (the process pool, no Prefect) with relative paths, as `make build` runs
    it; the Prefect flow's runners agree, and so does a second cold build elsewhere with absolute paths.

    The process runner runs from the CLI (`--task-runner=process`): a separate process, a separate cache,
    the corpus copied to another folder and given by its absolute path, the tasks on one worker process
    (each worker process costs seconds of imports; tasks finishing out of order are the thread runner's
    case below, and the reference's two pool processes'); the thread runner (the flow every other build
    here runs in this process) runs in this process with the CLI's configuration, cold: no other build of
    the suite uses seed 9 here, so none of its tasks is in this process's task cache. The relative build
    run again has nothing to do.
    """
    corpus, reference = reference_build
    elsewhere = tmp_path / "corpus"  # the same files in another folder: the tables do not depend on where
    shutil.copytree(corpus, elsewhere)
    assert (
        cli_build(
            elsewhere, tmp_path / "process", prefect_api, "--seed=9", "--task-runner=process", "--workers=1"
        )
        == reference
    )
    summary = run_build(corpus, tmp_path / "thread", reference_config(corpus), task_runner="thread")
    assert summary.output is not None and read_manifest(summary.output)["tables"] == reference
    env = cli_env(prefect_api)
    again = subprocess.run(
        RELATIVE_BUILD, cwd=corpus.parent, env=env, capture_output=True, text=True, check=False
    )
    assert again.returncode == 0 and "nothing to build" in again.stderr


def test_a_build_on_an_existing_dask_cluster_gives_the_same_tables(
    tmp_path: Path,
    prefect_api: str,
    reference_build: tuple[Path, dict[str, object]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Dask scheduler's address (`--dask-address`): the tasks run on a cluster started beforehand (as the
    scale-out design describes), in its worker process (one, with two threads: a second process would cost its
    imports again), against the session's Prefect server, and the tables are the default build's. The
    flow runs here (the command line's way to it: the next test)."""
    from distributed import LocalCluster

    corpus, reference = reference_build
    monkeypatch.setenv("PREFECT_API_URL", prefect_api)  # the workers report their task runs here too
    with LocalCluster(n_workers=1, processes=True, threads_per_worker=2, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        config = reference_config(corpus)
        summary = run_build(corpus, tmp_path / "dask", config, task_runner="dask", dask_address=address)
        ran = {prefix for prefix in cluster.scheduler.task_prefixes}
    assert summary.output is not None and read_manifest(summary.output)["tables"] == reference
    stages_here = {"parse_task", "inject_task", "validate_task", "write_task"}
    assert stages_here <= ran  # on this cluster, not on one of the build's own


def test_an_unreachable_dask_scheduler_is_one_clear_error(tmp_path: Path) -> None:
    """`gbtbench build --dask-address` names the scheduler it cannot reach, at once and before any stage
    runs (Dask alone waits 30 s and fails with a traceback)."""
    with socket.socket() as closed:  # a port nothing listens on any more
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)
    address = f"tcp://127.0.0.1:{port}"
    args = ["--out", str(tmp_path / "out"), "--task-runner=dask", f"--dask-address={address}"]
    result = subprocess.run(
        [sys.executable, "-m", "flows.cli", "build", "--corpus", str(corpus), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 2  # nothing done
    assert f"ERROR: cannot reach the Dask scheduler at {address}" in result.stderr
    assert "Traceback" not in result.stderr and not list((tmp_path / "out").glob("v*"))


def test_a_failed_build_resumes_from_its_cached_tasks(
    tmp_path: Path, counted: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)
    out = tmp_path / "out"

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError("No space left on device")

    import release.writer  # the write stage imports it when it runs (a build's workers never do)

    monkeypatch.setattr(release.writer, "write_validated", disk_full)
    with pytest.raises(OSError):
        run_build(corpus, out, BuildConfig(seed=21, version="v0.3.0"))
    assert len(counted) == 1 and not (out / "v0.3.0").exists()
    monkeypatch.undo()
    monkeypatch.setattr(stages, "candidate_instances", lambda *a, **k: pytest.fail("not resumed"))
    summary = run_build(corpus, out, BuildConfig(seed=21, version="v0.3.0"))
    assert summary.output == out / "v0.3.0"


def test_a_document_too_thin_for_ten_errors_is_reported_not_shipped(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)
    (corpus / "thin.txt").write_text(THIN, encoding="utf-8")
    out = tmp_path / "out"
    dead = subprocess.Popen(["true"])
    dead.wait()
    leftover = out / f".v0.1.0.tmp-{dead.pid}-leftover"  # as a killed build leaves it (its pid is dead)
    leftover.mkdir(parents=True)
    summary = run_build(corpus, out, BuildConfig(seed=5, version="v0.1.0"))
    assert summary.documents == 1 and not summary.critical_failures
    assert [b["source"] for b in summary.bad_inputs] == ["thin.txt"]
    assert "errors could be injected" in summary.bad_inputs[0]["reason"]
    assert not leftover.exists()


def test_scheduled_build_publishes_each_new_version_and_nothing_when_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`serve --publish-to`: a new version is built and pushed to the Hub (a local one on 127.0.0.1); an
    unchanged corpus creates no version and publishes nothing."""
    import huggingface_hub.constants

    from tests.servers.hub import LocalHub

    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_TELEMETRY", True)
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=2)
    out = tmp_path / "out"
    with LocalHub(tokens=("hf_scheduled_token",)) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.setenv("HF_TOKEN", "hf_scheduled_token")
        assert scheduled_build(str(corpus), str(out), seed=8, publish_to="org/gbtbench") == "v0.1.0"
        caplog.clear()
        assert scheduled_build(str(corpus), str(out), seed=8, publish_to="org/gbtbench") == "unchanged"
        repo = hub.repo("org/gbtbench")
    assert "nothing changed since v0.1.0" in caplog.text, "a scheduled run that does nothing says so"
    assert sorted(p.name for p in out.iterdir() if p.name.startswith("v")) == ["v0.1.0"]
    assert repo is not None and set(repo.tags) == {"v0.1.0"}
    assert "data/items/test-00000-of-00001.parquet" in repo.files_at("v0.1.0")


def test_serve_and_the_work_pool_deployment_do_not_replace_each_other() -> None:
    """A deployment is identified by its flow and name: `gbtbench serve` and prefect.yaml's must differ."""
    from flows.executors.schedule import SERVED_DEPLOYMENT

    spec = yaml.safe_load((ROOT / "prefect.yaml").read_text(encoding="utf-8"))
    names = [d["name"] for d in spec["deployments"]]
    assert names and SERVED_DEPLOYMENT not in names
    assert all(d["entrypoint"] == "flows/executors/schedule.py:scheduled_build" for d in spec["deployments"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--corpus", "/nonexistent-corpus"], "corpus folder not found"),
        (["--errors", "5-3"], "error count range 5-3 is empty"),
        (["--llm", "gpt"], "gpt"),
    ],
)
def test_cli_build_refuses_bad_options_plainly(tmp_path: Path, options: list[str], message: str) -> None:
    args = [sys.executable, "-m", "flows.cli", "build", "--out", str(tmp_path / "out"), *options]
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode in (1, 2)
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "v0.1.0").exists()


def test_the_process_pool_stores_each_document_and_reprocesses_only_a_changed_one(tmp_path: Path) -> None:
    """The default fast path: documents on worker processes, each result stored in the work cache as it
    finishes; one changed body clause adds one new injection result, and nothing changed builds nothing."""
    from flows.fingerprint import code_version

    corpus = tmp_path / "corpus"
    paths = write_corpus(corpus, count=2)
    out = tmp_path / "out"
    first = run_build(corpus, out, BuildConfig(seed=11, version="v0.1.0"), task_runner="pool", workers=2)
    assert first.documents == 2 and not first.critical_failures
    results = out / ".cache" / "work" / code_version() / "results"
    injected = {p.name for p in results.glob("candidates-*.pickle")}
    assert len(injected) == 2 and len(list(results.glob("parse-*.pickle"))) == 2
    lines = paths[1].read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("5.1.1")) + 1
    lines[at] += "（本版修订）"
    paths[1].write_text("\n".join(lines), encoding="utf-8")
    # one worker is enough for one changed document (each worker start loads the injectors' dictionaries)
    second = run_build(corpus, out, BuildConfig(seed=11, version="v0.1.1"), task_runner="pool", workers=1)
    assert second.output == out / "v0.1.1"
    assert len({p.name for p in results.glob("candidates-*.pickle")} - injected) == 1
    again = run_build(corpus, out, BuildConfig(seed=11, version="v0.1.2"), task_runner="pool", workers=2)
    assert again.up_to_date and not (out / "v0.1.2").exists()
