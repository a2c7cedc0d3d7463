"""Per-type injection success, pre-existing violations and planner balance over the corpus and real documents.

    python bench/types.py [--seeds 20] [--no-real] [--dimension STR] [--examples 3]

Prints four tables: each type's success rate when injected alone into every document that has a site
for it (goal ≥ 95%), why each type has no site in the real documents (its `no_site_reason`, counted per
reason), the pre-existing violations the linter finds in the real documents by type, and the planner's
per-document counts and per-type balance across the corpus as the build ships it (its corpus-wide
`choose_balanced`; goal: every type within ±20% of the mean). Real documents that fail the parse gate are
left out, as the build leaves them out.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from corpus.stdsource import gold_documents
from injectors.balance import BALANCE, choose_balanced, deviation
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.planner import PlanConfig, candidate_instances, finalize, inject_document
from injectors.registry import injectors
from injectors.taxonomy import by_id, type_ids
from parsers import parse_file
from parsers.model import Document
from parsers.structure_quality import gate

ROOT = Path(__file__).resolve().parents[1]

REAL = ROOT.parent / "shared" / "corpus-real"


def real_documents() -> list[Document]:
    if not REAL.is_dir():
        return []
    paths = sorted(
        p for p in REAL.rglob("*") if p.suffix in (".pdf", ".md", ".txt") and p.name != "README.md"
    )
    docs = []
    for path in paths:
        if "bad" in path.parts:
            continue
        try:
            document = parse_file(path)
            gate(document)  # the build never injects a document that fails it
            docs.append(document)
        except Exception as exc:  # report and go on: the bench measures what parses
            print(f"skipped {path.name}: {exc}")
    return docs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--dimension", help="only the types of this dimension (STR, SCP, NMS, TER, NREF)")
    parser.add_argument("--planner-seeds", type=int, default=0, help="run the planner on every document")
    parser.add_argument("--examples", type=int, default=0, help="pre-existing findings to quote per type")
    args = parser.parse_args()
    types = [t for t in type_ids() if args.dimension is None or t.startswith(args.dimension.upper() + "-")]
    corpus = gold_documents()
    real = [] if args.no_real else real_documents()
    documents = corpus + real
    context = InjectionContext.from_documents(documents)
    available = {t: i for t, i in injectors().items() if t in types}
    attempts: Counter[str] = Counter()
    successes: Counter[str] = Counter()
    applicable_docs: Counter[str] = Counter()
    failures: dict[str, Counter[str]] = {t: Counter() for t in type_ids()}
    started = time.perf_counter()
    for doc in documents:
        baseline = Baseline(doc)
        for type_id, injector in available.items():
            if not list(injector.sites(doc, context)):
                continue
            applicable_docs[type_id] += 1
            for seed in range(args.seeds):
                attempt = injector.inject(
                    baseline, random.Random(f"{seed}:{doc.doc_id}:x"), context, seed=seed
                )
                attempts[type_id] += 1
                if attempt.instance is not None:
                    successes[type_id] += 1
                else:
                    failures[type_id][attempt.reason] += 1
    elapsed = time.perf_counter() - started
    print(f"\n## Per-type success ({len(documents)} documents, {args.seeds} seeds, {elapsed:.1f} s)")
    print(f"{'type':8} {'docs':>5} {'attempts':>9} {'ok':>6} {'rate':>7}  failures")
    for type_id in types:
        if type_id not in available:
            print(f"{type_id:8} (no injector)")
            continue
        n = attempts[type_id]
        rate = successes[type_id] / n if n else float("nan")
        reasons = ", ".join(f"{k}={v}" for k, v in failures[type_id].most_common())
        print(
            f"{type_id:8} {applicable_docs[type_id]:5d} {n:9d} {successes[type_id]:6d} {rate:7.1%}  {reasons}"
        )

    skip_reasons(real, context, types)
    pre_existing_report(real, types, args.examples)

    print("\n## Planner over the project's corpus (the build's corpus-wide choice, types balanced)")
    shipped_balance(corpus, min(args.seeds, 3))
    if args.planner_seeds:
        planner_sweep(documents, context, args.planner_seeds)


def pre_existing_report(real: list[Document], types: list[str], examples: int) -> None:
    """The real documents' own violations of `types`, per document and per type, quoting `examples` each."""
    print("\n## Pre-existing violations in the real documents")
    by_type: Counter[str] = Counter()
    quoted: Counter[str] = Counter()
    for doc in real:
        found = [v for v in Baseline(doc).violations if v.error_type in types]
        for v in sorted(found):
            if quoted[v.error_type] < examples:
                quoted[v.error_type] += 1
                print(f"    {Path(doc.source).name} {v.location} {v.error_type}: {v.message}")
        by_type.update(v.error_type for v in found)
        print(
            f"{Path(doc.source).name:40} {len(found):4d}  "
            + ", ".join(f"{k}={v}" for k, v in sorted(Counter(v.error_type for v in found).items()))
        )
    print("by type: " + ", ".join(f"{k}={v}" for k, v in sorted(by_type.items())))


