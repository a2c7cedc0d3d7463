"""The corpus-wide choice: every document's errors, chosen in doc_id order so that the types balance.

`choose` (in the planner) picks one document's errors given the counts so far; this module passes over the
corpus with it, and again with the types left behind moved forward, or with fewer errors per document,
until every type's count is within `BALANCE` of the mean (or no pass comes closer).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from injectors.form_spread import spread_forms
from injectors.instance import ErrorInstance
from injectors.joint import kept_together
from injectors.planner import Candidates, PlanConfig, choose, form_key
from injectors.registry import injectors


@dataclass(frozen=True)
class BalancedChoice:
    """The corpus-wide choice: each kept document's chosen errors, and the documents left out and why."""

    chosen: dict[str, tuple[ErrorInstance, ...]]  # doc_id → its errors, for the documents that ship
    dropped: dict[str, str]  # doc_id → reason (too little structure for the minimum number of errors)


Adjust = Callable[[Candidates, list[ErrorInstance], Counter[str]], list[ErrorInstance]]


BALANCE = 0.2  # every type's count within ±20% of the mean over the types


def deviation(counts: Counter[str], types: Iterable[str]) -> float:
    """The largest relative distance of a type's count from the mean count of `types`."""
    values = [counts[t] for t in types]
    mean = sum(values) / len(values) if values else 0
    return max(abs(v - mean) / mean for v in values) if mean else 0.0


def choose_balanced(
    candidates: list[Candidates], seed: int, config: PlanConfig, adjust: Adjust | None = None
) -> BalancedChoice:
    """`_balanced`, then the trades that spread a lopsided type's forms (`form_spread`) without moving any
    type out of balance. A reviewed release (`adjust`) keeps its base release's choice, trades and all."""
    choice = _balanced(candidates, seed, config, adjust)
    if adjust is not None:
        return choice
    available = injectors()
    chosen = spread_forms(
        candidates,
        choice.chosen,
        config,
        BALANCE,
        lambda t: available[t].forms if t in available else (),
    )
    return BalancedChoice(chosen, choice.dropped)


def _balanced(
    candidates: list[Candidates], seed: int, config: PlanConfig, adjust: Adjust | None = None
) -> BalancedChoice:
    """Choose every document's errors in doc_id order, balancing the types across the corpus.

    A document that keeps fewer than `min_errors` once its errors are assembled is dropped (reported,
    not shipped short), and its types no longer count towards the balance. A type that ends more than
    `BALANCE` below the mean (its candidates clashed with others, or were lost on assembly) is moved
    forward by its shortfall in another pass, or, where that overshoots, one step per pass. When one still
    stays behind (few documents offer it, and it is already taken wherever offered, see `choose`), every
    document takes proportionally fewer errors, never fewer than `min_errors`, which lowers the common
    types' share toward it; the largest count that balances the corpus is kept. Where none does, the full
    counts are kept, unless a pass came at least twice as close to balance; passes stop once they move away
    from it (each re-checks the whole corpus). Where some type is offered by too few documents for any
    choice to balance (`_reachable`), the closest choice is made instead (`_closest`). This is the one
    algorithm the build ships and the balance test runs.
    """
    ordered = sorted(candidates, key=lambda c: c.document.doc_id)
    offered = sorted({i.error_type for c in ordered for i in c.instances})
    plain, counts = _choose_all(ordered, seed, config, adjust, 1.0, Counter())
    if not offered or deviation(counts, offered) <= BALANCE:
        return plain
    if not _reachable(ordered, offered, config):
        return _closest(ordered, seed, config, adjust, plain, counts, offered)
    best, best_deviation = plain, deviation(counts, offered)
    plain_deviation = best_deviation
    first = counts
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
    # a type lifted by its whole shortfall may take every offer and end above the band (one whose
    # candidates repeat the wording of earlier documents', held back at full lift): one step at a time
    counts, steps = first, Counter[str]()
    for _ in range(BOOST_ROUNDS):
        mean = sum(counts[t] for t in offered) / len(offered)
        behind = {t: 1 for t in offered if counts[t] < (1 - BALANCE) * mean}
        if not behind:
            break
        steps.update(behind)
        choice, counts = _choose_all(ordered, seed, config, adjust, 1.0, steps)
        if deviation(counts, offered) <= BALANCE:
            return choice
        if deviation(counts, offered) < best_deviation:  # a step may first lift one type past another
            best, best_deviation = choice, deviation(counts, offered)
    lift = steps or boost  # what the scaled passes keep moved forward: the finer lift where there is one
    worse = 0
    for step in range(1, STEPS + 1):
        scale = 1 - step * (1 - config.min_errors / config.max_errors) / STEPS
        choice, scaled = _choose_all(ordered, seed, config, adjust, scale, lift)
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


