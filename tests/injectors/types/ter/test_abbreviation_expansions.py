"""Tests of injectors.types.ter.abbreviation_expansions: the abbreviations the body spells out at their
first use, whose name TER-01's third form takes away."""

from __future__ import annotations

from injectors.types.ter.abbreviation_expansions import spelled_out
from tests.injectors.types.ter.ter_documents import BODY, document

SPELLED = BODY.replace(
    "采样单元应每天自检一次",
    "采样单元应通过虚拟专用网络（VPN）向中心站传送数据，经通信端口（TCP）连接，并每天自检一次",
)


def test_a_name_spelled_out_before_its_abbreviation_is_found_with_the_word_before_it() -> None:
    """Not "通信端口（TCP）": the bracket names what kind of port, it does not spell out TCP."""
    doc = document(body=SPELLED)
    found = [(doc.sections[p].number, s.old, s.abbreviation, s.name, s.before) for p, s in spelled_out(doc)]
    assert found == [("4.1", "虚拟专用网络（VPN）", "VPN", "虚拟专用网络", "通过")]
    start = next(s.start for _, s in spelled_out(doc))
    section = doc.section("4.1")
    assert section is not None and section.text[start:].startswith("虚拟专用网络（VPN）")


def test_an_abbreviation_explained_elsewhere_is_not_offered() -> None:
    assert list(spelled_out(document(body=SPELLED + "\n注：VPN——虚拟专用网络。"))) == []
    listed = SPELLED.replace("4 要求", "4 缩略语\nVPN：虚拟专用网络\n5 要求")
    assert [s.abbreviation for _, s in spelled_out(document(body=listed))] == []
