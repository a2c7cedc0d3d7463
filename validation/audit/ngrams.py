"""Stock wording: word n-grams that injectors add and that recur across a type's instances.

A phrase an injector writes into many documents ("也应符合本条", "原则上") lets a model find the errors by
pattern instead of by reviewing. For each instance we take the word n-grams (n = 2–4, jieba words) of its
corrupted section that do not occur anywhere in its document's original text (`injectors.added_wording`,
the same n-grams the planner avoids repeating), and count, per type, in how many instances each one
appears. A phrase that only one instance uses is no pattern, so only n-grams shared by at least two
instances count; the goal for the judgement types is that none reaches more than 10%.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from injectors.added_wording import added_wording
from validation.audit.release import Release

GOAL = 0.10
MIN_INSTANCES = 2  # an n-gram must recur to be a pattern
TOP = 5


@dataclass(frozen=True)
class NgramShare:
    ngram: str
    instances: int
    share: float


@dataclass(frozen=True)
class TypeNgrams:
    error_type: str
    instances: int
    top: tuple[NgramShare, ...]

    @property
    def max_share(self) -> float:
        return self.top[0].share if self.top else 0.0

    @property
    def passed(self) -> bool:
        return self.max_share <= GOAL


def type_ngrams(error_type: str, added: Sequence[AbstractSet[tuple[str, ...]]]) -> TypeNgrams:
    """Per n-gram, the number of a type's instances that add it; the most frequent first."""
    counts: Counter[tuple[str, ...]] = Counter()
    for grams in added:
        counts.update(grams)
    total = len(added)
    ranked = sorted(
        ((g, n) for g, n in counts.items() if n >= MIN_INSTANCES), key=lambda x: (-x[1], -len(x[0]), x[0])
    )
    top = tuple(NgramShare(_joined(g), n, round(n / total, 4)) for g, n in ranked[:TOP])
    return TypeNgrams(error_type, total, top)


def _joined(gram: tuple[str, ...]) -> str:
    """Words as printed: Chinese runs together, Latin words keep a space between them."""
    out = gram[0]
    for word in gram[1:]:
        out += (" " if out[-1:].isascii() and out[-1:].isalnum() and word[:1].isascii() else "") + word
    return out


def audit_ngrams(release: Release, types: Iterable[str]) -> dict[str, TypeNgrams]:
    per_type: dict[str, list[frozenset[tuple[str, ...]]]] = {t: [] for t in types}
    for document in release.documents:
        for instance in document.instances:
            per_type.setdefault(instance.error_type, []).append(added_wording(instance, document.original))
    return {t: type_ngrams(t, added) for t, added in per_type.items()}
