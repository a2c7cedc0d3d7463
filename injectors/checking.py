"""Running the checkers: `lint(document) -> violations`, the one verdict injectors and the linter share.

Checkers belong to their type's module (`injectors/types/`); this module only collects them from the registry
and orders what they find. Checkers of types that only a comparison with the original reveals (D∆) take both
documents and run through `lint_diff`: the injectors' verification uses them, `gbtbench lint` does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from parsers.model import Document


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


def _ordered(document: Document, violations: Iterable[Violation]) -> list[Violation]:
    """Document order, then type: the order a reviewer reads them in."""
    position = {s.number: i for i, s in reversed(list(enumerate(document.sections)))}
    unique = set(violations)
    return sorted(unique, key=lambda v: (position.get(v.location, len(position)), v.error_type, v.message))


def lint(document: Document, types: Iterable[str] | None = None) -> list[Violation]:
    """All violations of the deterministic rules, in document order."""
    from injectors.registry import definitions

    wanted = set(types) if types is not None else None
    found: list[Violation] = []
    for definition in sorted(definitions(), key=lambda d: d.error_type.id):
        if wanted is None or definition.error_type.id in wanted:
            for check in definition.checks:
                found.extend(check(document))
    return _ordered(document, found)


def lint_diff(original: Document, corrupted: Document, types: Iterable[str] | None = None) -> list[Violation]:
    """Violations that only a comparison with the original reveals (D∆ types)."""
    from injectors.registry import definitions

    wanted = set(types) if types is not None else None
    found: list[Violation] = []
    for definition in sorted(definitions(), key=lambda d: d.error_type.id):
        if wanted is None or definition.error_type.id in wanted:
            for check in definition.diff_checks:
                found.extend(check(original, corrupted))
    return _ordered(corrupted, found)
