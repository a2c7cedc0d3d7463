"""What a type module imports: the one surface for writing an error type (docs/adding-a-type.md).

A type module under `injectors/types/` imports the core from here, and its own dimension's helpers and the
language tools (`injectors.language`) from where they live. Nothing here is defined anew: it hands on the
injector base class and its proposals, the checkers' building blocks, the taxonomy row, the definition
the registry reads, and the LLM path's prompt, budget and answer conditions.
"""

from __future__ import annotations

from injectors.base import Attempt, Injector, Original, Proposal, Rewriter, Site
from injectors.check import Check, DiffCheck, SectionCheck, Violation
from injectors.context import CorpusReference, InjectionContext, field_of, same_field
from injectors.edit import Edit, Replacement, replay
from injectors.edition import edition
from injectors.error_type import EDITION_2009, EDITION_2020, ErrorType
from injectors.instance import ErrorInstance
from injectors.joint import Located, term_still_defined, term_still_undefined
from injectors.llm.constraints import (
    Answer,
    Budget,
    Condition,
    Failure,
    RewriteCase,
    body_text,
    failure,
    has_provision,
    modal_shift,
    new_sentences,
    outside_scope,
)
from injectors.llm.prompts import (
    PromptInput,
    PromptSpec,
    defined_term_list,
    informative_place,
    no_material,
    quoted_in,
    scope_text,
    terms_context,
    text_replacement,
)
from injectors.llm.spec import LLMSpec
from injectors.registry import TypeDefinition
from parsers.model import Document, Section

__all__ = [
    "EDITION_2009",
    "EDITION_2020",
    "Answer",
    "Attempt",
    "Budget",
    "Check",
    "Condition",
    "CorpusReference",
    "DiffCheck",
    "Document",
    "Edit",
    "ErrorInstance",
    "ErrorType",
    "Failure",
    "InjectionContext",
    "Injector",
    "LLMSpec",
    "Located",
    "Original",
    "PromptInput",
    "PromptSpec",
    "Proposal",
    "Replacement",
    "RewriteCase",
    "Rewriter",
    "Section",
    "SectionCheck",
    "Site",
    "TypeDefinition",
    "Violation",
    "body_text",
    "defined_term_list",
    "edition",
    "failure",
    "field_of",
    "has_provision",
    "informative_place",
    "modal_shift",
    "new_sentences",
    "no_material",
    "outside_scope",
    "quoted_in",
    "replay",
    "same_field",
    "scope_text",
    "term_still_defined",
    "term_still_undefined",
    "terms_context",
    "text_replacement",
]
