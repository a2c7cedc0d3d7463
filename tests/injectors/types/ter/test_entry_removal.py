"""Tests of injectors.types.ter.entry_removal: which entries of chapter 3 TER-01 may take out."""

from __future__ import annotations

from tests.injectors.types.ter.ter_documents import THREE_BODY, THREE_TERMS, document


def test_ter01_a_long_compound_led_by_a_word_of_its_field_is_technical() -> None:
    """ "海洋环境大数据使用者" holds general words ("大", "数据") but is led by a word of its field: a reader
    expects it defined. "数据来源类别", led by a general word, is not taken for one on that ground."""
    from injectors.types.ter.entry_removal import technical

    assert technical("海洋环境大数据使用者")
    assert not technical("数据来源类别")


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
