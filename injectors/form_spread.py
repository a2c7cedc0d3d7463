"""The last step of the corpus-wide choice: a type whose forms came out lopsided trades picks for others.

`choose` lets a type's forms take turns as it goes through the documents, but one document at a time: the
form every document offers (a 前言 to delete) is there whenever the type is taken, while the forms few
documents offer clash with other types' errors there, or sit in documents that took the type's turn for
something else. Seen over the whole choice, a pick of the crowded form can give way to a candidate of
another form in its own document, or to one in another document, or simply go where its type has
instances to spare; or, where the type has room in the balance, a candidate of another form joins it. Each
trade lowers the top form's share: where no single swap does (the form a pick could turn into is as common
as the top one), two swaps in a row may. A trade is made only where it keeps every type as close to the
balance as it was (no type newly outside ±`balance` of the mean, none already outside moved away from it),
no other type's forms newly lopsided, every document at its minimum number of errors or more, and every
pick of a changed document holding together with the others (`joint.kept_together`); the cheapest trade
(fewest other picks given up, then the type's count kept) goes first. The picks a trade
gives up are made up where candidates allow (of their own types elsewhere, then of the types furthest
behind; where no candidate fits beside a document's picks, one may take the place of a pick of a type with
instances to spare, or of one that fills the section or the document it would go into), and no trade
adds a candidate whose wording another instance of its type already added. Last, a type left just below
the balance takes one more instance where a pick that clashes with its candidate, or leaves it no room,
can give way (`_lift`): a type with few sites finds them where other types' errors already are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from injectors.base import clashes
from injectors.edit import footprint
from injectors.instance import ErrorInstance
from injectors.joint import kept_together
from injectors.planner import FORM_SHARE, MAX_PER_SECTION, MAX_PER_TYPE, Candidates, PlanConfig

MIN_FORMS = 3  # with two forms, one of them holds half the instances at best (the audit's threshold)
MIN_INSTANCES = 5  # below this a share says nothing (the audit's threshold)
MAX_TRADES = 12  # trades per type: each changes at most two documents, and a corpus has a few dozen


Picks = dict[str, list[ErrorInstance]]  # doc_id → its chosen errors


@dataclass(frozen=True)
class Trade:
    """New picks for one or two documents, and how many picks of other types they give up."""

    picks: Mapping[str, list[ErrorInstance]]
    cost: int


@dataclass(frozen=True)
class _Market:
    """What every trade of one choice is weighed against: the candidates per document, the plan, the
    balance, the types offered and each type's declared forms."""

    by_doc: Mapping[str, Candidates]
    config: PlanConfig
    balance: float
    offered: Sequence[str]
    declared: Callable[[str], Sequence[str]]


def spread_forms(
    candidates: Sequence[Candidates],
    chosen: Mapping[str, Sequence[ErrorInstance]],
    config: PlanConfig,
    balance: float,
    declared: Callable[[str], Sequence[str]],
) -> dict[str, tuple[ErrorInstance, ...]]:
    """`chosen` with the trades that bring each lopsided type's top form to `FORM_SHARE` or under, or as
    close to it as the trades allow, then the types below the balance lifted where they can be (`_lift`).
    `declared` gives a type's forms (`Injector.forms`)."""
    offered = sorted({i.error_type for c in candidates for i in c.instances})
    market = _Market({c.document.doc_id: c for c in candidates}, config, balance, offered, declared)
    picks: Picks = {d: list(p) for d, p in chosen.items()}
    for error_type in offered:
        for _ in range(MAX_TRADES):
            if not _lopsided(picks, error_type, declared(error_type)):
                break
            trade = _cheapest(error_type, picks, market)
            if trade is None:
                break
            picks.update(trade.picks)
    # one document alone has no corpus to balance: it keeps the choice `inject` makes for it
    for _ in range(MAX_TRADES if len(picks) > 1 else 0):
        lifted = _lift(picks, market)
        if lifted is None:
            break
        picks.update(lifted)
    return {d: tuple(p) for d, p in picks.items()}


