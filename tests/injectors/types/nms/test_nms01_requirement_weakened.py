"""Tests of NMS-01 要求被弱化 (Requirement weakened)."""

from __future__ import annotations

import random
from collections import Counter

import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from parsers.model import Document
from tests.injectors.types.nms.nms_documents import attempts, evidence_standard, locker_document


def test_descriptions_quote_the_changed_words(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    doc = corpus_documents[0]
    instance = RequirementWeakened().inject(Baseline(doc), random.Random("1:x"), context).instance
    assert instance is not None
    (replacement,) = instance.edit.replacements
    assert (replacement.old, replacement.new) in (
        ("应", "宜"),
        ("应", "可"),
        ("应", "可以"),
        ("应能", "可"),
        ("应能", "可以"),
    )
    assert regex.search(f"弱化为(?:推荐|允许)“不?{replacement.new}", instance.description), (
        instance.description
    )


def test_a_document_without_modal_verbs_has_no_site() -> None:
    document = evidence_standard("柜门采用金属材料制作。")
    (attempt, *_) = attempts(document, RequirementWeakened())
    assert attempt.reason == "no_site"


def test_weakened_forms_vary() -> None:
    document = evidence_standard(
        "柜门应能在断电后由管理人员手动开启，开启力不应大于50 N，开启时间应在3 s内。"
    )
    context = InjectionContext.from_documents([document])
    baseline = Baseline(document)
    made = {
        (a.instance.edit.replacements[0].old, a.instance.edit.replacements[0].new)
        for a in (
            RequirementWeakened().inject(baseline, random.Random(s), context, seed=s) for s in range(40)
        )
        if a.instance is not None
    }
    assert len({new for _, new in made}) >= 3, made


def test_nms01_draws_the_weaker_word_before_the_clause() -> None:
    """a) takes only 宜 ("可符合" is no Chinese), b) and c) take 宜, 可 and 可以: drawn modal first, 宜 would
    come five times in nine; drawn form first, a third of the time."""
    doc = locker_document(
        """4 安装要求
4.1 柜体
a) 柜体的安装高度应符合表1的规定；
b) 柜体应采用膨胀螺栓固定在地面上；
c) 柜体应设置防撬报警装置。
5 检验规则
5.1 出厂检验
出厂检验项目为4.1，任一项不合格判该台产品不合格。
"""
    )
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RequirementWeakened()
    forms: Counter[str | None] = Counter()
    for seed in range(60):
        attempt = injector.inject(baseline, random.Random(f"{seed}:w"), context, seed=seed)
        assert attempt.instance is not None
        forms[attempt.instance.provenance.form] += 1
    assert set(forms) == {"应→宜", "应→可", "应→可以"}
    assert forms["应→宜"] < 0.45 * 60, forms
