"""Whole-document integrity of structural edits, on a standard written here.

A chapter deleted or moved renumbers the headings and, with them, every clause and chapter reference of
the document; a chapter the rest of the document refers to is not deleted; instances are re-checked on
the assembled document and one that no longer holds is replaced.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from injectors.base import Proposal, Site
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement, apply_edits, replay
from injectors.instance import ErrorInstance
from injectors.language.crossrefs import find_crossrefs, unresolved
from injectors.planner import Candidates, PlanConfig, choose, finalize
from injectors.registry import definition, injectors
from parsers.model import Document
from parsers.text import parse_text
from validation.audit.integrity import check_document
from validation.audit.release import AuditDocument, AuditInstance

# written for these tests: references of every kind into the chapters after the one to be deleted
STANDARD = """GB/T 99980—2026
示例恒湿箱 通用技术条件
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出并归口。
1 范围
本文件规定了示例恒湿箱的技术要求、试验方法和检验规则。
本文件适用于实验室用示例恒湿箱的设计、制造和检验。
2 规范性引用文件
下列文件中的内容通过文中的规范性引用而构成本文件必不可少的条款。
GB/T 2423.3—2016　环境试验　第2部分：试验方法　试验Cab：恒定湿热试验
3 术语和定义
下列术语和定义适用于本文件。
3.1
恒湿箱 constant humidity chamber
能在设定湿度下保持箱内相对湿度稳定的试验设备。
3.2
湿度偏差 humidity deviation
箱内实测相对湿度与设定值之差。
4 技术要求
4.1 外观
箱体表面应平整，无划痕和锈蚀。
4.2 湿度偏差
恒湿箱的湿度偏差按5.2测得，应不大于3%RH。
5 试验方法
5.1 外观检查
在自然光下目视检查，结果应符合4.1的规定。
5.2 湿度偏差试验
按GB/T 2423.3—2016规定的条件运行恒湿箱，连续记录30 min，判定见4.2。
5.3 结果记录
按5.1和5.2试验的结果均应记录。
6 检验规则
6.1 出厂检验
每台恒湿箱应按第5章逐项检验，检验项目见5.1～5.3，合格判定按第4章。
"""


def parse(text: str) -> Document:
    return parse_text(Path("integrity.txt"), text.encode())


def removal(document: Document, title: str) -> ErrorInstance:
    """STR-01's own proposal for the chapter with this title, verified as the planner would."""
    injector = injectors()["STR-01"]
    position = next(i for i, s in enumerate(document.sections) if s.title == title and s.level == 1)
    detail = {"规范性引用文件": "references", "术语和定义": "terms"}[title]
    proposal = injector.propose(document, Site(position, detail), random.Random(0), InjectionContext())
    assert proposal is not None
    instance = injector.verify(Baseline(document), proposal, 0).instance
    assert instance is not None
    return instance


def text_of(document: Document, number: str) -> str:
    section = document.section(number)
    assert section is not None
    return section.text


def test_deleting_a_chapter_renumbers_every_reference_to_the_later_ones() -> None:
    document = parse(STANDARD)
    assert not list(unresolved(document))
    instance = removal(document, "规范性引用文件")
    corrupted = apply_edits(document, [instance.edit]).document
    assert [s.number for s in corrupted.sections if s.level == 1][1:] == ["1", "2", "3", "4", "5"]
    assert "按4.2测得" in text_of(corrupted, "3.2")
    assert "应符合3.1的规定" in text_of(corrupted, "4.1")
    assert "判定见3.2" in text_of(corrupted, "4.2")
    assert "按4.1和4.2试验的结果" in text_of(corrupted, "4.3")
    assert text_of(corrupted, "5.1") == "每台恒湿箱应按第4章逐项检验，检验项目见4.1～4.3，合格判定按第3章。"
    assert not list(unresolved(corrupted))
    # each reference still names the heading it named in the original
    titles = {s.number: s.title for s in corrupted.sections}
    before = {s.number: s.title for s in document.sections}
    old = [r.target for s in document.sections[9:] for r in find_crossrefs(s.text) if r.kind == "clause"]
    new = [r.target for s in corrupted.sections[8:] for r in find_crossrefs(s.text) if r.kind == "clause"]
    assert [before[n] for n in old] == [titles[n] for n in new]
    # the standard's own citation "GB/T 2423.3—2016" is not a reference of this document
    assert "GB/T 2423.3—2016规定的条件" in text_of(corrupted, "4.2")


def test_the_audit_finds_no_unexplained_reference_after_a_deletion() -> None:
    count, broken, replayed = check_document(audited_deletion(parse(STANDARD)))
    assert replayed and count == 9
    assert [b for b in broken if b.status == "unexplained"] == []


