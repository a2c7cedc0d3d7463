"""TER-01/TER-02 material an expert accepts, and NMS-05 notes that are real provisions.

An expert rejected "综合系统" and "数据资源" written as undefined terms (general compounds nobody defines),
an entry "标准问" added to a standard of another narrow field that shares only generic or one-character
words with it, and a note form described as a permission because it said 可被 (a passive, no permission).
Every document here is written by the test.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.registry import injectors
from injectors.types.nms.provision_as_note import note_moves
from injectors.types.ter.editing import at_home, vocabulary
from injectors.types.ter.lexicon import same_lexicon, term_like
from parsers.model import Document, Section
from tests.injectors.types.ter.ter_documents import BODY, TERMS, document

# The device standard says 流量 and 试样 on their own: a sister standard's "采样流量" is made of its words.
DEVICE_BODY = BODY.replace(
    "标定周期不应超过30 d。", "标定周期不应超过30 d。采样单元的流量应稳定，试样不应被污染。"
)
SISTER_TERMS = """3.1 采样流量 sampling flow rate
单位时间内流经采样单元的试样体积。
3.2 自检项 self-test item
采样单元每次自检时检查的项目。
3.3 标志信息 marking information
采样单元标志上给出的内容。"""
SISTER_BODY = "4 要求\n采样流量应可调。自检项应在说明书中列出。标志信息应清晰。"


def _pair(sister_ics: str, sister_ccs: str) -> tuple[Document, InjectionContext]:
    device = document(body=DEVICE_BODY)
    device = replace(device, cover=replace(device.cover, ics="13.040.40", ccs="Z 15"))
    sister = document(terms=SISTER_TERMS, body=SISTER_BODY)
    sister = replace(sister, doc_id="sister", cover=replace(sister.cover, ics=sister_ics, ccs=sister_ccs))
    return device, InjectionContext.from_documents([device, sister])


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("综合系统", False),  # a generic qualifier on a generic head
        ("数据资源", False),
        ("相关要求", False),
        ("有关信息", False),
        ("标准问", False),  # a generic word and a one-character one
        ("电池单体", True),
        ("记录间隔", True),
        ("采样流量", True),
        ("电池管理系统", True),  # a generic head with a technical qualifier of several characters
    ],
)
def test_term_like(term: str, expected: bool) -> None:
    assert term_like(term) is expected


def test_a_narrow_field_is_an_ics_subgroup_or_a_ccs_class() -> None:
    assert same_lexicon("35.240.40", "", "35.240.40", "L 67")
    assert same_lexicon("13.040", "Z 15", "13.030", "Z15")  # the same CCS class
    assert not same_lexicon("35.240", "L 67", "35.240.01", "")  # ICS 35.240 and no class: too broad
    assert not same_lexicon("35.240.40", "A 11", "35.240.40", "L 67")  # the categories differ
    assert not same_lexicon("", "", "", "")


def test_ter02_borrows_only_from_the_same_narrow_field_and_only_term_like_entries() -> None:
    """Class 1: a sister standard of the same ICS subgroup lends "采样流量" (its words are the device
    standard's own), not "自检项" (shared only through a one-character word) nor "标志信息" (a general
    compound); a standard of the same ICS group but another subgroup lends nothing."""
    ter02 = injectors()["TER-02"]
    device, context = _pair("13.040.40", "Z 15")
    borrowed = [s.detail.term for s in ter02.sites(device, context) if hasattr(s.detail, "definition")]
    assert borrowed == ["采样流量"]
    source = next(t for t in context.terms_for(device) if t.entry.term == "采样流量")
    assert at_home(device, source, vocabulary(device)) is not None
    instance = None
    for seed in range(6):
        instance = ter02.inject(Baseline(device), random.Random(seed), context).instance
        if instance is not None and instance.edit.op == "insert":
            break
    assert instance is not None and instance.edit.op == "insert"
    assert "采样流量" in instance.description
    device, broad = _pair("13.040.20", "")  # the same ICS group 13 only
    assert [s for s in ter02.sites(device, broad) if hasattr(s.detail, "definition")] == []


def test_ter01_never_writes_a_general_compound() -> None:
    """Class 1: noun phrases of the document's own definitions are written undefined only when term-like:
    "综合系统" / "数据资源" never (though the body says 综合, 数据, 系统 and 资源), "流量传感器" may be; the
    description says why a reader needs the term defined."""
    terms = TERMS.replace(
        "从被测介质中抽取并输送试样的部件组合。",
        "从被测介质中抽取并输送试样的部件组合，由流量传感器、综合系统和数据资源组成。",
    )
    body = (
        "4 要求\n4.1 采样\n采样单元应每天自检一次，标定周期不应超过30 d。\n"
        "综合评估所用的数据、系统和资源均应在说明书中列出，流量的测量由传感器完成。\n"
        "4.2 标志\n采样单元的标志应符合GB/T 191—2008的规定。"
    )
    doc = document(terms=terms, body=body)
    ter01 = injectors()["TER-01"]
    offered = {o.term for s in ter01.sites(doc, InjectionContext()) for o in s.detail}
    assert offered == {"流量传感器"}
    instance = ter01.inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None
    assert "“流量传感器”" in instance.description and "第3.1条的定义" in instance.description
    assert "读者需要其定义" in instance.description


def test_ter01_borrows_a_term_only_from_the_same_narrow_field() -> None:
    """A sister standard's term replaces a bare head noun only when the sister is of the same narrow
    field; the same ICS group alone (a broad field) lends nothing."""
    body = DEVICE_BODY.replace("采样单元的流量应稳定", "采样时，该流量应稳定")
    device = document(body=body)
    device = replace(device, cover=replace(device.cover, ics="13.040.40", ccs="Z 15"))

    def offered(ics: str) -> set[str]:
        sister = document(terms=SISTER_TERMS, body=SISTER_BODY)
        sister = replace(sister, doc_id="sister", cover=replace(sister.cover, ics=ics, ccs=""))
        context = InjectionContext.from_documents([device, sister])
        return {o.term for s in injectors()["TER-01"].sites(device, context) for o in s.detail}

    assert offered("13.040.40") == {"采样流量"}
    assert offered("13.040.20") == set()


def test_nms05_never_reads_kebei_as_a_permission() -> None:
    """Class 8: "可被" is a passive (what can be done to a thing) and "可分为" a classification, not the
    permission 可: a last sentence whose only modal is such a 可 is no provision, so it is never written
    as a note and called 允许型."""
    lead = "显示屏在字号放大一倍后，页面上的文字和按钮均应完整可见。\n"
    passive = lead + "图片中的文字提供替代文本，且可被读屏软件读出。"
    assert list(note_moves(Section("5.3", "字号", passive, 4, "clause"))) == []
    kinds = lead + "按显示内容的不同，放大方式可分为整体放大和局部放大等。"
    assert list(note_moves(Section("5.3", "字号", kinds, 4, "clause"))) == []
    permitted = lead + "只显示数字的小屏幕可仅放大数字本身。"
    (move,) = note_moves(Section("5.3", "字号", permitted, 4, "clause"))
    assert move.force == "允许"
    required = lead + "放大后的文字不应被按钮遮挡。"
    (move,) = note_moves(Section("5.3", "字号", required, 4, "clause"))
    assert move.force == "要求"


THREE_TERMS = TERMS + "\n3.3 伴热管线 heated line\n将试样从采样单元输送至分析单元并保持其温度的管线。"
THREE_BODY = """4 要求
4.1 采样
采样单元应每天自检一次，标定周期不应超过30 d。伴热管线的温度不应低于120 ℃。
4.2 输送
伴热管线的长度不宜超过30 m。
4.3 标志
采样单元的标志应符合GB/T 191—2008的规定。"""


def test_ter01_takes_out_the_entry_of_a_recurring_technical_term() -> None:
    """The document's own recurring term ("a multi-character technical noun phrase that
    recurs"): the entry of 伴热管线, used in 4.1 and 4.2, is taken out of chapter 3; 标定周期 (used in one
    clause) is not; the entries stay consecutive and the body is untouched."""
    from injectors.edit import apply_edits
    from injectors.types.ter.entry_removal import removable_entries

    doc = document(terms=THREE_TERMS, body=THREE_BODY)
    found = {e.term: e for _, e in removable_entries(doc)}
    assert set(found) == {"采样单元", "伴热管线"}
    assert found["伴热管线"].used_in == ("4.1", "4.2") and found["伴热管线"].renames == ()
    assert found["采样单元"].renames == (("3.2", "3.1"), ("3.3", "3.2"))
    ter01 = injectors()["TER-01"]
    instance = next(
        i
        for seed in range(12)
        if (i := ter01.inject(Baseline(doc), random.Random(seed), InjectionContext()).instance) is not None
        and i.edit.op == "remove"
    )
    term = instance.original_section.title.split(" ")[0]
    assert term in found and f"“{term}”" in instance.description and "读者需要其定义" in instance.description
    applied = apply_edits(doc, [instance.edit]).document
    entries = [
        (s.number, s.title.split(" ")[0]) for s in applied.sections if s.kind == "terms" and s.level == 2
    ]
    assert [n for n, _ in entries] == ["3.1", "3.2"] and term not in {t for _, t in entries}
    body = [s.text for s in applied.sections if s.kind == "clause"]
    assert body == [s.text for s in doc.sections if s.kind == "clause"]


def test_ter01_keeps_entries_a_reader_could_find_elsewhere() -> None:
    """No removal when the lead-in brings in another document's terms (the term may be defined there), nor
    of an entry the text refers to by number (or one before it, which would move it)."""
    from injectors.types.ter.entry_removal import removable_entries

    cited = document(
        terms=THREE_TERMS, body=THREE_BODY, lead_in="GB/T 191—2008界定的以及下列术语和定义适用于本文件。"
    )
    assert list(removable_entries(cited)) == []
    pointed = document(
        terms=THREE_TERMS, body=THREE_BODY.replace("伴热管线的长度", "伴热管线（见3.3）的长度")
    )
    assert list(removable_entries(pointed)) == []
    assert list(removable_entries(document(body=THREE_BODY))) == []  # two entries only: never


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


def llm_writable_cases() -> list[tuple[Document, InjectionContext]]:
    """Documents (with their context) that offer the forms an LLM rewrites: a written term (TER-01, no
    entry or abbreviation to take out) and a borrowed entry (TER-02, a sister standard of the same narrow
    field). The project corpus gives these types entry removals and renamed entries, which leave nothing
    for an LLM to write."""
    terms = TERMS.replace(
        "从被测介质中抽取并输送试样的部件组合。", "从被测介质中抽取并输送试样的部件组合，由流量传感器组成。"
    )
    body = BODY.replace("采样单元应每天自检一次", "采样单元应每天自检一次，流量的测量由传感器完成")
    written = document(terms=terms, body=body)
    device, context = _pair("13.040.40", "Z 15")
    return [(written, InjectionContext()), (device, context)]
