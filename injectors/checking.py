"""Linting with every registered type: `lint(document) -> violations`, the one verdict injectors and the
linter share, and the `Baseline` that hands that linter down to the injectors.

It stands above the registry: the registry builds the `Linter` from the type modules' checkers
(`injectors.check`), and this module runs it. The checkers' building blocks are re-exported here for the
modules that lint and read violations.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from injectors.check import Check, DiffCheck, Linter, SectionCheck, Violation, unmemoised
from injectors.registry import linter
from parsers.model import Document

__all__ = [
    "Baseline",
    "Check",
    "DiffCheck",
    "SectionCheck",
    "Violation",
    "lint",
    "lint_at",
    "lint_diff",
    "unmemoised",
]


def lint(document: Document, types: Iterable[str] | None = None) -> list[Violation]:
    """All violations of the deterministic rules, in document order."""
    return linter().lint(document, types)


def lint_at(document: Document, types: Iterable[str], locations: Collection[str]) -> list[Violation]:
    """`lint`'s violations of `types` at `locations`, in no particular order (and maybe twice)."""
    return linter().lint_at(document, types, locations)


def lint_diff(original: Document, corrupted: Document, types: Iterable[str] | None = None) -> list[Violation]:
    """Violations that only a comparison with the original reveals (D∆ types)."""
    return linter().lint_diff(original, corrupted, types)


@dataclass
class Baseline:
    """The original document's own violations, computed once per document, and the linter that found them:
    an injector verifies its edits with the same one (`injectors.base.Original`)."""

    document: Document
    linter: Linter = field(default_factory=linter, repr=False)
    violations: frozenset[Violation] = field(init=False)

    def __post_init__(self) -> None:
        self.violations = frozenset(self.linter.lint(self.document))

    def pre_existing(self, location: str, error_type: str) -> bool:
        return any(v.location == location and v.error_type == error_type for v in self.violations)
