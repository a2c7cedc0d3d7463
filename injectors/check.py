"""What a checker is and what it finds: `Violation`, the `Check` and `DiffCheck` signatures, the section-local
`SectionCheck` with its memo, and the `Linter` that runs a set of them.

Checkers belong to their type's module (`injectors/types/`); a `Linter` is built from them by the registry
(`injectors.registry.linter`), which hands it down to the injectors through the `Baseline`
(`injectors.checking`). Checkers of types that only a comparison with the original reveals (D∆) take both
documents and run through `Linter.lint_diff`.

A checker whose verdict on a section depends only on that section and a few facts of the whole document is a
`SectionCheck`: its per-section results are memoised by (facts, section content), so linting a candidate
that differs from its original in one section re-reads that one section (each injector's verification lints
its corrupted document; the other sections' results come from the memo).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from injectors.language.cache_sizes import SECTION_CACHE
from parsers.model import Document, Section


@dataclass(frozen=True, order=True)
class Violation:
    location: str
    error_type: str
    message: str

    @property
    def dimension(self) -> str:
        return self.error_type.split("-")[0]

    def to_dict(self) -> dict[str, str]:
        return {
            "location": self.location,
            "dimension": self.dimension,
            "error_type": self.error_type,
            "message": self.message,
        }


Check = Callable[[Document], Iterable[Violation]]
DiffCheck = Callable[[Document, Document], Iterable[Violation]]


@dataclass(frozen=True)
class SectionCheck:
    """A section-local check: `facts(document)` is everything it reads outside the section at hand (hashable,
    e.g. the drafting generation or the informative annexes' letters) and `section(facts, section)` its
    violations there. Called on a document it is an ordinary `Check` that gives exactly
    `[v for s in document.sections for v in section(facts(document), s)]`."""

    facts: Callable[[Document], Hashable]
    # (what `facts` returned, a section) → the violations in that section, located at its number
    section: Callable[[Any, Section], Iterable[Violation]]

    def __call__(self, document: Document) -> list[Violation]:
        return self.at(document, None)

    def at(self, document: Document, numbers: Collection[str] | None) -> list[Violation]:
        """The violations in the sections numbered `numbers` (None: every section)."""
        facts = self.facts(document)
        read = _section_violations if _memo_on else _section_violations.__wrapped__
        sections = (
            document.sections if numbers is None else [s for s in document.sections if s.number in numbers]
        )
        return [v for section in sections for v in read(self, facts, section)]


_memo_on = True


@lru_cache(maxsize=SECTION_CACHE)
def _section_violations(check: SectionCheck, facts: Hashable, section: Section) -> tuple[Violation, ...]:
    return tuple(check.section(facts, section))


@contextmanager
def unmemoised() -> Iterator[None]:
    """Every section-local check reads every section afresh (the reference the memoised lint must equal)."""
    global _memo_on
    _memo_on = False
    try:
        yield
    finally:
        _memo_on = True


def _ordered(document: Document, violations: Iterable[Violation]) -> list[Violation]:
    """Document order, then type: the order a reviewer reads them in."""
    position = {s.number: i for i, s in reversed(list(enumerate(document.sections)))}
    unique = set(violations)
    return sorted(unique, key=lambda v: (position.get(v.location, len(position)), v.error_type, v.message))


@dataclass(frozen=True)
class Linter:
    """The checkers of a set of types, each pair (type ID, checker) in type ID order."""

    checks: tuple[tuple[str, Check], ...] = ()
    diff_checks: tuple[tuple[str, DiffCheck], ...] = ()

    def lint(self, document: Document, types: Iterable[str] | None = None) -> list[Violation]:
        """All violations of the deterministic rules, in document order."""
        return _ordered(document, self._checked(document, types, None))

    def lint_at(
        self, document: Document, types: Iterable[str], locations: Collection[str]
    ) -> list[Violation]:
        """`lint`'s violations of `types` at `locations`, in no particular order (and maybe twice): what the
        joint check of a document's picks asks, pass after pass; a section-local check reads only those
        sections."""
        return self._checked(document, types, locations)

    def _checked(
        self, document: Document, types: Iterable[str] | None, locations: Collection[str] | None
    ) -> list[Violation]:
        """What the checkers of `types` (None: all) find at `locations` (None: everywhere)."""
        found: list[Violation] = []
        for check in _wanted(self.checks, types):
            if locations is None:
                found.extend(check(document))
            elif isinstance(check, SectionCheck):
                found.extend(check.at(document, locations))
            else:
                found.extend(v for v in check(document) if v.location in locations)
        return found

    def lint_diff(
        self, original: Document, corrupted: Document, types: Iterable[str] | None = None
    ) -> list[Violation]:
        """Violations that only a comparison with the original reveals (D∆ types)."""
        found = [v for check in _wanted(self.diff_checks, types) for v in check(original, corrupted)]
        return _ordered(corrupted, found)


def _wanted(checks: Sequence[tuple[str, Any]], types: Iterable[str] | None) -> list[Any]:
    wanted = set(types) if types is not None else None
    return [check for type_id, check in checks if wanted is None or type_id in wanted]