def _lift(picks: Picks, market: _Market) -> dict[str, list[ErrorInstance]] | None:
    """One more instance for the type furthest below the band's floor that can take one: a candidate of it
    beside a document's picks, or in place of one pick that clashes with it or leaves it no room (its
    section or its document full). A type just below the floor is often offered only where other types'
    errors already sit (the reference list), and the passes of the balance leave it there. The pick given
    up is of a type with instances to spare (`_spare`), or is made up where its type's candidates allow
    (`_make_up`). Taken only where it keeps the balance (`_kept_balanced`), leaves no type's forms newly
    lopsided, crowds none of the type's own forms, repeats no wording and holds together in every changed
    document."""
    offered, declared, by_doc = market.offered, market.declared, market.by_doc
    now = Counter(i.error_type for p in picks.values() for i in p)
    mean = sum(now[t] for t in offered) / len(offered)
    behind = sorted((t for t in offered if now[t] < (1 - market.balance) * mean), key=lambda t: (now[t], t))
    lopsided = {t for t in offered if _lopsided(picks, t, declared(t))}
    for error_type in behind:
        crowded = _crowded(_forms(picks, error_type))
        spare = _spare(now, offered, lopsided | {error_type})
        others = set(offered) - {error_type}
        for d, new, given in _makings_up(error_type, crowded, picks, {}, by_doc, market.config, others):
            option = {d: new}
            lost = sorted({g.error_type for g in given} - spare)
            if lost:  # a pick of a type with none to spare comes back elsewhere, or the lift is not made
                made_up = _make_up(lost, 1, {**picks, **option}, by_doc, market.config, spare)
                if not made_up:
                    continue
                option.update(made_up)
            after = {**picks, **option}
            counts = Counter(i.error_type for p in after.values() for i in p)
            if (
                not _kept_balanced(now, counts, offered, market.balance)
                or counts[error_type] <= now[error_type]
            ):
                continue
            if any(_lopsided(after, t, declared(t)) for t in offered if t not in lopsided):
                continue
            if _repeats_wording(picks, option, by_doc) or not all(
                _holds(by_doc[e], p) for e, p in option.items()
            ):
                continue
            return option
    return None


def _forms(picks: Picks, error_type: str) -> Counter[str]:
    return Counter(
        i.provenance.form
        for p in picks.values()
        for i in p
        if i.error_type == error_type and i.provenance.form
    )


def _lopsided(picks: Picks, error_type: str, declared: Sequence[str]) -> bool:
    forms = _forms(picks, error_type)
    total = sum(forms.values())
    return (
        len(set(forms) | set(declared)) >= MIN_FORMS
        and total >= MIN_INSTANCES
        and max(forms.values()) > FORM_SHARE * total
    )


def _cheapest(error_type: str, picks: Picks, market: _Market) -> Trade | None:
    """The trade that lowers `error_type`'s top share at the least cost and keeps the rest as it was. The
    picks a trade gives up are made up where they can be (`_make_up`): by candidates of their own types
    elsewhere, then of the types furthest behind, so that the corpus keeps its size. Where no single swap
    lowers the share (the form a pick could turn into is as common as the top one), two in a row may: the
    second turns a pick of the form the first crowded into a third form, or, where no third form is left
    to turn to, drops a pick of it or adds one of another form (the balance decides, as for one step)."""
    lopsided = {t for t in market.offered if _lopsided(picks, t, market.declared(t))}
    before = Counter(i.error_type for p in picks.values() for i in p)
    share = _share(_forms(picks, error_type))
    singles = list(_steps(error_type, picks, market.by_doc, market.config))
    trades = [(t, 1) for t in singles]
    for first in singles:
        middle = {**picks, **first.picks}
        if _forms(middle, error_type).total() != _forms(picks, error_type).total():
            continue  # two steps are for swaps that keep the type's count (the picks a swap gives up are
            # made up), the first not moving away
        if _share(_forms(middle, error_type)) > share:
            continue
        trades.extend(
            (Trade({**first.picks, **second.picks}, first.cost + second.cost), 2)
            for second in _steps(error_type, middle, market.by_doc, market.config)
        )
    # the fewest other picks given up first, then the type's count kept (a swap before an added or
    # dropped instance), then one step before two
    trades.sort(key=lambda t: (t[0].cost, abs(_gain(t[0], picks)), t[1], sorted(t[0].picks)))
    for trade, _ in trades:
        if _share(_forms({**picks, **trade.picks}, error_type)) >= share:
            continue
        found = _valid(trade, error_type, picks, before, lopsided, market)
        if found is not None:
            return found
    return None


