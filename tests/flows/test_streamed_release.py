"""A build whose memory does not grow with its corpus: results kept on disk and read one at a time, tables
written in one pass and mapped while read, workers replaced in waves, the choice and the assembly of a
large corpus in processes of their own, and parsed documents kept as small records."""

from __future__ import annotations

import pickle
import tempfile
from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from flows import stages
from flows.executors import in_process
from flows.executors import pool as process_pool
from flows.stages import PARSE, AssembleInput, ChooseInput, ParseInput
from flows.work_cache import WorkCache
from injectors.context import ContextPart, InjectionContext
from injectors.planner import PlanConfig, candidate_instances
from parsers.limits import DEFAULT_LIMITS
from release.parquet import file_hash
from release.tables import (
    build_tables,
    documents_table,
    instance_rows,
    instances_table,
    items_table,
    ordered_results,
    pre_existing_table,
    sections_table,
)
from tests.conftest import corpus_sources
from tests.support.release_data import SEED, injected
from tests.support.sample_standard import SAMPLE
from validation.traceability import Flag, check_results


def test_stored_results_come_back_in_doc_id_order_one_at_a_time(tmp_path: Path) -> None:
    results = injected()
    stored = WorkCache(tmp_path).put_results(reversed(results))
    by_id = sorted(results, key=lambda r: r.original.doc_id)
    assert len(stored) == len(results) and list(stored) == by_id
    assert stored[1] == by_id[1] and stored[-1] == by_id[-1] and stored[:2] == by_id[:2]
    assert list(stored) == list(stored)  # every pass reads the files again, with the same result
    assert stored.instances == tuple(len(r.instances) for r in by_id)
    assert ordered_results(stored) is stored  # stored in order: nothing is sorted, so nothing is held
    # a task parameter: the folder and the keys, not the documents
    small = pickle.dumps(stored)
    assert len(small) < 1000 and by_id[0].original.sections[1].text.encode() not in small
    assert WorkCache(tmp_path).put_results(results).keys == stored.keys  # content addresses


def test_one_pass_writes_the_tables_the_per_table_builders_make(tmp_path: Path) -> None:
    results = injected()
    checks = check_results(results)
    stored = WorkCache(tmp_path / "work").put_results(results)
    tables = build_tables(stored, checks, tmp_path / "tables")
    expected = {
        "documents": documents_table(results),
        "sections": sections_table(results),
        "instances": instances_table(results, checks),
        "items": items_table(results),
        "pre_existing": pre_existing_table(results),
    }
    for name, table in tables.as_dict().items():
        assert table.equals(expected[name]), name
        # cut into the same batches: the Parquet bytes of a release do not change with the way it is made
        assert [b.num_rows for b in table.to_batches()] == [b.num_rows for b in expected[name].to_batches()]
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == sorted(f"{n}.arrow" for n in expected)


def test_a_rewritten_table_leaves_what_was_read_before_as_it_was() -> None:
    results = injected()
    tables = build_tables(results)
    before = tables.instances
    some = before.column("instance_id")[0].as_py()
    flags = {some: (Flag("refusal", "抱歉"),)}
    after = tables.rewritten("instances", instance_rows(results, flags))
    assert tables.instances.equals(before) and not after.instances.equals(before)
    assert after.instances.equals(instances_table(results, flags))
    assert after.documents.equals(tables.documents)


def test_empty_tables_are_written_and_read_back() -> None:
    tables = build_tables(())
    assert all(t.num_rows == 0 for t in tables.as_dict().values())
    assert tables.instances.schema == instances_table(()).schema


def test_the_context_from_each_documents_part_is_the_context_of_the_corpus() -> None:
    documents = [r.original for r in injected()]
    shuffled = list(reversed(documents))
    from_parts = InjectionContext.from_parts(ContextPart.of(d) for d in shuffled)
    assert from_parts == InjectionContext.from_documents(documents)
    assert from_parts.digest() == InjectionContext.from_documents(documents).digest()


def test_a_large_corpus_is_chosen_and_assembled_in_processes_of_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same choice and the same results as in this process, from a child that ends with the stage."""
    documents = [gold_document(p) for p in corpus_sources()[:3]]
    context = InjectionContext.from_documents(documents)
    with tempfile.TemporaryDirectory(prefix="gbtbench-work-") as folder:
        work = WorkCache(Path(folder))
        found = [candidate_instances(d, SEED, context, PlanConfig()) for d in documents]
        keys = tuple(work.put_candidates(c) for c in sorted(found, key=lambda c: c.document.doc_id))
        choose_input = ChooseInput(folder, keys, SEED, PlanConfig())
        here = stages.choose(choose_input)
        results_here = list(stages.assemble(AssembleInput(folder, keys, here)))

        started: list[str] = []
        real = stages.beside

        def counted(step, *args, worth_it=True):  # type: ignore[no-untyped-def]
            started.append(step.__name__ if worth_it else "here")
            return real(step, *args, worth_it=worth_it)

        monkeypatch.setattr(stages, "APART_FROM", 1)
        monkeypatch.setattr(stages, "beside", counted)
        apart = stages.choose(choose_input)
        results_apart = list(stages.assemble(AssembleInput(folder, keys, apart)))
    assert started == ["_choose", "_assemble"]
    assert apart == here and results_apart == results_here


def test_pool_workers_are_replaced_after_each_wave(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    files = []
    for n in range(5):
        path = tmp_path / f"standard-{n}.txt"
        path.write_text(SAMPLE.replace("99901", f"9990{n}"), encoding="utf-8")
        files.append(path)
    items = [ParseInput(str(p), file_hash(p), "test", DEFAULT_LIMITS) for p in files]
    pools: list[object] = []
    real = process_pool.ProcessPoolExecutor

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            pools.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(process_pool, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(process_pool, "RECYCLE_AFTER", 1)
    with process_pool.ProcessMap(tmp_path / "results", workers=2) as pool:
        got = sorted(pool(PARSE, items), key=lambda p: p.path)
    assert len(pools) == 3  # waves of 2, 2 and 1 documents
    expected = sorted(in_process(PARSE, items), key=lambda p: p.path)
    assert [p.document for p in got] == [p.document for p in expected]
    assert all(p.document is not None for p in got) and len(got) == len(files)