def skip_reason_counts(
    documents: list[Document], context: InjectionContext, types: list[str]
) -> dict[str, tuple[int, Counter[str]]]:
    """Per type: the documents where it has a site, and how often each `no_site_reason` fires elsewhere."""
    out: dict[str, tuple[int, Counter[str]]] = {}
    for type_id, injector in injectors().items():
        if type_id not in types:
            continue
        reasons: Counter[str] = Counter()
        with_sites = 0
        for doc in documents:
            if list(injector.sites(doc, context)):
                with_sites += 1
            else:
                reasons[injector.no_site_reason(doc, context)] += 1
        out[type_id] = (with_sites, reasons)
    return out


def skip_reasons(real: list[Document], context: InjectionContext, types: list[str]) -> None:
    """Where a type vanishes on real documents, and why."""
    counts = skip_reason_counts(real, context, types)
    print(f"\n## Why types have no site in the real documents ({len(real)} documents)")
    print(f"{'type':8} {'sites':>5}  no site (reason=documents)")
    for type_id in types:
        if type_id not in counts:
            continue
        with_sites, reasons = counts[type_id]
        listed = ", ".join(f"{k}={v}" for k, v in sorted(reasons.items(), key=lambda x: (-x[1], x[0])))
        print(f"{type_id:8} {with_sites:5d}  {listed or '-'}")


def shipped_balance(corpus: list[Document], seeds: int) -> None:
    """What `gbtbench build` ships on the corpus: its context (the corpus alone), every document's
    candidates, `choose_balanced` and assembly; per-document counts and the largest type deviation."""
    context = InjectionContext.from_documents(corpus)
    config = PlanConfig()
    for seed in range(seeds):
        candidates = [candidate_instances(d, seed, context, config) for d in corpus]
        choice = choose_balanced(candidates, seed, config)
        by_id = {c.document.doc_id: c for c in candidates}
        results = [finalize(by_id[doc_id], list(picked)) for doc_id, picked in choice.chosen.items()]
        counts = Counter(i.error_type for r in results for i in r.instances)
        per_doc = [len(r.instances) for r in results]
        mean = statistics.mean(counts[t] for t in type_ids())
        spread = deviation(counts, type_ids())
        verdict = "ok" if spread <= BALANCE else "FAIL"
        print(
            f"seed {seed}: per-document errors min {min(per_doc)} median {statistics.median(per_doc)} "
            f"max {max(per_doc)}; per-type mean {mean:.1f}, largest deviation {spread:.0%} "
            f"(goal ±{BALANCE:.0%}: {verdict}); documents left out: {len(choice.dropped)}"
        )
        print("   " + " ".join(f"{t}={counts[t]}" for t in type_ids()))


def planner_sweep(documents: list[Document], context: InjectionContext, seeds: int) -> None:
    """Every document, every seed: counts in range, and no shipped instance its checker does not see."""
    print(f"\n## Planner over every document, {seeds} seeds")
    started = time.perf_counter()
    failures = 0
    for doc in documents:
        counts = []
        for seed in range(seeds):
            result = inject_document(doc, seed, context)
            counts.append(len(result.instances))
            found = {(v.location, v.error_type) for v in lint(result.corrupted)}
            failures += sum(
                1
                for i in result.instances
                if by_id()[i.error_type].deterministic and (i.location, i.error_type) not in found
            )
        median = statistics.median(counts)
        print(f"{Path(doc.source).name:40} per seed: min {min(counts)}, median {median}, max {max(counts)}")
    print(f"verification failures shipped: {failures} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
