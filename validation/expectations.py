"""The expectations a release must meet, as data: what each check asserts, on which column, and
whether its failure is critical (stops the release) or flags instances for review.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from injectors.taxonomy import DIMENSIONS, by_id, type_ids
from parsers.model import DRAFTING_RULES, FORMATS
from validation.traceability import (
    ENGLISH_PROSE,
    LEAKED_HEADING,
    LOCATION_MISSING,
    REFUSAL,
    REPLAY_MISMATCH,
    UNCHANGED,
)

GENERATORS = ("rule", "rule-template", "llm")


DESCRIPTION_FORM = r"^错误：.+；修改建议：.+；依据：.+"


HAS_CHINESE = r"[\u4e00-\u9fff]"


# Traceability codes whose absence becomes a boolean column "<code>_ok" that GX checks.
TRACE_COLUMNS = (REPLAY_MISMATCH, LOCATION_MISSING, UNCHANGED, LEAKED_HEADING, REFUSAL, ENGLISH_PROSE)


@dataclass(frozen=True)
class Check:
    """One expectation as this project names it: a short code, its table, whether it gates the build."""

    name: str
    table: str  # documents | instances
    critical: bool
    description: str
    kind: str  # the GX expectation class
    kwargs: dict[str, Any] = field(default_factory=dict)


def instance_checks(doc_ids: Sequence[str]) -> list[Check]:
    """Checks of the instance table; `doc_ids` are the documents of the release."""
    pairs = sorted([t.id, t.dimension] for t in by_id().values())
    trace = {
        REPLAY_MISMATCH: (
            True,
            "replaying the edit on the original section reproduces the corrupted section",
        ),
        LOCATION_MISSING: (False, "the location is a section number of the corrupted document"),
        UNCHANGED: (False, "the corrupted section differs from the original (removals and moves excepted)"),
        LEAKED_HEADING: (False, "no leaked heading (【…】 or a clause number opening the text) was added"),
        REFUSAL: (False, "no refusal or apology (抱歉, 我无法, I'm sorry, As an AI …) was added"),
        ENGLISH_PROSE: (False, "no English prose (a run of 6 or more English words) was added"),
    }
    checks = [
        Check(
            "instance_id_unique",
            "instances",
            True,
            "instance ids are unique",
            "ExpectColumnValuesToBeUnique",
            {"column": "instance_id"},
        ),
        Check(
            "error_type_in_taxonomy",
            "instances",
            True,
            f"the error type is one of the {len(type_ids())} taxonomy types",
            "ExpectColumnValuesToBeInSet",
            {"column": "error_type", "value_set": list(type_ids())},
        ),
        Check(
            "dimension_in_taxonomy",
            "instances",
            True,
            "the dimension is one of the 5 review dimensions",
            "ExpectColumnValuesToBeInSet",
            {"column": "dimension", "value_set": list(DIMENSIONS)},
        ),
        Check(
            "type_matches_dimension",
            "instances",
            True,
            "the error type belongs to the dimension",
            "ExpectColumnPairValuesToBeInSet",
            {"column_A": "error_type", "column_B": "dimension", "value_pairs_set": pairs},
        ),
        Check(
            "doc_id_known",
            "instances",
            True,
            "the instance belongs to a document of the release",
            "ExpectColumnValuesToBeInSet",
            {"column": "doc_id", "value_set": sorted(doc_ids)},
        ),
        Check(
            "description_not_empty",
            "instances",
            False,
            "the description is not empty",
            "ExpectColumnValueLengthsToBeBetween",
            {"column": "description", "min_value": 1},
        ),
        Check(
            "description_chinese",
            "instances",
            False,
            "the description is written in Chinese",
            "ExpectColumnValuesToMatchRegex",
            {"column": "description", "regex": HAS_CHINESE},
        ),
        Check(
            "description_form",
            "instances",
            False,
            "the description reads 错误：…；修改建议：…；依据：…",
            "ExpectColumnValuesToMatchRegex",
            {"column": "description", "regex": DESCRIPTION_FORM},
        ),
        Check(
            "provenance_generator",
            "instances",
            False,
            "provenance names the generator (rule, rule-template, llm)",
            "ExpectColumnValuesToBeInSet",
            {"column": "provenance_generator", "value_set": list(GENERATORS)},
        ),
        Check(
            "provenance_injector_version",
            "instances",
            False,
            "provenance has the injector version",
            "ExpectColumnValuesToNotBeNull",
            {"column": "provenance_injector_version"},
        ),
        Check(
            "provenance_seed",
            "instances",
            False,
            "provenance has the seed",
            "ExpectColumnValuesToNotBeNull",
            {"column": "provenance_seed"},
        ),
        Check(
            "provenance_llm_complete",
            "instances",
            False,
            "LLM instances name the model, the prompt id and the cache key",
            "ExpectColumnValuesToBeInSet",
            {"column": "provenance_llm_complete", "value_set": [True]},
        ),
    ]
    for code in TRACE_COLUMNS:
        critical, description = trace[code]
        checks.append(
            Check(
                code,
                "instances",
                critical,
                description,
                "ExpectColumnValuesToBeInSet",
                {"column": f"{code}_ok", "value_set": [True]},
            )
        )
    return checks


def document_checks(min_errors: int, max_errors: int) -> list[Check]:
    return [
        Check(
            "doc_id_unique",
            "documents",
            True,
            "document ids are unique",
            "ExpectColumnValuesToBeUnique",
            {"column": "doc_id"},
        ),
        Check(
            "errors_per_document",
            "documents",
            True,
            f"every document has {min_errors} to {max_errors} injected errors",
            "ExpectColumnValuesToBeBetween",
            {"column": "n_errors", "min_value": min_errors, "max_value": max_errors},
        ),
        Check(
            "corrupted_differs",
            "documents",
            False,
            "the corrupted text differs from the original",
            "ExpectColumnValuesToBeInSet",
            {"column": "corrupted_differs", "value_set": [True]},
        ),
        Check(
            "drafting_rules_known",
            "documents",
            False,
            "drafting rules are one of the known values",
            "ExpectColumnValuesToBeInSet",
            {"column": "drafting_rules", "value_set": list(DRAFTING_RULES)},
        ),
        Check(
            "format_known",
            "documents",
            False,
            "the source format is one of pdf, docx, markdown, text",
            "ExpectColumnValuesToBeInSet",
            {"column": "format", "value_set": list(FORMATS)},
        ),
    ]
