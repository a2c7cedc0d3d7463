"""The per-document planner: how many errors, of which types, where — seeded and balanced.

Every random choice comes from a generator seeded by (build seed, doc_id, slot), so a document's
errors depend only on the document, the configuration and the seed. Types are balanced across a corpus
by passing the running `type_counts` from one document to the next (least-used applicable type first).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import regex

from injectors.added_wording import added_wording
from injectors.base import Baseline, Rewriter, clashes
from injectors.checking import Violation
from injectors.concurrent import llm_workers, map_concurrently
from injectors.context import InjectionContext
from injectors.edit import apply_edits, followed_renames, footprint, rename_all, replay
from injectors.instance import ErrorInstance, FlaggedCandidate, instance_id
from injectors.joint import kept_together, lost_in
from injectors.registry import injectors
from injectors.taxonomy import by_id, type_ids
from parsers.model import Document


@dataclass(frozen=True)
class PlanConfig:
    min_errors: int = 10
    max_errors: int = 18
    types: tuple[str, ...] = field(default_factory=type_ids)

    def __post_init__(self) -> None:
        if not 1 <= self.min_errors <= self.max_errors:
            raise ValueError(f"error count range {self.min_errors}-{self.max_errors} is empty")
        unknown = [t for t in self.types if t not in by_id()]
        if unknown:
            raise ValueError(f"unknown error types: {', '.join(unknown)}")


@dataclass(frozen=True)
class InjectionResult:
    original: Document
    corrupted: Document
    instances: tuple[ErrorInstance, ...]
    pre_existing: tuple[Violation, ...]
    skipped: dict[str, str]  # type → why it could not be injected in this document
    stats: dict[str, Counter[str]] = field(default_factory=dict)  # per type: injected, skipped_<reason>
    # LLM rewrites that failed their constraints where no rule template fitted: for review, never gold
    flagged: tuple[FlaggedCandidate, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The corrupted document as `parse --json` prints it, plus instances and pre-existing violations."""
        row = self.corrupted.to_dict(provenance=False)
        del row["cover"]
        row["instances"] = [i.to_dict() for i in self.instances]
        row["pre_existing"] = [v.to_dict() for v in self.pre_existing]
        row["skipped"] = self.skipped
        if self.flagged:
            row["flagged"] = [f.to_dict() for f in self.flagged]
        return row


def slot_rng(seed: int, doc_id: str, slot: int | str) -> random.Random:
    return random.Random(f"{seed}:{doc_id}:{slot}")


def error_count(rng: random.Random, config: PlanConfig) -> int:
    """Triangular over the range, peaking at 3/4 of it: median 15 for 10–18, as in the paper."""
    lo, hi = config.min_errors, config.max_errors
    mode = lo + (hi - lo) * 3 / 4
    return max(lo, min(hi, round(rng.triangular(lo, hi, mode))))


@dataclass(frozen=True)
class Candidates:
    """Every verified error one document can take, mutually compatible; the expensive, cacheable part."""

    document: Document
    baseline: Baseline
    instances: tuple[ErrorInstance, ...]
    skipped: dict[str, str]
    stats: dict[str, Counter[str]]
    flagged: tuple[FlaggedCandidate, ...] = ()  # LLM rewrites for review (never gold), see InjectionResult
    # instance id → its added wording (`added_wording`), computed with the candidates (in a build's worker):
    # the corpus-wide choice reads it for every candidate in every pass, and a document's n-grams cost a
    # segmentation of its whole text
    added: dict[str, frozenset[tuple[str, ...]]] = field(default_factory=dict)

    def added_wording(self, instance: ErrorInstance) -> frozenset[tuple[str, ...]]:
        known = self.added.get(instance.instance_id)
        return known if known is not None else added_wording(instance, self.document)


ALTERNATIVES = 2  # verified instances per type and document, at different sections


