"""Tests of NMS-05 条款位于非条款位置 (Provision in a non-provision place)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nms.nms05_provision_in_informative_place import (
    TERM_NOTE,
    ProvisionInInformativePlace,
    statement_anchor,
)
from injectors.types.nms.provision_as_note import NoteMove
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nms.nms_documents import STATEMENTS_AND_CLAUSES, found, locker_document, standard


def test_provisions_in_informative_places() -> None:
    assert found(standard("柜门应具有防夹功能。\n注：格口应按尺寸分为大、中、小三类。"), "NMS-05") == ["4.1"]
    assert found(standard("柜门应具有防夹功能。\n注：格口尺寸可能因厂家而异。"), "NMS-05") == []
    assert found(standard("柜门应具有防夹功能。\n示例：大格口宜用于生鲜快件。"), "NMS-05") == ["4.1"]
    assert found(standard("柜门应具有防夹功能。\n示例：该格口可以命名为A01。"), "NMS-05") == []
    assert found(standard("柜门应具有防夹功能。", annex="取件码应为6位数字。"), "NMS-05") == ["附录A"]
    assert found(standard("柜门应具有防夹功能。", annex="取件码宜为6位数字。"), "NMS-05") == []
    assert found(standard("柜门应具有防夹功能。", foreword="执行本文件时，还应符合有关规定。"), "NMS-05") == [
        "前言"
    ]


def test_scope_and_definitions_belong_to_other_types() -> None:
    doc = standard("柜门应具有防夹功能。")
    assert found(doc, "NMS-05") == []  # "本文件起草单位：宜宾…" and the scope are not reported
    scope = doc.section("1")
    assert scope is not None and "规定了" in scope.text


def test_nms05_adds_no_sentence_of_its_own(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    """NMS-05 once added one of three stock 前言 sentences. Now it writes only the form
    of the error (a modal verb, or "注：" before a real provision of the clause), and both forms occur."""
    forms = set()
    for doc in corpus_documents:
        for seed in range(3):
            instance = (
                ProvisionInInformativePlace()
                .inject(Baseline(doc), random.Random(f"{seed}:n"), context)
                .instance
            )
            assert instance is not None
            (replacement,) = instance.edit.replacements
            assert replacement.old in ("", "通常", "不") or replacement.old in replacement.new
            added = replacement.new.replace(replacement.old, "", 1) if replacement.old else replacement.new
            assert regex.fullmatch(r"\n?注[：:]|不?[应宜可]", added), added
            forms.add("note" if "注" in added else "modal")
            assert instance.original_section.kind != "foreword"
    assert forms == {"note", "modal"}


def test_nms05_offers_clauses_as_notes_less_often_than_its_other_places() -> None:
    """Nearly every clause's last provision could become a note; a statement of a 注 exists only where
    the document has one. Where it has, the clauses offered as notes are no more than half as many as the
    other places (one beside a single note), so that "注：" before a provision is not what marks the type."""
    clauses = "\n".join(
        f"4.{k} 要求{k}\n格口{k}的门板应采用金属材料。\n格口{k}的开启力不应大于{k + 40} N。"
        for k in range(1, 7)
    )
    body = f"格口应能自动锁闭。\n注：格口的尺寸由运营方确定。\n{clauses}"
    document = standard(body)
    sites = list(ProvisionInInformativePlace().sites(document, InjectionContext.from_documents([document])))
    kinds = Counter(type(o).__name__ for s in sites for o in s.detail[:1])
    assert kinds["Statement"] >= 1
    assert 1 <= kinds["NoteMove"] <= max(1, kinds["Statement"] // 2)
    only_moves = standard(clauses)
    moves = list(
        ProvisionInInformativePlace().sites(only_moves, InjectionContext.from_documents([only_moves]))
    )
    assert len(moves) >= 4  # without another place, every clause that can be demoted is offered


def anchor(line: str) -> str | None:
    found = statement_anchor(line, 0)
    return None if found is None else line[found[0] :]


def test_a_later_clause_with_its_own_subject_is_a_place() -> None:
    """ "X是约定的字段，此处按其通常含义解析": the first clause explains, the second says what is done."""
    line = "Accept是接口约定的首部字段，此处按照其通常含义进行解析。"
    assert anchor(line) == "按照其通常含义进行解析。"


@pytest.mark.parametrize(
    "line",
    [
        "为此本文件对采集终端与汇聚平台之间的数据接口进行规定。",  # the document telling what it does
        "编码字段的取值范围和允许对该范围内的取值进行合法变换的规定。",  # a noun phrase
        "每个部件通常在装配关系中都承担着某种功能。",  # a description of what happens
        "长数据包信道的应用在不断深化。",  # a process under way
        "扩充内容主要集中在报文头和校验位两处。",  # 在 is the verb's complement
        "判定温度读数为无效。",  # an act, not a subject
        "批号在同一产品目录中是唯一的。",  # where something is
    ],
)
def test_no_place_for_a_modal(line: str) -> None:
    assert anchor(line) is None


@pytest.mark.parametrize(
    ("line", "rest"),
    [
        ("安装记录采用统一的表格。", "采用统一的表格。"),
        ("校验码由接收装置计算出来。", "由接收装置计算出来。"),
    ],
)
def test_a_noun_subject_takes_the_modal(line: str, rest: str) -> None:
    assert anchor(line) == rest


def test_a_prepositional_phrase_is_no_subject() -> None:
    """ "系统向收件人发送取件码": 应 belongs before 向, so the statement is left alone."""
    assert anchor("快递员投递后，系统向收件人发送取件码。") is None


def test_a_clause_continuing_the_sentence_s_subject_is_no_place() -> None:
    """ "监测已从单一要素，发展到覆盖水位、水质等要素": "发展到" is no subject of its own."""
    assert anchor("随着技术的进步，自动监测已从单一的水位监测，发展到覆盖水位、水质等要素的监测。") is None


TEXT = """GB/T 99906—2025
社区 快递 智能柜 投递要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了社区快递智能柜的投递要求。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
下列术语和定义适用于本文件。
3.1
投递口 delivery slot
柜体正面供快递员放入包裹的开口。
注：投递口的宽度按常见包裹尺寸设置。
3.2
取件码 pickup code
收件人开启格口所用的一次性数字串。
注：主要包括六位或八位数字。
4 投递要求
4.1 固定
柜体应采用膨胀螺栓固定在地面上。
注：膨胀螺栓的规格按柜体质量选用。
4.2 通知
投递完成后系统应向收件人发送取件码。
"""


def document() -> Document:
    return parse_text(Path("term-notes.txt"), TEXT.encode())


def test_a_term_entry_note_is_its_own_form_and_a_clause_note_stays_a_note() -> None:
    doc = document()
    baseline = Baseline(doc)
    context = InjectionContext.from_documents([doc])
    injector = ProvisionInInformativePlace()
    seen: dict[str, Counter[str]] = {}
    for seed in range(30):
        attempt = injector.inject(baseline, random.Random(f"{seed}:t"), context, seed=seed)
        assert attempt.instance is not None
        instance = attempt.instance
        seen.setdefault(instance.location, Counter())[instance.provenance.form or ""] += 1
        if instance.location == "3.1":
            assert instance.description.startswith("错误：第3.1条术语条目的注中写入了"), instance.description
            assert "按常见包裹尺寸设置" in instance.description
    assert set(seen["3.1"]) == {TERM_NOTE}, seen
    assert "3.2" not in seen, seen  # "注：主要包括…" has no subject: "主要应包括" is no sentence
    assert set(seen["4.1"]) == {"注"}, seen
    assert TERM_NOTE in injector.forms


def test_nms05_offers_clauses_as_notes_at_most_half_as_often_as_informative_places() -> None:
    doc = locker_document(STATEMENTS_AND_CLAUSES)
    sites = list(ProvisionInInformativePlace().sites(doc, InjectionContext.from_documents([doc])))
    moves = [s for s in sites if all(isinstance(o, NoteMove) for o in s.detail)]
    statements = [s for s in sites if s not in moves]
    assert len(statements) == 2
    assert len(moves) == 1, [doc.sections[s.target].number for s in moves]
