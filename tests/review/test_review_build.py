"""Review decisions reach the next build: rejections are replaced, fixes ship, the manifest reports them."""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from corpus.stdsource import gold_document
from flows.runtime import settings
from tests.conftest import corpus_sources

settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))

from flows.executors.prefect_flow import run_build  # noqa: E402  (Prefect reads its settings on import)
from flows.pipeline import prepare  # noqa: E402
from injectors.taxonomy import types  # noqa: E402
from parsers.render import render_text  # noqa: E402
from release.config import BuildConfig  # noqa: E402
from release.writer import read_manifest  # noqa: E402
from review.store import Decision, ReviewStore  # noqa: E402

pytestmark = pytest.mark.usefixtures("prefect_api")  # the session's Prefect server, not one per build


def write_corpus(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for source in corpus_sources()[:count]:
        (folder / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")


def rows(release: Path, table: str = "instances") -> list[dict]:
    return pq.read_table(release / f"{table}.parquet").to_pylist()


def key(row: dict) -> tuple[str, str]:
    """What identifies the same error across builds: the document and the edit."""
    return row["doc_id"], json.dumps(row["edit"], sort_keys=True)


def test_a_build_with_no_decisions_is_unchanged(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus, count=1)  # one document: whether a review database changes a build is per build
    plain = run_build(corpus, tmp_path / "a", BuildConfig(seed=5, version="v0.1.0"))
    ReviewStore(tmp_path / "b" / "reviews.sqlite").close()  # a review database with no decisions yet
    empty = run_build(corpus, tmp_path / "b", BuildConfig(seed=5, version="v0.1.0"))
    first, second = read_manifest(plain.output), read_manifest(empty.output)
    assert {k: v["sha256"] for k, v in first["tables"].items()} == {
        k: v["sha256"] for k, v in second["tables"].items()
    }
    assert plain.fingerprint == empty.fingerprint and "review" not in second


def review_by_two(
    store_path: Path,
    rejected: list[dict[str, Any]],
    accepted: list[dict[str, Any]],
    fixed: dict[str, Any],
    retyped: tuple[dict[str, Any], str],
) -> None:
    """alice and bob both reject `rejected` and accept `accepted`, except that bob rejects the first
    accepted one; alice rewrites the description of `fixed`, bob gives `retyped` another type."""
    with ReviewStore(store_path) as store:
        for who in ("alice", "bob"):
            for r in rejected:
                store.record(Decision("v0.1.0", r["instance_id"], who, "reject", reason="unnatural"))
            for n, r in enumerate(accepted):
                if who == "bob" and n == 0:  # one disagreement
                    store.record(Decision("v0.1.0", r["instance_id"], who, "reject", reason="other"))
                else:
                    store.record(Decision("v0.1.0", r["instance_id"], who, "accept"))
        store.record(
            Decision("v0.1.0", fixed["instance_id"], "alice", "fix", fix_description="错误：人工修订的说明。")
        )
        store.record(Decision("v0.1.0", retyped[0]["instance_id"], "bob", "fix", fix_error_type=retyped[1]))


def check_review_summary(review: dict[str, Any], outcome: dict[str, str], base: Path) -> None:
    """The manifest's review summary after `review_by_two` (`outcome`: instance → the majority's decision)."""
    decisions = list(outcome.values())
    accepted = decisions.count("accept")
    assert review["reviewed"] == len(outcome)
    # one accept and one reject is no majority for rejecting: the instance stays
    assert (review["accepted"], review["rejected"], review["fixed"]) == (accepted, 2, 2)
    assert (review["excluded"], review["replaced"]) == (2, 2)
    assert review["fixes_applied"] == review["fixed"] and review["base"] == "v0.1.0"
    sample = [r["instance_id"] for r in rows(base, "review_queue") if r["reason"] == "sample"]
    decided = [outcome[i] for i in sample if i in outcome]
    expected_rate = round(decided.count("accept") / len(decided), 4) if decided else None
    assert review["sample_pass_rate"] == expected_rate
    # alice/bob on the 6 items both decided: 5 agree; alice R R A A A A, bob R R R A A A
    assert review["kappa"] == round((5 / 6 - (2 / 6 * 3 / 6 + 4 / 6 * 3 / 6)) / (1 - 0.5), 4)


def test_a_rebuild_after_rejections_and_fixes(tmp_path: Path) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    write_corpus(corpus, count=2)  # the rejected document and another one whose instances are accepted
    first = run_build(corpus, out, BuildConfig(seed=3, version="v0.1.0"))
    assert first.output is not None and not first.critical_failures
    old = rows(out / "v0.1.0")
    doc = Counter(r["doc_id"] for r in old).most_common(1)[0][0]
    mine = [r for r in old if r["doc_id"] == doc]
    rejected, fixed, retyped = mine[:2], mine[2], mine[3]
    other_type = next(
        t.id for t in types() if t.dimension == retyped["dimension"] and t.id != retyped["error_type"]
    )
    accepted = [r for r in old if r["doc_id"] != doc][:4]
    review_by_two(out / "reviews.sqlite", rejected, accepted, fixed, (retyped, other_type))

    second = run_build(corpus, out, BuildConfig(seed=3, version="v0.1.1"))
    assert second.output == out / "v0.1.1", "a change to the reviews is a new build"
    assert not second.critical_failures
    manifest = read_manifest(out / "v0.1.1")
    assert manifest["validation"]["success"]
    new = rows(out / "v0.1.1")
    new_keys = {key(r): r for r in new}
    assert not any(key(r) in new_keys for r in rejected), "rejected instances are left out"
    old_keys = {key(r) for r in old}
    replacements = [r for r in new if r["doc_id"] == doc and key(r) not in old_keys]
    assert len(replacements) == 2, "one replacement for each rejected instance, the rest as before"
    assert sum(r["doc_id"] == doc for r in new) == len(mine)
    assert new_keys[key(fixed)]["description"] == "错误：人工修订的说明。"
    assert new_keys[key(retyped)]["error_type"] == other_type
    assert new_keys[key(retyped)]["dimension"] == retyped["dimension"]
    items = {r["doc_id"]: r["gold"] for r in rows(out / "v0.1.1", "items")}
    assert "错误：人工修订的说明。" in [g["description"] for g in items[doc]]

    review = manifest["review"]
    outcome = {r["instance_id"]: "reject" for r in rejected}
    outcome |= {r["instance_id"]: "accept" for r in accepted}
    outcome |= {fixed["instance_id"]: "fix", retyped["instance_id"]: "fix"}
    check_review_summary(review, outcome, out / "v0.1.0")
    card = (out / "v0.1.1" / "hf" / "README.md").read_text(encoding="utf-8")
    assert "## Human review" in card and "2 rejected" in card
    assert f"removes 2 (2 rejected), adds 2 and changes {review['changed']} (2 fixes applied)" in card

    again = run_build(corpus, out, BuildConfig(seed=3, version="v0.1.2"))
    assert again.up_to_date, "nothing changed since: no new version"
    with ReviewStore(out / "reviews.sqlite") as store:
        store.record(Decision("v0.1.1", new[0]["instance_id"], "carol", "accept"))
    # the build's own up-to-date check (`run_build` asks `prepare` before any stage runs)
    assert not prepare(corpus, out, BuildConfig(seed=3, version="v0.1.2")).up_to_date


def test_a_rebuild_changes_only_what_the_review_decided(tmp_path: Path) -> None:
    """Two rejections in two documents: every other instance ships byte for byte as before, every accepted
    one stays, and the card's counts are the diff's."""
    corpus, out = tmp_path / "corpus", tmp_path / "out"
    write_corpus(corpus, count=6)  # enough documents that the planner's corpus-wide balance is at work
    run_build(corpus, out, BuildConfig(seed=3, version="v0.1.0"))
    old = rows(out / "v0.1.0")
    docs = sorted({r["doc_id"] for r in old})
    rejected = [next(r for r in old if r["doc_id"] == doc) for doc in docs[:2]]
    accepted = [r for r in old if r not in rejected][::3]
    # fixes no check let through (as an import once wrote them): a type outside the taxonomy, a section the
    # document lacks; each is left unapplied rather than failing the build
    bad_type, bad_place = [r for r in old if r not in rejected][1:3]
    with ReviewStore(out / "reviews.sqlite") as store:
        for r in rejected:
            store.record(Decision("v0.1.0", r["instance_id"], "alice", "reject", reason="unnatural"))
        for r in accepted:
            store.record(Decision("v0.1.0", r["instance_id"], "alice", "accept"))
        store.record(Decision("v0.1.0", bad_type["instance_id"], "bob", "fix", fix_error_type="NOT-A-TYPE"))
        store.record(Decision("v0.1.0", bad_place["instance_id"], "bob", "fix", fix_location="99.99"))

    run_build(corpus, out, BuildConfig(seed=3, version="v0.1.1"))
    before, after = {key(r): r for r in old}, {key(r): r for r in rows(out / "v0.1.1")}
    removed, added = before.keys() - after.keys(), after.keys() - before.keys()
    changed = [k for k in before.keys() & after.keys() if before[k] != after[k]]
    assert removed == {key(r) for r in rejected}
    assert len(added) == 2 and {doc for doc, _ in added} == set(docs[:2]), "one replacement each, in place"
    assert changed == [], "every other instance is shipped exactly as before"
    assert all(key(r) in after for r in accepted)
    review = read_manifest(out / "v0.1.1")["review"]
    assert (review["removed"], review["added"], review["changed"]) == (2, 2, 0)
    assert (review["unchanged"], review["accepted_dropped"]) == (len(old) - 2, 0)
    assert (review["fixes_applied"], review["fixes_not_applied"]) == (0, 2)
    card = (out / "v0.1.1" / "hf" / "README.md").read_text(encoding="utf-8")
    assert (
        f"keeps {len(old) - 2} instances unchanged, removes 2 (2 rejected), adds 2 and changes 0 "
        "(0 fixes applied, 2 not applicable)" in card
    )
