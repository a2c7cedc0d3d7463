"""NREF: checkers of the normative-references list and citations, and the five injectors, on small
documents written here and on the project's corpus."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import regex

from injectors.base import Baseline, Injector, Site
from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.instance import ErrorInstance
from injectors.language.citations import find_cited, parse_number, unwrap_citations
from injectors.types.nref.analysis import analyse, order_problem
from injectors.types.nref.nref01_cited_not_listed import NormativeReferenceUnlisted
from injectors.types.nref.nref02_listed_not_cited import UncitedReferenceListed
from injectors.types.nref.nref03_informative_listed_as_normative import InformativeReferenceListed
from injectors.types.nref.nref04_list_order_wrong import ReferenceListOutOfOrder
from injectors.types.nref.nref05_citation_form_error import CitationFormError
from parsers import parse_file
from parsers.model import Document
from parsers.text import parse_text

NREF = ("NREF-01", "NREF-02", "NREF-03", "NREF-04", "NREF-05")
LEAD_2020 = (
    "下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。其中，注日期的引用文件，"
    "仅该日期对应的版本适用于本文件；不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)
LEAD_2009 = (
    "下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。"
    "凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)


def standard(
    references: str,
    body: str,
    *,
    bibliography: str = "",
    foreword: str = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》起草。",
    lead_in: str = LEAD_2020,
    terms: str = "下列术语和定义适用于本文件。",
) -> Document:
    """A small standard about a made-up product (a rooftop rain sensor), with the parts a test varies."""
    text = f"""GB/T 99902—2025
