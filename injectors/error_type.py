"""One row of the public error taxonomy, as a type module declares it: its ID, dimension, names and clauses.

Data only: the rows themselves live in the type modules (`injectors/types/`) and are read through the
registry (`injectors.registry`, `injectors.taxonomy`). The type IDs are a public contract (docs/taxonomy.md):
never renumber them.
"""

from __future__ import annotations

from dataclasses import dataclass

DIMENSIONS: dict[str, tuple[str, str]] = {
    "STR": ("结构", "structure"),
    "SCP": ("范围", "scope"),
    "NMS": ("规范性表述", "normative modality"),
    "TER": ("术语", "terminology"),
    "NREF": ("规范性引用", "normative references"),
}

# The public reference implementation groups its codes by these dimension codes.
REFERENCE_DIMENSIONS = {"C2.1": "STR", "C2.2": "SCP", "C3.1": "NMS", "C3.2": "TER", "C3.3": "NREF"}

EDITION_2020 = "GB/T 1.1—2020"
EDITION_2009 = "GB/T 1.1—2009"


@dataclass(frozen=True)
class ErrorType:
    """One row of the taxonomy."""

    id: str
    dimension: str
    name_zh: str
    name_en: str
    rule: str  # the GB/T 1.1—2020 clause the error breaks, e.g. "GB/T 1.1—2020 8.5"
    rule_2009: str  # the same rule in GB/T 1.1—2009, e.g. "GB/T 1.1—2009 6.2.2"
    inject: str  # R, R+L, L (docs/taxonomy.md legend)
    check: str  # D, D∆, S, J and combinations such as "D / S"
    reference_codes: tuple[str, ...] = ()  # codes of the public reference implementation mapping here
    # where the rule a form of the error breaks is another clause than the type's: (form, 2020 clause,
    # 2009 clause), e.g. a provision written into the 前言 breaks the foreword's clause, not the notes'
    forms: tuple[tuple[str, str, str], ...] = ()
    # why no instance of the type can have a correction example (its fix is not a rewrite of one section in
    # place: an element restored, a section moved back); "" when its fix is such a rewrite
    no_correction: str = ""
    # located at the element that lacks something (the terms chapter for a missing entry), so a prediction
    # pointing inside that element is located there too (docs/taxonomy.md, "Where an error is located")
    located_at_element: bool = False

    def __post_init__(self) -> None:
        if self.dimension not in DIMENSIONS:
            raise ValueError(f"{self.id}: unknown dimension {self.dimension!r}")
        if not self.id.startswith(self.dimension + "-"):
            raise ValueError(f"{self.id}: an ID starts with its dimension ({self.dimension}-)")
        # a document drafted under one edition is held to that edition's clauses, never the other's
        for edition, clause in ((EDITION_2020, self.rule), (EDITION_2009, self.rule_2009)):
            if not clause.startswith(edition + " "):
                raise ValueError(f"{self.id}: its {edition} clause is {clause!r}")
        for form, c2020, c2009 in self.forms:
            if not (c2020.startswith(EDITION_2020 + " ") and c2009.startswith(EDITION_2009 + " ")):
                raise ValueError(f"{self.id}: form {form!r} needs a clause of each edition")

    @property
    def deterministic(self) -> bool:
        """A checker on the corrupted document alone detects it."""
        return self.check.split(" ")[0] == "D"

    @property
    def judgement(self) -> bool:
        """No checker decides it on the corrupted document alone: it is found by reading."""
        return not self.deterministic

    @property
    def diff_detectable(self) -> bool:
        return self.check.startswith("D∆")

    def rule_for(self, drafting_rules: str, form: str = "") -> str:
        """The clause in the edition of GB/T 1.1 that a document declares (2020 when it declares none),
        for one form of the error where that form breaks a clause of its own."""
        late = drafting_rules != EDITION_2009
        for name, c2020, c2009 in self.forms:
            if name == form:
                return c2020 if late else c2009
        return self.rule if late else self.rule_2009

    def rules_for(self, drafting_rules: str) -> tuple[str, ...]:
        """Every clause an instance on a document of this edition may cite (the type's and its forms')."""
        return tuple(
            dict.fromkeys(
                [self.rule_for(drafting_rules), *(self.rule_for(drafting_rules, f) for f, *_ in self.forms)]
            )
        )

    def clause_cell(self, edition: str) -> str:
        """The clause column of docs/taxonomy.md for one edition: the type's clause, then each form's own
        ("7; 前言 6.1.3")."""
        prefix = edition + " "
        main = self.rule_for(edition).removeprefix(prefix)
        own = [f"{form} {self.rule_for(edition, form).removeprefix(prefix)}" for form, *_ in self.forms]
        return "; ".join([main, *(o for o in own if not o.endswith(" " + main))])
