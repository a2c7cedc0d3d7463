"""The STR dimension: checkers on small written documents, injectors on the corpus, real documents.

(The parser's own assembly tests live in test_assembler.py; this file is about the review dimension.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import regex

from injectors.base import Proposal
from injectors.checking import Baseline, Violation, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.registry import injectors
from injectors.taxonomy import types
from parsers import parse_file
from parsers.model import Document, Section
from parsers.text import parse_text

STR_TYPES = tuple(t.id for t in types() if t.dimension == "STR")  # the dimension's types

# A small standard written for these tests; each test breaks one thing in it.
SAMPLE = """GB/T 99990—2025
示例恒温箱 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出并归口。
1 范围
本文件规定了示例恒温箱的技术要求和试验方法。
本文件适用于实验室用示例恒温箱的设计和检验。
2 规范性引用文件
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温
3 术语和定义
下列术语和定义适用于本文件。
3.1
恒温箱 thermostatic chamber
能在设定温度下保持箱内温度稳定的试验设备。
4 技术要求
4.1 外观
箱体表面应平整，无划痕和锈蚀。
4.2 低温
低温性能应符合GB/T 2423.1—2008的规定，相应的温度点见附录B。
4.3 控温精度
控温精度的测量应符合附录A的规定。
5 试验方法
5.1 外观检查
在自然光下目视检查。
5.2 控温精度试验
按附录A进行，记录格式参见附录B。
附录A（规范性）控温精度的测量方法
A.1 仪器
温度记录仪的分辨力应满足表A.1的要求。
表A.1　仪器参数
| 参数 | 要求 |
| 分辨力 | 0.1 ℃ |
A.2 步骤
将记录仪探头放在箱体几何中心，连续记录30 min。
附录B（资料性）记录格式
B.1 记录内容
记录包括日期、设定温度和实测温度。
B.2 保存
记录可保存3年。
参考文献
[1] GB/T 191—2008　包装储运图示标志
"""


def parse(text: str) -> Document:
    return parse_text(Path("sample.txt"), text.encode())


def found(document: Document, error_type: str) -> list[Violation]:
    return [v for v in lint(document, [error_type])]


def locations(document: Document, error_type: str) -> list[str]:
    return [v.location for v in found(document, error_type)]


def edited(*pairs: tuple[str, str], text: str = SAMPLE) -> Document:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return parse(text)


def test_the_sample_is_clean() -> None:
    doc = parse(SAMPLE)
    assert [s.number for s in doc.sections][:6] == ["前言", "1", "2", "3", "3.1", "4"]
    assert [v for v in lint(doc, STR_TYPES)] == []


# --- STR-01 ---------------------------------------------------------------------------------------

FOREWORD = (
    "前言\n本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。\n"
)
FOREWORD_2009 = "前言\n本标准按照GB/T 1.1—2009给出的规则起草。\n"

# a 2009 document whose body cites no document normatively: its mandatory elements are 前言 and 范围
UNCITED_2009 = (FOREWORD, FOREWORD_2009), ("应符合GB/T 2423.1—2008的规定", "应满足低温试验的要求")


def chapter(number: str, text: str = SAMPLE) -> str:
    """The text of one chapter of a sample, heading included."""
    start = text.index(f"\n{number} ") + 1
    end = text.index(f"\n{int(number) + 1} ", start) + 1
    return text[start:end]


def without_chapter(number: str, text: str = SAMPLE) -> str:
    """The sample without one chapter, later chapters (and their clauses) renumbered as a drafter would."""
    text = text.replace(chapter(number, text), "")
    return regex.sub(
        r"(?m)^(\d+)(?=[ .\n])", lambda m: str(int(m.group(1)) - (int(m.group(1)) > int(number))), text
    )


def test_missing_foreword_and_terms_chapter_are_reported_where_they_belong() -> None:
    doc = edited((FOREWORD, "本文件由示例标准化技术委员会提出并归口。\n"))
    assert "前言" in locations(doc, "STR-01")
    no_terms = parse(without_chapter("3"))
    assert [s.number for s in no_terms.sections][:5] == ["前言", "1", "2", "3", "3.1"]
    assert locations(no_terms, "STR-01") == ["3"]
    assert "术语和定义" in found(no_terms, "STR-01")[0].message


def test_2009_documents_may_lack_terms_and_references_unless_they_cite() -> None:
    old = SAMPLE.replace(FOREWORD, FOREWORD_2009)
    no_terms = parse(without_chapter("3", old))
    assert no_terms.drafting_rules == "GB/T 1.1—2009"
    assert locations(no_terms, "STR-01") == []
    citing = parse(without_chapter("2", old))
    assert [s.number for s in citing.sections][:4] == ["前言", "1", "2", "2.1"]
    assert locations(citing, "STR-01") == ["2"]
    quiet = parse(without_chapter("2", old.replace("应符合GB/T 2423.1—2008的规定", "应满足低温试验的要求")))
    assert locations(quiet, "STR-01") == []


def test_hj_variants_are_accepted_only_in_hj_documents() -> None:
    pairs = (("1 范围", "1 适用范围"), ("2 规范性引用文件", "2 引用标准"))
    hj = edited(("GB/T 99990—2025", "HJ 9999—2025"), *pairs)
    assert hj.standard_id == "HJ 9999—2025"
    assert [v for v in lint(hj, STR_TYPES)] == []
    gbt = edited(*pairs)
    assert locations(gbt, "STR-03") == ["1", "2"]
    assert locations(gbt, "STR-01") == []


def test_a_deleted_scope_is_restored_under_the_title_the_document_uses() -> None:
    hj = edited(("GB/T 99990—2025", "HJ 9999—2025"), ("1 范围", "1 适用范围"), *UNCITED_2009)
    injector = injectors()["STR-01"]
    site = next(s for s in injector.sites(hj, InjectionContext()) if s.detail == "scope")
    proposal = injector.propose(hj, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert proposal.error.startswith("文件缺少必备要素“1 适用范围”")
    assert proposal.fix.startswith("恢复第1章“适用范围”")


def test_a_deleted_foreword_is_restored_with_the_sentence_of_the_documents_edition() -> None:
    injector = injectors()["STR-01"]
    for foreword, said in (
        (FOREWORD, "“本文件按照GB/T 1.1—2020"),
        (FOREWORD_2009, "“本标准按照GB/T 1.1—2009给出的规则起草。”"),
        ("前言\n本文件由示例标准化技术委员会提出。\n", "起草所依据的规则以及"),  # no edition named
    ):
        document = edited((FOREWORD, foreword))
        site = next(s for s in injector.sites(document, InjectionContext()) if s.detail == "foreword")
        proposal = injector.propose(document, site, random.Random(0), InjectionContext())
        assert proposal is not None and said in proposal.fix, proposal.fix


def test_a_chapter_that_only_says_it_has_nothing_to_list_is_the_chapter_deleted() -> None:
    """The terms chapter holds no entry, only its statement: it is the chapter a drafter drops, and the
    fix restores the statement (not a list)."""
    empty_terms = "3 术语和定义\n本文件没有需要界定的术语和定义。\n"
    document = edited((chapter("3"), empty_terms))
    injector = injectors()["STR-01"]
    sites = list(injector.sites(document, InjectionContext()))
    assert [s.detail for s in sites] == ["foreword", "terms"]
    proposal = injector.propose(document, sites[1], random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "术语和定义"
    assert "连同" not in proposal.error  # no entries went with it
    restored = "恢复第3章“术语和定义”（写明“本文件没有需要界定的术语和定义。”）"
    assert proposal.fix.startswith(restored), proposal.fix
    applied = apply_edits(document, [proposal.edit])
    assert locations(applied.document, "STR-01") == ["3"]
    assert [s.detail for s in injector.sites(edited(), InjectionContext())] == [
        "foreword",
        "references",
        "terms",
    ]  # with entries in both chapters, both are sites
    empty_references = "2 规范性引用文件\n本文件没有规范性引用文件。\n"
    quiet = edited(
        (chapter("2"), empty_references), ("低温性能应符合GB/T 2423.1—2008的规定", "低温性能应稳定")
    )
    site = next(s for s in injector.sites(quiet, InjectionContext()) if s.detail == "references")
    proposal = injector.propose(quiet, site, random.Random(0), InjectionContext())
    assert proposal is not None and "本文件没有规范性引用文件。" in proposal.fix, proposal.fix


def test_engineering_codes_are_not_checked_for_this_structure() -> None:
    doc = edited(("GB/T 99990—2025", "GB 50999—2025"), (FOREWORD, ""), ("1 范围", "1 总则"))
    assert [v for v in lint(doc, STR_TYPES)] == []


# --- STR-02 ---------------------------------------------------------------------------------------


def test_element_order_is_reported_at_the_element_that_comes_too_late() -> None:
    chapter2 = SAMPLE[SAMPLE.index("2 规范性引用文件") : SAMPLE.index("3 术语和定义")]
    swapped = SAMPLE.replace(chapter2, "").replace("4 技术要求", chapter2 + "4 技术要求")
    swapped = swapped.replace("2 规范性引用文件", "3 规范性引用文件").replace("3 术语和定义", "2 术语和定义")
    swapped = swapped.replace("\n3.1\n", "\n2.1\n")
    doc = parse(swapped)
    assert [s.number for s in doc.sections][:5] == ["前言", "1", "2", "2.1", "3"]
    assert locations(doc, "STR-02") == ["3"]
    annex_b = SAMPLE[SAMPLE.index("附录B（资料性）") : SAMPLE.index("参考文献")]
    late = parse(SAMPLE.replace(annex_b, "") + annex_b)
    assert [s.number for s in late.sections][-3:] == ["附录B", "B.1", "B.2"]
    assert locations(late, "STR-02") == ["附录B"]


# --- STR-03 ---------------------------------------------------------------------------------------


def test_element_titles() -> None:
    doc = edited(("前言\n", "序言\n"), ("3 术语和定义", "3 定义"))
    assert locations(doc, "STR-03") == ["序言", "3"]
    assert "应为“术语和定义”" in found(doc, "STR-03")[1].message
    combined = edited(("3 术语和定义", "3 术语、定义和缩略语"))
    assert locations(combined, "STR-03") == []


# --- STR-04 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pairs", "location", "words"),
    [
        ((("4.3 控温精度", "4.4 控温精度"),), "4.4", "缺少“4.3”"),
        ((("5.2 控温精度试验", "5.1 控温精度试验"),), "5.1", "重复"),
        ((("5.2 控温精度试验", "4.4 控温精度试验"),), "4.4", "层次错误"),
        ((("4 技术要求\n", "4 技术要求\n本章规定了恒温箱的技术要求。\n"),), "4", "悬置段"),
        ((("A.2 步骤", "A.1.1 步骤"),), "A.1.1", "只有一个子条"),
        ((("5.2 控温精度试验", "5.1.1.1 控温精度试验"),), "5.1.1.1", "缺少上一层次“5.1.1”"),
        (
            (("5 试验方法", "6 试验方法"), ("5.1 外观", "6.1 外观"), ("5.2 控温", "6.2 控温")),
            "6",
            "缺少第5章",
        ),
    ],
)
def test_numbering_and_hierarchy(pairs: tuple[tuple[str, str], ...], location: str, words: str) -> None:
    doc = edited(*pairs)
    violations = [v for v in found(doc, "STR-04") if v.location == location]
    assert violations and any(words in v.message for v in violations), found(doc, "STR-04")


def test_terms_lead_in_and_clause_depth() -> None:
    doc = parse(SAMPLE)
    assert doc.section("3").text  # the lead-in above the entries is not a 悬置段
    assert locations(doc, "STR-04") == []
    deep = list(doc.sections)
    at = next(i for i, s in enumerate(deep) if s.number == "4.3")
    numbers = ["4.3.1", "4.3.1.1", "4.3.1.1.1", "4.3.1.1.1.1", "4.3.1.1.1.1.1"]
    for k, number in enumerate(numbers):
        deep.insert(at + 1 + k, Section(number, "细分", "", number.count(".") + 1, "clause"))
    deep[at] = replace(deep[at], text="")
    too_deep = replace(doc, sections=tuple(deep))
    messages = {v.location: v.message for v in found(too_deep, "STR-04")}
    assert "五个层次" in messages["4.3.1.1.1.1.1"]
    assert "4.3.1.1.1.1" not in messages or "五个层次" not in messages["4.3.1.1.1.1"]


# chapter 5 with a clause of two sub-clauses, the last clause of its chapter
TWO_SUB_CLAUSES = (
    "5.2 控温精度试验\n按附录A进行，记录格式参见附录B。\n",
    "5.2 控温精度试验\n5.2.1 试验步骤\n按附录A进行。\n5.2.2 结果记录\n记录格式参见附录B。\n",
)


def injected(document: Document, form: str) -> tuple[Proposal, Document, str]:
    """The STR-04 edit of one form on a document: the proposal, the corrupted document, its location."""
    injector = injectors()["STR-04"]
    site = next(s for s in injector.sites(document, InjectionContext()) if s.detail[0] == form)
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == form
    applied = apply_edits(document, [proposal.edit])
    verdict = injector.verify(Baseline(document), proposal, 0)
    assert verdict.instance is not None, verdict.failure
    return proposal, applied.document, applied.locations[0]


def test_the_last_chapter_numbered_one_too_high_is_the_only_numbering_error() -> None:
    proposal, corrupted, location = injected(parse(SAMPLE), "chapter")
    assert location == "6"
    assert [s.number for s in corrupted.sections if s.number.startswith("6")] == ["6", "6.1", "6.2"]
    assert [(v.location, "缺少第5章" in v.message) for v in found(corrupted, "STR-04")] == [("6", True)]
    assert proposal.error == "章编号不连续：第4章之后为第6章“试验方法”，缺少第5章"


def test_a_chapter_the_document_refers_into_keeps_its_number() -> None:
    referred = edited(
        ("在自然光下目视检查。", "在自然光下目视检查，结果按5.2处理。"), ("4.1 外观\n", "4.1 外观\n见5.2。\n")
    )
    injector = injectors()["STR-04"]
    assert "chapter" not in {s.detail[0] for s in injector.sites(referred, InjectionContext())}


def test_a_sub_clause_lifted_to_the_level_above_leaves_its_sibling_alone() -> None:
    document = edited(TWO_SUB_CLAUSES)
    assert locations(document, "STR-04") == []
    proposal, corrupted, location = injected(document, "lone")
    assert location == "5.2.1"
    assert [s.number for s in corrupted.sections if s.number.startswith("5")] == [
        "5",
        "5.1",
        "5.2",
        "5.2.1",
        "5.3",
    ]
    assert [v.location for v in found(corrupted, "STR-04")] == ["5.2.1"]
    assert "“结果记录”被编为上一层次的“5.3”" in proposal.error
    assert proposal.fix.startswith("将“5.3 结果记录”改回“5.2.2”")
    # a sub-clause the document refers to, or a parent with a sibling after it, offers no such site
    referred = edited(TWO_SUB_CLAUSES, ("在自然光下目视检查。", "在自然光下目视检查，记录按5.2.2。"))
    later = edited(TWO_SUB_CLAUSES, ("记录格式参见附录B。\n", "记录格式参见附录B。\n5.3 判定\n合格判定。\n"))
    for document in (referred, later):
        injector = injectors()["STR-04"]
        assert "lone" not in {s.detail[0] for s in injector.sites(document, InjectionContext())}


# --- STR-05 ---------------------------------------------------------------------------------------


def test_a_caption_lettered_for_another_annex() -> None:
    """表A.1 inside 附录B is a caption copied from the neighbouring annex and not renumbered: reported at
    the section that holds it; injected in 附录A (one annex before it: none) with 附录B's letter."""
    copied = edited(("B.2 保存\n", "B.2 保存\n表A.1　保存期限\n| 类别 | 期限 |\n"))
    assert locations(copied, "STR-05") == ["B.2"]
    assert "“表A.1”所用字母与所在附录不符，应为“表B.1”" in found(copied, "STR-05")[0].message
    document = parse(SAMPLE)
    injector = injectors()["STR-05"]
    site = next(s for s in injector.sites(document, InjectionContext()) if s.detail[0] == "letter")
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "letter"
    assert proposal.error == "附录A中的“表A.1”被编为“表B.1”，所用字母是附录B的，与所在附录不符"
    assert proposal.fix == "将“表B.1”改为“表A.1”"
    assert injector.verify(Baseline(document), proposal, 0).instance is not None
    corrupted = apply_edits(document, [proposal.edit]).document
    assert "表B.1　仪器参数" in corrupted.section("A.1").text
    assert [v.location for v in found(corrupted, "STR-05")] == ["A.1"]
    # one annex alone: no neighbour to copy from
    alone = edited(
        (
            SAMPLE[SAMPLE.index("附录B（资料性）") : SAMPLE.index("参考文献")],
            "",
        ),
        ("，记录格式参见附录B", ""),
        ("，相应的温度点见附录B", ""),
    )
    assert "letter" not in {s.detail[0] for s in injector.sites(alone, InjectionContext())}


