"""Tests of STR-05 附录错误 (Annex error)."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.registry import injectors
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.str.str_documents import (
    FOREWORD,
    FOREWORD_2009,
    SAMPLE,
    edited,
    found,
    locations,
    parse,
)


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


def _annexed(foreword: str, marker: str) -> Document:
    text = f"""T/XX 0001—2025
社区 共享工具柜 技术要求
前言
{foreword}
1 范围
本标准规定了社区共享工具柜的技术要求。
本标准适用于社区共享工具柜。
2 规范性引用文件
本标准没有规范性引用文件。
3 技术要求
柜体应符合附录A的规定。
附录A
（{marker}）
柜体尺寸
A.1 尺寸
柜体高度为1800 mm。
"""
    return parse_text(Path("annexed.txt"), text.encode())


def _str05_rules(document: Document) -> set[str]:
    context = InjectionContext.from_documents([document])
    out = set()
    for seed in range(8):
        a = injectors()["STR-05"].inject(Baseline(document), random.Random(seed), context, seed=seed)
        if a.instance is not None:
            out.add(a.instance.description.rsplit("依据：", 1)[1])
    return out


def test_str05_cites_2009_for_an_undeclared_document_with_2009_markers() -> None:
    document = _annexed("本标准由某协会提出。", "规范性附录")
    assert document.drafting_rules == "unknown"
    assert _str05_rules(document) == {"GB/T 1.1—2009 5.2.7"}


def test_str05_keeps_2020_for_an_undeclared_document_with_2020_markers() -> None:
    document = _annexed("本文件由某协会提出。", "规范性")
    assert document.drafting_rules == "unknown"
    assert _str05_rules(document) == {"GB/T 1.1—2020 9.6"}


def test_an_annex_stating_requirements_is_not_marked_normative() -> None:
    """附录B only "参见"-cited: marking it 规范性 is an error the body shows. Once the annex itself states a
    requirement (记录应保存3年), a reader could take it for normative whatever the citation says: no site."""
    injector = injectors()["STR-05"]
    only_referred = edited(("，相应的温度点见附录B", ""))

    def normative_sites(document: Document) -> list[str]:
        sites = injector.sites(document, InjectionContext())
        return [document.sections[s.target].number for s in sites if s.detail[0] == "normative"]

    assert normative_sites(only_referred) == ["附录B"]
    requiring = edited(("，相应的温度点见附录B", ""), ("记录可保存3年。", "记录应保存3年。"))
    assert normative_sites(requiring) == []
