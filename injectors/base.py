"""The Injector base class: everything an error type must not repeat.

A concrete injector only says where its error can go (`sites`) and what the edit looks like
(`propose`). The base class owns the rest: seeded site order, skipping taken sections and places
where the original already breaks the rule, verification with the linter, provenance and statistics
(`injected`, `skipped_<reason>`).

Nothing here looks the types up: the registry binds each injector class to its `ErrorType` when the type's
definition is made, and the linter comes with the original document (`Original`, made by
`injectors.checking.Baseline`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Protocol

from injectors.check import Linter, Violation
from injectors.context import InjectionContext
from injectors.edit import Edit, Footprint, apply_edits, clash, footprint, overlaps, unfollowed
from injectors.edition import edition
from injectors.error_type import ErrorType
from injectors.instance import (
    ErrorInstance,
    FlaggedCandidate,
    InjectionProvenance,
    LLMTrace,
    describe,
    instance_id,
)
from parsers.model import Document

MAX_ATTEMPTS = 12
# the failure of a renumbering that numbers written outside references would not follow (`edit.unfollowed`)
UNFOLLOWED = "unfollowed_numbers"
# One error per section, except where the taxonomy defines several types on one element: the scope and
# the list of normative references, which may take several errors on separate spans.
SHARED_KINDS = ("scope", "normative_references")


def occupied(edits: Sequence[Edit]) -> set[int]:
    """Positions of the sections these edits touch (an insertion occupies the section it follows)."""
    return {p for edit in edits for p in footprint(edit).sections}


def compatible(edit: Edit, taken: Sequence[Edit], document: Document) -> bool:
    """One error per section (several on separate spans of the scope or the reference list)."""
    mine = footprint(edit)
    return not any(clashes(mine, footprint(other), document) for other in taken)


def clashes(a: Footprint, b: Footprint, document: Document) -> bool:
    """Whether two edits cannot go into one document (`compatible`, pairwise: it is a pairwise relation)."""
    return clash(a, b) or any(document.sections[p].kind not in SHARED_KINDS for p in a.sections & b.sections)


@dataclass(frozen=True)
class Site:
    """A place an error can go: a section position and whatever the injector needs to remember."""

    target: int
    detail: Any = None


@dataclass(frozen=True)
class Proposal:
    edit: Edit
    error: str  # what is wrong, in Chinese, as a reviewer should say it
    fix: str  # how to correct it
    generator: str = "rule"
    llm: LLMTrace | None = None  # set when an LLM wrote the edit or was tried before a template fallback
    # which of the type's forms this edit takes (the element deleted, the verb used, the prefix added): it is
    # recorded in the instance's provenance, and where a form breaks a clause of its own (`ErrorType.forms`)
    # the description cites that clause; "" where a type has one form
    form: str = ""


@dataclass
class Attempt:
    """The outcome of one injection try: an instance, or the reason there is none."""

    instance: ErrorInstance | None = None
    reason: str = ""
    flagged: list[FlaggedCandidate] = field(default_factory=list)  # LLM rewrites for review, never gold


@dataclass(frozen=True)
class Verification:
    """The verdict on one proposal: the instance, or the failure and the violations behind it."""

    instance: ErrorInstance | None
    failure: str = ""  # not_detected | side_effect | unfollowed_numbers
    side_effects: tuple[Violation, ...] = ()  # other types' violations the edit newly causes at the location


@dataclass(frozen=True)
class RewriteOutcome:
    """What a rewriter makes of a site: a proposal to verify (LLM-written, or the template as a fallback),
    and/or a candidate flagged for review when no template fits and the LLM's answers all failed."""

    proposal: Proposal | None
    flagged: FlaggedCandidate | None = None


class Rewriter(Protocol):
    """The LLM path (injectors.llm.rewriter.LLMRewriter); the base class only needs these three methods."""

    def handles(self, error_type: str) -> bool: ...

    def works_without_template(self, error_type: str) -> bool: ...

    def rewrite(
        self,
        injector: Injector,
        baseline: Original,
        site: Site,
        template: Proposal | None,
        context: InjectionContext,
        taken: Sequence[Edit],
        seed: int,
    ) -> RewriteOutcome: ...