def test_annex_markers_against_how_the_body_refers_to_them() -> None:
    informative_required = edited(("相应的温度点见附录B", "温度点应符合附录B的规定"))
    assert locations(informative_required, "STR-05") == ["附录B"]
    assert "第4.2条" in found(informative_required, "STR-05")[0].message
    normative_only_cited = edited(
        ("控温精度的测量应符合附录A的规定", "控温精度的测量方法参见附录A"), ("按附录A进行", "在室温下进行")
    )
    assert locations(normative_only_cited, "STR-05") == ["附录A"]
    # 相应 is no requirement, "见附录B" is neutral, another document's annex is not this document's
    neutral = edited(("4.1 外观\n", "4.1 外观\n外观的判定应符合GB/T 2423.1—2008附录B的规定。\n"))
    assert locations(neutral, "STR-05") == []


def test_missing_marker_captions_and_2009_declarations() -> None:
    missing = edited(("附录B（资料性）记录格式", "附录B 记录格式"))
    assert [s.number for s in missing.sections if s.kind == "annex"][-3:] == ["附录B", "B.1", "B.2"]
    assert locations(missing, "STR-05") == ["附录B"]
    caption = edited(("表A.1　仪器参数", "表1　仪器参数"))
    assert locations(caption, "STR-05") == ["A.1"]
    assert "表A.1" in found(caption, "STR-05")[0].message
    mention = edited(("表A.1的要求", "表1的要求"))  # a mention, not a caption: not this rule's business
    assert locations(mention, "STR-05") == []
    declared = edited(
        (FOREWORD, FOREWORD_2009 + "本标准的附录A为规范性附录，附录B为资料性附录。\n"),
        ("附录A（规范性）", "附录A（规范性附录）"),
        ("附录B（资料性）", "附录B（规范性附录）"),
        ("记录格式参见附录B", "记录格式见附录B"),
    )
    assert locations(declared, "STR-05") == ["附录B"]
    assert "前言" in found(declared, "STR-05")[0].message


