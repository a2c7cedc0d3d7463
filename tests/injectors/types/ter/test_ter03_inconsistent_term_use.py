"""Tests of TER-03 术语使用不一致 (Inconsistent term use)."""

from __future__ import annotations

import random

import pytest

from injectors.base import Injector, Site
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.instance import ErrorInstance
from injectors.language.terms import word_aligned
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import document, injected


def test_ter03_never_splits_a_word(
    corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    for doc in corpus_documents:
        for seed in range(4):
            _, instance = injected(ter_injectors["TER-03"], doc, context, seed)
            if instance is None:
                continue
            (r,) = instance.edit.replacements
            line_start = instance.original_section.text.rfind("\n", 0, r.start) + 1
            line_end = instance.original_section.text.find("\n", r.start)
            line = instance.original_section.text[line_start : None if line_end < 0 else line_end]
            assert word_aligned(line, r.start - line_start, r.start - line_start + len(r.old))
            # the defined term is still used elsewhere: "some, not all" occurrences change
            assert r.old in instance.corrupted_section.text or any(
                r.old in s.text
                for s in doc.sections
                if s.kind in ("clause", "annex") and s != instance.original_section
            )


def test_ter03_never_writes_a_short_form_the_document_already_uses_on_its_own(ter_injectors: dict) -> None:
    """The document's own usage is no inconsistency: once the body writes "区域边界" on its own beside the
    defined "网络区域边界", that short form is never the edit; while it does not, it may be."""
    terms = "3.1 网络区域边界 network zone boundary\n划分网络安全区域的逻辑界线。"
    body = (
        "4 要求\n4.1 划分\n网络区域边界应在设计阶段确定。\n4.2 防护\n网络区域边界应部署访问控制设备。\n"
        "4.3 审计\n网络区域边界的访问日志应保存180 d。"
    )
    injector = ter_injectors["TER-03"]

    def short_forms(doc: Document) -> set[str]:
        sites = injector.sites(doc, InjectionContext())
        return {s for site in sites for o in site.detail for s in o.synonyms}

    assert "区域边界" in short_forms(document(terms=terms, body=body))
    own = body + "\n4.4 标识\n各区域边界应设置标识。"
    assert "区域边界" not in short_forms(document(terms=terms, body=own))


def _ter03_at(injector: Injector, doc: Document, number: str, term: str, variant: str) -> ErrorInstance:
    """The TER-03 instance that writes `variant` for the first `term` of section `number`."""
    from injectors.types.ter.ter03_inconsistent_term_use import Substitution

    position = next(k for k, s in enumerate(doc.sections) if s.number == number)
    start = doc.sections[position].text.index(term)
    site = Site(position, (Substitution(start, term, (variant,), term),))
    proposal = injector.propose(doc, site, random.Random(0), InjectionContext())
    assert proposal is not None
    instance, why = injector._verified(Baseline(doc), proposal, 0)
    assert instance is not None, why
    return instance


def test_ter03_never_writes_one_variant_twice_in_a_document(ter_injectors: dict) -> None:
    """ "标定周期" → "标定间隔" is offered at one of the four clauses only; and should two errors write it
    (each holds alone), the joint check keeps the first and drops the repeat: one slip told twice, and a
    stock phrase."""
    from injectors.joint import failure
    from injectors.types.ter.ter03_inconsistent_term_use import variant_written_once

    body = (
        "4 要求\n4.1 采样\n标定周期不应超过30 d。\n4.2 标志\n标定周期应标在铭牌上。\n"
        "4.3 维护\n每个标定周期应清洗一次。\n4.4 记录\n标定周期的起止时间应记录。"
    )
    doc = document(body=body)
    injector = ter_injectors["TER-03"]
    offered = [
        (o.term, v)
        for site in injector.sites(doc, InjectionContext())
        for o in site.detail
        for v in o.synonyms
    ]
    assert offered == [("标定周期", "标定间隔")]
    first, second = (_ter03_at(injector, doc, n, "标定周期", "标定间隔") for n in ("4.1", "4.3"))
    alone = apply_edits(doc, [second.edit]).document
    assert variant_written_once(second, alone, alone.section("4.3")) is None
    both = apply_edits(doc, [first.edit, second.edit]).document
    assert variant_written_once(first, both, both.section("4.1")) is None  # the slip is kept
    assert "written before" in (variant_written_once(second, both, both.section("4.3")) or "")
    assert failure(second, doc, both, lint(both), both.section("4.3")) is not None


def test_ter03_never_makes_one_word_swap_twice_in_a_document(ter_injectors: dict) -> None:
    """ "数据提供者" → "数据提供方" and "样品提供者" → "样品提供方": two terms, one slip (者 → 方). It is
    offered once; should two errors make it, the joint check keeps the first and drops the repeat."""
    from injectors.types.ter.ter03_inconsistent_term_use import variant_written_once

    terms = (
        "3.1 数据提供者 data provider\n向平台提交监测数据的主体。\n"
        "3.2 样品提供者 sample provider\n向实验室送交样品的主体。"
    )
    body = (
        "4 要求\n4.1 提交\n数据提供者应每日提交数据，样品提供者应按月送样。\n"
        "4.2 记录\n数据提供者的名称应记录，样品提供者的名称应记录。\n"
        "4.3 核查\n数据提供者和样品提供者应接受核查。\n4.4 公开\n数据提供者和样品提供者的名单应公开。"
    )
    doc = document(terms=terms, body=body)
    injector = ter_injectors["TER-03"]
    offered = [v for site in injector.sites(doc, InjectionContext()) for o in site.detail for v in o.synonyms]
    assert len([v for v in offered if v.endswith("提供方")]) == 1
    first = _ter03_at(injector, doc, "4.1", "数据提供者", "数据提供方")
    second = _ter03_at(injector, doc, "4.3", "样品提供者", "样品提供方")
    both = apply_edits(doc, [first.edit, second.edit]).document
    assert variant_written_once(first, both, both.section("4.1")) is None
    assert "same swap" in (variant_written_once(second, both, both.section("4.3")) or "")


@pytest.mark.parametrize(
    ("term", "absent", "present"),
    [
        ("保护间隔距离", "保护周期距离", "间隔距离"),  # 间隔 is a spacing inside the term, not a period
        ("保护间隔距离", "保护间隔间距", "间隔距离"),  # the synonym would repeat the word before it
        ("数据采集周期", "数据采集间隔距离", "数据采集间隔"),  # as the head noun the swap reads naturally
        ("报警阈值", "报警阈值", "告警阈值"),  # a true synonym anywhere (never the term itself)
    ],
)
def test_ter03_swaps_a_near_synonym_only_where_it_names_the_same_thing(
    term: str, absent: str, present: str
) -> None:
    """A reader accepts "记录周期" for "记录间隔" as a slip, but "保护周期距离" is no word anyone writes."""
    from injectors.types.ter.editing import near_synonyms

    forms = near_synonyms(term, set())
    assert absent not in forms and present in forms
