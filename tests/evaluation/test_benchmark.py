"""A release as the scorer sees it, cut to the documents a run was asked."""

from __future__ import annotations

from evaluation.benchmark import Benchmark, BenchmarkItem, GoldError

BENCHMARK = Benchmark(
    "v9.9.9",
    tuple(
        BenchmarkItem(doc_id, (GoldError("5.1", "NMS", "NMS-03"),), ())
        for doc_id in ("doc-a", "doc-b", "doc-c", "doc-d")
    ),
    fingerprint="f" * 16,
)


def test_a_limited_run_is_scored_on_the_documents_it_was_asked() -> None:
    assert BENCHMARK.first(None) is BENCHMARK
    assert [i.doc_id for i in BENCHMARK.first(2).items] == ["doc-a", "doc-b"]
    assert [i.doc_id for i in BENCHMARK.only(iter(["doc-d", "doc-b", "elsewhere"])).items] == [
        "doc-b",
        "doc-d",
    ]
    cut = BENCHMARK.only(["doc-c"])
    assert (cut.version, cut.fingerprint) == (BENCHMARK.version, BENCHMARK.fingerprint)
