"""Numbers and ids read as written: every standard prefix, ids spelled by file names, full-width digits and
letters, and a font's private-use decimal point."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex

from parsers.entries import split_term
from parsers.model import Document
from parsers.structure_quality import check_structure
from parsers.text import parse_text
from parsers.widths import to_halfwidth
from tests.support.sample_standard import SAMPLE


def parse_sample(text: str = SAMPLE, name: str = "sample.txt") -> Document:
    return parse_text(Path(name), text.encode())


PREFIXES = [
    "HJ/T 99901—2003",
    "GM/T 0099.2—2012",
    "T/CSTM 00999—2022",
    "GB/Z 99623—2020",
    "SL 991—2014",
    "AQ 9071—2009",
    "MT/T 9001—2010",
    "JR/T 0999—2020",
    "JT/T 999—2006",
    "T/GDRTA 099—2020",
    "GB 99901—2025",
]


@pytest.mark.parametrize("standard_id", PREFIXES)
def test_every_prefix_parses_as_written(standard_id: str) -> None:
    assert parse_sample(SAMPLE.replace("GB/T 99901—2025", standard_id)).standard_id == standard_id


@pytest.mark.parametrize("standard_id", PREFIXES)
def test_file_names_spell_ids_with_their_slash(standard_id: str) -> None:
    prefix, rest = standard_id.split(" ")
    number, year = rest.split("—")
    name = f"{prefix.replace('/', '')}_{number}-{year}.txt"  # HJT_99901-2003.txt, TCSTM_00999-2022.txt
    without_id = SAMPLE.replace("GB/T 99901—2025\n", "")
    assert parse_sample(without_id, name).standard_id == standard_id


def test_a_cover_that_lost_its_dash() -> None:
    assert parse_sample(SAMPLE.replace("GB/T 99901—2025", "HJ/T 99901 2003")).standard_id == "HJ/T 99901—2003"


def full_width(text: str) -> str:
    """The sample as a typesetter of full-width digits and letters prints it."""
    wide = str.maketrans(
        {
            **{chr(0x30 + i): chr(0xFF10 + i) for i in range(10)},
            **{chr(0x41 + i): chr(0xFF21 + i) for i in range(26)},
            **{chr(0x61 + i): chr(0xFF41 + i) for i in range(26)},
        }
    )
    lines = []
    for line in text.split("\n"):
        if line.startswith("|"):  # the table's rules stay as they are
            lines.append(line)
            continue
        lines.append(line.translate(wide).replace("/", "／"))
    return "\n".join(regex.sub(r"(?<=[０-９])\.(?=[０-９])", "．", line) for line in lines)


def test_a_full_width_document_parses_into_the_same_sections() -> None:
    text = full_width(SAMPLE)
    assert "１ 范围" in text and "ＧＢ／Ｔ ９９９０１—２０２５" in text and "５．１．１ 箱体" in text
    half, wide = parse_sample(), parse_sample(text)
    assert wide.sections == half.sections
    assert (wide.standard_id, wide.drafting_rules) == (half.standard_id, half.drafting_rules)
    assert check_structure(wide).passed


def test_a_private_use_decimal_point_is_read_as_the_point() -> None:
    text = regex.sub(r"(?<=\d)\.(?=\d)", "\ue010", SAMPLE)
    assert "5\ue0101\ue0101 箱体" in text
    assert parse_sample(text).sections == parse_sample().sections
    # used between digits once only, it is no evidence and stays as it is
    once = SAMPLE.replace("5.1.1 箱体", "5.1.1 箱体\n编号5\ue0112。")
    assert "5\ue0112" in parse_sample(once).section("5.1.1").text  # type: ignore[union-attr]


def test_halfwidth_keeps_chinese_punctuation_and_lone_full_width_signs() -> None:
    assert to_halfwidth("（２２０±２０）Ｖ，频率为５０Ｈｚ。") == "（220±20）V，频率为50Hz。"
    assert to_halfwidth("σ＝F／A") == "σ＝F／A"
    assert to_halfwidth("ＧＢ／Ｔ ６９２０．１") == "GB/T 6920.1"


def test_a_term_whose_second_word_opens_with_latin_letters_is_one_term() -> None:
    assert split_term("中性磷酸盐 pH标准液") == ("中性磷酸盐 pH标准液", "")
    assert split_term("减量率 reduction rate") == ("减量率", "reduction rate")
    assert split_term("安全保护能力 security protection ability") == (
        "安全保护能力",
        "security protection ability",
    )
