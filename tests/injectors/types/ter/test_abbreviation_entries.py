"""Tests of injectors.types.ter.abbreviation_entries: which lines of a 缩略语 list the body relies on, so
that taking one out leaves an abbreviation undefined (TER-01's second form)."""

from __future__ import annotations

from injectors.types.ter.abbreviation_entries import (
    abbreviation_entries,
    full_name_written,
    introduced,
    is_abbreviation,
    used,
)
from tests.injectors.types.ter.ter_documents import BODY, document

LIST = (
    "4 缩略语\n下列缩略语适用于本文件。\nRTU：远程终端单元\nGPS：全球定位系统\nPLC：可编程逻辑控制器\n5 要求"
)
LISTED_BODY = (
    BODY.replace("4 要求", LIST)
    .replace("4.1 采样", "5.1 采样")
    .replace("4.2 标志", "5.2 标志")
    .replace("采样单元应每天自检一次", "采样单元应每天通过RTU自检一次，并由GPS定位")
)


def test_an_abbreviation_is_capitals_and_a_symbol_is_not() -> None:
    assert is_abbreviation("CRC") and is_abbreviation("NB-IoT")
    assert not is_abbreviation("rmin") and not is_abbreviation("Ua") and not is_abbreviation("dB")


def test_a_use_is_the_whole_token_and_an_introduction_spells_it_out() -> None:
    assert used("CRC", "校验采用CRC。") and not used("CRC", "校验采用CRC32。")
    assert introduced("MAC", "报文带有消息鉴别码（MAC）。")
    assert introduced("MAC", "式中：MAC——消息鉴别码。")
    assert not introduced("MAC", "报文带有MAC。")


def test_only_a_listed_abbreviation_the_body_uses_and_never_spells_out_is_an_entry() -> None:
    """PLC is used nowhere, GPS is a word of the general language: only RTU, first used in 5.1."""
    doc = document(body=LISTED_BODY)
    entries = [
        (doc.sections[p].number, e.abbreviation, e.line, e.used_in) for p, e in abbreviation_entries(doc)
    ]
    assert entries == [("4", "RTU", "RTU：远程终端单元\n", "5.1")]
    spelled = document(body=LISTED_BODY.replace("通过RTU自检", "通过远程终端单元（RTU）自检"))
    assert list(abbreviation_entries(spelled)) == []


def test_a_symbols_list_holds_no_abbreviation_entry() -> None:
    """Quantity symbols are introduced where they are used: a 符号 list without one shows no error."""
    assert list(abbreviation_entries(document(body=LISTED_BODY.replace("4 缩略语", "4 符号")))) == []


def test_a_full_name_written_beside_the_abbreviation_keeps_the_entry_out() -> None:
    """ "经RTU远程终端单元转发": the body gives the full name, though not as 全称（RTU）; removing the list
    line would not leave RTU unexplained, and "正文中也未给出其全称" would be false."""
    assert full_name_written("远程终端单元(Remote Terminal Unit)", "数据经RTU 远程终端 单元转发。")
    assert not full_name_written("远程终端单元", "数据经RTU转发。")
    assert not full_name_written("Remote Terminal Unit", "Remote Terminal Unit")  # no Chinese name to find
    beside = document(body=LISTED_BODY.replace("通过RTU自检", "通过RTU远程终端单元自检"))
    assert list(abbreviation_entries(beside)) == []
