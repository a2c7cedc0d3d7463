"""Success rate of the STR injectors and pre-existing STR violations, over the corpus and the real documents.

    python bench/types_structure.py [--seeds 20] [--no-real] [--examples 3]

For every document with at least one site for a type, the type is injected alone with seeds 0..N-1
(`injector.inject(Baseline(doc), random.Random(f"{seed}:{doc.doc_id}:x"), context)`, goal ≥ 95% of the
attempts); then the STR violations that the linter already finds in the real documents are counted by
type and document, with a few quoted examples to judge.
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

REAL = ROOT.parent / "shared" / "corpus-real"
TYPES = ("STR-01", "STR-02", "STR-03", "STR-04", "STR-05")


def corpus_documents() -> list[Document]:
    """The project's corpus as gold Documents (the same as tests/conftest.py builds)."""
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
    """*.md, llm-extracted/*.txt and the PDFs of ../shared/corpus-real (bad/ excluded); failures reported."""
    if not REAL.is_dir():
        return []
    paths = [
        *sorted(REAL.glob("*.md")),
        *sorted((REAL / "llm-extracted").glob("*.txt")),
        *sorted(REAL.glob("*.pdf")),
    ]
    docs = []
    for path in paths:
        if path.name == "README.md":
            continue
        try:
            docs.append(parse_file(path))
        except Exception as exc:  # report and go on: the bench measures what parses
            print(f"skipped {path.name}: {exc}")
    return docs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    corpus = corpus_documents()
    real = [] if args.no_real else real_documents()
    documents = corpus + real
    context = InjectionContext.from_documents(documents)
    available = {t: i for t, i in injectors().items() if t in TYPES}
    started = time.perf_counter()
    rows: dict[tuple[str, str], tuple[int, int, Counter[str]]] = {}
    for doc in documents:
        baseline = Baseline(doc)
        for type_id, injector in available.items():
            if not list(injector.sites(doc, context)):
                continue
            ok, reasons = 0, Counter()
            for seed in range(args.seeds):
                rng = random.Random(f"{seed}:{doc.doc_id}:x")
                attempt = injector.inject(baseline, rng, context, seed=seed)
                if attempt.instance is not None:
                    ok += 1
                else:
                    reasons[attempt.reason] += 1
            rows[(Path(doc.source).name, type_id)] = (args.seeds, ok, reasons)
    elapsed = time.perf_counter() - started

    print(f"\n## STR success rate ({len(documents)} documents, {args.seeds} seeds, {elapsed:.1f} s)")
    names = [Path(d.source).name for d in documents]
    width = max(len(n) for n in names)
    print(f"{'document':{width}} " + " ".join(f"{t:>8}" for t in TYPES))
    for name in names:
        cells = []
        for t in TYPES:
            if (name, t) not in rows:
                cells.append(f"{'–':>8}")
                continue
            n, ok, _ = rows[(name, t)]
            cells.append(f"{ok:>4}/{n:<3}")
        print(f"{name:{width}} " + " ".join(cells))
    print(f"\n{'type':8} {'docs':>5} {'attempts':>9} {'ok':>6} {'rate':>7}  failures")
    for t in TYPES:
        mine = [v for (name, tt), v in rows.items() if tt == t]
        n = sum(v[0] for v in mine)
        ok = sum(v[1] for v in mine)
        reasons: Counter[str] = Counter()
        for v in mine:
            reasons.update(v[2])
        rate = ok / n if n else float("nan")
        detail = ", ".join(f"{k}={v}" for k, v in reasons.most_common())
        print(f"{t:8} {len(mine):5d} {n:9d} {ok:6d} {rate:7.1%}  {detail}")

    print("\n## Pre-existing STR violations in the real documents")
    by_type: Counter[str] = Counter()
    examples: dict[str, list[str]] = {t: [] for t in TYPES}
    for doc in real:
        found = sorted(v for v in Baseline(doc).violations if v.error_type in TYPES)
        counts = Counter(v.error_type for v in found)
        by_type.update(counts)
        name = Path(doc.source).name
        print(f"{name:{width}} {len(found):4d}  " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
        for v in found:
            if len(examples[v.error_type]) < args.examples * 4:
                examples[v.error_type].append(f"{name} {v.location}: {v.message}")
    print("by type: " + ", ".join(f"{t}={by_type[t]}" for t in TYPES))
    for t in TYPES:
        if examples[t]:
            print(f"\n{t} examples:")
            for line in examples[t]:
                print(f"  {line}")


if __name__ == "__main__":
    main()