class Original(Protocol):
    """The original document, its own violations and the linter that found them
    (`injectors.checking.Baseline`): an injector verifies its edits with that linter, so that its verdict
    is the one `lint` gives."""

    @property
    def document(self) -> Document: ...

    @property
    def violations(self) -> frozenset[Violation]: ...

    @property
    def linter(self) -> Linter: ...

    def pre_existing(self, location: str, error_type: str) -> bool: ...


ALTERNATIVES = 2  # verified instances per type and document unless a type asks for more


class Injector(ABC):
    error_type: ClassVar[str]
    # the version changes whenever the type's candidates on the project's corpus change; the digest of those
    # candidates is recorded beside it, so that a change is never left unversioned (`injectors.versions`)
    version: ClassVar[str] = "1"
    digest: ClassVar[str] = ""
    # the forms its instances record (Proposal.form) where the type has a closed set of them: the audit
    # judges a type's variety against the forms it could take, not only those a release happens to show
    forms: ClassVar[tuple[str, ...]] = ()
    _spec: ClassVar[ErrorType | None] = None

    @classmethod
    def bind(cls, spec: ErrorType) -> None:
        """Give the class its taxonomy row: the registry does it when the type's definition is made."""
        cls._spec = spec

    # verified instances the planner asks for per document, at different sections: a type of several
    # forms offers more, of forms it does not offer yet, so that the corpus-wide choice can take turns
    alternatives: ClassVar[int] = ALTERNATIVES
    # whether its alternatives may be rivals for one place: edits that each renumber the same later
    # sections (a chapter deleted, another deleted instead) offer the planner a choice between them, which
    # it never takes together (`clashes`); otherwise an alternative must not overlap the earlier ones
    rivals: ClassVar[bool] = False

    @property
    def spec(self) -> ErrorType:
        spec = type(self)._spec
        if spec is None or spec.id != self.error_type:  # a subclass inherits its parent's row
            raise LookupError(f"{type(self).__name__}: no TypeDefinition names this injector")
        return spec

    def rule(self, document: Document, form: str = "") -> str:
        """The clause a description cites: of the edition the document is held to (`injectors.edition`)."""
        return self.spec.rule_for(edition(document), form)

    # --- what a concrete injector writes ------------------------------------------------------
    @abstractmethod
    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        """Every place this error could go, in document order."""

    @abstractmethod
    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        """The edit at one site, or None when the site turns out not to fit."""

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """Why the document offers no site; a type that takes only some of its places says which."""
        return "no_site"

    # --- what the base class owns ---------------------------------------------------------------
    def inject(
        self,
        baseline: Original,
        rng: random.Random,
        context: InjectionContext,
        taken: Sequence[Edit] = (),
        seed: int = 0,
        stats: Counter[str] | None = None,
        rewriter: Rewriter | None = None,
    ) -> Attempt:
        """One verified instance from the first site that yields one; with a rewriter that handles this
        type, each site's template proposal first goes through the LLM (which falls back to it)."""
        stats = stats if stats is not None else Counter()
        llm = rewriter if rewriter is not None and rewriter.handles(self.error_type) else None
        flagged: list[FlaggedCandidate] = []
        document = baseline.document
        sites = list(_sites(self, document, context))
        if not sites:
            reason = self.no_site_reason(document, context)
            stats[f"skipped_{reason}"] += 1
            return Attempt(reason=reason)
        rng.shuffle(sites)
        reasons: Counter[str] = Counter()
        busy = occupied(taken)
        for site in sites[:MAX_ATTEMPTS]:
            section = document.sections[site.target]
            if site.target in busy and section.kind not in SHARED_KINDS:
                reasons["taken"] += 1
                continue
            number = section.number
            if baseline.pre_existing(number, self.error_type):
                reasons["pre_existing"] += 1
                continue
            proposal = self.propose(document, site, rng, context)
            if proposal is None and (llm is None or not llm.works_without_template(self.error_type)):
                reasons["no_edit"] += 1
                continue
            if proposal is not None and (
                proposal.edit in taken or (not self.rivals and any(overlaps(proposal.edit, o) for o in taken))
            ):
                reasons["taken"] += 1
                continue
            if llm is not None and proposal is not None and unfollowed(document, proposal.edit):
                # a model's rewrite keeps the renumbering: no call can mend it (without a model, `verify`
                # refuses it for the same reason)
                reasons[UNFOLLOWED] += 1
                continue
            if llm is not None:
                outcome = llm.rewrite(self, baseline, site, proposal, context, taken, seed)
                if outcome.flagged is not None:
                    flagged.append(outcome.flagged)
                proposal = outcome.proposal
                if proposal is None:
                    reasons["flagged" if outcome.flagged is not None else "no_edit"] += 1
                    continue
            assert proposal is not None  # no template and no LLM answer: skipped above
            instance, failure = self._verified(baseline, proposal, seed)
            if instance is None:
                reasons[failure] += 1
                continue
            stats["injected"] += 1
            return Attempt(instance=instance, flagged=flagged)
        reason = reasons.most_common(1)[0][0] if reasons else "no_site"
        stats[f"skipped_{reason}"] += 1
        return Attempt(reason=reason, flagged=flagged)

    def _verified(
        self, baseline: Original, proposal: Proposal, seed: int
    ) -> tuple[ErrorInstance | None, str]:
        """This type's checker fires at the location; no other type's checker newly fires anywhere."""
        verdict = self.verify(baseline, proposal, seed)
        return verdict.instance, verdict.failure

    def verify(self, baseline: Original, proposal: Proposal, seed: int) -> Verification:
        """`_verified` with the side effects named (the LLM rewriter tells the model which rule it broke)."""
        document = baseline.document
        if unfollowed(document, proposal.edit):
            return Verification(None, UNFOLLOWED)
        applied = apply_edits(document, [proposal.edit])
        location = applied.locations[0]
        corrupted = applied.document
        # the original's own violations, at the numbers their sections carry after this edit's renames
        before = {(applied.numbers.get(v.location, v.location), v.error_type) for v in baseline.violations}
        after = baseline.linter.lint(corrupted)
        new = {v for v in after if v.location == location and (v.location, v.error_type) not in before}
        if self.spec.deterministic:
            if not any(v.error_type == self.error_type for v in new):
                return Verification(None, "not_detected")
        elif self.spec.diff_detectable:
            found = baseline.linter.lint_diff(document, corrupted, [self.error_type])
            if not any(v.location == location for v in found):
                return Verification(None, "not_detected")
        side_effects = tuple(sorted(v for v in new if v.error_type != self.error_type))
        if not side_effects:
            # nor anywhere else: counts per type, so that a violation the edit merely renumbered is not new
            counts_before = Counter(v.error_type for v in baseline.violations)
            counts_after = Counter(v.error_type for v in after if v.error_type != self.error_type)
            side_effects = tuple(
                sorted(v for v in after if counts_after[v.error_type] > counts_before[v.error_type])
            )
        if side_effects:
            return Verification(None, "side_effect", side_effects)
        original = None if proposal.edit.op == "insert" else document.sections[proposal.edit.target]
        instance = ErrorInstance(
            instance_id=instance_id(document.doc_id, self.error_type, location, seed, proposal.edit),
            doc_id=document.doc_id,
            error_type=self.error_type,
            location=location,
            original_section=original,
            corrupted_section=applied.sections[0],
            edit=proposal.edit,
            description=describe(proposal.error, proposal.fix, self.rule(document, proposal.form)),
            provenance=InjectionProvenance(
                proposal.generator,
                self.version,
                seed,
                form=proposal.form or None,
                **(proposal.llm.provenance_fields() if proposal.llm is not None else {}),
            ),
        )
        return Verification(instance)


@lru_cache(maxsize=64)
def _sites(injector: Injector, document: Document, context: InjectionContext) -> tuple[Site, ...]:
    """An injector's sites on a document: the planner asks twice (two alternatives per type), and finding
    them reads the whole document and, for some types, the whole corpus."""
    return tuple(injector.sites(document, context))
