"""The memoised (incremental) verification gives exactly the verdicts of a full lint from scratch.

For every type, every corpus standard (half as PDF, half as DOCX) and two real standards (skipped when
absent), each of the first proposals an injector makes is verified twice: as the injectors do it
(section-local checkers reuse their per-section results, text analyses come from their caches) and against a
full lint computed from scratch (memos off, every text cache emptied first). Verdicts, side effects and the
corrupted document's violations must be identical, and `lint_at` (the joint check's lint of a few places)
must find the full lint's violations there.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from injectors import check
from injectors.base import Injector, Proposal, Verification
from injectors.checking import Baseline, SectionCheck, Violation, lint, lint_at, unmemoised
from injectors.context import InjectionContext
from injectors.edit import Applied, apply_edits
from injectors.language import terms, words
from injectors.planner import slot_rng
from injectors.registry import definitions, injectors
from injectors.types.nref import analysis as nref_analysis
from injectors.types.str import str05_annex_error
from parsers import parse_file
from parsers.model import Document, Section
from tests.conftest import CORPUS, REAL
from tests.support.balance import across_workers
from tests.support.session_store import shared

PROPOSALS = 3  # per type and document: the first sites in the injectors' own (seeded) order
SEED = 3

REAL_FILES = ("GBT_22240-2020.md", "HJ_212-2017.pdf")


def _each_standard_once() -> list[Path]:
    """Each corpus standard in one format, PDF and Word in turn: both parsers' output is covered, and the
    same standard in the other format (the same sections) would only repeat the comparison."""
    stems = sorted(p.stem for p in (CORPUS / "pdf").glob("*.pdf"))
    formats = ("pdf", "docx")
    return [CORPUS / formats[k % 2] / f"{stem}.{formats[k % 2]}" for k, stem in enumerate(stems)]


CORPUS_FILES = _each_standard_once()


def _clear_caches() -> None:
    """Every memo the lint reads, emptied: what follows is computed from the text alone."""
    for cached in (
        check._section_violations,
        nref_analysis.analyse,
        nref_analysis.list_items,
        nref_analysis._line_uses_read,
        nref_analysis._words,
        str05_annex_error._section_mentions,
        terms._abbreviations,
        terms.term_variants,
        words.words,
        words.tagged,
        words._edge_marks,
    ):
        cached.cache_clear()


Outcome = tuple[Verification, list[Violation]]


def _from_scratch(baseline: Baseline, injector: Injector, proposal: Proposal, seed: int) -> Outcome:
    """The verdict and the corrupted document's violations with no memo at all."""
    _clear_caches()
    with unmemoised():
        fresh = Baseline(baseline.document)
        verdict = injector.verify(fresh, proposal, seed)
        violations = lint(apply_edits(baseline.document, [proposal.edit]).document)
    _clear_caches()
    return verdict, violations


def _incremental(baseline: Baseline, injector: Injector, proposal: Proposal, seed: int) -> Outcome:
    verdict = injector.verify(baseline, proposal, seed)
    return verdict, lint(apply_edits(baseline.document, [proposal.edit]).document)


def _compare(document: Document, context: InjectionContext) -> int:
    """Compare every type's first proposals on one document; return how many were compared."""
    baseline = Baseline(document)
    with unmemoised():
        _clear_caches()
        assert Baseline(document).violations == baseline.violations
    compared = 0
    for type_id, injector in injectors().items():
        sites = list(injector.sites(document, context))
        slot_rng(SEED, document.doc_id, f"{type_id}:0").shuffle(sites)
        made = 0
        for k, site in enumerate(sites):
            if made == PROPOSALS:
                break
            proposal = injector.propose(document, site, random.Random(f"{type_id}:{k}"), context)
            if proposal is None:
                continue
            made += 1
            expected = _from_scratch(baseline, injector, proposal, SEED)
            got = _incremental(baseline, injector, proposal, SEED)
            assert got == expected, f"{document.source} {type_id} site {site.target}"
            _compare_at(apply_edits(document, [proposal.edit]), got[1])
        compared += made
    return compared


def _compare_at(applied: Applied, violations: list[Violation]) -> None:
    """`lint_at` (what the joint check reads) is the full lint's violations at those places: where the
    edit's target now stands, and a few other sections."""
    sections = applied.document.sections
    places = {*applied.locations, sections[0].number, sections[len(sections) // 2].number}
    types = {d.error_type.id for d in definitions()}
    expected = {v for v in violations if v.location in places}
    assert set(lint_at(applied.document, types, places)) == expected, places


@pytest.fixture(scope="module")
@across_workers  # parsed once per session: the tests spread over the workers
def corpus() -> tuple[list[Document], InjectionContext]:
    documents = shared("incremental-corpus", lambda: [parse_file(p) for p in CORPUS_FILES])
    return documents, InjectionContext.from_documents(documents)


def test_section_checks_are_declared() -> None:
    """The section-local checkers are registered as such (so the memo is really used by lint)."""
    local = {d.error_type.id for d in definitions() for c in d.checks if isinstance(c, SectionCheck)}
    assert {"NMS-03", "NMS-04", "NMS-05"} <= local


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_incremental_verdicts_equal_full_lint_on_corpus(
    path: Path, corpus: tuple[list[Document], InjectionContext]
) -> None:
    documents, context = corpus
    document = documents[CORPUS_FILES.index(path)]
    assert _compare(document, context) >= 20  # most types make proposals on every corpus document


@pytest.mark.parametrize("name", REAL_FILES)
def test_incremental_verdicts_equal_full_lint_on_real_standards(
    name: str, corpus: tuple[list[Document], InjectionContext]
) -> None:
    path = REAL / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    _, context = corpus
    assert _compare(parse_file(path), context) > 0


def test_a_section_check_reuses_unchanged_sections(corpus: tuple[list[Document], InjectionContext]) -> None:
    """After linting a document, linting a copy with one section edited re-reads only that section."""
    documents, _ = corpus
    document = documents[0]
    reads: list[str] = []

    def facts(doc: Document) -> int:
        return len(doc.sections)

    def per_section(count: int, section: Section) -> list[Violation]:
        reads.append(section.number)
        return [Violation(section.number, "X-01", "long")] if len(section.text) > 400 else []

    check = SectionCheck(facts, per_section)
    first = check(document)
    assert len(reads) == len(document.sections)
    reads.clear()
    position = next(i for i, s in enumerate(document.sections) if len(s.text) > 10)
    edited = document.sections[position]
    sections = list(document.sections)
    sections[position] = Section(
        edited.number, edited.title, edited.text + "x" * 500, edited.level, edited.kind
    )
    changed = dataclasses.replace(document, sections=type(document.sections)(sections))
    second = check(changed)
    assert reads == [edited.number]
    assert {v.location for v in second} == {v.location for v in first} | {edited.number}
    with unmemoised():
        reads.clear()
        assert check(changed) == second
        assert len(reads) == len(document.sections)