def _closest(
    ordered: list[Candidates],
    seed: int,
    config: PlanConfig,
    adjust: Adjust | None,
    plain: BalancedChoice,
    counts: Counter[str],
    offered: list[str],
) -> BalancedChoice:
    """The choice closest to balance where no choice reaches it (some type is offered by too few documents
    to come within `BALANCE` of any mean the corpus can have): each pass moves the types left behind
    forward (a second instance in a document where it has two) and caps every type at `BALANCE` above the
    last pass's mean, so that the common types stop taking the rarer ones' share; the mean falls with the
    caps, toward what the scarce types can reach. A cap alone leaves each document its drawn number of
    errors, which the other types then fill up to their caps: while types stay outside, each pass also
    takes fewer errors per document (never fewer than `min_errors`), so that the mean comes down to where
    the scarce types are within the band. Of the passes at the full counts, the one that ships every
    document it can, with the fewest types outside ±`BALANCE`, then the smallest deviation of the others,
    is kept; where it leaves types outside, the first pass with fewer errors that ships every document with
    every type within the band replaces it. Where none does, fewer errors buy nothing worth the data they
    cost."""
    best, best_score = plain, _score(plain, counts, offered)
    boost: Counter[str] = Counter()
    # the documents with the fewest types first: they take what they offer, and the caps then fall on the
    # documents that can take something else instead
    ordered = sorted(ordered, key=lambda c: (len({i.error_type for i in c.instances}), c.document.doc_id))
    scales = [1.0] * CLOSEST_ROUNDS + [
        1 - step * (1 - config.min_errors / config.max_errors) / STEPS for step in range(1, STEPS + 1)
    ]
    # the mean can come down no further than every document at its minimum
    lowest = len(ordered) * config.min_errors / len(offered)
    for n, scale in enumerate(scales):
        if n == CLOSEST_ROUNDS and (
            best_score[:2] == (0, 0) or any(counts[t] < (1 - BALANCE) * lowest for t in offered)
        ):
            break  # balanced at the full counts; or a type stays below the band even at that mean
        mean = sum(counts[t] for t in offered) / len(offered)
        boost.update({t: 1 for t in offered if counts[t] < (1 - BALANCE) * mean})
        cap = {t: max(1, math.floor((1 + BALANCE) * mean)) for t in offered}
        choice, counts = _choose_all(ordered, seed, config, adjust, scale, boost, cap)
        score = _score(choice, counts, offered)
        if scale < 1 and score[:2] == (0, 0):
            return _sorted(choice)  # the first with fewer errors that ships every document, all in the band
        if scale == 1 and score < best_score:
            best, best_score = choice, score
    return _sorted(best)


def _sorted(choice: BalancedChoice) -> BalancedChoice:
    return BalancedChoice(dict(sorted(choice.chosen.items())), dict(sorted(choice.dropped.items())))


def _score(choice: BalancedChoice, counts: Counter[str], offered: list[str]) -> tuple[int, int, float]:
    """(documents dropped, types outside ±`BALANCE` of the mean, largest deviation of the types within):
    smaller is closer to balance."""
    mean = sum(counts[t] for t in offered) / len(offered)
    if not mean:
        return len(choice.dropped), 0, 0.0
    distance = {t: abs(counts[t] - mean) / mean for t in offered}
    outside = [t for t in offered if distance[t] > BALANCE]
    return len(choice.dropped), len(outside), max((d for d in distance.values() if d <= BALANCE), default=0.0)


CLOSEST_ROUNDS = 8  # capped passes where no choice balances the corpus: the mean settles within a few

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
    cap: dict[str, int] | None = None,
) -> tuple[BalancedChoice, Counter[str]]:
    """One pass over the documents (see `choose_balanced`), with the type counts it shipped."""
    counts: Counter[str] = Counter()
    chosen: dict[str, tuple[ErrorInstance, ...]] = {}
    dropped: dict[str, str] = {}
    said: Counter[tuple[str, tuple[str, ...]]] = Counter()
    later = Counter(t for c in ordered for t in {i.error_type for i in c.instances})
    for c in ordered:
        later.subtract({i.error_type for i in c.instances})
        picked = choose(c, seed, config, counts, later, scale, said, boost, cap)
        if adjust is not None:  # e.g. human review: rejected instances swapped for other candidates
            picked = adjust(c, picked, counts)
        kept = kept_together(c.baseline.document, picked)  # what `finalize` will keep, without assembling
        if len(kept) >= config.min_errors:
            chosen[c.document.doc_id] = tuple(picked)
            said.update((i.error_type, g) for i in picked for g in c.added_wording(i))
            said.update(form_key(i) for i in picked if i.provenance.form)
        else:
            dropped[c.document.doc_id] = (
                f"only {len(kept)} errors could be injected (at least {config.min_errors} needed)"
            )
            counts.subtract(i.error_type for i in kept)
    return BalancedChoice(chosen, dropped), counts