def _share(forms: Counter[str]) -> float:
    return max(forms.values()) / forms.total() if forms else 0.0


def _gain(trade: Trade, picks: Picks) -> int:
    """How many picks a trade adds (a trade that adds one keeps the type's count)."""
    return sum(len(p) - len(picks.get(d, ())) for d, p in trade.picks.items())


def _valid(
    trade: Trade, error_type: str, picks: Picks, before: Counter[str], lopsided: set[str], market: _Market
) -> Trade | None:
    """`trade`, or it with the picks it gives up made up, where it keeps the balance, leaves no other type's
    forms newly lopsided, repeats no wording and holds together in every changed document."""
    by_doc, offered = market.by_doc, market.offered
    changed = dict(trade.picks)
    after = {**picks, **changed}
    now = Counter(i.error_type for p in after.values() for i in p)
    lost = before - now - Counter({error_type: before[error_type]})
    if now.total() < before.total() or lost:
        mean = sum(now[t] for t in offered) / len(offered)
        behind = sorted((t for t in offered if t != error_type and now[t] < mean), key=lambda t: (now[t], t))
        wanted = [t for t in sorted(lost) for _ in range(lost[t])] + behind
        count = max(before.total() - now.total(), lost.total())
        spare = _spare(now, offered, lopsided | {error_type, *wanted})
        # a document the trade left under its minimum is where the make-up must go, of the types behind
        # first, then of any other the balance allows there (`_kept_balanced` decides below)
        short = {d for d, p in changed.items() if len(p) < market.config.min_errors}
        if short:
            rest = sorted((t for t in offered if t != error_type), key=lambda t: (now[t], t))
            wanted += [t for t in rest if t not in wanted]
        made_up = {**changed, **_make_up(wanted, count, after, by_doc, market.config, spare, short)}
        options = [made_up, changed]
    else:
        options = [changed]
    for option in options:
        if any(len(p) < market.config.min_errors for p in option.values()):
            continue
        after = {**picks, **option}
        if not _kept_balanced(
            before, Counter(i.error_type for p in after.values() for i in p), offered, market.balance
        ):
            continue
        if any(_lopsided(after, t, market.declared(t)) for t in offered if t not in lopsided):
            continue
        if _repeats_wording(picks, option, by_doc):
            continue
        if all(_holds(by_doc[d], p) for d, p in option.items()):
            return Trade(option, trade.cost)
    return None


def _repeats_wording(
    picks: Picks, changed: Mapping[str, list[ErrorInstance]], by_doc: Mapping[str, Candidates]
) -> bool:
    """Whether a candidate the trade adds repeats wording that another instance of its type added (the
    planner's stock wording, `added_wording`): a trade never buys a form with a repeated phrase."""
    after = {**picks, **changed}
    for d, new in changed.items():
        for i in new:
            if any(i is p for p in picks.get(d, ())):
                continue
            if _repeats(i, d, after, by_doc):
                return True
    return False


def _repeats(i: ErrorInstance, d: str, picks: Picks, by_doc: Mapping[str, Candidates]) -> bool:
    """Whether `i` (a candidate of document `d`) adds wording that another pick of its type added."""
    mine = by_doc[d].added_wording(i)
    return bool(mine) and any(
        mine & by_doc[e].added_wording(o)
        for e, others in picks.items()
        for o in others
        if o.error_type == i.error_type and o is not i
    )


