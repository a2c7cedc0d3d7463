"""The GB/T 1.1 linter: deterministic checkers, one registry, `lint(document) -> violations`.

Each checker is a plain function registered for one error type of the taxonomy. Checkers of types that
are only detectable by comparing with the original (D∆) register with `diff_rule` and take both
documents; the injectors' verification uses them, `gbtbench lint` does not.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from injectors.taxonomy import BY_ID
from parsers.model import Document


@dataclass(frozen=True, order=True)
class Violation:
    location: str
    error_type: str
    message: str

    @property
    def dimension(self) -> str:
        return BY_ID[self.error_type].dimension

    def to_dict(self) -> dict[str, str]:
        return {
            "location": self.location,
            "dimension": self.dimension,
            "error_type": self.error_type,
            "message": self.message,
        }


Rule = Callable[[Document], Iterable[Violation]]
DiffRule = Callable[[Document, Document], Iterable[Violation]]

RULES: dict[str, list[Rule]] = {}
DIFF_RULES: dict[str, list[DiffRule]] = {}
RULE_MODULES = ("structure", "scope", "modality", "terminology", "references")


def rule(error_type: str) -> Callable[[Rule], Rule]:
    """Register a checker for one taxonomy type."""
    if error_type not in BY_ID:
        raise KeyError(f"unknown error type {error_type}")

    def register(func: Rule) -> Rule:
        RULES.setdefault(error_type, []).append(func)
        return func

    return register


def diff_rule(error_type: str) -> Callable[[DiffRule], DiffRule]:
    if error_type not in BY_ID:
        raise KeyError(f"unknown error type {error_type}")

    def register(func: DiffRule) -> DiffRule:
        DIFF_RULES.setdefault(error_type, []).append(func)
        return func

    return register


def _load_rules() -> None:
    for name in RULE_MODULES:
        try:
            importlib.import_module(f"validation.rules.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"validation.rules.{name}":
                raise


def _ordered(document: Document, violations: Iterable[Violation]) -> list[Violation]:
    """Document order, then type: the order a reviewer reads them in."""
    position = {s.number: i for i, s in reversed(list(enumerate(document.sections)))}
    unique = set(violations)
    return sorted(unique, key=lambda v: (position.get(v.location, len(position)), v.error_type, v.message))


def lint(document: Document, types: Iterable[str] | None = None) -> list[Violation]:
    """All violations of the deterministic rules, in document order."""
    _load_rules()
    wanted = set(types) if types is not None else set(RULES)
    found: list[Violation] = []
    for error_type in sorted(wanted & set(RULES)):
        for check in RULES[error_type]:
            found.extend(check(document))
    return _ordered(document, found)


def lint_diff(original: Document, corrupted: Document, types: Iterable[str] | None = None) -> list[Violation]:
    """Violations that only a comparison with the original reveals (D∆ types)."""
    _load_rules()
    wanted = set(types) if types is not None else set(DIFF_RULES)
    found: list[Violation] = []
    for error_type in sorted(wanted & set(DIFF_RULES)):
        for check in DIFF_RULES[error_type]:
            found.extend(check(original, corrupted))
    return _ordered(corrupted, found)


def checkable_types() -> set[str]:
    _load_rules()
    return set(RULES) | set(DIFF_RULES)
