"""NMS-97 推荐以感叹号结尾 (Recommendation ends with an exclamation mark): a toy judgement type."""

from __future__ import annotations

import random
from collections.abc import Iterator

from injectors.base import Injector, Proposal, Site
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from parsers.model import Document

ERROR_TYPE = ErrorType(
    "NMS-97",
    "NMS",
    "推荐以感叹号结尾",
    "Recommendation ends with an exclamation mark",
    "GB/T 1.1—2020 9.1",
    "GB/T 1.1—2009 7.1",
    "R",
    "J",
    ("E-T-97",),
)


class ExclaimedRecommendation(Injector):
    error_type = ERROR_TYPE.id

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        for i, section in enumerate(document.sections):
            text = section.text.rstrip()
            if section.kind == "clause" and "宜" in text and "应" not in text and text.endswith("。"):
                yield Site(i)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal:
        end = document.sections[site.target].text.rstrip().rfind("。")
        edit = Edit("modify", site.target, replacements=(Replacement("text", end, "。", "！"),))
        return Proposal(edit, "推荐以感叹号结尾", "将“！”改为“。”")


DEFINITION = TypeDefinition(ERROR_TYPE, ExclaimedRecommendation)
