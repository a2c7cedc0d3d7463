"""Monotony: how often a type's errors take the same form, so that "the 前言 is always the one missing" is
not a strategy a model can learn.

Each injector records the form an instance takes in its provenance (`InjectionProvenance.form`: the element
deleted, the verb used, the prefix added). Per type, the audit reports the share of its most frequent form.
A type with three forms or more (those it declares, `Injector.forms`, and those the release shows) has a
goal: no form in more than `GOAL` of its instances, judged once it has `MIN_INSTANCES` instances.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from injectors.planner import FORM_SHARE
from validation.audit.release import Release

GOAL = FORM_SHARE  # the share the planner's corpus-wide choice keeps each form under
MIN_FORMS = 3  # with two forms, one of them holds half the instances at best
MIN_INSTANCES = 5  # below this a share says nothing


@dataclass(frozen=True)
class TypeForms:
    error_type: str
    instances: int  # instances that recorded a form
    forms: int  # the forms the type has: declared, or seen in the release
    top: str | None  # the most frequent form
    top_share: float | None

    @property
    def judged(self) -> bool:
        return self.forms >= MIN_FORMS and self.instances >= MIN_INSTANCES

    @property
    def passed(self) -> bool | None:
        """None when the goal does not apply (fewer forms or instances than it needs)."""
        if not self.judged or self.top_share is None:
            return None
        return self.top_share <= GOAL


def type_forms(error_type: str, recorded: Iterable[str], declared: Iterable[str] = ()) -> TypeForms:
    counts = Counter(recorded)
    n = sum(counts.values())
    forms = len(set(declared) | set(counts))
    if not counts:
        return TypeForms(error_type, 0, forms, None, None)
    # ties go to the form that sorts first, so that the report is the same on every run
    top, k = min(counts.items(), key=lambda item: (-item[1], item[0]))
    return TypeForms(error_type, n, forms, top, round(k / n, 3))


def audit_forms(
    release: Release, types: Iterable[str], declared: Mapping[str, tuple[str, ...]]
) -> dict[str, TypeForms]:
    recorded: dict[str, list[str]] = {t: [] for t in types}
    for i in release.instances:
        if i.form:
            recorded.setdefault(i.error_type, []).append(i.form)
    return {t: type_forms(t, forms, declared.get(t, ())) for t, forms in recorded.items()}