def _kept_balanced(before: Counter[str], after: Counter[str], offered: Sequence[str], balance: float) -> bool:
    """No type newly outside ±`balance` of the mean, and none already outside moved further from it. A type
    whose count a trade leaves as it was has not moved: the mean alone shifting by a fraction (a trade adds
    or gives up one instance of some type) is no reason to refuse the trade."""
    mean_before = sum(before[t] for t in offered) / len(offered)
    mean_after = sum(after[t] for t in offered) / len(offered)
    for t in offered:
        was, now = before[t] - mean_before, after[t] - mean_after
        if abs(now) <= balance * mean_after:
            continue
        if abs(was) <= balance * mean_before:
            return False  # newly outside
        if after[t] != before[t] and abs(now) > abs(was):
            return False  # already outside, and its count moved away from the mean
    return True


def _spare(now: Counter[str], offered: Sequence[str], kept: set[str]) -> set[str]:
    """The types a make-up may take one pick from: a whole instance above the mean, their forms not
    lopsided, none the trade is for or makes up (`kept`)."""
    mean = sum(now[t] for t in offered) / len(offered)
    return {t for t in offered if now[t] - 1 >= mean and t not in kept}


def _make_up(
    wanted: Sequence[str],
    count: int,
    picks: Picks,
    by_doc: Mapping[str, Candidates],
    config: PlanConfig,
    spare: Collection[str] = (),
    within: Collection[str] = (),
) -> dict[str, list[ErrorInstance]]:
    """Up to `count` candidates of the `wanted` types (in turn), each in a document that can take one more
    (under `max_errors`, clashing with none of its picks, holding together with them), none of a form that
    would crowd its type (over `FORM_SHARE` of it), none repeating wording another pick of its type added
    (the trade would be refused for it, while the next candidate may do). Where no document can take one
    beside its picks, a candidate that clashes with a single pick of a `spare` type takes that pick's place,
    or, clashing with none, the place of a pick of a `spare` type that leaves it no room (its section or
    its document full); each spare type gives one pick at most: a type's sites sit where other types'
    errors are (the reference list, the scope), and a type with instances to spare can give one of them up
    there. With `within`, only those documents take one."""
    added: dict[str, list[ErrorInstance]] = {}
    giving = set(spare) - set(wanted)
    for error_type in wanted:
        if sum(len(p) - len(picks[d]) for d, p in added.items()) >= count:
            break
        crowded = _crowded(_forms({**picks, **added}, error_type))
        for taking in (set(), giving):  # beside the picks first, in a spare type's place where none fits
            found = next(_makings_up(error_type, crowded, picks, added, by_doc, config, taking, within), None)
            if found is not None:
                d, new, given = found
                added[d] = new
                giving -= {i.error_type for i in given}
                break
    return added


def _crowded(forms: Counter[str]) -> set[str]:
    """The forms one more instance of would put over the share the form goal allows."""
    return {f for f in forms if forms[f] + 1 > FORM_SHARE * (forms.total() + 1)}


