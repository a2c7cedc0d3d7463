"""Success rate of the terminology injectors (TER-01…TER-05) and the pre-existing TER violations in real
documents.

    python bench/types_terminology.py [--seeds 20] [--no-real] [--examples 3] [--show]

Each type is injected alone into every document that has a site for it, once per seed with
`random.Random(f"{seed}:{doc_id}:x")` (goal ≥ 95% of attempts). The context is built from every document
measured, as a build does. Then the TER checkers run on the real documents and a few messages per type
are printed for judgement. `--show` prints one injected description per type and document.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "corpus")]

from bench.types import corpus_documents, real_documents  # noqa: E402
from injectors.base import Baseline  # noqa: E402
from injectors.context import InjectionContext  # noqa: E402
from injectors.registry import injectors  # noqa: E402
from parsers.model import Document  # noqa: E402
from validation.linter import lint  # noqa: E402

TYPES = ("TER-01", "TER-02", "TER-03", "TER-04", "TER-05")


def name(doc: Document) -> str:
    return Path(doc.source).name


def success_table(documents: list[Document], context: InjectionContext, seeds: int, show: bool) -> None:
    available = injectors()
    print(f"{'document':44} " + " ".join(f"{t:>9}" for t in TYPES))
    totals: dict[str, Counter[str]] = {t: Counter() for t in TYPES}
    for doc in documents:
        baseline = Baseline(doc)
        cells = []
        for type_id in TYPES:
            injector = available[type_id]
            if not list(injector.sites(doc, context)):
                cells.append(f"{'—':>9}")
                continue
            ok = 0
            for seed in range(seeds):
                attempt = injector.inject(
                    baseline, random.Random(f"{seed}:{doc.doc_id}:x"), context, seed=seed
                )
                totals[type_id]["attempts"] += 1
                if attempt.instance is None:
                    totals[type_id][f"fail_{attempt.reason}"] += 1
                    continue
                ok += 1
                if show and seed == 0:
                    i = attempt.instance
                    print(f"    {type_id} {i.location}: {i.description}")
            totals[type_id]["ok"] += ok
            totals[type_id]["docs"] += 1
            cells.append(f"{ok:>4}/{seeds:<4}")
        print(f"{name(doc)[:44]:44} " + " ".join(cells))
    print()
    print(f"{'type':8} {'docs':>5} {'attempts':>9} {'ok':>6} {'rate':>7}  failures")
    for type_id in TYPES:
        c = totals[type_id]
        rate = c["ok"] / c["attempts"] if c["attempts"] else float("nan")
        reasons = ", ".join(f"{k[5:]}={v}" for k, v in sorted(c.items()) if k.startswith("fail_"))
        print(f"{type_id:8} {c['docs']:5d} {c['attempts']:9d} {c['ok']:6d} {rate:7.1%}  {reasons}")


def pre_existing(real: list[Document], examples: int) -> None:
    by_type: Counter[str] = Counter()
    shown: Counter[str] = Counter()
    for doc in real:
        found = [v for v in lint(doc, TYPES)]
        by_type.update(v.error_type for v in found)
        counts = Counter(v.error_type for v in found)
        print(
            f"{name(doc)[:44]:44} {len(found):4d}  "
            + ", ".join(f"{k}={v}" for k, v in sorted(counts.items()))
        )
        for v in found:
            if shown[v.error_type] < examples:
                shown[v.error_type] += 1
                print(f"    {v.location:6} {v.error_type}  {v.message}")
    print("by type: " + (", ".join(f"{k}={v}" for k, v in sorted(by_type.items())) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--examples", type=int, default=3, help="messages quoted per type")
    parser.add_argument("--show", action="store_true", help="print the seed-0 description per document")
    args = parser.parse_args()
    corpus = corpus_documents()
    real = [] if args.no_real else real_documents()
    documents = corpus + real
    context = InjectionContext.from_documents(documents)
    started = time.perf_counter()
    print(f"## TER injection success ({len(documents)} documents, {args.seeds} seeds)\n")
    success_table(documents, context, args.seeds, args.show)
    print(f"({time.perf_counter() - started:.1f} s)")
    if real:
        print("\n## Pre-existing TER violations in the real documents\n")
        pre_existing(real, args.examples)


if __name__ == "__main__":
    main()