屋面 雨量传感器 技术要求
前言
{foreword}
1 范围
本文件规定了屋面雨量传感器的技术要求和试验方法。
本文件适用于民用建筑屋面安装的雨量传感器。
2 规范性引用文件
{lead_in}
{references}
3 术语和定义
{terms}
3.1
雨量传感器 rain sensor
将降水量转换为电信号的装置。
4 技术要求
{body}
5 标志
5.1 产品标志
产品铭牌应标明型号、制造日期和出厂编号。
5.2 包装标志
包装标志应清晰。
"""
    if bibliography:
        text += f"参考文献\n{bibliography}\n"
    return parse_text(Path("rain-sensor.txt"), text.encode())


def found(document: Document, error_type: str) -> list[tuple[str, str]]:
    return [(v.location, v.message) for v in lint(document, [error_type])]


GB4208 = "GB 4208—2017　外壳防护等级（IP代码）"
GB2423 = "GB/T 2423.1—2008　环境试验　低温"
ISO8601 = "ISO 8601-1:2019　Date and time"
CLEAN_REFERENCES = f"{GB4208}\n{GB2423}\n{ISO8601}"
CLEAN_BODY = (
    "4.1 防护\n传感器外壳的防护等级不应低于GB 4208—2017规定的IP65。\n"
    "4.2 低温\n按GB/T 2423.1—2008中试验Ab的规定进行低温试验。\n"
    "4.3 时间\n记录时刻的表示应符合ISO 8601-1:2019的规定。\n注：安装要点参见GB/T 50345—2012。"
)


# --- the grammar of a citation -------------------------------------------------------------------------


def test_numbers_as_written() -> None:
    c = parse_number("GB/T 2423.1—2008")
    assert c is not None and (c.code, c.number, c.year, c.sep) == ("GB/T", "2423.1", "2008", "—")
    hyphen = parse_number("GB 16735-2004")
    assert hyphen is not None and hyphen.year == "2004" and hyphen.wrong_separator
    iso = parse_number("ISO 8601-1:2019")
    assert iso is not None and (iso.number, iso.year, iso.wrong_separator) == ("8601-1", "2019", False)
    assert parse_number("GB/T 32918—2016（所有部分）").all_parts  # type: ignore[union-attr]
    assert [c.ident for c in find_cited("型号ZY100的控制面板，示例：GH01-05，标准HJ 212规定")] == ["HJ 212"]


def test_same_document_ignores_year_part_and_recommendation_mark() -> None:
    a, b = parse_number("GB/T 4208"), parse_number("GB 4208—2017")
    part, series = parse_number("GB/T 19582.2"), parse_number("GB/T 19582（所有部分）")
    assert a and b and part and series
    assert a.same_document(b) and part.same_document(series)
    assert not parse_number("GB/T 2423.1").same_document(parse_number("GB/T 2423.10"))  # type: ignore[union-attr,arg-type]


def test_order_accepts_both_real_conventions_and_rejects_breaks() -> None:
    def problem(*numbers: str) -> tuple[int, int] | None:
        return order_problem([parse_number(n) for n in numbers])  # type: ignore[misc]

    assert problem("GB 4208", "GB 4943.1", "GB/T 191", "GB/T 2423.1") is None  # GB first, then GB/T
    assert problem("GB/T 2423.1", "GB/T 2423.2", "GB 4208", "GB/T 17626.2") is None  # interleaved by number
    assert problem("GB/T 2423.2", "GB/T 2423.10") is None  # numerically, not as strings
    assert problem("GB/T 191", "GA 36", "JT/T 794", "T/CESA 12", "ISO 8601-1") is None
    assert problem("GB/T 5000", "GB 4208") == (0, 1)
    assert problem("ISO 8601-1", "GB/T 191") == (0, 1)
    assert problem("JT/T 808", "JT/T 1078", "JT/T 883") == (1, 2)


# --- checkers on small documents -------------------------------------------------------------------------


def test_clean_small_document_has_no_nref_violation() -> None:
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY)
    assert [v for v in lint(doc) if v.error_type in NREF] == []


def test_nref01_normative_citation_missing_from_list() -> None:
    body = CLEAN_BODY + "\n4.4 雨量\n雨量测量误差应符合GB/T 21978.2的规定。"
    assert found(standard(CLEAN_REFERENCES, body), "NREF-01") == [
        ("2", "“GB/T 21978.2”在第4.4条中被规范性引用，但未列入规范性引用文件清单")
    ]


def test_nref01_ignores_informative_and_neutral_mentions() -> None:
    body = (
        CLEAN_BODY + "\n4.4 布置\n传感器的按钮布置与GB/T 7777的产品相同。\n"
        "示例：按GB/T 6666进行的试验记录。\n引线颜色见GB/T 5555。"
    )
    assert found(standard(CLEAN_REFERENCES, body), "NREF-01") == []


def test_nref01_a_requirement_sentence_makes_a_citation_normative() -> None:
    required = CLEAN_BODY + "\n4.4 输出\n输出报文的格式应与GB/T 3333一致。"
    assert found(standard(CLEAN_REFERENCES, required), "NREF-01") == [
        ("2", "“GB/T 3333”在第4.4条中被规范性引用，但未列入规范性引用文件清单")
    ]
    # 应 inside 响应 or 相应 is no modal verb
    mention = CLEAN_BODY + "\n4.4 输出\n报警响应时间与GB/T 3333的相应产品相当。"
    assert found(standard(CLEAN_REFERENCES, mention), "NREF-01") == []


def test_nref01_terms_lead_in_is_normative() -> None:
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY, terms="GB/T 4444界定的以及下列术语和定义适用于本文件。")
    assert found(doc, "NREF-01") == [("2", "“GB/T 4444”在第3章中被规范性引用，但未列入规范性引用文件清单")]


def test_nref02_listed_but_never_cited() -> None:
    doc = standard(CLEAN_REFERENCES + "\nGB/T 13384　机电产品包装通用技术条件", CLEAN_BODY)
    assert found(doc, "NREF-02") == [("2", "规范性引用文件清单中的“GB/T 13384”在正文中未被引用")]


def test_nref02_counts_parts_of_a_series_and_the_terms_lead_in() -> None:
    references = "GB/T 4444　术语集\nGB/T 19582（所有部分）　网络规范\n" + CLEAN_REFERENCES
    body = CLEAN_BODY + "\n4.4 接口\n接口应符合GB/T 19582.2的规定。"
    doc = standard(references, body, terms="GB/T 4444界定的以及下列术语和定义适用于本文件。")
    assert found(doc, "NREF-02") == []


def test_nref03_informative_only_or_in_bibliography() -> None:
    references = CLEAN_REFERENCES.replace("ISO 8601", "GB/T 50345—2012　屋面工程技术规范\nISO 8601")
    assert found(standard(references, CLEAN_BODY), "NREF-03") == [
        ("2", "“GB/T 50345”在正文中仅被资料性提及（注、示例、见/参见），不应列入规范性引用文件")
    ]
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY, bibliography="[1] GB 4208—2017　外壳防护等级（IP代码）")
    assert found(doc, "NREF-03") == [("2", "“GB 4208”既列入规范性引用文件，又列入参考文献")]


def test_nref03_not_when_also_cited_normatively() -> None:
    body = CLEAN_BODY + "\n注：试验箱的要求见GB 4208—2017。"
    assert found(standard(CLEAN_REFERENCES, body), "NREF-03") == []


def test_nref04_order() -> None:
    swapped = f"{GB2423}\n{GB4208}\n{ISO8601}"
    assert found(standard(swapped, CLEAN_BODY), "NREF-04") == []  # interleaved by number: accepted
    iso_first = f"{ISO8601}\n{GB4208}\n{GB2423}"
    assert found(standard(iso_first, CLEAN_BODY), "NREF-04") == [
        ("2", "规范性引用文件清单中“ISO 8601-1”排在“GB 4208”之前，国家标准应排在ISO、ISO/IEC或IEC标准之前")
    ]


def test_nref05_hyphen_colon_and_undated_clause() -> None:
    references = CLEAN_REFERENCES.replace("GB 4208—2017", "GB 4208-2017")
    body = CLEAN_BODY.replace("GB/T 2423.1—2008中试验Ab", "GB/T 2423.1:2008中试验Ab") + (
        "\n4.4 雨量\n雨量示值误差应符合GB 4208中第6章的规定。"
    )
    doc = standard(references, body)
    assert found(doc, "NREF-05") == [
        ("2", "“GB 4208-2017”年号前应使用一字线“—”（GB 4208—2017）"),
        ("4.2", "“GB/T 2423.1:2008”年号前应使用一字线“—”（GB/T 2423.1—2008）"),
        ("4.4", "引用了不注日期文件“GB 4208”中的具体内容“第6章”，引用具体章条、图表时应注日期"),
    ]


def test_nref05_guards() -> None:
    body = CLEAN_BODY + "\n4.4 雨量\n显示屏防护应符合GB 4208中IP54的要求，接口应符合GB 4208的规定。"
    assert found(standard(CLEAN_REFERENCES, body), "NREF-05") == []


def test_nref05_lead_in_of_the_wrong_edition() -> None:
    assert found(standard(CLEAN_REFERENCES, CLEAN_BODY, lead_in=LEAD_2009), "NREF-05") == [
        ("2", "按GB/T 1.1—2020起草的文件在规范性引用文件中使用了GB/T 1.1—2009的引导语")
    ]
    old = standard(
        CLEAN_REFERENCES, CLEAN_BODY, lead_in=LEAD_2009, foreword="本标准按照GB/T 1.1—2009给出的规则起草。"
    )
    assert found(old, "NREF-05") == []


def test_hj_structure_does_not_crash() -> None:
    text = """HJ 9901—2017