def test_an_annex_marked_as_the_other_edition_writes_it() -> None:
    """（规范性附录） in a 2020 document, （规范性） in a 2009 one: reported, and injected either way; a
    document that declares no edition is told nothing about it."""
    old_template = edited(("附录A（规范性）", "附录A（规范性附录）"))
    assert locations(old_template, "STR-05") == ["附录A"]
    assert "应为“（规范性）”" in found(old_template, "STR-05")[0].message
    new_template = edited((FOREWORD, FOREWORD_2009), ("附录B（资料性）", "附录B（资料性附录）"))
    assert locations(new_template, "STR-05") == ["附录A"]  # 附录A still carries the 2020 form
    undeclared = edited(
        (FOREWORD, "前言\n本文件由示例标准化技术委员会提出。\n"), ("附录A（规范性）", "附录A（规范性附录）")
    )
    assert locations(undeclared, "STR-05") == []
    injector = injectors()["STR-05"]
    old_markers = (("附录A（规范性）", "附录A（规范性附录）"), ("附录B（资料性）", "附录B（资料性附录）"))
    for document, other in (
        (parse(SAMPLE), "GB/T 1.1—2009"),
        (edited((FOREWORD, FOREWORD_2009), *old_markers), "GB/T 1.1—2020"),
    ):
        site = next(s for s in injector.sites(document, InjectionContext()) if s.detail[0] == "edition")
        proposal = injector.propose(document, site, random.Random(0), InjectionContext())
        assert proposal is not None and proposal.form == "edition"
        assert f"这是{other}的写法" in proposal.error, proposal.error
        assert injector.verify(Baseline(document), proposal, 0).instance is not None


