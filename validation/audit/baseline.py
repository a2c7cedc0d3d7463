"""The surface baseline: can a character n-gram classifier tell a corrupted section from clean ones?

Positives are the corrupted sections of one type's instances; negatives are original sections of the same
kinds (scopes for a scope error, clauses for a clause error) from the release, the instances' own originals
among them. The negatives' kinds are in the positives' proportions: a type whose instances sit mostly in
symbols lists, against negatives drawn from every section of those kinds (nearly all clauses), would be
told apart by being a symbols list, not by its error. Each kind gives NEGATIVES_PER_POSITIVE sections per
positive of that kind; a kind the release has fewer of gives all it has, weighted up (in the fit and in the
AUC) so that each kind weighs among the negatives what it weighs among the positives.
Cross-validation is grouped by document, so the classifier never sees the test document's
other sections and cannot learn a document's position or subject: what it learns is the wording. An
instance and its own original are always in the same fold, so what separates them is the edit; without the
originals, a type given mostly to one kind of document (scopes of service standards, say, against the
product standards that did not get it) was told apart by the kind of document, not by its wording. A high
ROC AUC means the type can be found by pattern; the goal for the judgement types is at most 0.70.
Seeded and deterministic (the negative sample, the folds and the solver). A large release fits the
classifier on a seeded sample of at most MAX_POSITIVES instances per type (the fit's cost grows faster
than the release); the audit says when it did.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from parsers.model import Section
from validation.audit.release import Release

if TYPE_CHECKING:  # scikit-learn (and SciPy) are imported where the classifier runs: a process that only
    # imports the release writer (a build's worker processes, a CLI run refused early) never loads them
    from scipy.sparse import csr_matrix

GOAL = 0.70
MIN_POSITIVES = 5
MIN_DOCUMENTS = 3
MAX_FOLDS = 5
NEGATIVES_PER_POSITIVE = 20
MAX_POSITIVES = 40  # per type; beyond it a seeded sample (from about 60 documents: the fit costs most)


@dataclass(frozen=True)
class TypeBaseline:
    error_type: str
    positives: int
    negatives: int
    auc: float | None  # None when skipped
    skipped: str = ""
    sampled_from: int = 0  # the type's instances when `positives` is a sample of them (0: all used)

    @property
    def passed(self) -> bool | None:
        return None if self.auc is None else self.auc <= GOAL


def section_text(section: Section) -> str:
    return f"{section.title}\n{section.text}"


@cache
def _hashing() -> Any:
    """Character 1–3-grams hashed (stateless, so each text is analysed once per audit, not once per fold)."""
    from sklearn.feature_extraction.text import HashingVectorizer

    return HashingVectorizer(
        analyzer="char", ngram_range=(1, 3), n_features=2**20, alternate_sign=False, norm=None
    )


def char_counts(texts: Sequence[str]) -> csr_matrix:
    return _hashing().transform(list(texts))


def surface_auc(
    texts: Sequence[str],
    labels: Sequence[int],
    groups: Sequence[str],
    seed: int,
    counts: csr_matrix | None = None,
    weights: Sequence[float] | None = None,
) -> float:
    """Out-of-fold ROC AUC of char 1–3-gram TF-IDF + logistic regression, folds grouped by document.

    `counts` (rows aligned with `texts`) saves hashing texts again; the IDF is fitted on each training fold.
    `weights` (default 1 each) weigh the sections in the fit and in the AUC.
    """
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    y = np.asarray(labels)
    g = np.asarray(groups)
    w = np.ones(len(texts)) if weights is None else np.asarray(weights, dtype=float)
    x = char_counts(texts) if counts is None else counts
    folds = min(MAX_FOLDS, len(set(groups)))
    scores = np.zeros(len(texts), dtype=float)
    for train, test in GroupKFold(n_splits=folds).split(x, y, g):
        if len(set(y[train])) < 2:  # nothing to learn from: an uninformed score
            continue
        # the training fold's n-grams only, as a fitted vocabulary would have (and few columns: the solver's
        # cost grows with them)
        seen = np.zeros(x.shape[1], dtype=bool)
        seen[x[train].indices] = True
        fold = x[:, np.flatnonzero(seen)]  # the same sorted columns as np.unique, without sorting every entry
        tfidf = TfidfTransformer(sublinear_tf=True).fit(fold[train])
        # the dual problem: far fewer sections than n-grams, where it is several times faster (same optimum)
        model = LogisticRegression(
            max_iter=2000, class_weight="balanced", solver="liblinear", dual=True, random_state=seed
        )
        model.fit(tfidf.transform(fold[train]), y[train], sample_weight=w[train])
        scores[test] = model.decision_function(tfidf.transform(fold[test]))
    return round(float(roc_auc_score(y, scores, sample_weight=w)), 4)


def _negatives(
    clean: dict[str, list[tuple[str, str, str]]], kinds: Counter[str], rng: np.random.Generator
) -> list[tuple[str, tuple[str, str, str]]]:
    """(kind, section) drawn per kind: NEGATIVES_PER_POSITIVE for each positive of the kind, or every clean
    section of it when the release has fewer."""
    out: list[tuple[str, tuple[str, str, str]]] = []
    for kind in sorted(kinds):
        available = clean.get(kind, [])
        limit = NEGATIVES_PER_POSITIVE * kinds[kind]
        if len(available) > limit:
            available = [available[k] for k in sorted(rng.choice(len(available), size=limit, replace=False))]
        out += [(kind, c) for c in available]
    return out


def audit_baseline(release: Release, types: Iterable[str], seed: int = 0) -> dict[str, TypeBaseline]:
    """Per type: positives, negatives, AUC, or why the type was skipped."""
    types = list(types)
    clean: dict[str, list[tuple[str, str, str]]] = {}  # kind → (doc_id, number, text) of original sections
    for d in release.documents:
        for s in d.original.sections:
            if s.text.strip():
                clean.setdefault(s.kind, []).append((d.original.doc_id, s.number, section_text(s)))
    out: dict[str, TypeBaseline] = {}
    fits: dict[str, tuple[list[str], list[int], list[str], list[float], int, int, int]] = {}
    for error_type in types:
        instances = [
            i for i in release.instances if i.error_type == error_type and i.corrupted_section is not None
        ]
        positives = [(i.doc_id, i.corrupted_section) for i in instances if i.corrupted_section is not None]
        documents = {doc for doc, _ in positives}
        if len(positives) < MIN_POSITIVES or len(documents) < MIN_DOCUMENTS:
            reason = f"too few instances ({len(positives)} in {len(documents)} documents; "
            reason += f"needs {MIN_POSITIVES} in {MIN_DOCUMENTS})"
            out[error_type] = TypeBaseline(error_type, len(positives), 0, None, reason)
            continue
        rng = np.random.default_rng(seed)
        sampled_from = 0
        if len(positives) > MAX_POSITIVES:
            sampled_from = len(positives)
            picked = sorted(rng.choice(len(positives), size=MAX_POSITIVES, replace=False))
            positives = [positives[k] for k in picked]
        kinds = Counter(s.kind for _, s in positives)
        drawn = _negatives(clean, kinds, rng)
        pool = [c for _, c in drawn]
        if len({c[0] for c in pool}) < 2:
            reason = f"too few clean sections of kind {'/'.join(sorted(kinds))} in the release's documents"
            out[error_type] = TypeBaseline(error_type, len(positives), len(pool), None, reason)
            continue
        drawn_of = Counter(kind for kind, _ in drawn)
        share = {k: (kinds[k] / len(positives)) / (drawn_of[k] / len(drawn)) for k in drawn_of}
        texts = [section_text(s) for _, s in positives] + [c[2] for c in pool]
        labels = [1] * len(positives) + [0] * len(pool)
        groups = [doc for doc, _ in positives] + [c[0] for c in pool]
        weights = [1.0] * len(positives) + [share[kind] for kind, _ in drawn]
        fits[error_type] = (texts, labels, groups, weights, len(positives), len(pool), sampled_from)
    # every distinct text the fits read, hashed once (the hashing is stateless: a text's row is the same
    # whatever is hashed beside it); not every section of the release, most of which no sample draws
    rows: dict[str, int] = {}
    for texts, *_ in fits.values():
        for text in texts:
            rows.setdefault(text, len(rows))
    hashed = char_counts(list(rows)) if rows else None
    for error_type, (texts, labels, groups, weights, positives_n, negatives_n, sampled_from) in fits.items():
        assert hashed is not None
        auc = surface_auc(texts, labels, groups, seed, hashed[[rows[t] for t in texts]], weights)
        out[error_type] = TypeBaseline(error_type, positives_n, negatives_n, auc, sampled_from=sampled_from)
    return {t: out[t] for t in types if t in out}
