"""NREF checkers of the normative-references list and of citations: the grammar of a citation, and the
checkers on small documents written here and on real standards.

The five injectors are tested in test_nref.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import regex

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.language.citations import find_cited, parse_number, unwrap_citations
from injectors.types.nref.analysis import analyse, order_problem
from injectors.types.nref.nref05_citation_form_error import CitationFormError
from parsers import parse_file
from parsers.text import parse_text
from tests.injectors.types.nref.nref_documents import (
    CLEAN_BODY,
    CLEAN_REFERENCES,
    GB2423,
    GB4208,
    ISO8601,
    LEAD_2009,
    NREF,
    RAIN_LIST,
    found,
    standard,
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


def test_nref05_a_citation_of_another_edition_than_the_list_gives() -> None:
    """Reported where the text cites it; a part of the listed document, an undated citation and an
    informative one (a note) are no such error."""
    body = CLEAN_BODY.replace("按GB/T 2423.1—2008中试验Ab", "按GB/T 2423.1—2001中试验Ab") + (
        "\n4.4 高温\n按GB/T 2423.2—2008的规定进行。\n4.5 外壳\n外壳应符合GB 4208的规定。"
        "\n注：旧版见GB 4208—2008。"
    )
    assert found(standard(CLEAN_REFERENCES, body), "NREF-05") == [
        ("4.2", "“GB/T 2423.1—2001”与规范性引用文件清单所列“GB/T 2423.1—2008”的年号不一致")
    ]


def test_nref05_the_year_form_is_injected_and_told_from_the_list() -> None:
    document = standard(CLEAN_REFERENCES, CLEAN_BODY)
    injector = CitationFormError()
    sites = [s for s in injector.sites(document, InjectionContext()) if s.detail[0] == "year"]
    assert {document.sections[s.target].number for s in sites} == {"4.1", "4.2"}
    site = next(s for s in sites if document.sections[s.target].number == "4.2")
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "year"
    year = regex.search(r"“GB/T 2423\.1—(\d{4})”", proposal.error)
    assert year is not None and 2000 <= int(year.group(1)) <= 2005
    assert proposal.error.endswith("而规范性引用文件清单列出的是“GB/T 2423.1—2008”，同一文件的年号前后不一致")
    assert proposal.fix.endswith("改为“GB/T 2423.1—2008”，与清单所列版本一致")
    assert injector.verify(Baseline(document), proposal, 0).instance is not None


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


# --- citations wrapped over lines ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "4.1 低温\n传感器应按GB/T\n2423.1—2008的规定进行低温试验。",
        "4.1 低温\n传感器应按 GB/T 2423.1\n—2008 的规定进行低温试验。",
        "4.1 低温\n传感器应符合 GB/T 2423.1—\n2008 的规定。",
    ],
)
def test_a_citation_wrapped_over_two_lines_is_cited(body: str) -> None:
    """The citation "应按GB/T⏎2423.1—2008的规定" cites the listed document (PDF line breaks)."""
    doc = standard(RAIN_LIST, body)
    assert found(doc, "NREF-02") == []
    uses = analyse(doc).uses_of(parse_number("GB/T 2423.1"))
    assert [u.role for u in uses] == ["normative"]


def test_a_line_break_between_unrelated_numbers_joins_nothing() -> None:
    assert unwrap_citations("采用GB\n2 范围") == "采用GB\n2 范围"
    assert unwrap_citations("见GB/T 1.1\n2 范围") == "见GB/T 1.1\n2 范围"


# --- real documents (../shared/corpus-real) ---------------------------------------------------------------


def test_real_findings_are_the_known_ones(real_corpus: Path) -> None:
    """Defects present in the published texts (see `bench/types.py --dimension NREF` for the full table)."""
    jrt = parse_file(real_corpus / "JRT_0184-2020.pdf")
    assert found(jrt, "NREF-01") == [("2", "“GB/T 32915”在第8.6条中被规范性引用，但未列入规范性引用文件清单")]
    assert [v for v in lint(jrt) if v.error_type in NREF and v.error_type != "NREF-01"] == []
    md = parse_file(real_corpus / "GBT_22240-2020.md")
    assert [v for v in lint(md) if v.error_type in NREF] == []
