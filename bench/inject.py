"""CPU per document of the inject stage (candidate instances, rules only), in one warm process.

    python -m bench.inject [--corpus corpus] [--seed 3] [--rounds 1] [--profile 25]

Parses the corpus, builds its injection context, runs one document once to warm up (jieba, the POS
tagger, the lexicons and the registry load on first use), then times `candidate_instances` on every
document: CPU seconds (process time) and wall seconds per document, their median and total, and the
number of full lints the verification ran. Goal: a 500-document build in 3 minutes on 2 cores,
about 0.6 s CPU per document for all stages together. `--profile N` prints the N most expensive
functions of the timed rounds (CPU time).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from pathlib import Path

from injectors.context import InjectionContext
from injectors.planner import PlanConfig, candidate_instances
from parsers import parse_file
from parsers.model import Document

SUFFIXES = (".pdf", ".docx", ".md", ".txt")


def corpus_documents(folder: Path) -> list[Document]:
    paths = sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.name != "README.md")
    return [parse_file(p) for p in paths]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("corpus"))
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0)
    args = parser.parse_args()

    documents = corpus_documents(args.corpus)
    context = InjectionContext.from_documents(documents)
    config = PlanConfig()
    candidate_instances(documents[0], args.seed + 1, context, config)  # warm-up, another seed

    profile = cProfile.Profile(time.process_time) if args.profile else None
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(args.rounds):
        for document in documents:
            c0, w0 = time.process_time(), time.perf_counter()
            if profile is not None:
                profile.enable()
            candidate_instances(document, args.seed, context, config)
            if profile is not None:
                profile.disable()
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
    print(f"inject stage, {len(documents)} documents x {args.rounds} round(s), rules only, warm process")
    for name, seconds in (("CPU", cpu), ("wall", wall)):
        print(
            f"  {name} s per document: median {statistics.median(seconds):.3f}"
            f"  max {max(seconds):.3f}  total {sum(seconds):.2f}"
        )
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