def test_a_moved_chapter_takes_its_references_along() -> None:
    text = STANDARD.replace("每台恒湿箱应按第5章", "每台恒湿箱（术语见3.1）应按第5章")
    document = parse(text)
    injector = injectors()["STR-02"]
    references = next(i for i, s in enumerate(document.sections) if s.title == "规范性引用文件")
    terms = next(i for i, s in enumerate(document.sections) if s.title == "术语和定义")
    proposal = injector.propose(document, Site(references, ("swap", terms)), random.Random(0), None)  # type: ignore[arg-type]
    assert proposal is not None
    corrupted = apply_edits(document, [proposal.edit]).document
    assert [s.title for s in corrupted.sections if s.number in ("2", "3")] == ["术语和定义", "规范性引用文件"]
    assert "恒湿箱（术语见2.1）应按第5章" in text_of(corrupted, "6.1")
    assert corrupted.section("2.1") is not None and not list(unresolved(corrupted))


def test_a_chapter_the_document_refers_to_is_not_deleted() -> None:
    referred = parse(STANDARD.replace("应不大于3%RH。", "应不大于3%RH（湿度偏差的定义见3.2）。"))
    injector = injectors()["STR-01"]
    terms = next(i for i, s in enumerate(referred.sections) if s.title == "术语和定义")
    context = InjectionContext()
    assert injector.propose(referred, Site(terms, "terms"), random.Random(0), context) is None
    plain = parse(STANDARD)
    position = next(i for i, s in enumerate(plain.sections) if s.title == "术语和定义")
    assert injector.propose(plain, Site(position, "terms"), random.Random(0), context) is not None


def test_a_bracketed_heading_echo_is_renumbered_with_its_heading() -> None:
    text = STANDARD.replace("5.2 湿度偏差试验\n", "5.2 湿度偏差试验\n【5.2 湿度偏差试验】\n")
    document = parse(text)
    assert text_of(document, "5.2").startswith("【5.2 湿度偏差试验】")
    instance = removal(document, "规范性引用文件")
    corrupted = apply_edits(document, [instance.edit]).document
    assert text_of(corrupted, "4.2").startswith("【4.2 湿度偏差试验】\n")
    assert "【5.2" not in "\n".join(s.text for s in corrupted.sections)


def test_replay_of_one_section_agrees_with_the_whole_document() -> None:
    document = parse(STANDARD)
    deletion = removal(document, "规范性引用文件")
    target = next(i for i, s in enumerate(document.sections) if s.number == "6.1")
    edit = Edit("modify", target, (Replacement("text", 0, "", "出厂检验前应预热。"),))
    applied = apply_edits(document, [deletion.edit, edit])
    assert replay(edit, document.sections[target], deletion.edit.renames) == applied.sections[1]
    assert applied.sections[1] is not None and "见4.1～4.3" in applied.sections[1].text


# --- joint re-check in the planner ----------------------------------------------------------------


def term_variant(document: Document, number: str) -> ErrorInstance:
    """A TER-03 instance: "恒湿箱" written as "恒湿试验箱" in one clause, through the type's verification."""
    position = next(i for i, s in enumerate(document.sections) if s.number == number)
    text = document.sections[position].text
    start = text.index("恒湿箱")
    proposal = Proposal(
        Edit("modify", position, (Replacement("text", start, "恒湿箱", "恒湿试验箱"),)),
        "术语“恒湿箱”在此写作“恒湿试验箱”，与第3章界定的术语不一致",
        "将“恒湿试验箱”改为“恒湿箱”",
    )
    instance = injectors()["TER-03"].verify(Baseline(document), proposal, 0).instance
    assert instance is not None
    return instance


def title_change(document: Document) -> ErrorInstance:
    injector = injectors()["STR-03"]
    position = next(i for i, s in enumerate(document.sections) if s.title == "范围")
    proposal = injector.propose(document, Site(position, ("适用范围",)), random.Random(0), InjectionContext())
    assert proposal is not None
    instance = injector.verify(Baseline(document), proposal, 0).instance
    assert instance is not None
    return instance


def candidates(document: Document, instances: list[ErrorInstance]) -> Candidates:
    return Candidates(document, Baseline(document), tuple(instances), {}, {})


