"""NMS-05 on a term entry's note: the entry is the definitions element, a place of its own beside a
clause's note, so the note of a term entry is recorded as its own form and described as the entry's."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nms.nms05_provision_in_informative_place import (
    TERM_NOTE,
    ProvisionInInformativePlace,
)
from parsers.model import Document
from parsers.text import parse_text

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
