"""STR-97 引言被删除 (Introduction removed): a toy type whose fix is no rewrite of one section."""

from __future__ import annotations

import random
from collections.abc import Iterator

from injectors.base import Injector, Proposal, Site
from injectors.context import InjectionContext
from injectors.edit import Edit
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from parsers.model import Document

ERROR_TYPE = ErrorType(
    "STR-97",
    "STR",
    "引言被删除",
    "Introduction removed",
    "GB/T 1.1—2020 6.2",
    "GB/T 1.1—2009 5.1",
    "R",
    "S",
    no_correction="the element was removed: the fix restores a whole element",
)


class IntroductionRemoved(Injector):
    error_type = ERROR_TYPE.id

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        for i, section in enumerate(document.sections):
            if section.number == "引言":
                yield Site(i)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal:
        return Proposal(Edit("remove", site.target), "引言被删除", "恢复引言")


DEFINITION = TypeDefinition(ERROR_TYPE, IntroductionRemoved)