def candidate_instances(
    document: Document,
    seed: int,
    context: InjectionContext,
    config: PlanConfig | None = None,
    rewriter: Rewriter | None = None,
) -> Candidates:
    """Up to two verified instances per applicable type, each type found independently of the others.

    Independence matters: a chapter removed for STR-01 must not keep the terms types from ever being
    considered. `choose` then picks a compatible subset. The result depends only on the document, the
    context, the configuration and the seed, so it can be cached per document while the corpus-wide
    balancing stays cheap.
    """
    config = config or PlanConfig()
    available = injectors()
    baseline = Baseline(document)
    skipped = {t: "no_injector" for t in config.types if t not in available}
    types = [t for t in config.types if t in available]
    stats: dict[str, Counter[str]] = {t: Counter() for t in types}

    def one_type(error_type: str) -> tuple[list[ErrorInstance], list[FlaggedCandidate], str | None]:
        found: list[ErrorInstance] = []
        flagged: list[FlaggedCandidate] = []
        for k in range(ALTERNATIVES):
            attempt = available[error_type].inject(
                baseline,
                slot_rng(seed, document.doc_id, f"{error_type}:{k}"),
                context,
                taken=[i.edit for i in found],
                seed=seed,
                stats=stats[error_type],
                rewriter=rewriter,
            )
            flagged.extend(attempt.flagged)
            if attempt.instance is None:
                return found, flagged, None if found else attempt.reason
            found.append(attempt.instance)
        return found, flagged, None

    instances: list[ErrorInstance] = []
    flagged: list[FlaggedCandidate] = []
    # types are independent of each other, so with a model to wait for they run side by side (same results)
    for error_type, (found, type_flagged, reason) in zip(
        types, map_concurrently(one_type, types, llm_workers(rewriter)), strict=True
    ):
        flagged.extend(type_flagged)
        if reason is not None:
            skipped[error_type] = reason
        instances.extend(found)
    added = {i.instance_id: added_wording(i, document) for i in instances}
    return Candidates(
        document, baseline, tuple(instances), dict(sorted(skipped.items())), stats, tuple(flagged), added
    )


def choose(
    candidates: Candidates,
    seed: int,
    config: PlanConfig,
    type_counts: Counter[str] | None = None,
    later: Counter[str] | None = None,
    scale: float = 1.0,
    said: Counter[tuple[str, tuple[str, ...]]] | None = None,
    boost: Counter[str] | None = None,
) -> list[ErrorInstance]:
    """Pick 10–18 compatible candidates: types not yet used here first, then the corpus's least used.

    "Least used" counts what a type can still reach: its count so far plus `later`, the documents still
    to come that offer it. A type few documents offer is then taken wherever it is offered, and the
    common types share the rest evenly; without `later` (one document alone) it is the count so far.
    `scale` (< 1 when a scarce type must not fall behind, see `choose_balanced`) shrinks the document's
    drawn count, never below `min_errors`. A candidate whose new wording an earlier document's instance of
    its type already added (`said`, see `added_wording`: the audit's stock n-grams) goes after every
    candidate that repeats nothing, and past `min_errors` is not taken at all, unless its type was left
    behind (`boost`): a document takes fewer errors rather than stock wording. A type in
    `boost` (left behind by an earlier pass of `choose_balanced`) counts as that many fewer.

    The picks are then assembled and re-checked together (`injectors.joint`): one that no longer holds on
    the final document (its term deleted by another's chapter removal, its clause moved) is dropped and
    another compatible candidate takes its place, re-checked in turn, so the document keeps its count.
    """
    counts = type_counts if type_counts is not None else Counter()
    ahead = later if later is not None else Counter()
    lift = boost if boost is not None else Counter()
    doc_id = candidates.document.doc_id
    target = error_count(slot_rng(seed, doc_id, "count"), config)
    target = max(config.min_errors, round(target * scale)) if scale < 1 else target
    tiebreak_rng = slot_rng(seed, doc_id, "tiebreak")
    tiebreak = {t: tiebreak_rng.random() for t in config.types}
    rank = {id(i): n for n, i in enumerate(candidates.instances)}
    heard = said if said is not None else Counter()
    repeats = {
        id(i): sum(1 for g in candidates.added_wording(i) if heard[(i.error_type, g)])
        for i in candidates.instances
    }
    chosen: list[ErrorInstance] = []
    used: Counter[str] = Counter()
    rejected: set[int] = set()
    document = candidates.document
    prints = {id(i): footprint(i.edit) for i in candidates.instances}
    while True:
        picked = {id(i) for i in chosen}
        pool = [i for i in candidates.instances if id(i) not in picked and id(i) not in rejected]
        fresh = list(chosen)  # what the pool has not been compared with yet: all picks, then the last
        while pool and len(chosen) < target:
            pool = [
                i
                for i in pool
                if not any(clashes(prints[id(i)], prints[id(t)], document) for t in fresh)
                and _room(i, chosen)
            ]
            if len(chosen) >= config.min_errors:  # past the minimum, no stock wording (unless left behind)
                pool = [i for i in pool if not repeats[id(i)] or lift[i.error_type]]
            if not pool:
                break
            pick = min(
                pool,
                key=lambda i: (
                    used[i.error_type],
                    repeats[id(i)] > 0 and not lift[i.error_type],
                    counts[i.error_type] + ahead[i.error_type] - lift[i.error_type],
                    counts[i.error_type] - lift[i.error_type],
                    tiebreak[i.error_type],
                    repeats[id(i)],
                    rank[id(i)],
                ),
            )
            pool.remove(pick)
            chosen.append(pick)
            fresh = [pick]
            used[pick.error_type] += 1
            counts[pick.error_type] += 1
        lost = lost_in(candidates.document, sorted(chosen, key=lambda i: rank[id(i)]))  # as assembled
        if not lost:
            break
        for instance in lost:
            chosen.remove(instance)
            rejected.add(id(instance))
            used[instance.error_type] -= 1
            counts[instance.error_type] -= 1
    return sorted(chosen, key=lambda i: rank[id(i)])


