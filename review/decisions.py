"""What the next build takes from the reviews: which instances to leave out and which to ship as fixed.

A decision names an instance of a release; the build recognises the same error in its own candidates by
(doc_id, edit): the edit is what the injector proposed, and the same corpus, configuration and seed
propose it again, while its id and location may shift with what else is chosen. Per instance the current
decisions (latest per annotator) are combined: rejected when more annotators reject than keep it,
otherwise the most recent fix applies, if any. A build with no decisions gets `None` and is unchanged.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from injectors.base import compatible
from injectors.instance import ErrorInstance, instance_id
from injectors.planner import Candidates, InjectionResult
from release.structs import edit_from_row
from review.agreement import agreement
from review.store import Decision, ReviewStore

Signature = tuple[str, str]  # (doc_id, the edit as canonical JSON)
REVIEWS_NAME = "reviews.sqlite"


def _canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def signature(instance: ErrorInstance) -> Signature:
    return instance.doc_id, _canonical(instance.edit.to_dict())


@dataclass(frozen=True)
class Fix:
    """The corrected fields of a fixed instance (None: keep what the build made)."""

    description: str | None = None
    error_type: str | None = None
    location: str | None = None


@dataclass(frozen=True)
class Verdict:
    outcome: str  # accept | reject | fix
    fix: Fix | None = None


def consensus(current: Sequence[Decision]) -> Verdict:
    """One verdict from several annotators' current decisions on one instance."""
    rejects = sum(d.decision == "reject" for d in current)
    if rejects > len(current) - rejects:
        return Verdict("reject")
    fixes = [d for d in current if d.decision == "fix"]
    if fixes:
        last = max(fixes, key=lambda d: (d.decided_at, d.id or 0))
        return Verdict("fix", Fix(last.fix_description, last.fix_error_type, last.fix_location))
    return Verdict("accept")


@dataclass(frozen=True)
class ReviewDecisions:
    """Verdicts by signature, plus the facts the manifest and card report about the reviewed release."""

    release: str
    verdicts: Mapping[Signature, Verdict]
    reviewed_signatures: frozenset[Signature]  # every instance of the reviewed release
    facts: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rejected(self) -> frozenset[Signature]:
        return frozenset(s for s, v in self.verdicts.items() if v.outcome == "reject")

    def digest(self) -> str:
        """Part of the build fingerprint: a new or changed decision means a new build."""
        data = sorted(
            (list(sig), v.outcome, None if v.fix is None else list(vars(v.fix).values()))
            for sig, v in self.verdicts.items()
        )
        return hashlib.sha256(_canonical([data, dict(self.facts)]).encode()).hexdigest()[:16]

    def replace_rejected(
        self, candidates: Candidates, chosen: list[ErrorInstance], type_counts: Counter[str]
    ) -> list[ErrorInstance]:
        """The planner's choice with each rejected instance swapped for another compatible candidate.

        Everything else the planner chose stays, so a fix on a kept instance is never lost to a new draw.
        A replacement is the candidate (at another site, or of another type) whose type this document and
        then the corpus use least, as the planner itself ranks them; `type_counts` is kept up to date.
        """
        rejected = self.rejected
        kept = [i for i in chosen if signature(i) not in rejected]
        missing = len(chosen) - len(kept)
        if not missing:
            return chosen
        type_counts.subtract(i.error_type for i in chosen if signature(i) in rejected)
        rank = {id(i): n for n, i in enumerate(candidates.instances)}
        used = Counter(i.error_type for i in kept)
        pool = [i for i in candidates.instances if i not in chosen and signature(i) not in rejected]
        while missing and pool:
            taken = [i.edit for i in kept]
            pool = [i for i in pool if compatible(i.edit, taken, candidates.document)]
            if not pool:
                break
            pick = min(pool, key=lambda i: (used[i.error_type], type_counts[i.error_type], rank[id(i)]))
            pool.remove(pick)
            kept.append(pick)
            used[pick.error_type] += 1
            type_counts[pick.error_type] += 1
            missing -= 1
        return sorted(kept, key=lambda i: rank[id(i)])

    def with_fixes(self, result: InjectionResult) -> InjectionResult:
        """Fixed descriptions, types and locations as the annotator wrote them (ids follow type/location)."""
        fixed = []
        for i in result.instances:
            verdict = self.verdicts.get(signature(i))
            if verdict is None or verdict.fix is None:
                fixed.append(i)
                continue
            fix = verdict.fix
            error_type = fix.error_type or i.error_type
            location = fix.location or i.location
            fixed.append(
                replace(
                    i,
                    error_type=error_type,
                    location=location,
                    description=fix.description or i.description,
                    instance_id=instance_id(i.doc_id, error_type, location, i.provenance.seed, i.edit),
                )
            )
        return replace(result, instances=tuple(fixed))

    def report(self, results: Iterable[InjectionResult]) -> dict[str, Any]:
        """The review facts for the manifest: counts from the reviews and what this build did with them."""
        rejected = self.rejected
        fixes = {s for s, v in self.verdicts.items() if v.outcome == "fix"}
        shipped = {signature(i) for r in results for i in r.instances}  # one pass: read from disk
        rejected_per_doc = Counter(doc for doc, _ in rejected)
        new_per_doc = Counter(s[0] for s in shipped if s not in self.reviewed_signatures)
        replaced = sum(min(n, new_per_doc[doc]) for doc, n in rejected_per_doc.items())
        return {
            **self.facts,
            "excluded": len(rejected - shipped),
            "replaced": replaced,
            "fixes_applied": len(fixes & shipped),
        }


