"""Tests of TER-01 使用未定义术语 (Undefined term used)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import regex

from injectors.base import Injector, _sites
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.language.terms import defined_terms, words
from injectors.planner import PlanConfig, candidate_instances
from injectors.registry import injectors
from injectors.types.ter.editing import at_home, vocabulary
from injectors.types.ter.lexicon import term_like
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import (
    BODY,
    DEVICE_BODY,
    FOREWORD_2009,
    SEEDS,
    SISTER_BODY,
    SISTER_TERMS,
    TERMS,
    THREE_BODY,
    THREE_TERMS,
    document,
    injected,
)


def test_ter01_terms_come_from_the_documents_own_world(
    corpus_documents: list[Document],
    context: InjectionContext,
    ter_injectors: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where no entry or abbreviation can be taken out nor spelled-out name (hidden here, so that the
    corpus shows the written form), TER-01 writes a term-like noun phrase of the document's own
    definitions, or a term of a document of its narrow field; never made-up initials ("CCC"); its
    qualifier is already said in the same line (the term names what the text says); and no written
    term is written into two documents."""
    import injectors.types.ter.ter01_undefined_term_used as ter01

    monkeypatch.setattr(ter01, "removable_entries", lambda document: iter(()))
    monkeypatch.setattr(ter01, "abbreviation_entries", lambda document: iter(()))
    monkeypatch.setattr(ter01, "spelled_out", lambda document: iter(()))
    _sites.cache_clear()  # sites found before (with the entries) must not answer, nor these after
    try:
        _written_terms(corpus_documents, context, ter_injectors["TER-01"])
    finally:
        _sites.cache_clear()


def _written_terms(corpus_documents: list[Document], context: InjectionContext, injector: Injector) -> None:
    writers: dict[str, set[str]] = {}
    for doc in corpus_documents:
        own = "".join(e.definition for e in defined_terms(doc))
        vocab = vocabulary(doc)
        fitting = {t.entry.term for t in context.terms_for(doc) if at_home(doc, t, vocab) is not None}
        sites = list(injector.sites(doc, context))
        kinds = {type(o).__name__ for site in sites for o in site.detail}
        assert kinds <= {"ForeignTerm", "AbbreviationEntry", "RemovedEntry"}
        for seed in SEEDS:
            _, instance = injected(injector, doc, context, seed)
            if instance is None or instance.edit.op == "remove":  # an entry taken out: nothing written
                continue
            (r,) = instance.edit.replacements
            if not r.new:  # an abbreviation's line taken out of 缩略语: nothing is written
                assert instance.original_section.kind == "symbols"
                continue
            assert not regex.search(r"[A-Z]{2}", r.new), r.new
            assert r.new in own or r.new in fitting, (doc.source, r.new)
            assert term_like(r.new), r.new
            body = "".join(s.text for s in doc.sections if s.kind in ("clause", "annex"))
            assert all(w in body for w in words(r.new[: -len(r.old)])), r.new
            writers.setdefault(r.new, set()).add(doc.doc_id)
    assert writers  # "电池单体" in the battery-storage standard
    assert all(len(docs) == 1 for docs in writers.values()), writers


def test_ter01_takes_a_used_abbreviation_out_of_the_list(ter_injectors: dict) -> None:
    """The abbreviation form of TER-01 leaves the body as written; only a listed abbreviation
    the body uses, and not spelled out in the body, is taken out of 缩略语."""
    symbols = (
        "4 缩略语\n下列缩略语适用于本文件。\nRTU：远程终端单元（Remote Terminal Unit）\nPLC：可编程逻辑控制器"
    )
    body = (
        BODY.replace("4 要求", symbols + "\n5 要求")
        .replace("4.1 采样", "5.1 采样")
        .replace("4.2 标志", "5.2 标志")
    )
    body = body.replace("采样单元应每天自检一次", "采样单元应每天通过RTU自检一次")
    doc = document(body=body)
    injector = ter_injectors["TER-01"]
    entries = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail]
    assert [(e.abbreviation, e.used_in) for e in entries] == [("RTU", "5.1")]  # PLC is used nowhere
    instance = injector.inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None and instance.location == "4"
    assert "RTU" not in instance.corrupted_section.text and "PLC" in instance.corrupted_section.text
    assert "“RTU”" in instance.description and "5.1" in instance.description
    spelled = document(body=body.replace("通过RTU自检", "通过远程终端单元（RTU）自检"))
    assert not [o for s in injector.sites(spelled, InjectionContext()) for o in s.detail]