# --- injectors on the corpus ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


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
    # these documents have chapters 2 and 3: the scope is a site only where they are not (drawn below)
    "STR-01": {"foreword", "normative_references", "terms"},
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
        ("STR-01", (), {"前言", "规范性引用文件", "术语和定义"}),
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
    drawn, none in most instances. The scope is deleted only where chapters 2 and 3 are not mandatory."""
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


def test_a_chapter_after_the_annexes_is_to_be_moved_before_the_first_annex() -> None:
    document = parse(SAMPLE)
    injector = injectors()["STR-02"]
    site = next(
        s
        for s in injector.sites(document, InjectionContext())
        if s.detail[0] == "after" and document.sections[s.target].kind == "clause"
    )
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None
    assert "第5章“试验方法”被置于附录B之后" in proposal.error
    assert proposal.fix == "将第5章“试验方法”移至附录A之前"


def test_every_numbering_form_is_offered(corpus_documents: list[Document], context: InjectionContext) -> None:
    injector = injectors()["STR-04"]
    modes = {site.detail[0] for doc in corpus_documents for site in injector.sites(doc, context)}
    assert modes == set(injector.forms) == {"gap", "duplicate", "parent", "hanging", "chapter", "lone"}
    # one site of each form per document: the one last chapter is drawn about as often as a gap
    for doc in corpus_documents:
        per_form = Counter(site.detail[0] for site in injector.sites(doc, context))
        assert max(per_form.values()) == 1, (doc.source, per_form)


# --- real documents -------------------------------------------------------------------------------


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
