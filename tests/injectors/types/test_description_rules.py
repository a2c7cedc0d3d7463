"""Descriptions that hold on the corrupted, assembled document: the clause of the declared edition (both
editions for every type, no fallback to the other), fixes computed from the final state, evidence quoted
from the corrupted text, and quotes that cut no word and no standard number.

Fixtures are small standards written for these tests (a made-up road water-depth monitor).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from injectors.base import Site
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.final_descriptions import QUOTE, clipped_quotes, finalized, renumbered
from injectors.instance import ErrorInstance
from injectors.joint import kept_together
from injectors.language.modals import modal_verbs
from injectors.language.quotes import aligned, opening, quote_after, shorten
from injectors.planner import Candidates, finalize
from injectors.registry import definition, definitions
from injectors.taxonomy import EDITION_2009, EDITION_2020, ErrorType
from injectors.types.nms.evidence_siblings import sentence_siblings
from injectors.types.nref.analysis import list_items
from injectors.types.nref.editing import snippet as nref_snippet
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nref.nref_documents import standard
from tests.support.sample_standard import SAMPLE

LEAD_2009 = (
    "下列文件对于本文件的应用是必不可少的。凡是注日期的引用文件，仅注日期的版本适用于本文件。"
    "凡是不注日期的引用文件，其最新版本（包括所有的修改单）适用于本文件。"
)

MONITOR_2009 = f"""GB/T 99903—2012
示例 路面 积水 监测仪
前言
本标准按照GB/T 1.1—2009给出的规则起草。
1 范围
本标准规定了路面积水监测仪的技术要求和试验方法。
本标准适用于城市道路使用的积水监测仪。
2 规范性引用文件
{LEAD_2009}
GB/T 191　包装储运图示标志
3 术语和定义
本标准没有需要界定的术语和定义。
4 技术要求
4.1 测量范围
监测仪的水深测量范围应为0 mm～500 mm。
注：水深读数以毫米表示。
4.2 标志
标志应符合GB/T 191中4.2的规定。
附录A
（资料性附录）
安装记录
A.1 记录
安装记录采用统一的表格。
"""


def parse(text: str, name: str = "monitor.txt") -> Document:
    return parse_text(Path(name), text.encode())


def instances(document: Document, type_id: str, seeds: int = 8) -> list[ErrorInstance]:
    context = InjectionContext.from_documents([document])
    injector = definition(type_id).injector()
    out = []
    for seed in range(seeds):
        attempt = injector.inject(Baseline(document), random.Random(seed), context, seed=seed)
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def cited(instance: ErrorInstance) -> str:
    return instance.description.rsplit("；依据：", 1)[1]


# --- both editions, for every type ---------------------------------------------------------------------
@pytest.mark.parametrize("spec", [d.error_type for d in definitions()], ids=lambda t: t.id)
def test_every_type_has_a_clause_of_each_edition(spec: ErrorType) -> None:
    assert spec.rule.startswith(EDITION_2020 + " ") and spec.rule_2009.startswith(EDITION_2009 + " ")
    for edition in (EDITION_2009, EDITION_2020):
        assert all(rule.startswith(edition + " ") for rule in spec.rules_for(edition)), spec.id


def test_a_row_without_its_2009_clause_is_refused() -> None:
    with pytest.raises(ValueError, match=r"GB/T 1\.1—2009"):
        ErrorType("NMS-09", "NMS", "示例", "Example", "GB/T 1.1—2020 9.2", "", "R", "D")


def test_a_2009_document_s_provision_in_a_note_or_informative_annex_cites_2009_clauses() -> None:
    document = parse(MONITOR_2009)
    assert document.drafting_rules == EDITION_2009
    found = {cited(i): i.description for i in instances(document, "NMS-05")}
    # the note's clause (条文的注和示例) and the informative annex's, never 2020's 9.2
    assert set(found) == {"GB/T 1.1—2009 7", "GB/T 1.1—2009 6.4.1"}, found
    assert "注中" in found["GB/T 1.1—2009 7"] and "资料性附录" in found["GB/T 1.1—2009 6.4.1"]


def test_a_2009_document_s_citation_form_error_cites_the_2009_list_clause() -> None:
    made = instances(parse(MONITOR_2009), "NREF-05")
    assert made and {cited(i) for i in made} == {"GB/T 1.1—2009 6.2.3"}
    spec = definition("NREF-05").error_type
    assert spec.rule_for(EDITION_2020, "lead-in") == "GB/T 1.1—2020 8.6"


# --- NREF-04: the fix is the order the affected entries belong in ----------------------------------------
IN_ORDER = ["GB/T 3100", "GB/T 4208", "GB/T 9969", "GB/T 13384", "QX/T 52"]
GAUGE_LIST = "\n".join(
    f"{n}　{t}"
    for n, t in zip(
        IN_ORDER,
        (
            "国际单位制及其应用",
            "外壳防护等级",
            "工业产品使用说明书",
            "机电产品包装通用技术条件",
            "地面气象观测规范",
        ),
        strict=True,
    )
)
GAUGE_BODY = (
    "5 要求\n5.1 外壳\n传感器外壳应符合GB/T 4208的规定，计量单位应符合GB/T 3100的规定。\n"
    "5.2 说明\n说明书应按GB/T 9969编写，观测应按QX/T 52进行，包装应符合GB/T 13384的规定。"
)


def gauge() -> Document:
    return standard(GAUGE_LIST, GAUGE_BODY)


def verified(document: Document, type_id: str, site: Site) -> ErrorInstance:
    injector = definition(type_id).injector()
    context = InjectionContext.from_documents([document])
    proposal = injector.propose(document, site, random.Random(0), context)
    assert proposal is not None
    instance = injector.verify(Baseline(document), proposal, 0).instance
    assert instance is not None
    return instance


def swapped(document: Document, pair: tuple[int, int]) -> ErrorInstance:
    injector = definition("NREF-04").injector()
    context = InjectionContext.from_documents([document])
    (site,) = [s for s in injector.sites(document, context) if s.detail == pair]
    return verified(document, "NREF-04", site)


def fix_quotes(description: str) -> list[str]:
    return QUOTE.findall(description.split("；修改建议：")[1].split("；依据：")[0])


def listed(document: Document) -> list[str]:
    section = document.section("2")
    assert section is not None
    return [section.text[i.cited.start : i.cited.end].strip() for i in list_items(section)]


@pytest.mark.parametrize("pair", [(0, 1), (0, 2), (0, 4), (1, 3)])
def test_nref04_s_fix_puts_the_list_back_in_order(pair: tuple[int, int]) -> None:
    document = gauge()
    assert listed(document) == IN_ORDER
    instance = swapped(document, pair)
    written = listed(apply_edits(document, [instance.edit]).document)
    told = fix_quotes(instance.description)
    i, j = pair
    if j - i == 1:  # neighbours: "将Y移至X之前" is the whole fix
        assert "移至" in instance.description
    else:  # across other entries: each entry between is named, in the order it belongs in
        assert "移至" not in instance.description and len(told) == j - i + 1
    assert written[:i] + told + written[j + 1 :] == IN_ORDER


def test_nref04_s_description_reads_the_list_as_the_other_errors_left_it() -> None:
    """An entry between the swapped two, removed by an NREF-01 of the same document, is not named."""
    document = gauge()
    order = swapped(document, (0, 4))
    nref01 = definition("NREF-01").injector()
    context = InjectionContext.from_documents([document])
    (removal,) = [s for s in nref01.sites(document, context) if s.detail == 2]  # GB/T 9969
    removed = verified(document, "NREF-01", removal)
    result = finalize(Candidates(document, Baseline(document), (order, removed), {}, {}), [order, removed])
    (final,) = [i for i in result.instances if i.error_type == "NREF-04"]
    assert fix_quotes(final.description) == ["GB/T 3100", "GB/T 4208", "GB/T 13384", "QX/T 52"]
    assert "GB/T 9969" not in final.description


# --- a description holds on the final document ----------------------------------------------------------
def _by_hand(
    document: Document, type_id: str, number: str, old: str, new: str, description: str
) -> ErrorInstance:
    """An instance whose edit replaces `old` in section `number` (types judged by their premise)."""
    from injectors.edit import Edit, Replacement, replay
    from injectors.instance import InjectionProvenance, instance_id

    position = next(k for k, s in enumerate(document.sections) if s.number == number)
    section = document.sections[position]
    edit = Edit("modify", position, (Replacement("text", section.text.index(old), old, new),))
    return ErrorInstance(
        instance_id(document.doc_id, type_id, number, 0, edit),
        document.doc_id,
        type_id,
        number,
        section,
        replay(edit, section),
        edit,
        description,
        InjectionProvenance("rule", "1", 0),
    )


def _outsider(document: Document) -> ErrorInstance:
    """An SCP-03 instance whose rationale quotes the scope sentence "日处理量不大于2 t的处理设备"."""
    return _by_hand(
        document,
        "SCP-03",
        "5.2.2",
        "控制系统宜采用PLC。",
        "控制系统及厨房排风设备宜采用PLC。",
        "错误：第5.2.2条把范围之外的“厨房排风设备”纳入了规定"
        "（范围写明“本文件适用于日处理量不大于2 t的处理设备”）；"
        "修改建议：删去“及厨房排风设备”；依据：GB/T 1.1—2020 8.5",
    )


def test_a_description_quoting_a_sentence_another_error_changed_no_longer_holds() -> None:
    """SCP-03's rationale quotes the scope; the same document's SCP-05 rewrites that scope sentence."""
    document = parse(SAMPLE, "sample.txt")
    outsider = _outsider(document)
    widened = _by_hand(
        document,
        "SCP-05",
        "1",
        "本文件适用于日处理量不大于2 t的处理设备。",
        "本文件适用于处理设备。",
        "错误：第1章“范围”删去了限定语“日处理量不大于2 t的”，适用界限模糊；"
        "修改建议：恢复限定语；依据：GB/T 1.1—2020 8.5",
    )
    assert kept_together(document, [outsider]) == [outsider]  # alone, it holds
    assert kept_together(document, [outsider, widened]) == [widened]  # together, its quote is gone
    _, why = finalized(document, [outsider, widened], apply_edits(document, [outsider.edit, widened.edit]))
    assert why[0] is not None and "本文件适用于日处理量" in why[0] and why[1] is None


def test_quotes_of_what_the_instance_itself_replaced_hold() -> None:
    """ "原为…" quotes the text this error took out: in no final document, and no staleness."""
    document = parse(SAMPLE, "sample.txt")
    own = _by_hand(
        document,
        "SCP-05",
        "1",
        "本文件适用于日处理量不大于2 t的处理设备。",
        "本文件适用于处理设备。",
        "错误：第1章“范围”删去了限定语“日处理量不大于2 t的”，原为“本文件适用于日处理量不大于2 t的处理设备”；"
        "修改建议：恢复限定语；依据：GB/T 1.1—2020 8.5",
    )
    _, why = finalized(document, [own], apply_edits(document, [own.edit]))
    assert why == [None]


def test_a_quoted_heading_follows_the_renumbering() -> None:
    document = parse(SAMPLE, "sample.txt")
    told = "错误：第5.1.2条（“5.2 防护”所述）与“5 个字节”；修改建议：见第5.2条；依据：GB/T 1.1—2020 8.5"
    moved = renumbered(told, [("5.2", "5.3")], document)
    assert "“5.3 防护”" in moved and "第5.3条" in moved
    assert "“5 个字节”" in moved  # a quantity, not a heading of the document


# --- NMS-01/02: evidence is quoted as the corrupted document reads ----------------------------------------
def test_a_sibling_in_the_same_phrase_is_quoted_without_the_changed_modal() -> None:
    line = "设备宜采用交流供电或宜采用直流供电。"
    first, second = modal_verbs(line)
    assert [e.words for e in sentence_siblings(line, second)] == ["设备宜采用交流供电"]
    assert [e.words for e in sentence_siblings(line, first)] == ["宜采用直流供电"]


def test_nms02_s_sibling_evidence_stands_in_the_corrupted_text() -> None:
    text = MONITOR_2009.replace(
        "4.2 标志\n",
        # evidence is a sibling binding the same actor to the same object (the NMS-02 rule): list items
        # under one lead, the same words
        "4.2 清洁\n监测仪的清洁应符合下列规定：\na) 宜每日清洁采样口；\nb) 宜每日清洁采样口。\n4.3 标志\n",
    )
    document = parse(text)
    sibling_quote = re.compile(r"(?:并列的|同一列项中的)“([^”]+)”")
    made = [i for i in instances(document, "NMS-02", seeds=12) if sibling_quote.search(i.description)]
    assert made
    for instance in made:
        corrupted = instance.corrupted_section
        assert corrupted is not None
        sibling = sibling_quote.search(instance.description).group(1)  # type: ignore[union-attr]
        assert sibling.removesuffix("……") in corrupted.text, instance.description
        assert "应" not in sibling, instance.description  # the changed verb is not the evidence


# --- quotes begin and end on words, never inside a standard number ----------------------------------------
LINE = "本部分给出了示例椭圆曲线公钥密码算法的签名流程，签名服务应符合GB/T 30001 —2014的规定。"


def test_a_shortened_quote_never_splits_a_word_jieba_only_guesses() -> None:
    cut = shorten(LINE, 13)
    assert cut.endswith("……") and not cut.removesuffix("……").endswith("公")  # 公钥 stays whole
    assert LINE.startswith(cut.removesuffix("……"))


def test_a_quote_never_ends_inside_a_standard_number() -> None:
    at = LINE.index("应符合")
    quoted = quote_after(LINE, at, at + 3, 12)
    assert quoted.endswith("—2014"), quoted  # not "GB/T 30001 —"
    assert not shorten(LINE[at:], 16).removesuffix("……").endswith(("—", "30001"))
    start = LINE.index("GB/T")
    assert not aligned(LINE, at, start + len("GB/T 30001 —"))
    assert aligned(LINE, at, start + len("GB/T 30001 —2014"))


def test_a_reference_snippet_starts_on_a_whole_standard_number() -> None:
    text = (
        "术语和定义：GB/T 40001—2019、GB/T 40002—2019、GB/T 40003、GB/T 40004—2017、GB/T 40005—2014"
        "界定的以及下列术语和定义适用于本文件。"
    )
    at = text.index("GB/T 40004")
    quoted = nref_snippet(text, at, at + len("GB/T 40004—2017"))
    assert quoted.startswith("…GB/T 4000") and "GB/T 40004—2017" in quoted, quoted  # not "…40002—2019"


def test_the_final_check_refuses_a_quote_cut_through_a_standard_number() -> None:
    told = "错误：第5章（“…30001 —2014的规定”）引用了该文件；修改建议：列出；依据：GB/T 1.1—2020 8.6"
    assert clipped_quotes(told, [LINE]) == ["…30001 —2014的规定"]
    whole = (
        "错误：第5章（“应符合GB/T 30001 —2014的规定”）引用了该文件；修改建议：列出；依据：GB/T 1.1—2020 8.6"
    )
    assert clipped_quotes(whole, [LINE]) == []


def test_the_audit_reports_a_description_the_released_document_no_longer_bears_out() -> None:
    from validation.audit.joint import check_document
    from validation.audit.release import AuditDocument, AuditInstance

    document = parse(SAMPLE, "sample.txt")
    outsider = _outsider(document)
    widened = _by_hand(
        document,
        "SCP-05",
        "1",
        "本文件适用于日处理量不大于2 t的处理设备。",
        "本文件适用于处理设备。",
        "错误：第1章“范围”删去了限定语“日处理量不大于2 t的”；修改建议：恢复限定语；依据：GB/T 1.1—2020 8.5",
    )

    def audited(*instances: ErrorInstance) -> list[str]:
        final = apply_edits(document, [i.edit for i in instances]).document
        read = tuple(
            AuditInstance(
                i.instance_id,
                i.doc_id,
                i.error_type,
                i.location,
                i.original_section,
                i.corrupted_section,
                i.edit,
                i.description,
            )
            for i in instances
        )
        return [f.error_type + ": " + f.reason for f in check_document(AuditDocument(document, final, read))]

    assert audited(outsider) == []
    (reason,) = audited(outsider, widened)
    assert reason.startswith("SCP-03: its description quotes")


def test_a_definition_s_opening_keeps_its_number_whole() -> None:
    assert opening("北京时间08:00:00至20:00:00的时段。", 6) == "北京时间08:00:00……"
    assert opening("按GB/T 30001—2014规定的方法。", 6) == "按GB/T 30001—2014……"
    assert opening("简短定义。", 6) == "简短定义。"  # whole: no ellipsis


def test_a_value_the_quote_reaches_is_quoted_whole() -> None:
    line = "插槽的深度应不小于 1.2mm，宽度应与卡匹配。"
    at = line.index("应不")
    assert quote_after(line, at, at + 1, 8) == "应不小于 1.2mm"
