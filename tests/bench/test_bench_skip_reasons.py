"""`bench/types.py`'s table of why types have no site: per type and reason, over the documents given."""

from __future__ import annotations

from pathlib import Path

from bench.types import skip_reason_counts
from injectors.context import InjectionContext
from parsers.model import Document
from parsers.text import parse_text

FOREWORD = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"


def _standard(name: str, scope: str) -> Document:
    text = f"""GB/T 99971—2025
停车场 雨量传感器 技术要求
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
4.1 计量
雨量数据应每分钟刷新一次。
"""
    return parse_text(Path(name), text.encode())


def test_each_document_without_a_site_is_counted_under_its_reason() -> None:
    plain = _standard("a.txt", "本文件规定了雨量传感器的技术要求。\n本文件适用于雨量传感器的设计。")
    ruled = _standard("b.txt", "本文件规定了雨量传感器的技术要求。\n雨量传感器应符合本文件的规定。")
    documents = [plain, ruled]
    counts = skip_reason_counts(documents, InjectionContext.from_documents(documents), ["SCP-01", "SCP-03"])
    sites, reasons = counts["SCP-01"]
    assert sites == 1 and reasons == {"provision_already_in_scope": 1}
    sites, reasons = counts["SCP-03"]
    assert sites == 0 and reasons == {"no_outsider_in_scope": 2}
    assert set(counts) == {"SCP-01", "SCP-03"}