SYMBOLS = (
    "4 符号和缩略语\n下列符号和缩略语适用于本文件。\n"
    "RTU：远程终端单元（Remote Terminal Unit）\nrmin：最小转弯半径\nUa：供电电压"
)


def _with_symbols(uses: str) -> Document:
    body = (
        BODY.replace("4 要求", SYMBOLS + "\n5 要求")
        .replace("4.1 采样", "5.1 采样")
        .replace("4.2 标志", "5.2 标志")
        .replace("采样单元应每天自检一次", f"采样单元应每天通过RTU自检一次，{uses}")
    )
    return document(body=body)


def test_ter01_never_takes_a_symbol_out_of_the_list(ter_injectors: dict) -> None:
    """A quantity symbol is no abbreviation, and the body introduces it where it is used: "rmin" taken out
    of a symbols list and described as a 缩略语 shows no error. Only "RTU" is a site."""
    doc = _with_symbols("转弯半径不应小于rmin，供电电压为Ua")
    injector = ter_injectors["TER-01"]
    entries = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail]
    assert [e.abbreviation for e in entries] == ["RTU"]
    explained = _with_symbols("式中：RTU——远程终端单元")
    assert not [o for s in injector.sites(explained, InjectionContext()) for o in s.detail]
    symbols_only = document(
        body=BODY.replace("4 要求", "4 符号\nRTU：远程终端单元\nPLC：可编程逻辑控制器\n5 要求")
        .replace("4.1 采样", "5.1 采样")
        .replace("4.2 标志", "5.2 标志")
        .replace("采样单元应每天自检一次", "采样单元应每天通过RTU自检一次")
    )
    assert not [o for s in injector.sites(symbols_only, InjectionContext()) for o in s.detail]


ENTRIES = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 隐私保护 privacy protection
为保护隐私而实施的各项措施。
3.3 标定周期 calibration interval
相邻两次标定之间的时间间隔。
3.4 零点漂移 zero drift
无输入时输出值随时间的缓慢变化。"""


USES = """4 要求
4.1 采样
采样单元应每天自检一次，标定周期不应超过30 d，零点漂移不应超过1%，隐私保护措施应有记录。
4.2 标志
采样单元的标志应符合GB/T 191—2008的规定，隐私保护措施应在标志中说明。
4.3 校准
每个标定周期结束时应记录零点漂移。"""


def test_ter01_removes_only_technical_entries_and_is_located_at_the_terms_chapter(
    ter_injectors: dict,
) -> None:
    """ "隐私保护" (defined as 为保护隐私而实施的各项措施) is understood from its words: its missing entry is
    no error. The instance is located at chapter 3, which lacks the entry, not at a number that now holds
    the next entry or no longer exists."""
    doc = document(terms=ENTRIES, body=USES)
    injector = ter_injectors["TER-01"]
    terms = {o.term for s in injector.sites(doc, InjectionContext()) for o in s.detail}
    assert "隐私保护" not in terms and {"采样单元", "标定周期", "零点漂移"} <= terms
    for seed in range(6):
        instance = injector.inject(Baseline(doc), random.Random(seed), InjectionContext(), seed=seed).instance
        assert instance is not None and instance.edit.op == "remove"
        assert instance.location == "3"


SPELLED = """4 要求
4.1 通信
采样单元应通过虚拟专用网络（VPN）向中心站传送数据，VPN的密钥应每月更换。
4.2 校验
数据帧应采用16位循环冗余码（CRC16）校验，附件服务器端口（TCP）应可配置。
4.3 标志
采样单元的标志应符合GB/T 191—2008的规定。"""


def test_ter01_takes_away_the_name_an_abbreviation_is_spelled_out_with(ter_injectors: dict) -> None:
    """ "通过虚拟专用网络（VPN）" becomes "通过VPN": the abbreviation now stands undefined at that clause,
    which is where the instance is located. Never a bracket that names a kind of thing ("端口（TCP）"), a
    name cut after a measure word ("16位循环冗余码（CRC16）"), nor an abbreviation explained elsewhere."""
    doc = document(body=SPELLED)
    injector = ter_injectors["TER-01"]
    options = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail]
    assert [(o.abbreviation, o.name) for o in options if hasattr(o, "name")] == [("VPN", "虚拟专用网络")]
    instance = injector.inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None and instance.provenance.form == "expansion_removed"
    assert instance.location == "4.1"
    assert "应通过VPN向中心站传送数据" in instance.corrupted_section.text
    assert "“通过VPN”" in instance.description and "虚拟专用网络（VPN）" in instance.description
    listed = document(body=SPELLED.replace("4 要求", "4 缩略语\nVPN：虚拟专用网络\n5 要求"))
    assert not [o for s in injector.sites(listed, InjectionContext()) for o in s.detail if hasattr(o, "name")]
    explained = document(body=SPELLED + "\n注：VPN——虚拟专用网络。")
    assert not [
        o for s in injector.sites(explained, InjectionContext()) for o in s.detail if hasattr(o, "name")
    ]


GROUPED = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 标准溶液
3.2.1 低浓度标准溶液 low standard solution
浓度为量程10%的标准溶液。
3.2.2 高浓度标准溶液 high standard solution
浓度为量程90%的标准溶液。
3.3 零点漂移 zero drift
无输入时输出值随时间的缓慢变化。"""


