"""Measure the NREF injectors and checkers: success rate per type, pre-existing violations in real standards.

For every corpus document and every real document in ../shared/corpus-real (Markdown, LLM-extracted
text and, when the PDF reader works, PDFs), each NREF type is injected alone with seeds 0..19 exactly as
the planner would call it: `injector.inject(Baseline(doc), random.Random(f"{seed}:{doc_id}:x"), context)`.
An attempt counts when the document has at least one site. Run: `.venv/bin/python bench/types_references.py`.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "corpus")]

from injectors.base import Baseline  # noqa: E402
from injectors.context import InjectionContext  # noqa: E402
from injectors.references import (  # noqa: E402
    CitationFormError,
    InformativeReferenceListed,
    NormativeReferenceUnlisted,
    ReferenceListOutOfOrder,
    UncitedReferenceListed,
)
from parsers import ParseError, parse_file  # noqa: E402
from parsers.model import Document, doc_id_for  # noqa: E402
from validation.linter import Violation  # noqa: E402

SEEDS = range(20)
REAL = ROOT.parent / "shared" / "corpus-real"
TYPES = ("NREF-01", "NREF-02", "NREF-03", "NREF-04", "NREF-05")
INJECTORS = [
    NormativeReferenceUnlisted(),
    UncitedReferenceListed(),
    InformativeReferenceListed(),
    ReferenceListOutOfOrder(),
    CitationFormError(),
]


def corpus_documents() -> list[Document]:
    """The project's corpus, as the gold Documents the tests use (fast: no PDF or DOCX)."""
    import stdsource

    out = []
    for path in sorted((ROOT / "corpus" / "sources").glob("*.std")):
        source = stdsource.load(path)
        out.append(
            Document(
                doc_id=doc_id_for(path.read_bytes()),
                source=str(path),
                format="text",
                standard_id=source.standard_id,
                title=source.title,
                drafting_rules=source.drafting_rules,
                sections=stdsource.expected_sections(source),
                cover=stdsource.cover(source),
            )
        )
    return out


def real_documents() -> tuple[list[Document], list[str]]:
    if not REAL.is_dir():
        return [], ["../shared/corpus-real is absent"]
    paths = [p for p in sorted(REAL.glob("*.md")) if p.name != "README.md"]
    paths += sorted((REAL / "llm-extracted").glob("*.txt")) + sorted(REAL.glob("*.pdf"))
    docs, problems = [], []
    for path in paths:
        try:
            docs.append(parse_file(path))
        except ParseError as exc:
            problems.append(str(exc))
    return docs, problems


def name(doc: Document) -> str:
    return f"{doc.standard_id or Path(doc.source).name} [{doc.format}]"


def main() -> None:
    started = time.time()
    corpus = corpus_documents()
    real, problems = real_documents()
    documents = corpus + real
    context = InjectionContext.from_documents(documents)
    totals: dict[str, Counter[str]] = {t: Counter() for t in TYPES}
    per_doc: list[tuple[str, dict[str, str]]] = []
    pre_existing: dict[str, list[tuple[str, Violation]]] = {t: [] for t in TYPES}
    real_ids = {d.doc_id for d in real}
    for doc in documents:
        baseline = Baseline(doc)
        if doc.doc_id in real_ids:
            for v in sorted(baseline.violations):
                if v.error_type in TYPES:
                    pre_existing[v.error_type].append((name(doc), v))
        row: dict[str, str] = {}
        for injector in INJECTORS:
            stats: Counter[str] = Counter()
            for seed in SEEDS:
                rng = random.Random(f"{seed}:{doc.doc_id}:x")
                injector.inject(baseline, rng, context, seed=seed, stats=stats)
            attempts = sum(stats.values()) - stats["skipped_no_site"]
            totals[injector.error_type]["documents"] += 1
            totals[injector.error_type].update(stats)
            if attempts:
                totals[injector.error_type]["with_site"] += 1
                row[injector.error_type] = f"{stats['injected']}/{attempts}"
            else:
                row[injector.error_type] = "–"
        per_doc.append((name(doc), row))

    print("Success rate per type (attempts on documents with at least one site; 20 seeds each)\n")
    print(f"{'type':8} {'docs':>5} {'w/site':>7} {'attempts':>9} {'injected':>9} {'rate':>7}  failures")
    for t in TYPES:
        c = totals[t]
        failures = {
            k[8:]: v for k, v in sorted(c.items()) if k.startswith("skipped_") and k != "skipped_no_site"
        }
        attempts = c["injected"] + sum(failures.values())
        rate = f"{100 * c['injected'] / attempts:.1f}%" if attempts else "–"
        counts = f"{c['documents']:>5} {c['with_site']:>7} {attempts:>9} {c['injected']:>9}"
        print(f"{t:8} {counts} {rate:>7}  {failures or ''}")

    print("\nPer document (injected/attempts; – = no site)\n")
    print(f"{'document':44} " + " ".join(f"{t:>8}" for t in TYPES))
    for label, row in per_doc:
        print(f"{label[:44]:44} " + " ".join(f"{row[t]:>8}" for t in TYPES))

    print("\nPre-existing NREF violations in the real documents\n")
    for t in TYPES:
        found = pre_existing[t]
        by_doc = Counter(label for label, _ in found)
        print(f"{t}: {len(found)}  " + ", ".join(f"{d}: {n}" for d, n in sorted(by_doc.items())))
        for label, v in sorted(found, key=lambda x: (x[0], x[1].location, x[1].message))[:6]:
            print(f"    {label} @ {v.location}: {v.message}")
    if problems:
        print("\nNot measured: " + "; ".join(problems))
    print(f"\n{len(corpus)} corpus + {len(real)} real documents, {time.time() - started:.1f} s")


if __name__ == "__main__":
    main()
