"""What the next build takes from the reviews: which instances to leave out and which to ship as fixed.

A decision names an instance of a release; the build recognises the same error in its own candidates by
(doc_id, edit): the edit is what the injector proposed, and the same corpus, configuration and seed
propose it again, while its id and location may shift with what else is chosen. Per instance the current
decisions (latest per annotator) are combined: rejected when more annotators reject than keep it,
otherwise the most recent fix applies, if any. A build with no decisions gets `None` and is unchanged.
A build with decisions starts from the latest release (the base): only its rejected instances and their
replacements, and its fixed instances, differ from it.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from injectors.base import compatible
from injectors.instance import ErrorInstance, instance_id
from injectors.planner import Candidates, InjectionResult, finalize
from injectors.taxonomy import by_id
from release.structs import edit_from_row
from release.versions import latest_version
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

    release: str  # the last release reviewed
    verdicts: Mapping[Signature, Verdict]
    base: str  # the release this build starts from and is compared with: the latest one
    base_choice: Mapping[str, tuple[Signature, ...]]  # doc_id → the base release's instances of it
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
        """The reviewed release's choice for this document, with each rejected instance swapped for another
        compatible candidate; `type_counts` is kept up to date.

        A document of the base release whose instances are all still among its candidates keeps them, in
        place of what the planner chose now: the planner balances the corpus as it goes, so a rejection in
        one document would move the choice of every document after it. A replacement is the candidate whose
        type this document and then the corpus use least, as the planner ranks them, among those that leave
        every kept instance exactly as the base release shipped it (another error that renumbers sections
        would reword them); failing that, among those that keep every kept instance at all.
        """
        rejected = self.rejected
        by_signature = {signature(i): i for i in candidates.instances}
        base = self.base_choice.get(candidates.document.doc_id)
        if base and all(s in by_signature for s in base):
            type_counts.subtract(i.error_type for i in chosen)
            chosen = [by_signature[s] for s in base]
            type_counts.update(i.error_type for i in chosen)
        kept = [i for i in chosen if signature(i) not in rejected]
        missing = len(chosen) - len(kept)
        if not missing:
            return chosen
        type_counts.subtract(i.error_type for i in chosen if signature(i) in rejected)
        rank = {id(i): n for n, i in enumerate(candidates.instances)}

        def order(found: list[ErrorInstance]) -> list[ErrorInstance]:
            return sorted(found, key=lambda i: rank[id(i)])  # as the planner hands them over

        before = _assembled(candidates, order(chosen))  # the kept instances as the base shipped them
        without = _assembled(candidates, order(kept))
        if without != {s: before[s] for s in map(signature, kept) if s in before}:
            before = without  # leaving a rejected one out moved them already: change nothing more
        used = Counter(i.error_type for i in kept)
        pool = [i for i in candidates.instances if i not in chosen and signature(i) not in rejected]
        while missing and pool:
            taken = [i.edit for i in kept]
            pool = [i for i in pool if compatible(i.edit, taken, candidates.document)]
            ranked = sorted(pool, key=lambda i: (used[i.error_type], type_counts[i.error_type], rank[id(i)]))
            pick = _first_leaving(candidates, order(kept), ranked, before) or _first_leaving(
                candidates, order(kept), ranked
            )
            if pick is None:
                break
            pool.remove(pick)
            kept.append(pick)
            used[pick.error_type] += 1
            type_counts[pick.error_type] += 1
            missing -= 1
        return sorted(kept, key=lambda i: rank[id(i)])

    def with_fixes(self, result: InjectionResult) -> InjectionResult:
        """Fixed descriptions, types and locations as the annotator wrote them (ids follow type/location).

        A fix naming a type outside the taxonomy or a section the document does not have is not applied
        (the report counts it): one bad decision never stops a build.
        """
        fixed = []
        sections = {s.number for s in result.corrupted.sections}
        for i in result.instances:
            verdict = self.verdicts.get(signature(i))
            fix = verdict.fix if verdict is not None else None
            if fix is None or not usable(fix, sections):
                fixed.append(i)
                continue
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

    def report(self, instances: pa.Table, out_root: Path) -> dict[str, Any]:
        """The review facts for the manifest and card: counts from the reviews, and this build's instances
        compared row by row with the base release's, so that what the card says changed is what changed."""
        new = _rows(instances)
        old = _rows(pq.read_table(Path(out_root) / self.base / "instances.parquet"))
        rejected = self.rejected
        fixes = {s: v.fix for s, v in self.verdicts.items() if v.fix is not None and s in new}
        applied = {s for s, fix in fixes.items() if _shows(new[s], fix)}
        accepted = {s for s, v in self.verdicts.items() if v.outcome == "accept"}
        removed = old.keys() - new.keys()
        return {
            **self.facts,
            "base": self.base,
            "unchanged": sum(new[s] == row for s, row in old.items() if s in new),
            "changed": sum(new[s] != row for s, row in old.items() if s in new),
            "removed": len(removed),
            "added": len(new.keys() - old.keys()),
            "excluded": len(rejected - new.keys()),
            "replaced": len(new.keys() - old.keys()),
            "fixes_applied": len(applied),
            "fixes_not_applied": len(fixes.keys() - applied),
            "accepted_dropped": len(accepted & removed),
        }