def test_ter01_takes_only_the_last_entry_of_a_grouped_terms_chapter(ter_injectors: dict) -> None:
    """Entries grouped under a heading ("3.2 标准溶液", then 3.2.1, 3.2.2) cannot move up one by one: only
    the last entry, whose removal renumbers nothing, may go."""
    body = USES.replace("标定周期不应超过30 d，", "")
    doc = document(terms=GROUPED, body=body)
    injector = ter_injectors["TER-01"]
    removed = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail if hasattr(o, "renames")]
    assert [(o.term, o.renames) for o in removed] == [("零点漂移", ())]


def test_ter01_spells_out_only_at_the_first_use_and_reads_names_jieba_joins(ter_injectors: dict) -> None:
    """A bracket after a bare use ("…VPN…" in 4.1, "虚拟专用网络（VPN）" in 4.2) is no first use: the
    original already used the abbreviation undefined, so it is no site. A name jieba joins into fewer
    words than letters ("统一/建模语言" for UML) is read back to the clause verb before it."""
    injector = ter_injectors["TER-01"]
    late = document(
        body=SPELLED.replace("采样单元应通过虚拟专用网络（VPN）", "采样单元应通过VPN").replace(
            "VPN的密钥应每月更换", "虚拟专用网络（VPN）的密钥应每月更换"
        )
    )
    assert not [o for s in injector.sites(late, InjectionContext()) for o in s.detail if hasattr(o, "name")]
    joined = document(
        body=SPELLED.replace("4.3 标志", "4.3 模型\n数据结构应采用统一建模语言（UML）描述。\n4.4 标志")
    )
    names = {
        o.abbreviation: o
        for s in injector.sites(joined, InjectionContext())
        for o in s.detail
        if hasattr(o, "name")
    }
    assert names["UML"].name == "统一建模语言" and names["UML"].before == "采用"
    # "可扩展标记语言（XML）": the one-character "可" before three words is the name's own, not a verb
    own = document(
        body=SPELLED.replace("4.3 标志", "4.3 交换\n交换文件应采用可扩展标记语言（XML）编码。\n4.4 标志")
    )
    assert "XML" not in {
        o.abbreviation
        for s in injector.sites(own, InjectionContext())
        for o in s.detail
        if hasattr(o, "name")
    }


