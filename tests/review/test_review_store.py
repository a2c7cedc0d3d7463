"""The review database, agreement figures computed by hand, review-stats and the Label Studio round trip."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.cli import app as cli
from review.agreement import agreement, cohen_kappa, krippendorff_alpha
from review.labelstudio import export_tasks, labelling_config, write_export
from review.queue import ReleaseQueue
from review.store import Decision, ReviewStore, ReviewStoreError
from tests.support.release_data import injected
from tests.support.review_release import write_review_release

runner = CliRunner()


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_review_release(tmp_path_factory.mktemp("rel"), results=injected(2))


def test_the_history_is_append_only_and_current_is_the_latest_per_annotator(tmp_path: Path) -> None:
    with ReviewStore(tmp_path / "r.sqlite") as store:
        store.record(Decision("v1", "i1", "alice", "accept"))
        store.record(Decision("v1", "i1", "bob", "reject", reason="unnatural"))
        store.record(Decision("v1", "i1", "alice", "reject", reason="other"))
        store.record(Decision("v2", "i1", "alice", "accept"))
        assert [(d.annotator, d.decision) for d in store.current("v1")] == [
            ("bob", "reject"),
            ("alice", "reject"),
        ]
        assert len(store.history("v1", "i1")) == 3
    raw = sqlite3.connect(tmp_path / "r.sqlite")
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("UPDATE decisions SET decision = 'accept'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        raw.execute("DELETE FROM decisions")
    raw.close()
    with ReviewStore(tmp_path / "r.sqlite") as again:  # survives a restart
        assert again.count() == 4


def test_several_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    """Two app processes (two stores on one file), each with several request threads."""
    path = tmp_path / "reviews.sqlite"
    stores = [ReviewStore(path), ReviewStore(path)]

    def work(n: int) -> None:
        for k in range(50):
            stores[n % 2].record(Decision("v1", f"i{k}", f"annotator{n}", "accept"))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert stores[0].count() == 300 and len(stores[1].current("v1")) == 300
    for store in stores:
        store.close()


def test_a_corrupt_database_gives_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "reviews.sqlite"
    bad.write_bytes(b"this is not a database at all, just text" * 100)
    with pytest.raises(ReviewStoreError, match=r"reviews.sqlite: not a usable review database"):
        ReviewStore(bad)


def test_a_locked_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "reviews.sqlite"
    store = ReviewStore(path, timeout=0.2)
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing and not letting go
    try:
        with pytest.raises(ReviewStoreError, match=r"reviews.sqlite: the review database is locked"):
            store.record(Decision("v1", "i1", "alice", "accept"))
    finally:
        holder.rollback()
        holder.close()
    assert store.record(Decision("v1", "i1", "alice", "accept")).id == 1  # nothing was lost or half-written
    assert store.count() == 1


def test_reads_do_not_wait_for_a_writer_waiting_on_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "reviews.sqlite"
    store = ReviewStore(path, timeout=3.0)
    store.record(Decision("v1", "i0", "bob", "accept"))
    holder = sqlite3.connect(path)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing and not letting go
    failed: list[BaseException] = []

    def write() -> None:
        try:
            store.record(Decision("v1", "i1", "alice", "accept"))
        except ReviewStoreError as exc:
            failed.append(exc)

    writer = threading.Thread(target=write)
    try:
        writer.start()
        time.sleep(0.3)  # the writer holds the store's writing connection, waiting for the lock
        started = time.monotonic()
        assert [d.instance_id for d in store.current("v1")] == ["i0"]
        assert store.count() == 1 and len(store.history("v1", "i0")) == 1
        assert store.assigned("v1", "bob") == set()
        assert time.monotonic() - started < 1.0
        assert writer.is_alive()
        writer.join(10)
    finally:
        holder.rollback()
        holder.close()
    assert len(failed) == 1 and "locked" in str(failed[0])
    assert store.count() == 1
    store.close()
    with pytest.raises(ReviewStoreError, match="closed"):  # a closed store opens no new connection
        store.count()


def test_cohen_kappa_and_krippendorff_alpha_by_hand() -> None:
    a = list("AAAAAARRRA")
    b = list("AAAAARRRAA")
    # p_o = 8/10, p_e = 0.7·0.7 + 0.3·0.3 = 0.58, κ = 0.22 / 0.42
    assert cohen_kappa(a, b) == pytest.approx(0.22 / 0.42)
    # two coders, binary: α = 1 − (n − 1)·o_AR / (n_A·n_R) = 1 − 19·2 / (14·6)
    assert krippendorff_alpha(list(zip(a, b, strict=True))) == pytest.approx(1 - 38 / 84)
    # three coders: o_AA = 4, o_RR = 3, o_AR = o_RA = 1, n = 9: α = 1 − 2 / (2·5·4 / 8)
    assert krippendorff_alpha([("A", "A", "A"), ("A", "A", "R"), ("R", "R", "R"), ("A",)]) == pytest.approx(
        0.6
    )
    assert cohen_kappa(["A", "A"], ["A", "A"]) is None  # chance agreement is total: undefined
    assert cohen_kappa([], []) is None


def overlapping(store: ReviewStore, ids: list[str]) -> None:
    """alice and bob decide the first ten items as in the hand computation, plus one each alone."""
    alice, bob = "AAAAAARRRA", "AAAAARRRAA"
    for n, iid in enumerate(ids[:10]):
        for who, labels in (("alice", alice), ("bob", bob)):
            if labels[n] == "A":
                store.record(Decision("v0.1.0", iid, who, "accept"))
            else:
                store.record(Decision("v0.1.0", iid, who, "reject", reason="not_detectable"))
    store.record(Decision("v0.1.0", ids[10], "alice", "accept"))
    store.record(Decision("v0.1.0", ids[11], "bob", "reject", reason="other"))


def test_review_stats_gives_the_kappa_computed_by_hand(release: Path, tmp_path: Path) -> None:
    db = tmp_path / "reviews.sqlite"
    ids = [i.instance_id for i in ReleaseQueue(release).items]
    assert len(ids) >= 12
    with ReviewStore(db) as store:
        overlapping(store, ids)
    result = runner.invoke(cli, ["review-stats", str(release), "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    overall = report["agreement"]["overall"]
    assert overall["items"] == 10  # items only one annotator decided do not count
    assert overall["kappa"] == round(0.22 / 0.42, 4) == 0.5238
    assert overall["alpha"] == round(1 - 38 / 84, 4)
    assert report["decided_items"] == 12
    text = runner.invoke(cli, ["review-stats", str(release), "--db", str(db)])
    assert "Cohen's kappa 0.524" in text.stdout and "alice / bob: 10 items, kappa 0.524" in text.stdout


def test_agreement_per_dimension_splits_the_items() -> None:
    decisions = [
        Decision("v", "s1", "a", "accept"),
        Decision("v", "s1", "b", "accept"),
        Decision("v", "s2", "a", "reject", reason="other"),
        Decision("v", "s2", "b", "reject", reason="other"),
        Decision("v", "t1", "a", "accept"),
        Decision("v", "t1", "b", "fix", fix_description="x"),  # a fix keeps the instance: accept
    ]
    report = agreement(decisions, {"s1": "SCP", "s2": "SCP", "t1": "TER"})
    assert report["by_dimension"]["SCP"]["kappa"] == 1.0 and report["by_dimension"]["SCP"]["items"] == 2
    assert report["by_dimension"]["TER"]["items"] == 1 and report["by_dimension"]["TER"]["kappa"] is None


def test_review_stats_on_a_corrupt_database_is_one_line(release: Path, tmp_path: Path) -> None:
    db = tmp_path / "reviews.sqlite"
    db.write_bytes(b"\0garbage" * 500)
    result = runner.invoke(cli, ["review-stats", str(release), "--db", str(db)])
    assert result.exit_code == 2
    assert result.stderr.strip().count("\n") == 0 and "not a usable review database" in result.stderr
    assert "Traceback" not in result.output


def test_review_refuses_a_public_address_without_a_token(release: Path, tmp_path: Path) -> None:
    result = runner.invoke(
        cli, ["review", str(release), "--host", "0.0.0.0", "--db", str(tmp_path / "r.sqlite")], env={}
    )
    assert result.exit_code == 2 and "GBTBENCH_REVIEW_TOKEN" in result.stderr


def test_export_writes_both_files(release: Path, tmp_path: Path) -> None:
    written = write_export(ReleaseQueue(release), tmp_path)
    assert written.count == len(export_tasks(ReleaseQueue(release)))
    assert written.config.read_text(encoding="utf-8") == labelling_config()