def _makings_up(
    error_type: str,
    crowded: set[str],
    picks: Picks,
    added: Mapping[str, list[ErrorInstance]],
    by_doc: Mapping[str, Candidates],
    config: PlanConfig,
    giving: set[str],
    within: Collection[str] = (),
) -> Iterator[tuple[str, list[ErrorInstance], list[ErrorInstance]]]:
    """Every way a document takes a candidate of `error_type`, in doc_id and candidate order: its new
    picks, and the pick of a `giving` type the candidate took the place of, if any (`_make_up` takes the
    first); with `within`, in those documents only."""
    for d in sorted(within or picks):
        mine = added.get(d, picks[d])
        for i in by_doc[d].instances:
            if i.error_type != error_type or i.provenance.form in crowded or any(i is p for p in mine):
                continue
            given = [p for p in mine if _clash(by_doc[d], i, p)]
            if given and (len(given) > 1 or given[0].error_type not in giving):
                continue
            if _repeats(i, d, {**picks, **added}, by_doc):
                continue
            # a candidate that clashes with none may still find no room (its section or its document
            # full): a pick of a giving type makes room for it as one it clashes with would
            ways = [given] if given else [[], *([p] for p in mine if p.error_type in giving)]
            for way in ways:
                new = _ordered(by_doc[d], [*(p for p in mine if not any(p is g for g in way)), i])
                if _fits(new, i, config) and _holds(by_doc[d], new):
                    yield d, new, way


def _steps(
    error_type: str, picks: Picks, by_doc: Mapping[str, Candidates], config: PlanConfig
) -> Iterator[Trade]:
    """Every step that moves a pick away from `error_type`'s top form (any of the forms tied at the top: one
    of them may be the only one that can give way): the pick for another form's candidate
    in its own document, or for one in another document (the other document's clashing picks give way), or
    for nothing; or, with the pick kept, another form's candidate added (the type takes one more instance,
    which lowers the top form's share as much where the balance leaves room for it)."""
    forms = _forms(picks, error_type)
    most = max(forms.values())
    top = {f for f in forms if forms[f] == most}  # forms tied at the top all crowd it
    crowded = [
        (d, i) for d, p in picks.items() for i in p if i.error_type == error_type and i.provenance.form in top
    ]
    others = [
        (d, i)
        for d in picks
        for i in by_doc[d].instances
        if i.error_type == error_type
        and i.provenance.form
        and i.provenance.form not in top
        and all(i is not p for p in picks[d])
    ]
    for e, added in others:
        kept = [i for i in picks[e] if not _clash(by_doc[e], added, i)]
        new = _ordered(by_doc[e], [*kept, added])
        if _fits(new, added, config):
            yield Trade({e: new}, len(picks[e]) - len(kept))
    for d, dropped in crowded:
        mine = [i for i in picks[d] if i is not dropped]
        # the type gives up one instance; a document it leaves under its minimum takes another type's
        # candidate in its place (the make-up, `_valid`), or the trade is not made
        yield Trade({d: mine}, 1)
        for e, added in others:
            base = mine if e == d else picks[e]
            kept = [i for i in base if not _clash(by_doc[e], added, i)]
            new = _ordered(by_doc[e], [*kept, added])
            if not _fits(new, added, config):
                continue
            cost = len(base) - len(kept)  # the other picks it gives up
            if e == d:
                yield Trade({d: new}, cost)
            elif len(mine) >= config.min_errors:
                yield Trade({d: mine, e: new}, cost)


def _clash(candidates: Candidates, a: ErrorInstance, b: ErrorInstance) -> bool:
    return clashes(footprint(a.edit), footprint(b.edit), candidates.document)


def _ordered(candidates: Candidates, picks: list[ErrorInstance]) -> list[ErrorInstance]:
    """In the order the planner hands a document's picks over (its candidates' order)."""
    rank = {id(i): n for n, i in enumerate(candidates.instances)}
    return sorted(picks, key=lambda i: rank[id(i)])


def _fits(picks: list[ErrorInstance], added: ErrorInstance, config: PlanConfig) -> bool:
    """The planner's limits for one document: its number of errors, errors per type, errors per section."""
    here = [i.error_type for i in picks if i.location == added.location]
    return (
        config.min_errors <= len(picks) <= config.max_errors
        and sum(1 for i in picks if i.error_type == added.error_type) <= MAX_PER_TYPE
        and len(here) <= MAX_PER_SECTION
        and here.count(added.error_type) == 1
    )


def _holds(candidates: Candidates, picks: list[ErrorInstance]) -> bool:
    return len(kept_together(candidates.baseline.document, picks)) == len(picks)