def _release_signatures(release_dir: Path) -> dict[str, Signature]:
    table = pq.read_table(release_dir / "instances.parquet", columns=["instance_id", "doc_id", "edit"])
    return {
        r["instance_id"]: (r["doc_id"], _canonical(edit_from_row(r["edit"]).to_dict()))
        for r in table.to_pylist()
    }


def _sample_outcomes(release_dir: Path, verdicts: Mapping[str, Verdict]) -> list[str]:
    """Outcomes of the decided quality-sample items of one release."""
    path = release_dir / "review_queue.parquet"
    if not path.is_file():
        return []
    queue = pq.read_table(path, columns=["instance_id", "reason"]).to_pylist()
    return [
        verdicts[r["instance_id"]].outcome
        for r in queue
        if r["reason"] == "sample" and r["instance_id"] in verdicts
    ]


def load_decisions(reviews: Path, out_root: Path) -> ReviewDecisions | None:
    """Every release's decisions under `out_root`, later releases overriding; None when there are none.

    Decisions on a release that is not under `out_root` are ignored. Raises ReviewStoreError for a
    database that cannot be read (corrupt, locked).
    """
    reviews = Path(reviews)
    if not reviews.is_file():
        return None
    with ReviewStore(reviews) as store:
        current = store.current()
    releases: list[str] = []
    for d in current:  # in the order they were first reviewed
        if d.release not in releases and (Path(out_root) / d.release / "instances.parquet").is_file():
            releases.append(d.release)
    if not releases:
        return None
    verdicts: dict[Signature, Verdict] = {}
    reviewed: set[Signature] = set()
    dimension_of: dict[str, str] = {}
    samples: list[str] = []
    used: list[Decision] = []
    for release in releases:
        release_dir = Path(out_root) / release
        ids = _release_signatures(release_dir)
        reviewed.update(ids.values())
        mine = [d for d in current if d.release == release and d.instance_id in ids]
        used.extend(mine)
        by_instance: dict[str, list[Decision]] = {}
        for d in mine:
            by_instance.setdefault(d.instance_id, []).append(d)
        here = {i: consensus(ds) for i, ds in by_instance.items()}
        verdicts.update({ids[i]: v for i, v in here.items()})
        samples.extend(_sample_outcomes(release_dir, here))
        table = pq.read_table(release_dir / "instances.parquet", columns=["instance_id", "dimension"])
        dimension_of.update({r["instance_id"]: r["dimension"] for r in table.to_pylist()})
    outcomes = Counter(v.outcome for v in verdicts.values())
    figures = agreement(used, dimension_of)["overall"]
    facts = {
        "releases": releases,
        "annotators": len({d.annotator for d in used}),
        "reviewed": len(verdicts),
        "accepted": outcomes["accept"],
        "rejected": outcomes["reject"],
        "fixed": outcomes["fix"],
        "sample_pass_rate": round(samples.count("accept") / len(samples), 4) if samples else None,
        "kappa": figures["kappa"],
        "alpha": figures["alpha"],
        "agreement_items": figures["items"],
    }
    return ReviewDecisions(
        release=releases[-1], verdicts=verdicts, reviewed_signatures=frozenset(reviewed), facts=facts
    )


def card_section(facts: Mapping[str, Any]) -> str:
    """The dataset card's paragraph on human review, as the paper reported its quality check."""

    def figure(value: Any) -> str:
        return "n/a" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)

    rate = facts.get("sample_pass_rate")
    return (
        "\n## Human review\n\n"
        f"{facts['reviewed']} instances of {', '.join(facts['releases'])} were reviewed by "
        f"{facts['annotators']} annotator(s): {facts['accepted']} accepted, {facts['rejected']} rejected, "
        f"{facts['fixed']} fixed. "
        f"This build left out {facts['excluded']} rejected instances, drew {facts['replaced']} replacements "
        f"and shipped {facts['fixes_applied']} fixes. Quality-sample pass rate: "
        f"{'n/a' if rate is None else f'{rate:.1%}'}; Cohen's κ: {figure(facts.get('kappa'))} "
        f"(Krippendorff's α: {figure(facts.get('alpha'))}, {facts['agreement_items']} items decided by "
        "two or more annotators).\n"
    )
