"""Scope dimension (SCP-01..05): per-type injection success and the scope checkers' pre-existing findings.

    python bench/types_scope.py [--seeds 20] [--no-real] [--verbose]

Each SCP type is injected alone into every document that has a site for it, with seeds 0..N-1 and the rng
`random.Random(f"{seed}:{doc_id}:x")` (goal ≥ 95% of attempts). Then the SCP checkers are run on the real
documents (../shared/corpus-real: *.md, llm-extracted/*.txt and the PDFs) and every finding is printed, so
that each can be judged a true violation of GB/T 1.1 or a false positive.
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
from parsers.errors import ParseError  # noqa: E402
from parsers.model import Document, doc_id_for  # noqa: E402
from validation.linter import lint  # noqa: E402

REAL = ROOT.parent / "shared" / "corpus-real"
TYPES = ("SCP-01", "SCP-02", "SCP-03", "SCP-04", "SCP-05")


def corpus_documents() -> list[Document]:
    """The project's corpus as gold Documents (built from corpus/sources/*.std, no PDF or DOCX parsing)."""
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
    """Real standards that parse (Markdown, LLM-extracted text, PDFs); the scanned one is left out."""
    if not REAL.is_dir():
        return []
    paths = sorted(
        p
        for p in REAL.rglob("*")
        if p.suffix in (".pdf", ".md", ".txt") and p.name != "README.md" and "bad" not in p.parts
    )
    docs = []
    for path in paths:
        try:
            docs.append(parse_file(path))
        except ParseError as exc:
            print(f"skipped {path.name}: {exc}")
    return docs


def success_table(documents: list[Document], context: InjectionContext, seeds: int, verbose: bool) -> None:
    available = {t: i for t, i in injectors().items() if t in TYPES}
    print(f"\n## Per-type success ({len(documents)} documents, {seeds} seeds)")
    header = f"{'document':24}" + "".join(f" {t:>9}" for t in TYPES)
    print(header)
    attempts: Counter[str] = Counter()
    successes: Counter[str] = Counter()
    docs_with_site: Counter[str] = Counter()
    failures: dict[str, Counter[str]] = {t: Counter() for t in TYPES}
    started = time.perf_counter()
    for doc in documents:
        baseline = Baseline(doc)
        row = f"{doc.standard_id[:24]:24}"
        for type_id in TYPES:
            injector = available.get(type_id)
            if injector is None or not list(injector.sites(doc, context)):
                row += f" {'-':>9}"
                continue
            docs_with_site[type_id] += 1
            ok = 0
            for seed in range(seeds):
                attempt = injector.inject(
                    baseline, random.Random(f"{seed}:{doc.doc_id}:x"), context, seed=seed
                )
                attempts[type_id] += 1
                if attempt.instance is not None:
                    ok += 1
                    if verbose and seed == 0:
                        print(f"    {type_id} @{attempt.instance.location}: {attempt.instance.description}")
                else:
                    failures[type_id][attempt.reason] += 1
            successes[type_id] += ok
            row += f" {ok:>4}/{seeds:<4}"
        print(row)
    print(f"\n{'type':8} {'docs':>5} {'attempts':>9} {'ok':>6} {'rate':>7}  failures")
    for type_id in TYPES:
        n = attempts[type_id]
        rate = successes[type_id] / n if n else float("nan")
        reasons = ", ".join(f"{k}={v}" for k, v in failures[type_id].most_common())
        print(
            f"{type_id:8} {docs_with_site[type_id]:5d} {n:9d} {successes[type_id]:6d} {rate:7.1%}  {reasons}"
        )
    print(f"({time.perf_counter() - started:.1f} s)")


def pre_existing(real: list[Document]) -> None:
    print("\n## Pre-existing SCP violations in the real documents")
    by_type: Counter[str] = Counter()
    for doc in real:
        found = lint(doc, TYPES)
        by_type.update(v.error_type for v in found)
        print(f"{Path(doc.source).name:42} {len(found):3d}")
        for v in found:
            print(f"    {v.location:6} {v.error_type}  {v.message}")
    print("by type: " + (", ".join(f"{k}={v}" for k, v in sorted(by_type.items())) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="print the seed-0 instance of each type")
    args = parser.parse_args()
    corpus = corpus_documents()
    real = [] if args.no_real else real_documents()
    documents = corpus + real
    context = InjectionContext.from_documents(documents)
    success_table(documents, context, args.seeds, args.verbose)
    if real:
        pre_existing(real)


if __name__ == "__main__":
    main()
