"""What a rebuild with two rejections changes, compared row by row with the release it starts from.

    python -m bench.review_rebuild [--seed 3] [--documents 12]

Builds the project's corpus (its first N standards, written as text), records two rejections (the first
instance of the first two documents) and accepts every third other instance, rebuilds, and prints the
instances removed, added, changed and unchanged, the accepted ones lost, and the card's sentence. The goal:
2 removed, 2 added, 0 changed, 0 accepted lost, and the card saying the same.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from corpus.stdsource import gold_document
from flows.executors.pool import build_on_pool
from parsers.render import render_text
from release.config import BuildConfig
from review.store import Decision, ReviewStore

ROOT = Path(__file__).resolve().parents[1]


def _rows(release: Path) -> dict[tuple[str, str], dict]:
    rows = pq.read_table(release / "instances.parquet").to_pylist()
    return {(r["doc_id"], json.dumps(r["edit"], sort_keys=True)): r for r in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--documents", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gbtbench-review-rebuild-") as tmp:
        corpus, out = Path(tmp) / "corpus", Path(tmp) / "out"
        corpus.mkdir()
        for source in sorted((ROOT / "corpus" / "sources").glob("*.std"))[: args.documents]:
            (corpus / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")
        build_on_pool(corpus, out, BuildConfig(seed=args.seed, version="v0.1.0"))
        before = _rows(out / "v0.1.0")
        docs = sorted({doc for doc, _ in before})
        rejected = [next(k for k in before if k[0] == doc) for doc in docs[:2]]
        accepted = [k for k in before if k not in rejected][::3]
        with ReviewStore(out / "reviews.sqlite") as store:
            for k in rejected:
                store.record(Decision("v0.1.0", before[k]["instance_id"], "a", "reject", reason="unnatural"))
            for k in accepted:
                store.record(Decision("v0.1.0", before[k]["instance_id"], "a", "accept"))
        build_on_pool(corpus, out, BuildConfig(seed=args.seed, version="v0.1.1"))
        after = _rows(out / "v0.1.1")
        both = before.keys() & after.keys()
        print(f"{len(docs)} documents, {len(before)} instances; 2 rejected, {len(accepted)} accepted")
        print(f"removed    {len(before.keys() - after.keys())}")
        print(f"added      {len(after.keys() - before.keys())}")
        print(f"changed    {sum(before[k] != after[k] for k in both)}")
        print(f"unchanged  {sum(before[k] == after[k] for k in both)}")
        print(f"accepted lost {sum(k not in after for k in accepted)}")
        card = (out / "v0.1.1" / "hf" / "README.md").read_text(encoding="utf-8")
        print(next(line for line in card.splitlines() if "Compared with" in line).split(". ")[1])


if __name__ == "__main__":
    main()