def test_an_instance_whose_term_another_deleted_is_replaced() -> None:
    document = parse(STANDARD)
    deletion, variant, spare = (
        removal(document, "术语和定义"),
        term_variant(document, "6.1"),
        title_change(document),
    )
    assert definition("TER-03").premise is not None
    config = PlanConfig(min_errors=2, max_errors=2, types=("STR-01", "STR-03", "TER-03"))
    # STR-03 is the corpus's most used type so far: the planner tries the other two first
    counts = Counter({"STR-03": 5})
    picked = choose(candidates(document, [deletion, variant, spare]), 0, config, counts)
    assert sorted(i.error_type for i in picked) == ["STR-01", "STR-03"]
    assert counts == Counter({"STR-03": 6, "STR-01": 1})  # the dropped TER-03 does not count
    result = finalize(candidates(document, [deletion, variant, spare]), picked)
    assert len(result.instances) == 2
    # without the deletion the same TER-03 holds and is kept
    kept = choose(candidates(document, [variant, spare]), 0, config, Counter({"STR-03": 5}))
    assert sorted(i.error_type for i in kept) == ["STR-03", "TER-03"]


def test_the_audit_judges_joint_validity_with_the_planners_function() -> None:
    from injectors.joint import failure
    from validation.audit.joint import check_document as joint_check

    document = parse(STANDARD)
    deletion, variant = removal(document, "术语和定义"), term_variant(document, "6.1")
    applied = apply_edits(document, [deletion.edit, variant.edit])
    audited = AuditDocument(
        document,
        applied.document,
        tuple(
            AuditInstance(
                i.instance_id, document.doc_id, i.error_type, location, i.original_section, section, i.edit
            )
            for i, location, section in zip(
                (deletion, variant), applied.locations, applied.sections, strict=True
            )
        ),
    )
    failures = joint_check(audited)
    assert [(f.error_type, f.reason) for f in failures] == [
        ("TER-03", "the term '恒湿箱' is no longer defined")
    ]
    located = audited.instances[1]
    assert (
        failure(located, document, applied.document, [], applied.sections[1], applied.renames)
        == failures[0].reason
    )


# --- nothing but the element moves -----------------------------------------------------------------

WITH_ANNEX = (
    STANDARD
    + """附录A
（资料性）
记录表格式
A.1 表头
记录表的表头包括日期、设定湿度和实测湿度。
参考文献
[1] GB/T 2829—2002　周期检验计数抽样程序及表（适用于对过程稳定性的检验）
"""
)


def annex_after_bibliography(document: Document) -> Proposal | None:
    annex = next(i for i, s in enumerate(document.sections) if s.number == "附录A")
    bibliography = next(i for i, s in enumerate(document.sections) if s.kind == "bibliography")
    site = Site(annex, ("after", bibliography))
    return injectors()["STR-02"].propose(document, site, random.Random(0), InjectionContext())


def test_an_annex_is_not_moved_past_the_end_rule_or_the_back_cover() -> None:
    plain = parse(WITH_ANNEX)
    proposal = annex_after_bibliography(plain)
    assert proposal is not None
    moved = apply_edits(plain, [proposal.edit]).document
    assert [s.number for s in moved.sections][-3:] == ["参考文献", "附录A", "A.1"]
    for tail in ("_________________________________", "中国标准出版社出版发行\n版权专有　侵权必究"):
        document = parse(WITH_ANNEX + tail + "\n")
        assert tail.split("\n")[-1] in document.sections[-1].text
        assert annex_after_bibliography(document) is None
    running = parse(WITH_ANNEX.replace("A.1 表头\n", "A.1 表头\nGB/T 99980—2026\n"))
    assert annex_after_bibliography(running) is None


def test_a_description_names_the_clause_by_its_final_number() -> None:
    """STR-04 names the parent clause as 第6.1条, which follows chapter 2's deletion like its location."""
    document = parse(
        STANDARD.replace(
            "合格判定按第4章。\n",
            "合格判定按第4章。\n6.1.1 抽样\n每批抽取2台。\n6.1.2 判定\n全部合格判为合格。\n",
        )
    )
    injector = injectors()["STR-04"]
    position = next(i for i, s in enumerate(document.sections) if s.number == "6.1.2")
    site = Site(position, ("duplicate", (6, 1, 1)))  # one of several duplicate sites the document has
    proposal = injector.propose(document, site, random.Random(0), InjectionContext())
    assert proposal is not None
    duplicate = injector.verify(Baseline(document), proposal, 0).instance
    assert duplicate is not None and "第6.1条下最后一条" in duplicate.description
    deletion = removal(document, "规范性引用文件")
    result = finalize(candidates(document, [deletion, duplicate]), [deletion, duplicate])
    final = next(i for i in result.instances if i.error_type == "STR-04")
    assert (
        final.location == "5.1.1" and "第5.1条下最后一条（原“5.1.2”）与前一条同为“5.1.1”" in final.description
    )


# --- class 6: what a structural edit writes takes the document's punctuation ----------------------