def test_ter01_never_takes_out_a_word_every_reader_knows(ter_injectors: dict) -> None:
    """ "保密性" is a word of the general language (jieba's dictionary counts it often): its missing entry
    is no error a reviewer points at, however often the body uses it."""
    terms = ENTRIES.replace(
        "3.2 隐私保护 privacy protection\n为保护隐私而实施的各项措施。",
        "3.2 保密性 confidentiality\n信息只向获准的主体公开的性质。",
    )
    body = USES.replace("隐私保护措施", "保密性")
    doc = document(terms=terms, body=body)
    removed = {o.term for s in ter_injectors["TER-01"].sites(doc, InjectionContext()) for o in s.detail}
    assert "保密性" not in removed and "零点漂移" in removed


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


def test_ter01_takes_out_the_entry_of_a_recurring_technical_term() -> None:
    """The document's own recurring term ("a multi-character technical noun phrase that
    recurs"): the entry of 伴热管线, used in 4.1 and 4.2, is taken out of chapter 3; 标定周期 (used in one
    clause) is not; the entries stay consecutive and the body is untouched."""
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


# entries the body uses in two clauses each, a 缩略语 list whose "RTU" the body uses, and one
# abbreviation spelled out where the body first uses it ("虚拟专用网络（VPN）")
FORMS_TERMS = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 标定周期 calibration interval
相邻两次标定之间的时间间隔。
3.3 零点漂移 zero drift
无输入时输出值随时间的缓慢变化。
3.4 量程漂移 span drift
输入量程值时输出值随时间的缓慢变化。
3.5 滤芯组件 filter assembly
截留试样中颗粒物的可更换部件组合。
3.6 反吹气路 back-flush line
以压缩空气反向清洗采样探头的管路。"""
FORMS_BODY = """4 缩略语
下列缩略语适用于本文件。
RTU：远程终端单元（Remote Terminal Unit）
5 要求
5.1 采样
采样单元应每天通过RTU自检一次，标定周期不应超过30 d，滤芯组件应每月更换，反吹气路应保持畅通。
5.2 通信
采样单元应通过虚拟专用网络（VPN）向中心站传送数据，VPN的密钥应每月更换。
5.3 校准
每个标定周期结束时应记录零点漂移和量程漂移，滤芯组件更换后应检查反吹气路的压力。
5.4 维护
零点漂移或量程漂移超过限值时，应停机检查。"""


@pytest.fixture(scope="module")
def ter01() -> Injector:
    return injectors()["TER-01"]


def _forms(injector: Injector, doc: Document) -> list[str]:
    """The form of each site's options, in site order."""
    out = []
    for site in injector.sites(doc, InjectionContext()):
        option = site.detail[0]
        out.append(
            "entry"
            if hasattr(option, "renames")
            else "expansion"
            if hasattr(option, "name")
            else "abbreviation"
        )
    return out


def test_a_long_terms_chapter_offers_no_more_removals_than_the_other_slips(ter01: Injector) -> None:
    """Five removable entries (the sixth, "反吹气路", is no technical compound to jieba) beside one 缩略语
    list and one spelled-out name: drawn site by site, the removals would take five draws in seven; they
    are thinned to as many as the other sites, spread through the chapter.
    Without another form, every removable entry stays a site."""
    doc = document(terms=FORMS_TERMS, body=FORMS_BODY)
    forms = _forms(ter01, doc)
    assert forms.count("abbreviation") == 1 and forms.count("expansion") == 1
    assert forms.count("entry") == 2
    removed = [
        s.detail[0].term for s in ter01.sites(doc, InjectionContext()) if hasattr(s.detail[0], "renames")
    ]
    assert removed == ["采样单元", "零点漂移"]  # the first and the middle of the chapter, not its first two
    alone = document(
        terms=FORMS_TERMS,
        body=FORMS_BODY.replace("通过RTU", "")
        .replace("虚拟专用网络（VPN）", "专用网络")
        .replace("VPN的密钥", "网络密钥")
        .replace("4 缩略语\n下列缩略语适用于本文件。\nRTU：远程终端单元（Remote Terminal Unit）\n", ""),
    )
    assert _forms(ter01, alone) == ["entry"] * 5


