"""Success rate of the NMS (modal verb) injectors and pre-existing NMS violations in the real documents.

    python bench/types_modality.py [--seeds 20] [--no-real] [--examples 3]

For every corpus document and every real document in ../shared/corpus-real (Markdown, LLM-extracted text
and, when parsers/pdf.py reads them, PDFs), each NMS type is injected alone with seeds 0..N-1 via
`injector.inject(Baseline(doc), random.Random(f"{seed}:{doc.doc_id}:x"), context)` wherever the document
has at least one site (goal ≥ 95% of attempts). Then the NMS checkers' findings on the real documents are
counted by type, with a few quoted examples to judge by hand.
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

from injectors.base import Baseline  # noqa: E402
from injectors.context import InjectionContext  # noqa: E402
from injectors.registry import injectors  # noqa: E402
from parsers import parse_file  # noqa: E402
from parsers.model import Document, doc_id_for  # noqa: E402
from validation.linter import lint  # noqa: E402

REAL = ROOT.parent / "shared" / "corpus-real"
TYPES = ("NMS-01", "NMS-02", "NMS-03", "NMS-04", "NMS-05")
CHECKED = ("NMS-03", "NMS-04", "NMS-05")


def corpus_documents() -> list[Document]:
    """The project's corpus as gold Documents (the sources of truth, no PDF or DOCX involved)."""
    import stdsource

    docs = []
    for path in sorted((ROOT / "corpus" / "sources").glob("*.std")):
        source = stdsource.load(path)
        docs.append(
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
    return docs


def real_documents() -> list[Document]:
    """Every real document that parses (the scanned one in bad/ is left out by design)."""
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
            docs.append(parse_file(path))
        except Exception as exc:  # report and go on: the bench measures what parses
            print(f"skipped {path.name}: {exc}")
    return docs


def name(doc: Document) -> str:
    return Path(doc.source).name


def success_table(documents: list[Document], context: InjectionContext, seeds: int) -> None:
    available = {t: i for t, i in injectors().items() if t in TYPES}
    rows: dict[str, Counter[str]] = {t: Counter() for t in TYPES}
    per_doc: dict[str, list[str]] = {t: [] for t in TYPES}
    started = time.perf_counter()
    for doc in documents:
        for type_id, injector in available.items():
            if not list(injector.sites(doc, context)):
                rows[type_id]["no_site_docs"] += 1
                continue
            ok = 0
            for seed in range(seeds):
                attempt = injector.inject(
                    Baseline(doc), random.Random(f"{seed}:{doc.doc_id}:x"), context, seed=seed
                )
                rows[type_id]["attempts"] += 1
                if attempt.instance is not None:
                    ok += 1
                    rows[type_id]["ok"] += 1
                else:
                    rows[type_id][f"fail_{attempt.reason}"] += 1
            rows[type_id]["docs"] += 1
            if ok < seeds:
                per_doc[type_id].append(f"{name(doc)} {ok}/{seeds}")
    elapsed = time.perf_counter() - started
    print(f"## Success rate, each type alone ({len(documents)} documents, {seeds} seeds, {elapsed:.1f} s)")
    print(f"{'type':7} {'docs':>5} {'no site':>8} {'attempts':>9} {'ok':>6} {'rate':>7}  failures")
    for type_id in TYPES:
        row = rows[type_id]
        n = row["attempts"]
        rate = row["ok"] / n if n else float("nan")
        reasons = ", ".join(f"{k[5:]}={v}" for k, v in sorted(row.items()) if k.startswith("fail_"))
        counts = f"{row['docs']:5d} {row['no_site_docs']:8d} {n:9d} {row['ok']:6d}"
        print(f"{type_id:7} {counts} {rate:7.1%}  {reasons}")
        for line in per_doc[type_id]:
            print(f"          below 100%: {line}")


def pre_existing_table(real: list[Document], examples: int) -> None:
    print("\n## Pre-existing NMS violations in the real documents")
    total: Counter[str] = Counter()
    quoted: dict[str, list[str]] = {t: [] for t in CHECKED}
    for doc in real:
        found = lint(doc, CHECKED)
        counts = Counter(v.error_type for v in found)
        total.update(counts)
        print(f"{name(doc):42} {doc.drafting_rules:14} " + ", ".join(f"{t}={counts[t]}" for t in CHECKED))
        for v in found:
            quoted[v.error_type].append(f"{doc.standard_id} {v.location}: {v.message}")
    print("by type: " + ", ".join(f"{t}={total[t]}" for t in CHECKED))
    for type_id in CHECKED:
        for line in quoted[type_id][:examples] if examples >= 0 else quoted[type_id]:
            print(f"  {type_id} {line}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--examples", type=int, default=-1, help="quoted findings per type (-1: all)")
    args = parser.parse_args()
    corpus = corpus_documents()
    real = [] if args.no_real else real_documents()
    documents = corpus + real
    context = InjectionContext.from_documents(documents)
    success_table(documents, context, args.seeds)
    if real:
        pre_existing_table(real, args.examples)


if __name__ == "__main__":
    main()
