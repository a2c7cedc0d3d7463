"""Where a type's forms can come from: per form, the documents that offer it and what taking it costs.

    python bench/form_supply.py [--type STR-01] [--no-real | --no-corpus]

For each form of the type, the documents whose verified candidates offer it, each with the other types whose
candidates there it clashes with (the errors it would take with it; after each, how many documents offer
that type at all), then the forms' shares in the balanced choice the build ships. The audit's form goal (no
form in more than 40% of a type's instances) can only be met where enough documents offer the other forms
at a cost the balance can bear: a form whose every offer takes a type few documents offer cannot be taken
often without pushing that type out of balance.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass

from bench.types import real_documents
from corpus.stdsource import gold_documents
from injectors.balance import choose_balanced
from injectors.base import clashes
from injectors.context import InjectionContext
from injectors.edit import footprint
from injectors.joint import kept_together
from injectors.planner import Candidates, PlanConfig, candidate_instances
from parsers.model import Document


@dataclass(frozen=True)
class Offer:
    """One document's candidate of a form, and the other types' candidates it cannot go with."""

    doc_id: str
    clashing: tuple[str, ...]


def form_offers(candidates: list[Candidates], error_type: str) -> dict[str, list[Offer]]:
    """Per form of `error_type` (by `provenance.form`), every document's candidate of it."""
    offers: dict[str, list[Offer]] = {}
    for c in candidates:
        prints = {id(i): footprint(i.edit) for i in c.instances}
        for mine in (i for i in c.instances if i.error_type == error_type):
            clashing = {
                other.error_type
                for other in c.instances
                if other.error_type != error_type and clashes(prints[id(mine)], prints[id(other)], c.document)
            }
            form = mine.provenance.form or "-"
            offers.setdefault(form, []).append(Offer(c.document.doc_id, tuple(sorted(clashing))))
    return offers


def reach(candidates: list[Candidates]) -> Counter[str]:
    """How many documents offer each type."""
    return Counter(t for c in candidates for t in {i.error_type for i in c.instances})


def shipped_forms(candidates: list[Candidates], error_type: str, seed: int = 0) -> Counter[str]:
    """The forms of `error_type` in the balanced choice, as assembled."""
    choice = choose_balanced(candidates, seed, PlanConfig())
    forms: Counter[str] = Counter()
    for c in candidates:
        picked = list(choice.chosen.get(c.document.doc_id, ()))
        kept = kept_together(c.baseline.document, picked)
        forms.update(i.provenance.form or "-" for i in kept if i.error_type == error_type)
    return forms


def report(documents: list[Document], error_type: str) -> None:
    context = InjectionContext.from_documents(documents)
    candidates = [candidate_instances(d, 0, context, PlanConfig()) for d in documents]
    offered = reach(candidates)
    print(f"{error_type}: {len(documents)} documents, each type offered by (documents):")
    print("  " + " ".join(f"{t}:{n}" for t, n in sorted(offered.items())))
    for form, offers in sorted(form_offers(candidates, error_type).items()):
        print(f"form {form}: offered by {len(offers)} documents")
        for offer in offers:
            cost = ", ".join(f"{t}({offered[t]})" for t in offer.clashing) or "nothing"
            print(f"  {offer.doc_id}  takes {cost}")
    shipped = shipped_forms(candidates, error_type)
    total = sum(shipped.values())
    shares = ", ".join(f"{f} {n}" for f, n in shipped.most_common())
    top = max(shipped.values(), default=0)
    print(f"shipped: {total} instances ({shares}); top form {top / total:.0%}" if total else "shipped: none")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--type", default="STR-01")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--no-real", action="store_true", help="only the project's corpus")
    source.add_argument("--no-corpus", action="store_true", help="only the real documents")
    args = parser.parse_args()
    if not args.no_real:
        report(real_documents(), args.type)
    if not args.no_corpus:
        report(gold_documents(), args.type)


if __name__ == "__main__":
    main()
