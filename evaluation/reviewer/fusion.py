"""Fusion: from heterogeneous candidates to one structured list, with the provenance of every kept item.

A reader can follow each step:

1. Normalise: a type code is validated against the taxonomy (our IDs or the reference implementation's
   codes); the dimension is the type's own. A location is mapped onto a section number of the document:
   the spelling a model writes ("第5章", "[5.2]", "附录 A") folded as the scorer folds it, then a number the
   document lacks ("5.2.9") falls back to its nearest existing parent, and a section title names its
   section. A candidate that cannot be placed or typed is dropped and counted, never guessed.
2. Group by (location, type). A group's score combines its sources' beliefs as independent evidence
   (noisy-or: 1 − Π(1 − weight × confidence)), one term per agent family, so agreement between families
   raises the score and an agent repeating itself does not.
3. Refine: an LLM agents' group at a section and a group of the same type at one of its subsections are one
   finding, kept at the subsection (the more precise place); a scanner's location is exact and stays.
   Neighbouring types: a group below the threshold whose location holds a kept group of another type of
   the same dimension is read as the same finding seen from another angle and lends its sources to it;
   otherwise groups of sibling types at one place that each fall short but together pass are kept once,
   as the best-scored type.
4. Keep the groups at or above the threshold, in document order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from evaluation.locations import normalise_location
from injectors.taxonomy import ErrorType, lookup
from parsers.model import Document

FAMILIES = ("direct", "dimension", "type", "rules")
# How much a family's own confidence counts: the scanners' findings are checked rules; an LLM agent's
# confidence is its own estimate, discounted more for the broadest reader.
WEIGHTS: Mapping[str, float] = {"rules": 0.95, "type": 0.8, "dimension": 0.75, "direct": 0.7}
DEFAULT_THRESHOLD = 0.5


@dataclass(frozen=True)
class Candidate:
    """One finding as an agent reported it (codes and location as written)."""

    family: str  # direct, dimension, type or rules
    agent: str  # e.g. "dimension:NMS", "type:SCP-03", "rules:linter"
    location: str | None
    error_type: str | None
    description: str = ""
    confidence: float = 1.0


@dataclass(frozen=True)
class Placed:
    """A candidate after normalisation: a section of the document and a known type."""

    candidate: Candidate
    location: str
    error_type: ErrorType


@dataclass(frozen=True)
class Finding:
    """A kept prediction with its score and the agents that proposed it."""

    location: str
    dimension: str
    error_type: str
    description: str
    score: float
    sources: tuple[str, ...]

    def provenance(self) -> dict[str, object]:
        return {
            "location": self.location,
            "error_type": self.error_type,
            "score": round(self.score, 4),
            "sources": list(self.sources),
        }


@dataclass(frozen=True)
class Fused:
    """The outcome for one document: what was kept and why the rest was not."""

    findings: tuple[Finding, ...]
    dropped: Mapping[str, int] = field(default_factory=dict)  # reason → candidates


def _parents(number: str) -> Iterable[str]:
    """ "5.2.3" → "5.2", "5"; "A.1.2" → "A.1", "附录A"."""
    parts = number.split(".")
    for n in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:n])
        yield f"附录{head}" if n == 1 and head.isalpha() else head


def place(raw: str | None, document: Document) -> str | None:
    """A section number of `document` for a location as a model wrote it, None when none fits."""
    numbers = {s.number for s in document.sections}
    if raw is not None and str(raw).strip() in numbers:
        return str(raw).strip()
    normal = normalise_location(raw)
    if not normal:
        return None
    if normal in numbers:
        return normal
    for parent in _parents(normal):
        if parent in numbers:
            return parent
    titled = [s.number for s in document.sections if s.title and s.title == normal]
    return titled[0] if len(titled) == 1 else None


def _type(code: str | None) -> ErrorType | None:
    if not code:
        return None
    try:
        return lookup(str(code).strip().upper())
    except KeyError:
        return None


def normalise(candidates: Iterable[Candidate], document: Document) -> tuple[list[Placed], dict[str, int]]:
    placed: list[Placed] = []
    dropped: dict[str, int] = defaultdict(int)
    for candidate in candidates:
        kind = _type(candidate.error_type)
        if kind is None:
            dropped["unknown_type"] += 1
            continue
        # a scanner's location is the checker's own: exact, even for an element the document lacks
        scanned = candidate.family == "rules" and candidate.location
        location = candidate.location if scanned else place(candidate.location, document)
        if location is None:
            dropped["unknown_location"] += 1
            continue
        placed.append(Placed(candidate, location, kind))
    return placed, dict(dropped)


def _belief(members: Sequence[Placed]) -> float:
    """Noisy-or over families: each family counts once, with its most confident member."""
    best: dict[str, float] = {}
    for member in members:
        family = member.candidate.family
        value = WEIGHTS.get(family, 0.5) * min(1.0, max(0.0, member.candidate.confidence))
        best[family] = max(best.get(family, 0.0), value)
    doubt = 1.0
    for value in best.values():
        doubt *= 1.0 - value
    return 1.0 - doubt


def _is_under(child: str, parent: str) -> bool:
    return parent in _parents(child)


def fuse(candidates: Iterable[Candidate], document: Document, threshold: float = DEFAULT_THRESHOLD) -> Fused:
    placed, dropped = normalise(candidates, document)
    groups: dict[tuple[str, str], list[Placed]] = defaultdict(list)
    for item in placed:
        groups[(item.location, item.error_type.id)].append(item)

    # Refine locations: an agent's group at a section joins the group of the same type at one of its
    # subsections. A scanner's location is exact (two numbering errors may sit at 5 and 5.1), never moved.
    for key in sorted(groups, key=lambda k: -len(k[0])):
        location, type_id = key
        if key not in groups or any(m.candidate.family == "rules" for m in groups[key]):
            continue
        finer = [k for k in groups if k[1] == type_id and k != key and _is_under(k[0], location)]
        if finer:
            target = max(finer, key=lambda k: _belief(groups[k]))
            groups[target].extend(groups.pop(key))

    # Neighbouring types at one place: lend weak groups to a passing sibling, or keep siblings jointly.
    by_place: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for location, type_id in groups:
        by_place[(location, type_id.split("-")[0])].append((location, type_id))
    for siblings in by_place.values():
        if len(siblings) < 2:
            continue
        ranked = sorted(siblings, key=lambda k: (-_belief(groups[k]), k[1]))
        weak = [k for k in ranked if _belief(groups[k]) < threshold]
        passing = [k for k in ranked if _belief(groups[k]) >= threshold]
        if passing and weak:
            for k in weak:
                groups[passing[0]].extend(groups.pop(k))
        elif not passing and _belief([m for k in ranked for m in groups[k]]) >= threshold:
            for k in ranked[1:]:
                groups[ranked[0]].extend(groups.pop(k))

    order = {s.number: i for i, s in reversed(list(enumerate(document.sections)))}
    findings = []
    below = 0
    for (location, type_id), members in groups.items():
        belief = _belief(members)
        if belief < threshold:
            below += len(members)
            continue
        kind = next(m.error_type for m in members if m.error_type.id == type_id)
        best = max(members, key=lambda m: (m.candidate.family == "rules", m.candidate.confidence))
        description = next((m.candidate.description for m in [best, *members] if m.candidate.description), "")
        sources = tuple(sorted({m.candidate.agent for m in members}))
        findings.append(Finding(location, kind.dimension, type_id, description, belief, sources))
    if below:
        dropped["below_threshold"] = below
    findings.sort(key=lambda f: (order.get(f.location, len(order)), f.error_type))
    return Fused(tuple(findings), dropped)
