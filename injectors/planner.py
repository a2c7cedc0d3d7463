"""The per-document planner: how many errors, of which types, where — seeded and balanced.

Every random choice comes from a generator seeded by (build seed, doc_id, slot), so a document's
errors depend only on the document, the configuration and the seed. Types are balanced across a corpus
by passing the running `type_counts` from one document to the next (least-used applicable type first);
`injectors.balance` makes those passes over a corpus.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from injectors.added_wording import added_wording
from injectors.base import ALTERNATIVES, Rewriter, clashes
from injectors.checking import Baseline, Violation
from injectors.concurrent import llm_workers, map_concurrently
from injectors.content_memo import ContentMemo
from injectors.context import InjectionContext
from injectors.edit import apply_edits, followed_renames, footprint, replay
from injectors.final_descriptions import QUOTE, finalized
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


def candidate_instances(
    document: Document,
    seed: int,
    context: InjectionContext,
    config: PlanConfig | None = None,
    rewriter: Rewriter | None = None,
) -> Candidates:
    """Up to `Injector.alternatives` verified instances per applicable type (two unless a type of several
    forms asks for more), each type found independently of the others.

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
        injector = available[error_type]
        wanted = injector.alternatives
        # a type that asks for more than two looks for forms it does not offer yet: up to twice as many
        # tries, a candidate whose form repeats an earlier one kept aside (its section stays open to
        # another form) and taken only where nothing else turns up
        tries = wanted if wanted <= ALTERNATIVES else 2 * wanted
        repeated: list[ErrorInstance] = []
        for k in range(tries):
            if len(found) >= wanted:
                break
            attempt = injector.inject(
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
                break
            form = attempt.instance.provenance.form
            if (
                k < tries - 1
                and wanted > ALTERNATIVES
                and form
                and form in {i.provenance.form for i in found}
            ):
                repeated.append(attempt.instance)
                continue
            found.append(attempt.instance)
        for instance in repeated:  # its section may hold another form by now
            if len(found) < wanted and instance.location not in {i.location for i in found}:
                found.append(instance)
        return found, flagged, None if found else attempt.reason

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
    cap: Mapping[str, int] | None = None,
    *,
    forms_first: bool = True,
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
    `boost` (left behind by an earlier pass of `choose_balanced`) counts as that many fewer. With a `cap`
    (the passes over a corpus where some type can never reach the mean, see `choose_balanced`), a type
    left behind may take a second instance in a document (at another section) before the types it has
    none of yet, and a type that has reached its cap in the corpus is not taken past `min_errors`: a
    document takes fewer errors rather than more of a type already over its share.

    Where a type's candidate here takes a form earlier documents' picks of the type left behind, and the
    document takes that type anyway (`forms_first`), that candidate goes first, before the candidates of
    other types it clashes with (`_left_behind_forms`): a type's forms take turns even where one of them
    always shares its place with other errors.

    The picks are then assembled and re-checked together (`injectors.joint`): one that no longer holds on
    the final document (its term deleted by another's chapter removal, its clause moved) is dropped and
    another compatible candidate takes its place, re-checked in turn, so the document keeps its count.
    """
    counts = type_counts if type_counts is not None else Counter()
    ahead = later if later is not None else Counter()
    lift = boost if boost is not None else Counter()
    doc_id = candidates.document.doc_id
    target = _target(seed, doc_id, config, scale)
    tiebreak = _tiebreaks(seed, doc_id, config.types)
    rank = {id(i): n for n, i in enumerate(candidates.instances)}
    heard = said if said is not None else Counter()
    repeats = {
        id(i): sum(1 for g in candidates.added_wording(i) if heard[(i.error_type, g)])
        for i in candidates.instances
    }
    # what ranks a candidate among those of its type (its type's counts rank the types): the pool is kept
    # in this order, so the first candidate of each type in it is the best of that type; among equals, the
    # one whose form (`form_key`) earlier documents took least, so that a type's forms take turns
    within = {
        id(i): (
            repeats[id(i)] > 0 and not lift[i.error_type],
            _crowded(i, heard, counts),
            repeats[id(i)],
            heard[form_key(i)],
            rank[id(i)],
        )
        for i in candidates.instances
    }
    ordered = sorted(candidates.instances, key=lambda i: within[id(i)])
    chosen: list[ErrorInstance] = []
    used: Counter[str] = Counter()
    rejected: set[int] = set()
    conflicts = _conflicts(candidates)
    # a type this document takes anyway takes it with a form its earlier picks left behind, before the
    # candidates that clash with that one
    first = (
        _left_behind_forms(
            candidates,
            heard,
            conflicts,
            # a type the balance moved forward that needs this document to come within the band keeps its
            # site (the band's floor is two thirds of the cap, which is the band's top)
            lambda t: lift[t] > 0 and (cap is None or 3 * (counts[t] + ahead[t]) < 2 * cap.get(t, 0)),
            lambda: choose(
                candidates, seed, config, Counter(counts), later, scale, said, boost, cap, forms_first=False
            ),
        )
        if forms_first
        else {}
    )

    ceiling = cap if cap is not None else {}

    def key(i: ErrorInstance) -> tuple[Any, ...]:
        t, (stock, _, repeated, _, n) = i.error_type, within[id(i)]
        again = used[t] - 1 if cap is not None and lift[t] > 0 and used[t] > 0 else used[t]
        return (
            again,
            stock,
            -first.get(id(i), 0),  # the form furthest behind first
            counts[t] + ahead[t] - lift[t],
            counts[t] - lift[t],
            tiebreak[t],
            repeated,
            n,
        )

    def _placing(i: ErrorInstance) -> tuple[Any, ...]:
        """Of a type's candidates, which to take: no stock wording, no crowded form, then not the form
        this document already took for the type, before the chapter with the fewest errors."""
        stock, crowded = within[id(i)][:2]
        return (stock, crowded, form_key(i) in taken_forms, spread[_chapter(i)])

    taken_forms: set[tuple[str, tuple[str, ...]]] = set()
    while True:
        picked = {id(i) for i in chosen}
        pool = [i for i in ordered if id(i) not in picked and id(i) not in rejected]
        # what the pool has not been compared with yet (by rank): all picks, then the last
        fresh = {rank[id(i)] for i in chosen}
        here, spread = _placed(chosen)
        while pool and len(chosen) < target:
            pool = [
                i
                for i in pool
                if conflicts[rank[id(i)]].isdisjoint(fresh)
                and _room(i.error_type, here.get(i.location, ()))
                and used[i.error_type] < MAX_PER_TYPE
            ]
            if len(chosen) >= config.min_errors:
                pool = _past_minimum(pool, repeats, lift, ceiling, counts)
            if not pool:
                break
            # of a type's candidates, the one `_placing` puts first: a type's errors spread through the body
            # and its forms take turns
            pick = min(_best_per_type(pool, _placing).values(), key=key)
            pool = [i for i in pool if i is not pick]
            chosen.append(pick)
            taken_forms.add(form_key(pick))
            here.setdefault(pick.location, []).append(pick.error_type)
            spread[_chapter(pick)] += 1
            fresh = {rank[id(pick)]}
            used[pick.error_type] += 1
            counts[pick.error_type] += 1
        lost = lost_in(candidates.document, sorted(chosen, key=lambda i: rank[id(i)]))  # as assembled
        if not lost:
            break
        # a type's standing as `key` ranks it (what it can still reach, less its lift), not its count so
        # far: early in a pass a scarce type and a plentiful one both have one instance
        lost = yielding(
            candidates.document,
            chosen,
            lost,
            Counter({t: counts[t] + ahead[t] - lift[t] for t in {i.error_type for i in chosen}}),
            lambda i: rank[id(i)],
        )
        _unpick(lost, chosen, rejected, used, counts)
    return sorted(chosen, key=lambda i: rank[id(i)])


def _target(seed: int, doc_id: str, config: PlanConfig, scale: float) -> int:
    """The document's drawn number of errors, shrunk by `scale` (never below the minimum)."""
    target = error_count(slot_rng(seed, doc_id, "count"), config)
    return max(config.min_errors, round(target * scale)) if scale < 1 else target


def _tiebreaks(seed: int, doc_id: str, types: Sequence[str]) -> dict[str, float]:
    rng = slot_rng(seed, doc_id, "tiebreak")
    return {t: rng.random() for t in types}


def _placed(chosen: Sequence[ErrorInstance]) -> tuple[dict[str, list[str]], Counter[str]]:
    """Where the picks are: location → the types chosen there, chapter → how many errors it holds."""
    here: dict[str, list[str]] = {}
    for i in chosen:
        here.setdefault(i.location, []).append(i.error_type)
    return here, Counter(_chapter(i) for i in chosen)


def _unpick(
    lost: Sequence[ErrorInstance],
    chosen: list[ErrorInstance],
    rejected: set[int],
    used: Counter[str],
    counts: Counter[str],
) -> None:
    """Take back the picks that no longer hold once assembled; they are never offered again."""
    for instance in lost:
        chosen.remove(instance)
        rejected.add(id(instance))
        used[instance.error_type] -= 1
        counts[instance.error_type] -= 1


def yielding(
    document: Document,
    chosen: Sequence[ErrorInstance],
    lost: Sequence[ErrorInstance],
    counts: Counter[str],
    order: Callable[[ErrorInstance], int],
) -> list[ErrorInstance]:
    """The picks to take back when `lost` no longer hold together: a lost pick whose description quotes, as
    evidence, text another pick changed (a clause's explanation that an informative-place error rewrote)
    stays, and that other pick goes instead, where its type stands higher in `counts` (in `choose`: what
    the type can still reach over the corpus, so a type with sites to spare gives way wherever in the pass
    the document comes) and the lost one holds without it; the scarcer type keeps what may be its only
    site in the document."""
    out: list[ErrorInstance] = []
    for instance in lost:
        error = instance.description.split("；修改建议：", 1)[0]
        quotes = [q for q in QUOTE.findall(error) if len(q) >= 6]
        own = footprint(instance.edit).positions
        gives_way = instance
        for other in chosen:
            taken_back = any(other is i for i in (*lost, *out))
            if taken_back or counts[other.error_type] <= counts[instance.error_type]:
                continue
            touched = footprint(other.edit).positions - own
            if not any(q in document.sections[p].text for p in touched for q in quotes):
                continue
            rest = sorted((i for i in chosen if i is not other), key=order)
            if not any(instance is i for i in lost_in(document, rest)):
                gives_way = other
                break
        out.append(gives_way)
    return out


def _past_minimum(
    pool: list[ErrorInstance],
    repeats: Mapping[int, int],
    lift: Counter[str],
    ceiling: Mapping[str, int],
    counts: Counter[str],
) -> list[ErrorInstance]:
    """Past the minimum, no stock wording (unless its type was left behind), nor a type over its share of
    the corpus."""
    pool = [i for i in pool if not repeats[id(i)] or lift[i.error_type]]
    return [i for i in pool if i.error_type not in ceiling or counts[i.error_type] < ceiling[i.error_type]]


def _best_per_type(
    pool: list[ErrorInstance], placing: Callable[[ErrorInstance], tuple[Any, ...]]
) -> dict[str, ErrorInstance]:
    """Of each type's candidates, the one `placing` puts first (the first of equals)."""
    best: dict[str, ErrorInstance] = {}
    for i in pool:
        other = best.get(i.error_type)
        if other is None or placing(i) < placing(other):
            best[i.error_type] = i
    return best


def _left_behind_forms(
    candidates: Candidates,
    heard: Counter[tuple[str, tuple[str, ...]]],
    conflicts: tuple[frozenset[int], ...],
    scarce: Callable[[str], bool],
    anyway: Callable[[], list[ErrorInstance]],
) -> dict[int, int]:
    """The candidates (by id, with how far their form is behind) that go first in this document: each
    takes a form its type's earlier picks took no more often than the forms of its other candidates here,
    and clashes with candidates of other types (on a tie, the one that clashes goes first: the other can
    still be taken in another document). Picked in turn it would lose to them: a chapter deleted for
    STR-01 holds the other types' errors in it, so only the element nothing else touches (前言) would ever
    be deleted. A candidate that clashes with a `scarce` type waits its turn: that type keeps its site.
    Only a type the document takes without this (`anyway`, asked only where some candidate qualifies) has
    a candidate go first: the document takes no more of a type than it would, only another of its forms
    (the candidates it clashes with give way to other candidates)."""
    instances = candidates.instances
    forms: dict[str, dict[str, int]] = {}  # type → its forms here → how often earlier picks took each
    for i in instances:
        if i.provenance.form:
            forms.setdefault(i.error_type, {})[i.provenance.form] = heard[form_key(i)]
    first: dict[int, int] = {}
    for n, i in enumerate(instances):
        counts = forms.get(i.error_type, {})
        mine = counts.get(i.provenance.form or "", 0)
        others = [k for form, k in counts.items() if form != i.provenance.form]
        clashing = {instances[m].error_type for m in conflicts[n]} - {i.error_type}
        if (
            i.provenance.form
            and others
            and mine <= min(others)
            and clashing
            and not any(scarce(t) for t in clashing)
        ):
            first[n] = max(others) - mine + 1
    if not first:
        return {}
    taken = {i.error_type for i in anyway()}
    return {id(instances[n]): lag for n, lag in first.items() if instances[n].error_type in taken}


def _chapter(instance: ErrorInstance) -> str:
    """The top-level part of an instance's location ("5" for 5.2.1, "A" for A.3, "前言")."""
    return instance.location.split(".", 1)[0]


MAX_PER_SECTION = 3  # a two-sentence scope carrying six errors reads as a planted list, not a draft
# errors of one type in one document, however many candidates its type offers: three "应当根据指令…" in one
# protocol read as one planted pattern
MAX_PER_TYPE = 2


# which candidates cannot go into one document with which (`base.clashes`, by position among the document's
# candidates), by content address: the corpus-wide choice compares every candidate with every pick, pass
# after pass
_CONFLICTS: ContentMemo[tuple[str, ...], tuple[frozenset[int], ...]] = ContentMemo(1 << 12)


def _conflicts(candidates: Candidates) -> tuple[frozenset[int], ...]:
    return _CONFLICTS.get(tuple(i.instance_id for i in candidates.instances), lambda: _pairwise(candidates))


def _pairwise(candidates: Candidates) -> tuple[frozenset[int], ...]:
    prints, document = [footprint(i.edit) for i in candidates.instances], candidates.document
    found: list[set[int]] = [set() for _ in prints]
    for a, mine in enumerate(prints):
        for b in range(a + 1, len(prints)):
            if clashes(mine, prints[b], document):  # a symmetric relation
                found[a].add(b)
                found[b].add(a)
    return tuple(frozenset(f) for f in found)


FORM_SHARE = 0.4  # the form goal: no form in more than this share of its type's instances (the audit's)


def _crowded(
    instance: ErrorInstance, heard: Counter[tuple[str, tuple[str, ...]]], counts: Counter[str]
) -> bool:
    """Whether taking this candidate would put its form over `FORM_SHARE` of its type's instances so far
    (earlier documents' picks): a candidate of another form of the type goes first."""
    total = counts[instance.error_type]
    return (
        bool(instance.provenance.form)
        and total >= 2
        and heard[form_key(instance)] + 1 > FORM_SHARE * (total + 1)
    )


def form_key(instance: ErrorInstance) -> tuple[str, tuple[str, ...]]:
    """How `said` counts the form an instance takes (provenance.form), beside its type's added n-grams: a
    key no n-gram can be, read only to order a type's candidates, never as stock wording."""
    return instance.error_type, ("\0form", instance.provenance.form or "")


def _room(error_type: str, here: Sequence[str]) -> bool:
    """Whether a section where the types `here` are chosen still takes one of `error_type`: one of each
    type, and at most `MAX_PER_SECTION` (a scope may take several errors on separate spans, but the same
    sentence moved into it twice, or a scope rewritten five ways, is no longer a document a drafter
    wrote)."""
    return len(here) < MAX_PER_SECTION and error_type not in here


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


def _assemble(
    baseline: Baseline, instances: list[ErrorInstance]
) -> tuple[Document, list[ErrorInstance], tuple[Violation, ...]]:
    """Apply all edits together; drop any instance that no longer holds on the combined document; the
    descriptions are rendered on it (`injectors.final_descriptions`)."""
    kept = kept_together(baseline.document, instances)
    applied = apply_edits(baseline.document, [i.edit for i in kept])
    described, _ = finalized(baseline.document, kept, applied)
    final = []
    for instance, location, told in zip(kept, applied.locations, described, strict=True):
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
                description=told.description,
                provenance=instance.provenance,
            )
        )
    pre_existing = []
    for v in sorted(baseline.violations):
        number = applied.numbers.get(v.location, v.location)
        if number is not None:  # a violation inside a removed section is gone with it
            pre_existing.append(replace(v, location=number))
    return applied.document, final, tuple(pre_existing)