MAX_PER_SECTION = 3  # a two-sentence scope carrying six errors reads as a planted list, not a draft


def _room(instance: ErrorInstance, chosen: list[ErrorInstance]) -> bool:
    """Whether a section still takes this instance: one of each type, and at most `MAX_PER_SECTION`
    (a scope may take several errors on separate spans, but the same sentence moved into it twice, or a
    scope rewritten five ways, is no longer a document a drafter wrote)."""
    here = [i for i in chosen if i.location == instance.location]
    return len(here) < MAX_PER_SECTION and all(i.error_type != instance.error_type for i in here)


def finalize(candidates: Candidates, chosen: list[ErrorInstance]) -> InjectionResult:
    """The corrupted document with the chosen errors applied together."""
    corrupted, final, pre_existing = _assemble(candidates.baseline, chosen)
    return InjectionResult(
        original=candidates.document,
        corrupted=corrupted,
        instances=tuple(final),
        pre_existing=pre_existing,
        skipped=candidates.skipped,
        stats=candidates.stats,
        flagged=candidates.flagged,
    )


@dataclass(frozen=True)
class BalancedChoice:
    """The corpus-wide choice: each kept document's chosen errors, and the documents left out and why."""

    chosen: dict[str, tuple[ErrorInstance, ...]]  # doc_id → its errors, for the documents that ship
    dropped: dict[str, str]  # doc_id → reason (too little structure for the minimum number of errors)


Adjust = Callable[[Candidates, list[ErrorInstance], Counter[str]], list[ErrorInstance]]


BALANCE = 0.2  # every type's count within ±20% of the mean over the types (issue 9)


def deviation(counts: Counter[str], types: Iterable[str]) -> float:
    """The largest relative distance of a type's count from the mean count of `types`."""
    values = [counts[t] for t in types]
    mean = sum(values) / len(values) if values else 0
    return max(abs(v - mean) / mean for v in values) if mean else 0.0


def choose_balanced(
    candidates: list[Candidates], seed: int, config: PlanConfig, adjust: Adjust | None = None
) -> BalancedChoice:
    """Choose every document's errors in doc_id order, balancing the types across the corpus.

    A document that keeps fewer than `min_errors` once its errors are assembled is dropped (reported,
    not shipped short), and its types no longer count towards the balance. A type that ends more than
    `BALANCE` below the mean (its candidates clashed with others, or were lost on assembly) is moved
    forward by its shortfall in another pass. When one still stays behind (few documents offer it, and
    it is already taken wherever offered, see `choose`), every document takes proportionally fewer
    errors, never fewer than `min_errors`, which lowers the common types' share toward it; the largest
    count that balances the corpus is kept. Where none does, the full counts are kept, unless a pass came
    at least twice as close to balance; passes stop once they move away from it (each re-checks the whole
    corpus). This is the one algorithm the build ships and the balance test runs.
    """
    ordered = sorted(candidates, key=lambda c: c.document.doc_id)
    offered = sorted({i.error_type for c in ordered for i in c.instances})
    plain, counts = _choose_all(ordered, seed, config, adjust, 1.0, Counter())
    if not offered or deviation(counts, offered) <= BALANCE or not _reachable(ordered, offered, config):
        return plain
    best, best_deviation = plain, deviation(counts, offered)
    plain_deviation = best_deviation
    boost: Counter[str] = Counter()
    for _ in range(BOOST_ROUNDS):
        mean = sum(counts[t] for t in offered) / len(offered)
        behind = {t: math.ceil(mean - counts[t]) for t in offered if counts[t] < (1 - BALANCE) * mean}
        if not behind:
            break
        boost.update(behind)
        choice, counts = _choose_all(ordered, seed, config, adjust, 1.0, boost)
        if deviation(counts, offered) <= BALANCE:
            return choice
        if deviation(counts, offered) >= best_deviation:
            break  # moving the types behind forward no longer helps: each pass costs a re-check of the corpus
        best, best_deviation = choice, deviation(counts, offered)
    worse = 0
    for step in range(1, STEPS + 1):
        scale = 1 - step * (1 - config.min_errors / config.max_errors) / STEPS
        choice, scaled = _choose_all(ordered, seed, config, adjust, scale, boost)
        if deviation(scaled, offered) <= BALANCE:
            return choice
        if deviation(scaled, offered) < best_deviation:
            best, best_deviation, worse = choice, deviation(scaled, offered), 0
        elif (worse := worse + 1) >= GIVE_UP:
            break  # fewer errors per document move the balance away from the goal
    # nothing balances this corpus: the full counts, unless a pass came much closer (a small corpus moves a
    # little between passes, and a rebuild after review keeps what it chose; a large one may halve its
    # distance from balance)
    return best if best_deviation <= plain_deviation / 2 else plain