示例 污染源 数据采集仪 技术要求
前言
本标准由示例司提出。
1 适用范围
本标准规定了数据采集仪的技术要求。
2 引用标准
本标准引用下列文件中的条款。凡不注日期的文件，以其有效版本为准。
GB 3096-2008 示例环境质量标准
HJ 524-2009 示例污染物名称代码
3 术语和定义
3.1
数据采集仪 data acquisition instrument
采集监测数据的装置。
4 技术要求
4.1 编码
污染物编码应符合HJ 524-2009的规定，噪声监测项目按GB 3096-2008的规定选取。
4.2 通信
通信应可靠。
"""
    doc = parse_text(Path("hj.txt"), text.encode())
    assert [(v.location, v.error_type) for v in lint(doc) if v.error_type in NREF] == [
        ("2", "NREF-05"),
        ("2", "NREF-05"),
        ("4.1", "NREF-05"),
        ("4.1", "NREF-05"),
    ]


# --- the project's corpus --------------------------------------------------------------------------------


def test_clean_corpus_has_no_nref_violation(corpus_documents: list[Document]) -> None:
    reported = [(d.standard_id, v) for d in corpus_documents for v in lint(d) if v.error_type in NREF]
    assert reported == []


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


INJECTORS: list[type[Injector]] = [
    NormativeReferenceUnlisted,
    UncitedReferenceListed,
    InformativeReferenceListed,
    ReferenceListOutOfOrder,
    CitationFormError,
]


def _quoted(text: str) -> list[str]:
    return [part.split("”")[0] for part in text.split("“")[1:]]


def names_the_change(instance: ErrorInstance) -> bool:
    """The error part of the description quotes the changed words: text that is in the original section
    or in the corrupted one but not in both (for a swap: the two exchanged entries)."""
    assert instance.original_section is not None and instance.corrupted_section is not None
    quoted = _quoted(instance.description.split("；修改建议：")[0])
    if instance.error_type == "NREF-04":
        swapped = [r.old for r in instance.edit.replacements]
        return len(quoted) == 2 and all(any(entry.startswith(q) for entry in swapped) for q in quoted)
    # the planner renumbers "第5章" and "“5.2”" when other errors renumber this document: quotations of the
    # text and clauses of other documents must not take that form
    assert not any(regex.search(r"第\d+(?:\.\d+)*[条章]|^[\dA-Z](?:\.\d+)*$", q) for q in quoted), quoted
    before, after = instance.original_section.text, instance.corrupted_section.text
    fragments = [f for q in quoted for f in q.split("…") if len(f) >= 4]
    return any((f in before) != (f in after) for f in fragments)


@pytest.mark.parametrize("injector_class", INJECTORS, ids=lambda c: c.error_type)
def test_injected_instances_on_the_corpus(
    injector_class: type[Injector], corpus_documents: list[Document], context: InjectionContext
) -> None:
    injector = injector_class()
    made = 0
    for doc in corpus_documents:
        if injector.error_type == "NREF-02" and not list(injector.sites(doc, context)):
            continue  # no reference of this document's field, series or subject in the corpus
        made += 1
        baseline = Baseline(doc)
        attempt = injector.inject(baseline, random.Random(f"0:{doc.doc_id}:x"), context)
        instance = attempt.instance
        assert instance is not None, (doc.standard_id, attempt.reason)
        assert (instance.dimension, instance.error_type) == ("NREF", injector.error_type)
        applied = apply_edits(doc, [instance.edit])
        assert instance.location == applied.locations[0]
        original = doc.sections[instance.edit.target]
        assert replay(instance.edit, original) == instance.corrupted_section == applied.sections[0]
        # the checker sees the new defect at the location, and the original is clean there
        after = {(v.location, v.error_type) for v in lint(applied.document)}
        before = {(v.location, v.error_type) for v in baseline.violations}
        assert (instance.location, injector.error_type) in after
        assert (instance.location, injector.error_type) not in before
        assert instance.description.startswith("错误：") and "；修改建议：" in instance.description
        assert names_the_change(instance), instance.description
    assert made >= len(corpus_documents) // 2


def test_nref01_removes_exactly_one_line(corpus_documents: list[Document], context: InjectionContext) -> None:
    doc = corpus_documents[0]
    instance = NormativeReferenceUnlisted().inject(Baseline(doc), random.Random(1), context).instance
    assert instance is not None and instance.original_section and instance.corrupted_section
    before = instance.original_section.text.split("\n")
    after = instance.corrupted_section.text.split("\n")
    assert len(after) == len(before) - 1 and set(after) < set(before)
    removed = instance.edit.replacements[0].old.strip("\n")
    assert f"“{removed}”" in instance.description


def test_nref02_adds_a_real_number_from_another_document(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    doc = next(d for d in corpus_documents if "greenhouse" in d.source)
    instance = UncitedReferenceListed().inject(Baseline(doc), random.Random(2), context).instance
    assert instance is not None
    added = instance.edit.replacements[0].new.strip("\n")
    others = [r.entry.line for r in context.references_for(doc)]
    assert any(added.split("　")[0] in line or added.split("　")[-1] in line for line in others)
    assert f"“{added}”" in instance.description


RAIN_LIST = "GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温"
RAIN_BODY = "4.1 低温\n传感器应按GB/T 2423.1—2008的规定进行低温试验，试验后应能正常工作。"


def _corpus_of(*documents: tuple[Document, str, str]) -> list[Document]:
    """Documents with the ICS and CCS of their field on the cover (and distinct ids)."""
    out = []
    for k, (doc, ics, ccs) in enumerate(documents):
        out.append(replace(doc, doc_id=f"doc{k}", cover=replace(doc.cover, ics=ics, ccs=ccs)))
    return out


def test_nref02_never_borrows_another_fields_reference() -> None:
    """Issue 9, class 1: a tea standard's "茶叶贮存" never enters the rain sensor's list; a part of a
    series the list already cites does, and so does a standard of the same field that speaks of what the
    document speaks of (half its title's words) — not one that only shares the field (a field such as
    ICS 35 holds energy metering and semantic libraries alike)."""
    body = (
        "4.1 低温\n用于自动气象站降水观测的传感器应按GB/T 2423.1—2008的规定进行低温试验，试验后应能正常工作。"
    )
    rain = standard(RAIN_LIST, body)
    tea = standard(
        "GB/T 30375—2013　茶叶贮存\nGB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温",
        RAIN_BODY,
    )
    weather = standard(
        "GB/T 33703—2017　自动气象站观测规范\nGB/T 17167—2006　用能单位能源计量器具配备和管理通则", RAIN_BODY
    )
    rain, tea, weather = _corpus_of(
        (rain, "07.060", "A 47"), (tea, "67.140.10", "X 55"), (weather, "07.060", "A 47")
    )
    context = InjectionContext.from_documents([rain, tea, weather])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(rain, context)}
    assert added == {"GB/T 2423.2", "GB/T 33703"}


def test_nref02_title_takes_the_lists_space_width() -> None:
    """Issue 9, class 6: a title borrowed with ideographic spaces is written with the ASCII spaces of a
    list that uses them (and the other way round)."""
    ascii_list = "GB/T 2423.1—2008 电工电子产品环境试验 第2部分：试验方法 试验A：低温"
    rain = standard(ascii_list, RAIN_BODY)
    other = standard("GB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温", RAIN_BODY)
    rain, other = _corpus_of((rain, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([rain, other])
    instance = UncitedReferenceListed().inject(Baseline(rain), random.Random(0), context).instance
    assert instance is not None
    line = instance.edit.replacements[0].new.strip("\n")
    assert line == "GB/T 2423.2—2008 电工电子产品环境试验 第2部分：试验方法 试验B：高温"
    assert "\u3000" not in line
    # nor a run of four spaces where the list writes one, and the other way round
    wide = standard("GB/T 2423.1—2008    电工电子产品环境试验    第2部分：试验方法    试验A：低温", RAIN_BODY)
    wide, other = _corpus_of((wide, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([wide, other])
    instance = UncitedReferenceListed().inject(Baseline(wide), random.Random(0), context).instance
    assert instance is not None
    line = instance.edit.replacements[0].new.strip("\n")
    assert line == "GB/T 2423.2—2008    电工电子产品环境试验    第2部分：试验方法    试验B：高温"
    # the spaces between the words of an English title say nothing about the list's Chinese titles
    mixed = standard(
        f"{RAIN_LIST}\nISO 9001:2015　Quality management systems — Requirements",
        RAIN_BODY + "\n4.2 质量\n质量管理应符合ISO 9001:2015的规定。",
    )
    other = standard("GB/T 2423.2—2008 电工电子产品环境试验 第2部分：试验方法 试验B：高温", RAIN_BODY)
    mixed, other = _corpus_of((mixed, "07.060", "A 47"), (other, "07.060", "A 47"))
    context = InjectionContext.from_documents([mixed, other])
    instance = UncitedReferenceListed().inject(Baseline(mixed), random.Random(0), context).instance
    assert instance is not None
    assert (
        instance.edit.replacements[0]
        .new.strip("\n")
        .endswith("电工电子产品环境试验　第2部分：试验方法　试验B：高温")
    )


@pytest.mark.parametrize(
    "body",
    [
        "4.1 低温\n传感器应按GB/T\n2423.1—2008的规定进行低温试验。",
        "4.1 低温\n传感器应按 GB/T 2423.1\n—2008 的规定进行低温试验。",
        "4.1 低温\n传感器应符合 GB/T 2423.1—\n2008 的规定。",
    ],
)
def test_a_citation_wrapped_over_two_lines_is_cited(body: str) -> None:
    """Issue 9, class 7: "应按GB/T⏎2423.1—2008的规定" cites the listed document (PDF line breaks)."""
    doc = standard(RAIN_LIST, body)
    assert found(doc, "NREF-02") == []
    uses = analyse(doc).uses_of(parse_number("GB/T 2423.1"))
    assert [u.role for u in uses] == ["normative"]


def test_a_line_break_between_unrelated_numbers_joins_nothing() -> None:
    assert unwrap_citations("采用GB\n2 范围") == "采用GB\n2 范围"
    assert unwrap_citations("见GB/T 1.1\n2 范围") == "见GB/T 1.1\n2 范围"


def test_nref05_every_form_verifies(corpus_documents: list[Document], context: InjectionContext) -> None:
    """Each of the three citation-form edits passes the base class verification somewhere in the corpus."""
    injector = CitationFormError()
    verified: dict[str, str] = {}
    for doc in corpus_documents:
        baseline = Baseline(doc)
        for site in injector.sites(doc, context):
            kind = site.detail[0]
            if kind in verified:
                continue
            proposal = injector.propose(doc, site, random.Random(0), context)
            assert proposal is not None
            instance, failure = injector._verified(baseline, proposal, 0)
            assert instance is not None, (doc.standard_id, kind, failure)
            assert names_the_change(instance), instance.description
            verified[kind] = instance.description
    assert set(verified) == {"dash", "specific", "undate", "lead-in"}
    assert "GB/T 1.1—2009的表述" in verified["lead-in"]


def test_no_site_where_the_list_already_breaks_the_rule() -> None:
    doc = standard(CLEAN_REFERENCES + "\nGB/T 13384　机电产品包装通用技术条件", CLEAN_BODY)
    assert list(UncitedReferenceListed().sites(doc, InjectionContext())) == []
    assert list(NormativeReferenceUnlisted().sites(doc, InjectionContext())) != []
    site: Site = next(iter(NormativeReferenceUnlisted().sites(doc, InjectionContext())))
    assert analyse(doc).items[site.detail].cited.ident in ("GB 4208", "GB/T 2423.1", "ISO 8601-1")


# --- real documents (../shared/corpus-real) ---------------------------------------------------------------


def test_real_findings_are_the_known_ones(real_corpus: Path) -> None:
    """Defects present in the published texts (see `bench/types.py --dimension NREF` for the full table)."""
    jrt = parse_file(real_corpus / "JRT_0184-2020.pdf")
    assert found(jrt, "NREF-01") == [("2", "“GB/T 32915”在第8.6条中被规范性引用，但未列入规范性引用文件清单")]
    assert [v for v in lint(jrt) if v.error_type in NREF and v.error_type != "NREF-01"] == []
    md = parse_file(real_corpus / "GBT_22240-2020.md")
    assert [v for v in lint(md) if v.error_type in NREF] == []
