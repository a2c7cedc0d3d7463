"""Inter-annotator agreement on accept/reject: Cohen's κ for two annotators, Krippendorff's α for more.

Pure functions over labels. Only items that at least two annotators decided count (α) or that both
decided (κ); a fix keeps the instance and so counts as accept. A statistic that is undefined (no items, or
every label the same so that chance agreement is total) is None rather than a made-up number.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from review.store import Decision


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float | None:
    """κ for two raters' labels of the same items, in the same order (scikit-learn's); None where it is
    undefined: no items, or one label for everything from both, so that chance agreement is total."""
    if len(first) != len(second):
        raise ValueError("both annotators must label the same items")
    if not first or len(set(first) | set(second)) == 1:
        return None
    from sklearn.metrics import cohen_kappa_score  # seconds to import: only where two annotators overlap

    return float(cohen_kappa_score(list(first), list(second)))


def krippendorff_alpha(units: Iterable[Sequence[Hashable]]) -> float | None:
    """Nominal α = 1 − D_o / D_e over units (each the labels its annotators gave); units with one label drop.

    Built from the coincidence matrix: o_ck = Σ_u (pairs c,k in u) / (m_u − 1).
    """
    coincidence: defaultdict[tuple[Hashable, Hashable], float] = defaultdict(float)  # fractional counts
    for labels in units:
        m = len(labels)
        if m < 2:
            continue
        for i, a in enumerate(labels):
            for j, b in enumerate(labels):
                if i != j:
                    coincidence[(a, b)] += 1 / (m - 1)
    n_c: defaultdict[Hashable, float] = defaultdict(float)
    for (a, _), weight in coincidence.items():
        n_c[a] += weight
    n = sum(n_c.values())
    if n <= 1:
        return None
    disagree_observed = sum(w for (a, b), w in coincidence.items() if a != b)
    disagree_expected = sum(n_c[a] * n_c[b] for a in n_c for b in n_c if a != b) / (n - 1)
    if disagree_expected == 0:
        return None
    return 1 - disagree_observed / disagree_expected


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _figures(labels: Mapping[str, Mapping[str, str]], annotators: Sequence[str]) -> dict[str, Any]:
    """κ per pair, α over everyone, and how many items each covers; labels: item → annotator → label."""
    pairs = []
    for a, b in combinations(annotators, 2):
        both = [item for item, by in labels.items() if a in by and b in by]
        kappa = cohen_kappa([labels[i][a] for i in both], [labels[i][b] for i in both])
        pairs.append({"annotators": [a, b], "items": len(both), "kappa": _round(kappa)})
    units = [list(by.values()) for by in labels.values() if len(by) >= 2]
    return {
        "items": len(units),
        "kappa": pairs[0]["kappa"] if len(pairs) == 1 else None,
        "alpha": _round(krippendorff_alpha(units)),
        "pairs": pairs,
    }


def agreement(decisions: Iterable[Decision], dimension_of: Mapping[str, str]) -> dict[str, Any]:
    """Overall and per-dimension agreement of the current decisions (one per instance and annotator)."""
    labels: dict[str, dict[str, str]] = {}
    for d in decisions:
        labels.setdefault(d.instance_id, {})[d.annotator] = d.label
    annotators = sorted({a for by in labels.values() for a in by})
    by_dimension: dict[str, dict[str, dict[str, str]]] = {}
    for item, by in labels.items():
        by_dimension.setdefault(dimension_of.get(item, "?"), {})[item] = by
    return {
        "annotators": annotators,
        "overall": _figures(labels, annotators),
        "by_dimension": {
            dim: _figures(items, sorted({a for by in items.values() for a in by}))
            for dim, items in sorted(by_dimension.items())
        },
    }