def _reachable(ordered: list[Candidates], offered: list[str], config: PlanConfig) -> bool:
    """Whether ±`BALANCE` can be met at all: every type offered by enough documents even when each takes
    only `min_errors`, and room for every type (one document alone never is: it is chosen as is)."""
    if len(ordered) * config.max_errors < len(offered) * 2:
        return False
    mean = len(ordered) * config.min_errors / len(offered)
    reach = Counter(t for c in ordered for t in {i.error_type for i in c.instances})
    return all(reach[t] >= (1 - BALANCE) * mean for t in offered)


BOOST_ROUNDS = 3  # passes that move the types left behind forward, before documents take fewer errors
STEPS = 8  # scales tried between 1 and min/max errors when the full counts leave a type behind
GIVE_UP = 2  # scales in a row that come no closer to balance than the best pass so far


def _choose_all(
    ordered: list[Candidates],
    seed: int,
    config: PlanConfig,
    adjust: Adjust | None,
    scale: float,
    boost: Counter[str],
) -> tuple[BalancedChoice, Counter[str]]:
    """One pass over the documents (see `choose_balanced`), with the type counts it shipped."""
    counts: Counter[str] = Counter()
    chosen: dict[str, tuple[ErrorInstance, ...]] = {}
    dropped: dict[str, str] = {}
    said: Counter[tuple[str, tuple[str, ...]]] = Counter()
    later = Counter(t for c in ordered for t in {i.error_type for i in c.instances})
    for c in ordered:
        later.subtract({i.error_type for i in c.instances})
        picked = choose(c, seed, config, counts, later, scale, said, boost)
        if adjust is not None:  # e.g. human review: rejected instances swapped for other candidates
            picked = adjust(c, picked, counts)
        kept = kept_together(c.baseline.document, picked)  # what `finalize` will keep, without assembling
        if len(kept) >= config.min_errors:
            chosen[c.document.doc_id] = tuple(picked)
            said.update((i.error_type, g) for i in picked for g in c.added_wording(i))
        else:
            dropped[c.document.doc_id] = (
                f"only {len(kept)} errors could be injected (at least {config.min_errors} needed)"
            )
            counts.subtract(i.error_type for i in kept)
    return BalancedChoice(chosen, dropped), counts


def inject_document(
    document: Document,
    seed: int,
    context: InjectionContext,
    config: PlanConfig | None = None,
    type_counts: Counter[str] | None = None,
    rewriter: Rewriter | None = None,
) -> InjectionResult:
    """Candidates, choice and assembly for one document; pass `type_counts` along to balance a corpus.

    With a `rewriter` (the LLM path) the semantic types it handles are rewritten by the model, validated,
    and fall back to their rule template; `flagged` then lists what must go to review instead.
    """
    config = config or PlanConfig()
    candidates = candidate_instances(document, seed, context, config, rewriter)
    return finalize(candidates, choose(candidates, seed, config, type_counts))


_QUOTED_NUMBER = regex.compile(r"(?<=第|“)(\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)(?=条|章|”)")


def _renumber_description(description: str, renames: list[tuple[str, str]]) -> str:
    """Section numbers quoted in a description follow the renumbering that other errors made."""
    if not renames:
        return description
    return _QUOTED_NUMBER.sub(lambda m: rename_all(m.group(1), renames), description)


def _assemble(
    baseline: Baseline, instances: list[ErrorInstance]
) -> tuple[Document, list[ErrorInstance], tuple[Violation, ...]]:
    """Apply all edits together; drop any instance that no longer holds on the combined document."""
    kept = kept_together(baseline.document, instances)
    applied = apply_edits(baseline.document, [i.edit for i in kept])
    final = []
    for instance, location in zip(kept, applied.locations, strict=True):
        others = [r for i in kept if i is not instance for r in i.edit.renames]
        followed = followed_renames(i.edit for i in kept if i is not instance)
        final.append(
            ErrorInstance(
                instance_id=instance_id(
                    instance.doc_id, instance.error_type, location, instance.provenance.seed, instance.edit
                ),
                doc_id=instance.doc_id,
                error_type=instance.error_type,
                location=location,
                original_section=instance.original_section,
                corrupted_section=replay(instance.edit, instance.original_section, others, followed),
                edit=instance.edit,
                description=_renumber_description(instance.description, others),
                provenance=instance.provenance,
            )
        )
    pre_existing = []
    for v in sorted(baseline.violations):
        number = applied.numbers.get(v.location, v.location)
        if number is not None:  # a violation inside a removed section is gone with it
            pre_existing.append(replace(v, location=number))
    return applied.document, final, tuple(pre_existing)