def test_a_lead_paragraph_takes_the_punctuation_of_the_clauses_below_it() -> None:
    """A document whose clauses use ASCII commas gets a 悬置段 with ASCII commas, whatever form it takes."""
    ascii_text = STANDARD.replace(
        "5 试验方法\n5.1 外观检查\n在自然光下目视检查，", "5 试验方法\n5.1 外观检查\n在自然光下目视检查,"
    )
    ascii_text = ascii_text.replace("连续记录30 min，判定", "连续记录30 min,判定")
    injector = injectors()["STR-04"]
    written: dict[bool, set[str]] = {True: set(), False: set()}
    for text, ascii_marks in ((ascii_text, True), (STANDARD, False)):
        document = parse(text)
        chapter = next(i for i, s in enumerate(document.sections) if s.number == "5")
        for seed in range(40):
            proposal = injector.propose(
                document, Site(chapter, ("hanging",)), random.Random(seed), InjectionContext()
            )
            assert proposal is not None
            written[ascii_marks].add(proposal.edit.replacements[0].new)
    assert len(written[True]) >= 4  # several forms, not one stock sentence
    assert any("," in p for p in written[True]) and not any("，" in p for p in written[True])
    assert any("，" in p for p in written[False]) and not any("," in p for p in written[False])


def test_the_reference_forms_a_renumbering_follows() -> None:
    """Every form below points at chapter 4–6 of the standard above; after chapter 2 goes, each names one
    chapter lower, and values (1.5倍, 3.5 m) and other documents' clauses stay as they were."""
    written = (
        "应符合第5.2条的规定；采用5.1的方法，除5.3规定的以外；见5.1至5.3；详见第6章和第4章；"
        "取1.5倍，高3.5 m；GB/T 2423.3—2016的5.2。"
    )
    document = parse(STANDARD.replace("合格判定按第4章。", "合格判定按第4章。" + written))
    instance = removal(document, "规范性引用文件")
    text = text_of(apply_edits(document, [instance.edit]).document, "5.1")
    assert text.endswith(
        "应符合第4.2条的规定；采用4.1的方法，除4.3规定的以外；见4.1至4.3；详见第5章和第3章；"
        "取1.5倍，高3.5 m；GB/T 2423.3—2016的5.2。"
    )


def audited_deletion(document: Document) -> AuditDocument:
    instance = removal(document, "规范性引用文件")
    corrupted = apply_edits(document, [instance.edit]).document
    row = AuditInstance(
        instance.instance_id,
        document.doc_id,
        "STR-01",
        instance.location,
        instance.original_section,
        instance.corrupted_section,
        instance.edit,
    )
    return AuditDocument(document, corrupted, (row,))


def test_a_reference_already_dangling_in_the_original_stays_pre_existing_when_renumbered() -> None:
    document = parse(STANDARD.replace("逐项检验，", "逐项检验（数据项见 6.5-6.7 小节），"))
    assert [r.target for _, r in unresolved(document)] == ["6.5", "6.7"]
    audited = audited_deletion(document)
    assert "数据项见 5.5-5.7 小节" in text_of(audited.corrupted, "5.1")
    _, broken, _ = check_document(audited)
    assert [(b.target, b.status) for b in broken] == [("5.5", "pre-existing"), ("5.7", "pre-existing")]


def test_a_list_of_clauses_is_renumbered_whole_and_a_value_stays() -> None:
    """A list joined by 和 with no citing word before it follows the renumbering in every item (not only
    the one after 和); a decimal value (pH 5.5, 5.2 s) is no clause and neither changes nor blocks it."""
    written = "复检时交替进行 5.1.1、5.1.2和 5.2.1的操作，试液 pH 5.5，间隔 5.2 s。"
    document = parse(STANDARD.replace("合格判定按第4章。", "合格判定按第4章。" + written))
    instance = removal(document, "规范性引用文件")  # verified: nothing blocks it
    text = text_of(apply_edits(document, [instance.edit]).document, "5.1")
    assert text.endswith("复检时交替进行 4.1.1、4.1.2和 4.2.1的操作，试液 pH 5.5，间隔 5.2 s。")


def test_a_table_of_clause_numbers_blocks_the_deletion() -> None:
    table = "\n表1 检验项目\n| 项目 | 试验方法 |\n| 外观 | 5.1 |\n| 湿度偏差 | 5.2.1 |"
    document = parse(STANDARD.rstrip("\n") + table + "\n")
    injector = injectors()["STR-01"]
    position = next(i for i, s in enumerate(document.sections) if s.title == "规范性引用文件")
    proposal = injector.propose(document, Site(position, "references"), random.Random(0), InjectionContext())
    assert proposal is not None
    assert injector.verify(Baseline(document), proposal, 0).failure == "unfollowed_numbers"