def test_the_planner_is_offered_every_form_a_document_has(ter01: Injector) -> None:
    """A document that offers all three forms gives the corpus-wide choice a candidate of each, so that a
    form other documents took already can give way to another here."""
    doc = document(terms=FORMS_TERMS, body=FORMS_BODY)
    candidates = candidate_instances(doc, 0, InjectionContext(), PlanConfig(types=("TER-01",)))
    forms = {i.provenance.form for i in candidates.instances}
    assert forms == {"entry_removed", "abbreviation_removed", "expansion_removed"}


def _instance_of(injector: Injector, doc: Document, form: str) -> str:
    for seed in range(40):
        instance = injector.inject(Baseline(doc), random.Random(seed), InjectionContext(), seed=seed).instance
        if instance is not None and instance.provenance.form == form:
            return instance.description
    raise AssertionError(f"no {form} instance")


@pytest.mark.parametrize(
    ("foreword", "entry_clause", "abbreviation_clause"),
    [
        (None, "GB/T 1.1—2020 8.7", "GB/T 1.1—2020 8.8"),
        (FOREWORD_2009, "GB/T 1.1—2009 6.3.2", "GB/T 1.1—2009 6.3.3"),
    ],
)
def test_an_abbreviation_form_cites_the_clause_of_its_element(
    ter01: Injector, foreword: str | None, entry_clause: str, abbreviation_clause: str
) -> None:
    """An abbreviation is explained under 符号和缩略语 (2009: 符号、代号和缩略语), a clause of its own in
    both editions: a missing 缩略语 line or spelled-out name cites it, a missing term entry the terms
    clause."""
    doc = document(terms=FORMS_TERMS, body=FORMS_BODY, **({"foreword": foreword} if foreword else {}))
    assert _instance_of(ter01, doc, "entry_removed").endswith(f"依据：{entry_clause}")
    for form in ("abbreviation_removed", "expansion_removed"):
        assert _instance_of(ter01, doc, form).endswith(f"依据：{abbreviation_clause}"), form


def _spelled(injector: Injector, line: str) -> list[str]:
    doc = document(body=f"4 要求\n4.1 标签\n{line}\n4.2 标志\n采样单元的标志应符合GB/T 191—2008的规定。")
    return [o.old for s in injector.sites(doc, InjectionContext()) for o in s.detail if hasattr(o, "name")]


def test_a_spelled_out_name_is_taken_only_where_it_is_a_name_nobody_knows_without_it(ter01: Injector) -> None:
    """ "便携式文档格式（PDF）" → "PDF" leaves nothing a reader looks up; "宜采用射频识别（RFID）" at a
    line's start is a clause, whose modal and verb are no part of the name (taking them away would break
    the sentence). A name of its own is still taken ("无线射频识别（RFID）")."""
    assert _spelled(ter01, "检测报告宜以电子文件保存，文件格式为便携式文档格式（PDF），并应加盖签章。") == []
    assert _spelled(ter01, "宜采用射频识别（RFID）标签标明每个采样单元的编号和安装日期。") == []
    assert _spelled(ter01, "采样单元宜采用无线射频识别（RFID）标签标明编号和安装日期。") == [
        "无线射频识别（RFID）"
    ]


def test_the_quote_of_a_bare_abbreviation_starts_on_a_word_a_reader_can_find(ter01: Injector) -> None:
    """After a one-character word ("的", "与") the quote reaches back to the clause's start ("命名空间的URI",
    not "的URI"); after a word of its own it starts there ("设置RCD")."""
    doc = document(
        body="4 要求\n4.1 编码\n交换文件中，命名空间的统一资源标识符（URI）应保持长期不变。\n"
        "4.2 保护\n每个采样回路应设置剩余电流保护装置（RCD），RCD的动作电流不应大于30 mA。"
    )
    quotes = {}
    for seed in range(20):
        instance = ter01.inject(Baseline(doc), random.Random(seed), InjectionContext(), seed=seed).instance
        assert instance is not None and instance.provenance.form == "expansion_removed"
        quotes[instance.location] = instance.description
    assert "（“命名空间的URI”）" in quotes["4.1"] and "（“设置RCD”）" in quotes["4.2"]