def usable(fix: Fix, sections: Collection[str]) -> bool:
    """Whether a fix can ship: its type is one of the taxonomy and its location a section of the document."""
    return (fix.error_type is None or fix.error_type in by_id()) and (
        fix.location is None or fix.location in sections
    )


def _shows(row: Mapping[str, Any], fix: Fix) -> bool:
    """Whether an instance's row carries the fix."""
    wanted = {"description": fix.description, "error_type": fix.error_type, "location": fix.location}
    return all(value is None or row[name] == value for name, value in wanted.items())


def _rows(table: pa.Table) -> dict[Signature, dict[str, Any]]:
    return {(r["doc_id"], _canonical(edit_from_row(r["edit"]).to_dict())): r for r in table.to_pylist()}


def _assembled(candidates: Candidates, chosen: list[ErrorInstance]) -> dict[Signature, tuple[Any, ...]]:
    """What each of `chosen` ships as once they are assembled together (by signature)."""
    return {
        signature(i): (i.instance_id, i.error_type, i.location, i.corrupted_section, i.description)
        for i in finalize(candidates, chosen).instances
    }


def _first_leaving(
    candidates: Candidates,
    kept: list[ErrorInstance],
    ranked: list[ErrorInstance],
    as_before: Mapping[Signature, tuple[Any, ...]] | None = None,
) -> ErrorInstance | None:
    """The first of `ranked` that, assembled with `kept`, holds and keeps every kept instance (exactly as in
    `as_before`, when given). Only the best `TRIED` are assembled: each try assembles the whole document."""
    for pick in ranked[:TRIED]:
        after = _assembled(candidates, [*kept, pick])
        if signature(pick) not in after or any(signature(i) not in after for i in kept):
            continue
        if as_before is None or all(after[signature(i)] == as_before.get(signature(i)) for i in kept):
            return pick
    return None


TRIED = 24  # replacement candidates assembled per rejected instance before settling for fewer


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
    dimension_of: dict[str, str] = {}
    samples: list[str] = []
    used: list[Decision] = []
    for release in releases:
        release_dir = Path(out_root) / release
        ids = _release_signatures(release_dir)
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
    latest = latest_version(Path(out_root))
    base = latest if latest and (Path(out_root) / latest / "instances.parquet").is_file() else releases[-1]
    base_choice: dict[str, list[Signature]] = {}
    for sig in _release_signatures(Path(out_root) / base).values():
        base_choice.setdefault(sig[0], []).append(sig)
    return ReviewDecisions(
        release=releases[-1],
        verdicts=verdicts,
        base=base,
        base_choice={doc: tuple(sigs) for doc, sigs in base_choice.items()},
        facts=facts,
    )


def card_section(facts: Mapping[str, Any]) -> str:
    """The dataset card's paragraph on human review, as the paper reported its quality check; the counts
    of what changed are those of the build compared with its base release (`ReviewDecisions.report`)."""

    def figure(value: Any) -> str:
        return "n/a" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)

    rate = facts.get("sample_pass_rate")
    not_applied = facts.get("fixes_not_applied")
    dropped = facts.get("accepted_dropped")
    return (
        "\n## Human review\n\n"
        f"{facts['reviewed']} instances of {', '.join(facts['releases'])} were reviewed by "
        f"{facts['annotators']} annotator(s): {facts['accepted']} accepted, {facts['rejected']} rejected, "
        f"{facts['fixed']} fixed. Compared with {facts['base']}, this build keeps {facts['unchanged']} "
        f"instances unchanged, removes {facts['removed']} ({facts['excluded']} rejected"
        f"{f', {dropped} accepted' if dropped else ''}), adds {facts['added']} and changes "
        f"{facts['changed']} ({facts['fixes_applied']} fixes applied"
        f"{f', {not_applied} not applicable' if not_applied else ''}). Quality-sample pass rate: "
        f"{'n/a' if rate is None else f'{rate:.1%}'}; Cohen's κ: {figure(facts.get('kappa'))} "
        f"(Krippendorff's α: {figure(facts.get('alpha'))}, {facts['agreement_items']} items decided by "
        "two or more annotators).\n"
    )
