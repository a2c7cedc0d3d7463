"""The TER dimension as a whole: tests of all its types at once, where no one type module is the subject."""

from __future__ import annotations

import pytest

from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.instance import ErrorInstance
from injectors.taxonomy import by_id
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import (
    FLOW_BODY,
    FLOW_TERMS,
    SEEDS,
    TER_TYPES,
    TERMS,
    document,
    injected,
    violations,
)


def changed_words(instance: ErrorInstance) -> list[str]:
    """What the edit wrote (for a removal what it took away, for a renumbering the new number): the
    description must quote it."""
    edit = instance.edit
    if edit.op == "remove":  # TER-01: the term whose entry was taken out
        assert instance.original_section is not None
        return [instance.original_section.title.split(" ")[0]]
    if edit.op == "insert":
        assert edit.inserted is not None
        return [edit.inserted.title.split(" ")[0]]
    if edit.renames:
        return [instance.location]
    return [r.new.strip("，、") or r.old.strip() for r in edit.replacements]


def test_clean_corpus_has_no_terminology_violations(corpus_documents: list[Document]) -> None:
    for doc in corpus_documents:
        assert lint(doc, TER_TYPES) == [], doc.source


@pytest.mark.parametrize("error_type", TER_TYPES)
def test_injected_instances_on_the_corpus(
    error_type: str, corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    injector = ter_injectors[error_type]
    spec = by_id()[error_type]
    made = 0
    for doc in corpus_documents:
        if not list(injector.sites(doc, context)):
            continue
        for seed in SEEDS:
            baseline, instance = injected(injector, doc, context, seed)
            assert instance is not None, f"{error_type} failed on {doc.source} (seed {seed})"
            made += 1
            assert instance.error_type == error_type and instance.dimension == "TER"
            assert instance.description.startswith("错误：") and "修改建议：" in instance.description
            for changed in changed_words(instance):
                assert changed in instance.description, (changed, instance.description)
            # replaying the edit on the original section gives the corrupted section
            assert replay(instance.edit, instance.original_section) == instance.corrupted_section
            applied = apply_edits(doc, [instance.edit])
            assert applied.locations[0] == instance.location
            if instance.edit.op == "remove":
                # TER-01: an entry the body uses is taken out; the entries after it move up, consecutively
                assert instance.corrupted_section is None and instance.original_section is not None
                assert instance.original_section.title.split(" ")[0] in instance.description
                assert instance.original_section not in applied.document.sections
                entries = [s.number for s in applied.document.sections if s.kind == "terms" and s.level == 2]
                assert entries == [f"3.{k}" for k in range(1, len(entries) + 1)], entries
                news = {(v.location, v.error_type) for v in lint(applied.document)}
                assert news <= {(v.location, v.error_type) for v in baseline.violations}, news
            else:
                assert instance.corrupted_section in applied.document.sections
            if instance.edit.op == "insert":
                # a new number, or an entry's number that the entries after it left by moving down one
                assert instance.original_section is None
                assert instance.location not in {s.number for s in doc.sections} or instance.edit.renames
                numbers = [s.number for s in applied.document.sections]
                assert len(numbers) == len(set(numbers)), numbers
            else:
                assert instance.original_section == doc.sections[instance.edit.target]
            after = {(v.location, v.error_type) for v in lint(applied.document)}
            before = {(v.location, v.error_type) for v in baseline.violations}
            if spec.deterministic:
                assert (instance.location, error_type) in after
                assert (instance.location, error_type) not in before
            # no other checker newly fires at the location
            assert {t for loc, t in after - before if loc == instance.location} <= {error_type}
            if seed == SEEDS[0]:  # same seed, same instance
                assert injected(injector, doc, context, seed)[1] == instance
    assert made >= 10


def test_generators_are_offline(
    corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    for error_type, injector in ter_injectors.items():
        doc = next(d for d in corpus_documents if list(injector.sites(d, context)))
        _, instance = injected(injector, doc, context, 0)
        assert instance is not None
        expected = "rule-template" if error_type == "TER-01" else "rule"
        assert instance.provenance.generator == expected


def test_ter_types_say_why_a_document_offers_no_site(ter_injectors: dict) -> None:
    """The skip reasons a release reports per document: a lead-in that brings in other documents' terms
    (TER-01), no variant of a used term nor entry of its field (TER-02), no term the body uses three
    times (TER-03), and no terms chapter at all."""
    context = InjectionContext()
    cited = document(lead_in="GB/T 191界定的以及下列术语和定义适用于本文件。")
    assert ter_injectors["TER-01"].no_site_reason(cited, context) == "terms_from_cited_documents"
    plain = document(terms="3.1 采样单元 sampling unit\n从被测介质中抽取并输送试样的部件组合。")
    assert list(ter_injectors["TER-02"].sites(plain, context)) == []
    assert ter_injectors["TER-02"].no_site_reason(plain, context) == "no_variant_nor_entry_of_its_field"
    assert ter_injectors["TER-03"].no_site_reason(plain, context) == "no_term_used_thrice"
    none = document(lead_in="本文件没有需要界定的术语和定义。", terms="")
    assert ter_injectors["TER-03"].no_site_reason(none, context) == "no_entries"


def test_no_terms_chapter_does_not_crash() -> None:
    doc = document(terms="", lead_in="本文件没有需要界定的术语和定义。")
    assert lint(doc, TER_TYPES) == []


def test_parser_debris_is_not_judged() -> None:
    """An LLM extraction echoes an entry heading inside its text, or leaves a bare "3.9" line: the
    definition is the line after the echo, and numbers seen through lost headings are not judged."""
    echoed = TERMS.replace("相邻两次标定之间", "【3.2 标定周期 calibration interval】\n相邻两次标定之间")
    assert violations(document(terms=echoed), "TER-04") == []
    lost = FLOW_TERMS.replace("3.3 试样流量", "3.9 试样流量")
    doc = document(terms=lost, body=FLOW_BODY, lead_in="下列术语和定义适用于本文件。\n3.99")
    assert doc.section("3").text.endswith("3.99")
    assert violations(doc, "TER-05") == []
    assert [loc for loc, _ in violations(document(terms=lost, body=FLOW_BODY), "TER-05")] == ["3.9"]
