"""The STR dimension as a whole: tests of all its types at once, where no one type module is the subject."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from injectors.base import Proposal
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.registry import injectors
from parsers import parse_file
from parsers.model import Document, Section
from tests.injectors.types.str.str_documents import (
    SAMPLE,
    STR_TYPES,
    UNCITED_2009,
    edited,
    locations,
    parse,
)


def test_the_sample_is_clean() -> None:
    doc = parse(SAMPLE)
    assert [s.number for s in doc.sections][:6] == ["前言", "1", "2", "3", "3.1", "4"]
    assert [v for v in lint(doc, STR_TYPES)] == []


@pytest.fixture(scope="module")
def baselines(corpus_documents: list[Document]) -> list[Baseline]:
    return [Baseline(d) for d in corpus_documents]


def test_corpus_documents_are_clean(corpus_documents: list[Document]) -> None:
    for doc in corpus_documents:
        assert [v for v in lint(doc, STR_TYPES)] == [], doc.source


DESCRIBES: dict[str, Callable[[str, str], bool]] = {
    "STR-01": lambda description, location: "缺少必备要素" in description and location in description,
    "STR-02": lambda description, location: "顺序错误" in description,
    "STR-03": lambda description, location: "不规范" in description,
    "STR-04": lambda description, location: location in description,
    "STR-05": lambda description, location: "附录" in description,
}


@pytest.mark.parametrize("error_type", STR_TYPES)
def test_injected_instances_are_correct(
    error_type: str, baselines: list[Baseline], context: InjectionContext
) -> None:
    injector = injectors()[error_type]
    for baseline in baselines:
        doc = baseline.document
        rng = random.Random(f"0:{doc.doc_id}:x")
        attempt = injector.inject(baseline, rng, context, seed=0)
        instance = attempt.instance
        assert instance is not None, (doc.source, attempt.reason)
        assert (instance.error_type, instance.dimension) == (error_type, "STR")
        applied = apply_edits(doc, [instance.edit])
        assert instance.location == applied.locations[0]
        assert replay(instance.edit, instance.original_section, applied.renames) == instance.corrupted_section
        assert instance.description.startswith("错误：") and "修改建议：" in instance.description
        assert DESCRIBES[error_type](instance.description, instance.location), instance.description
        assert instance.location in locations(applied.document, error_type)
        assert instance.location not in locations(doc, error_type)
        again = injector.inject(baseline, random.Random(f"0:{doc.doc_id}:x"), context, seed=0).instance
        assert again == instance


def _variant(error_type: str, proposal: Proposal, original: Section) -> str:
    """Which kind of edit a proposal is, to check that every variant exists and verifies."""
    edit = proposal.edit
    if error_type == "STR-01":
        return original.kind
    if error_type == "STR-02":
        return f"{original.kind}-{'renamed' if edit.renames else 'moved'}"
    if error_type == "STR-03":
        return original.kind
    if error_type == "STR-04":
        return "hanging" if edit.replacements else ("duplicate" if "重复" in proposal.error else "renamed")
    return edit.replacements[0].field + ("-removed" if not edit.replacements[0].new else "")


EXPECTED_VARIANTS = {
    # every element these documents' editions make mandatory, the scope beside chapters 2 and 3
    "STR-01": {"foreword", "scope", "normative_references", "terms"},
    "STR-02": {
        "normative_references-renamed",
        "scope-renamed",
        "terms-renamed",
        "annex-moved",
        "foreword-moved",
        "clause-moved",
    },
    "STR-03": {"foreword", "scope", "normative_references", "terms", "bibliography"},
    "STR-04": {"hanging", "duplicate", "renamed"},
    "STR-05": {"annex_marker", "annex_marker-removed", "text-removed", "text"},
}


@pytest.mark.parametrize("error_type", STR_TYPES)
def test_every_site_verifies(
    error_type: str, corpus_documents: list[Document], context: InjectionContext
) -> None:
    """Every site of every corpus document: the checker fires at the location only after the edit."""
    injector = injectors()[error_type]
    variants = set()
    for doc in corpus_documents[:6]:
        before = set(locations(doc, error_type))
        for site in injector.sites(doc, context):
            proposal = injector.propose(doc, site, random.Random(0), context)
            assert proposal is not None
            applied = apply_edits(doc, [proposal.edit])
            location = applied.locations[0]
            assert location in locations(applied.document, error_type), (doc.source, site, proposal.error)
            assert location not in before
            variants.add(_variant(error_type, proposal, doc.sections[site.target]))
    assert variants == EXPECTED_VARIANTS[error_type]


@pytest.mark.parametrize(
    ("error_type", "pairs", "expected"),
    [
        ("STR-01", (), {"前言", "范围", "规范性引用文件", "术语和定义"}),
        ("STR-01", UNCITED_2009, {"前言", "范围"}),
        (
            "STR-02",
            (),
            {"范围>规范性引用文件", "规范性引用文件>术语和定义", "术语和定义>技术内容", "技术内容>附录"},
        ),
    ],
)
def test_every_element_and_order_the_rules_forbid_is_drawn(
    error_type: str, pairs: tuple[tuple[str, str], ...], expected: set[str]
) -> None:
    """Not always the 前言 deleted, not always an annex after 参考文献: each form the document offers is
    drawn, none in most instances: the scope as well as the chapters 2 and 3 the edition makes mandatory."""
    # the term stays in use without the scope
    document = edited(("箱体表面应平整", "恒温箱表面应平整"), *pairs)
    injector = injectors()[error_type]
    forms = []
    for seed in range(40):
        attempt = injector.inject(Baseline(document), random.Random(seed), InjectionContext(), seed=seed)
        assert attempt.instance is not None, attempt.reason
        forms.append(attempt.instance.provenance.form)
    assert expected == set(forms) if error_type == "STR-01" else expected <= set(forms)
    assert set(forms) <= set(injector.forms or forms)
    evenly = 0.5 if len(expected) > 2 else 0.65  # two forms drawn 40 times: one may lead by chance
    assert max(forms.count(f) for f in set(forms)) <= evenly * len(forms)


@pytest.mark.parametrize(
    "name", ["GBT_22240-2020.md", "JRT_0060-2021.md", "JRT_0184-2020.pdf", "TGDRTA_002-2020.pdf"]
)
def test_clean_real_documents_have_no_structure_violations(real_corpus: Path, name: str) -> None:
    assert [v for v in lint(parse_file(real_corpus / name), STR_TYPES)] == []


def test_real_documents_with_known_defects(real_corpus: Path) -> None:
    """GB/T 19056—2012 really has 悬置段 above 5.8.1 and 5.9.1 and a lone 6.1.1; HJ 212 has its own titles."""
    gbt = parse_file(real_corpus / "GBT_19056-2012.pdf")
    assert sorted(locations(gbt, "STR-04")) == ["5.8", "5.9", "6.1.1"]
    assert [v for v in lint(gbt, ("STR-01", "STR-02", "STR-03", "STR-05"))] == []
    hj = parse_file(real_corpus / "HJ_212-2017.pdf")
    assert [v for v in lint(hj, ("STR-01", "STR-02", "STR-03", "STR-05"))] == []
    assert set(locations(hj, "STR-04")) <= {"6.3", "6.4", "6.6.1", "6.6.5", "7"}  # 悬置段 only
    # SL 651—2014 captions a figure of 附录H with 附录G's letter (the text before it says 图H.1)
    sl = parse_file(real_corpus / "SL_651-2014.pdf")
    assert [(v.location, "图G.1" in v.message) for v in lint(sl, ("STR-05",))] == [("H.3.4", True)]
