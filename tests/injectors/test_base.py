"""What the Injector base class decides for every type: here, a renumbering the text would not follow."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from injectors.base import UNFOLLOWED, Proposal
from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import Edit
from injectors.registry import injectors
from parsers.model import Document
from parsers.text import parse_text

# written for these tests: a 2020 standard whose inspection table names the test clauses of chapter 5
TESTED = """GB/T 99981—2026
示例计时器 通用技术条件
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出并归口。
1 范围
本文件规定了示例计时器的技术要求和试验方法。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
4.1 外观
表面应平整，无划痕。
4.2 走时误差
日走时误差应不大于0.5 s。
5 试验方法
5.1 外观检查
5.1.1 目视
在自然光下目视检查。
5.2 走时误差试验
5.2.1 连续运行
连续运行24 h，记录误差。
6 检验规则
每台计时器应逐项检验，检验项目见表1。
表1 检验项目
| 项目 | 试验方法 |
| 外观 | 5.1.1 |
| 走时误差 | 5.2.1 |
"""


def parse(text: str) -> Document:
    return parse_text(Path("base.txt"), text.encode())


def chapter_removal(document: Document, number: str) -> Proposal:
    position = next(i for i, s in enumerate(document.sections) if s.number == number)
    later = sorted(
        {int(s.number) for s in document.sections if s.number.isdigit() and int(s.number) > int(number)}
    )
    renames = tuple((str(n), str(n - 1)) for n in later)
    return Proposal(Edit("remove", position, renames=renames), "缺少第2章", "恢复第2章")


def test_a_renumbering_the_table_would_not_follow_is_refused_with_its_reason() -> None:
    injector = injectors()["STR-01"]
    document = parse(TESTED)
    verdict = injector.verify(Baseline(document), chapter_removal(document, "2"), 0)
    assert verdict.instance is None and verdict.failure == UNFOLLOWED
    # the same table naming values and no clause numbers leaves the deletion free
    plain = parse(TESTED.replace("| 5.1.1 |", "| 目测 |").replace("| 5.2.1 |", "| ≤0.5 s |"))
    assert injector.verify(Baseline(plain), chapter_removal(plain, "2"), 0).instance is not None


def test_the_type_takes_another_site_or_reports_the_reason() -> None:
    injector = injectors()["STR-01"]
    context = InjectionContext()
    taken = injector.inject(Baseline(parse(TESTED)), random.Random(0), context)
    assert taken.instance is not None and taken.instance.location == "前言"
    stats: Counter[str] = Counter()
    headless = TESTED.replace(TESTED[TESTED.index("前言") : TESTED.index("1 范围")], "")
    attempt = injector.inject(Baseline(parse(headless)), random.Random(0), context, stats=stats)
    assert attempt.instance is None and attempt.reason == UNFOLLOWED
    assert stats[f"skipped_{UNFOLLOWED}"] == 1
