"""NREF-02 lists only what a drafter of this document would list: a reference of the field that its title
and the documents it already lists are in, never one of another field whose words its body happens to
use (a bus terminal's protocol says 模块, 检测 and even 密码 without anyone listing a cryptographic module
test), nor one published after the document."""

from __future__ import annotations

from pathlib import Path

from injectors.context import InjectionContext
from injectors.types.nref.nref02_listed_not_cited import UncitedReferenceListed
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nref.nref_documents import LEAD_2020
from tests.injectors.types.nref.test_nref02_listed_not_cited import _corpus_of


def terminal(references: str, title: str = "公交车辆 车载终端 通信协议") -> Document:
    """A made-up bus on-board terminal protocol whose body speaks of modules, tests and passwords."""
    text = f"""T/XYZ 0901—2025
{title}
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了公交车辆车载终端与调度平台之间的通信协议。
本文件适用于公交车辆车载终端。
2 规范性引用文件
{LEAD_2020}
{references}
3 术语和定义
本文件没有需要界定的术语和定义。
4 通信协议
4.1 连接
车载终端的通信模块应按T/XYZ 0900—2024的规定建立连接，连接前应检测链路状态。
4.2 鉴权
车载终端应以密码和终端编号向调度平台鉴权，鉴权失败时应重新检测通信模块并再次鉴权。
4.3 安全
车载终端的安全要求应符合T/XYZ 0900—2024的规定。
"""
    return parse_text(Path("bus-terminal.txt"), text.encode())


OWN_LIST = "T/XYZ 0900—2024　公交车辆 车载终端 技术要求"


def test_a_reference_of_another_field_is_never_borrowed_though_the_body_uses_its_words() -> None:
    bus = terminal(OWN_LIST)
    crypto = terminal("GM/T 9939—2015　密码模块安全检测要求", "密码 模块 检测 通则")
    fleet = terminal("T/XYZ 0902—2023　公交车辆 电子站牌 技术要求", "公交车辆 电子站牌 通信协议")
    bus, crypto, fleet = _corpus_of(
        (bus, "03.220.20", "R 10"), (crypto, "35.040", "L 80"), (fleet, "03.220.20", "R 10")
    )
    context = InjectionContext.from_documents([bus, crypto, fleet])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(bus, context)}
    assert added == {"T/XYZ 0902"}


def test_a_field_known_only_by_its_ics_group_needs_the_drafters_own_field_word() -> None:
    """ICS 35 holds cryptography and bus terminals alike: where a cover gives no CCS category, the title
    must open with a word of this document's own field."""
    bus = terminal(OWN_LIST)
    crypto = terminal("GM/T 9939—2015　密码模块安全检测要求", "密码 模块 检测 通则")
    fleet = terminal("T/XYZ 0902—2023　公交车辆 电子站牌 技术要求", "公交车辆 电子站牌 通信协议")
    bus, crypto, fleet = _corpus_of((bus, "35.240", "L 70"), (crypto, "35.240", ""), (fleet, "35.240", ""))
    context = InjectionContext.from_documents([bus, crypto, fleet])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(bus, context)}
    assert added == {"T/XYZ 0902"}


def test_a_reference_published_after_the_document_is_never_listed() -> None:
    """A list of 2025 holding a standard of 2028 gives itself away, whatever its field."""
    bus = terminal(OWN_LIST)
    later = terminal("T/XYZ 0903—2028　公交车辆 智能调度 技术要求", "公交车辆 智能调度 通信协议")
    fleet = terminal("T/XYZ 0902—2023　公交车辆 电子站牌 技术要求", "公交车辆 电子站牌 通信协议")
    bus, later, fleet = _corpus_of(
        (bus, "03.220.20", "R 10"), (later, "03.220.20", "R 10"), (fleet, "03.220.20", "R 10")
    )
    context = InjectionContext.from_documents([bus, later, fleet])
    added = {site.detail.cited.ident for site in UncitedReferenceListed().sites(bus, context)}
    assert added == {"T/XYZ 0902"}
