"""NMS-96 许可句号重复 (Permission with a doubled full stop): a toy type an LLM may rewrite."""

from __future__ import annotations

import random
from collections.abc import Iterator

from injectors.base import Injector, Proposal, Site
from injectors.checking import Violation
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement
from injectors.llm.prompts import PromptSpec, no_material
from injectors.llm.spec import LLMSpec
from injectors.registry import TypeDefinition
from injectors.taxonomy import ErrorType
from parsers.model import Document

ERROR_TYPE = ErrorType(
    "NMS-96",
    "NMS",
    "许可句号重复",
    "Permission with a doubled full stop",
    "GB/T 1.1—2020 9.1",
    "GB/T 1.1—2009 7.1",
    "R+L",
    "D",
)


def doubled_stop(document: Document) -> Iterator[Violation]:
    for section in document.sections:
        if "可" in section.text and "。。" in section.text:
            yield Violation(section.number, ERROR_TYPE.id, "许可条款的句号重复")


class DoubledStop(Injector):
    error_type = ERROR_TYPE.id

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        for i, section in enumerate(document.sections):
            text = section.text.rstrip()
            if section.kind == "clause" and "可" in text and text.endswith("。") and "。。" not in text:
                yield Site(i)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal:
        end = document.sections[site.target].text.rstrip().rfind("。")
        edit = Edit("modify", site.target, replacements=(Replacement("text", end, "。", "。。"),))
        return Proposal(edit, "许可条款的句号重复", "删去多余的“。”")


LLM = LLMSpec(PromptSpec(ERROR_TYPE.id, "1", no_material, lambda m: "把本条最后一个句号重复一次，其余不变。"))
DEFINITION = TypeDefinition(ERROR_TYPE, DoubledStop, checks=(doubled_stop,), llm=LLM)
