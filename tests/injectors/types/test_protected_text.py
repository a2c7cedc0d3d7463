"""TER-01 never edits words the drafter does not own, and NMS-02 only where the change is detectable
on small standards written here.

A reader rejected "提示“信息以广播为准”" → "提示“检票信息以广播为准”" (a term written into a quoted display
text) and "宜优先采用" → "应优先采用" (a preference is an ordinary requirement once strengthened: nothing
in the document shows the change).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.language.modals import modal_verbs
from injectors.language.quotations import protected, protected_spans
from injectors.types.nms.evidence import HEDGE, PRESUPPOSED, SIBLING
from injectors.types.nms.evidence_finding import recommendation_evidence
from injectors.types.nms.evidence_siblings import sentence_siblings
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from injectors.types.ter.ter01_undefined_term_used import UndefinedTermUsed
from parsers.model import Document, Section
from parsers.text import parse_text


def standard(requirements: str) -> Document:
    """A small 2020 standard with the given requirements in 4.1."""
    text = f"""GB/T 99904—2026
示例检票显示屏 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出。
1 范围
本文件规定了车站检票显示屏的技术要求。
本文件适用于车站检票口设置的显示屏。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
4.1 显示
{requirements}
4.2 标志
屏体背面的标志内容由运营方确定。
"""
    return parse_text(Path("protected.txt"), text.encode())


# --- protected text -------------------------------------------------------------------------------------
def test_quotations_cited_titles_and_heading_lines_are_protected() -> None:
    text = (
        "检票开始前，画面上提示“信息以广播为准”。\n"
        "显示内容应符合《车站信息显示规范》的要求。\n"
        "GB/T 99905—2020　铁路车站信息显示　第1部分：通则\n"
        "5.2.1 检票信息\n"
        "检票开始前，屏上的信息应及时更新。"
    )
    spans = protected_spans(text)
    assert [text[a:b] for a, b in spans] == [
        "“信息以广播为准”",
        "《车站信息显示规范》",
        "GB/T 99905—2020　铁路车站信息显示　第1部分：通则",
        "5.2.1 检票信息",
    ]
    last = text.rindex("信息")
    assert not protected(text, last, last + 2)
    first = text.index("信息")
    assert protected(text, first, first + 2)


def term_options(text: str) -> list[str]:
    """Where TER-01 would write "检票信息" for a bare "信息" in a section with this text."""
    section = Section(number="4.1", title="显示", text=text, level=2, kind="clause")
    options = UndefinedTermUsed._foreign_options(section, {"信息": ("检票信息",)}, [])
    return [text[o.start : o.start + len(o.head)] + f"@{o.start}" for o in options]


@pytest.mark.parametrize(
    "text",
    [
        "检票开始前，画面上提示“信息以广播为准”。",  # the rejected instance: a quoted display text
        "显示内容应符合《检票口的信息显示规范》的要求。",  # a cited document's title
        "检票口应张贴‘信息’标识。",
        "【6.3 检票口的信息】",
        "5.2.1 检票口的信息显示",  # headings written into the text
    ],
)
def test_ter01_never_writes_a_term_into_quoted_or_cited_text(text: str) -> None:
    assert term_options(text) == []


def test_ter01_still_writes_it_into_the_drafters_own_sentence() -> None:
    text = "检票开始前，画面上提示“信息以广播为准”，屏上的信息应及时更新。"
    assert term_options(text) == [f"信息@{text.rindex('信息')}"]


# --- NMS-02 evidence ------------------------------------------------------------------------------------
def evidence(requirements: str, line: str, nth: int = 0) -> list[tuple[str, str]]:
    """NMS-02's evidence for the nth recommendation or permission of `line` in 4.1."""
    doc = standard(requirements)
    position = next(i for i, s in enumerate(doc.sections) if line in s.text)
    offset = doc.sections[position].text.index(line)
    modal = [m for m in modal_verbs(line) if m.word in ("宜", "可", "可以")][nth]
    return [(e.kind, e.words) for e in recommendation_evidence(doc, position, offset, line, modal)]


def test_a_preference_or_best_effort_is_no_evidence() -> None:
    """ "宜优先采用" → "应优先采用" and "宜尽可能" → "应尽可能" read as ordinary requirements."""
    line = "显示屏宜优先采用LED点阵屏。"
    assert evidence(line, line) == []
    line = "显示屏的功耗宜尽可能降低。"
    assert evidence(line, line) == []
    line = "条件允许时，显示屏宜采用双面屏。"
    assert evidence(line, line) == [(HEDGE, "条件允许时")]


def test_a_later_condition_on_the_option_is_evidence() -> None:
    """ "宜设置语音播报。设置语音播报时，……": once required, the condition no longer selects anything."""
    text = "显示屏宜设置语音播报。设置语音播报时，音量应可调节。"
    line = text
    assert evidence(text, line) == [(PRESUPPOSED, "设置语音播报时")]
    # the condition chooses among listed options: strengthening the choice leaves it meaningful (options
    # in Chinese: a Latin name such as LED is no object this evidence reads, and would not test this)
    listed = "显示屏宜采用液晶屏、点阵屏或投影屏。采用液晶屏时，亮度应可调节。"
    assert evidence(listed, listed) == []
    # a later condition on the same verb but another object does not presuppose this option
    other = "显示屏宜设置语音播报。设置字幕时，字号应可调节。"
    assert evidence(other, other) == []


def test_parallel_clauses_are_siblings_unless_they_are_examples() -> None:
    """ "屏体宜为灰色，面板宜为灰色" lists like provisions; after 如 the clauses only illustrate."""
    for line, found in [
        ("屏体宜为灰色，面板宜为灰色。", [(SIBLING, "面板宜为灰色")]),
        ("屏体宜为灰色，如面板宜为灰色。", []),
        ("界面宜简洁，按钮宜醒目、菜单宜分级。", [(SIBLING, "按钮宜醒目、菜单宜分级")] * 2),
        ("界面宜简洁，如按钮宜醒目、菜单宜分级。", []),
    ]:
        modal = modal_verbs(line)[0]
        assert [(e.kind, e.words) for e in sentence_siblings(line, modal, same_verb=False)] == found, line


def test_nms02_is_skipped_where_only_a_preference_would_carry_it() -> None:
    document = standard("显示屏宜优先采用LED点阵屏。\n屏体应安装牢固。")
    injector = RecommendationStrengthened()
    assert list(injector.sites(document, InjectionContext())) == []
    assert injector.no_site_reason(document, InjectionContext()) == "no_evidence"


def test_nms02_names_the_presupposing_condition_in_its_description() -> None:
    document = standard("显示屏宜设置语音播报。设置语音播报时，音量应可调节。\n屏体应安装牢固。")
    injector = RecommendationStrengthened()
    attempt = injector.inject(Baseline(document), random.Random(0), InjectionContext(), seed=0)
    assert attempt.instance is not None
    description = attempt.instance.description
    assert "“宜设置语音播报”" not in description or "强化为要求" in description
    assert "以“设置语音播报时”为条件另作规定" in description
