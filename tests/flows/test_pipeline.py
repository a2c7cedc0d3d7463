"""The build as plain Python: `build_dataset` with no Prefect, its stages in order, small task inputs."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from corpus.stdsource import gold_document
from flows.executors import in_process
from flows.pipeline import build_dataset
from flows.stages import InjectInput, Stage
from parsers.render import render_text
from release.config import BuildConfig
from release.writer import read_manifest
from tests.conftest import corpus_sources

ROOT = Path(__file__).resolve().parents[2]


def write_corpus(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for source in corpus_sources()[:count]:
        (folder / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")


class Recorder:
    """An executor that runs every stage in-process and records what an executor would be given."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, str]] = []  # (stage, label)
        self.items: dict[str, list[Any]] = {}

    def __call__(self, stage: Stage[Any, Any], items: Sequence[Any]) -> Iterator[Any]:
        for item in items:
            self.runs.append((stage.name, stage.label(item)))
            self.items.setdefault(stage.name, []).append(item)
        return in_process(stage, items)


def test_the_pipeline_imports_no_prefect() -> None:
    code = "import sys, flows.pipeline, flows.stages; assert 'prefect' not in sys.modules, 'prefect imported'"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Recorder]:
    root = tmp_path_factory.mktemp("pipeline")
    corpus, out = root / "corpus", root / "out"
    write_corpus(corpus, 2)
    (corpus / "broken.pdf").write_bytes(b"%PDF-1.7\n")
    recorder = Recorder()
    # as the default executor asks: the validation may start GX's own process (a small corpus: no)
    config = BuildConfig(seed=2, version="v0.1.0")
    summary = build_dataset(corpus, out, config, map=recorder, warm_validation=True)
    assert summary.output == out / "v0.1.0" and summary.documents == 2 and not summary.critical_failures
    assert [b["source"] for b in summary.bad_inputs] == ["broken.pdf"]
    return corpus, out, recorder


def test_stages_run_in_order_with_readable_names(built: tuple[Path, Path, Recorder]) -> None:
    corpus, _, recorder = built
    stages = [name for name, _ in recorder.runs]
    assert stages == ["parse"] * 3 + ["inject"] * 2 + ["choose", "assemble", "validate", "write"]
    labels = [label for _, label in recorder.runs]
    assert sorted(labels[:3]) == sorted(f"parse {p.name}" for p in corpus.iterdir())
    standard_ids = sorted(gold_document(s).standard_id for s in corpus_sources()[:2])
    assert sorted(labels[3:5]) == [f"inject {s}" for s in standard_ids]
    assert labels[5:] == ["choose", "assemble", "validate", "write"]


def test_injection_tasks_get_keys_not_the_corpus(built: tuple[Path, Path, Recorder]) -> None:
    """The shared context and the document stay in the work cache; a task input is a few hundred bytes."""
    _, _, recorder = built
    items: list[InjectInput] = recorder.items["inject"]
    for item in items:
        assert len(pickle.dumps(item)) < 4096
        assert (Path(item.work) / "contexts" / f"{item.context_key}.pickle").is_file()
        assert (Path(item.work) / "documents" / f"{item.document_key}.pickle").is_file()


def test_an_unchanged_corpus_runs_no_stage(built: tuple[Path, Path, Recorder]) -> None:
    corpus, out, _ = built
    again = Recorder()
    summary = build_dataset(corpus, out, BuildConfig(seed=2, version="v0.1.1"), map=again)
    assert summary.up_to_date and summary.output is None and again.runs == []
    changed = build_dataset(corpus, out, BuildConfig(seed=3, version="v0.1.1"), map=again)
    assert changed.output == out / "v0.1.1" and again.runs  # another seed is another dataset
    assert read_manifest(out / "v0.1.1")["tables"] != read_manifest(out / "v0.1.0")["tables"]


def test_a_large_build_empties_the_injectors_caches_after_assembly(
    built: tuple[Path, Path, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The release after assembly needs the memory more than the analyses of finished text (about 80 MB
    in a 500-document build); a small build keeps them for the next build in the process."""
    from flows import stages
    from injectors import joint
    from injectors.check import _section_violations

    (item,) = built[2].items["assemble"]
    kept = stages.assemble(item)
    assert _section_violations.cache_info().currsize > 0 and joint._LOST._kept
    monkeypatch.setattr(stages, "FORGET_FROM", len(item.candidates))
    assert stages.assemble(item) == kept
    assert _section_violations.cache_info().currsize == 0 and not joint._LOST._kept


def test_only_a_large_build_validates_in_a_process_of_its_own(
    built: tuple[Path, Path, Recorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small build's tables are too quick to hide GX's import in a new process: it validates here (a test
    session or a scheduled server then imports GX once, not once per build)."""
    from validation import gx_process

    corpus, out, recorder = built
    (small,) = recorder.items["validate"]
    assert len(small.results) < gx_process.WORTH_IT_FROM and not small.warm_validation
    monkeypatch.setattr(gx_process, "WORTH_IT_FROM", len(small.results))
    large = Recorder()
    summary = build_dataset(
        corpus, out, BuildConfig(seed=2, version="v0.2.0"), map=large, warm_validation=True, force=True
    )
    (validate,) = large.items["validate"]
    assert validate.warm_validation and not summary.critical_failures
    assert read_manifest(out / "v0.2.0")["tables"] == read_manifest(out / "v0.1.0")["tables"]
