"""Descriptions quote whole words: no excerpt ends inside a word or a standard number (clipped
snippets such as "应符合ITU-" or "可以对安全要求进")."""

from __future__ import annotations

import pytest

from injectors.final_descriptions import stale_quotes
from injectors.instance import describe
from injectors.language.quotes import as_written, nested, quote_after, shorten

LINE = "终端设备的语音编码应符合ITU-T G.711的规定，并可以对安全要求进行配置。"


@pytest.mark.parametrize(
    ("word", "expected"),
    [("应", "应符合ITU-T G.711"), ("可以", "可以对安全要求"), ("并", "并可以对安全")],
)
def test_an_excerpt_ends_on_a_word_inside_its_clause(word: str, expected: str) -> None:
    start = LINE.index(word)
    assert quote_after(LINE, start, start + len(word), 6) == expected


def test_a_short_clause_is_quoted_to_its_end() -> None:
    start = LINE.index("应")
    assert quote_after(LINE, start, start + 1, 40) == "应符合ITU-T G.711的规定"


def test_a_long_text_is_shortened_at_a_word() -> None:
    text = "本文件规定了校园餐厨垃圾就地处理设备的技术要求、试验方法、检验规则"
    short = shorten(text, 24)
    assert short.endswith("……") and text.startswith(short.removesuffix("……"))
    assert short.removesuffix("……") in {
        "本文件规定了校园餐厨垃圾就地处理设备的",
        "本文件规定了校园餐厨垃圾就地处理设备的技术要求",
    }
    assert shorten("按GB/T 17626.2—2018进行静电放电抗扰度试验", 12) == "按……"
    assert shorten("短句。", 24) == "短句。"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("保温装饰一体板的长度宜为600 mm～1 200 mm，宽度宜为300 mm～800 mm。", "宜为600 mm～1 200 mm"),
        ("单块板的质量宜为12 500 g，面积不宜大于1.0 m²。", "宜为12 500 g"),
    ],
)
def test_a_number_grouped_by_spaces_is_quoted_whole(line: str, expected: str) -> None:
    """GB/T writes 1 200 with a space: "宜为600 mm～1" clipped the range in an NMS-02 description."""
    start = line.index("宜为")
    assert quote_after(line, start, start + 1) == expected


@pytest.mark.parametrize(
    ("text", "start", "end", "expected"),
    [
        ("响应时间不应大于100 ms，对人体部位应能全部检出。", 4, 6, "不应大于100 ms"),
        ("记录容量不应少于10 000条，断电后记录不应丢失。", 4, 6, "不应少于10 000条"),
        ("摊放环境温度宜为15 ℃～25 ℃，相对湿度宜为60%～80%。", 6, 7, "宜为15 ℃～25 ℃"),
        ("差温报警动作值宜为10 ℃/min。", 7, 8, "宜为10 ℃/min"),
    ],
)
def test_quotes_keep_the_unit(text: str, start: int, end: int, expected: str) -> None:
    assert quote_after(text, start, end, 6) == expected


def test_an_excerpt_stops_before_a_mark_whose_pair_it_would_leave_out() -> None:
    """A description quotes the excerpt in “…”: "应当明确标明‘" shows half of the text's own pair."""
    line = "接线端子旁应当明确标明‘TX+’、‘TX-’等字样，以指示接线方法。"
    at = line.index("应当")
    quoted = quote_after(line, at, at + 2, 8)
    assert quoted == "应当明确标明", quoted
    # a pair the excerpt holds whole stays
    whole = "外壳应标有“小心轻放”字样。"
    at = whole.index("应")
    assert quote_after(whole, at, at + 1, 8) == "应标有“小心轻放”"


def test_a_quote_inside_a_quote_takes_single_marks_and_reads_back_as_the_document_writes_it() -> None:
    clause = "按“取样记录”和“检测报告”的格式填写的"
    error = f"删去了限定语“{clause}”"
    assert nested(error) == "删去了限定语“按‘取样记录’和‘检测报告’的格式填写的”"
    assert as_written(nested(error)) == error
    assert "‘取样记录’" in describe(error, f"恢复“{clause}”", "GB/T 1.1—2020 8.5")
    assert nested("两处“甲”与“乙”") == "两处“甲”与“乙”"  # side by side, nothing nests
    assert nested("半个“引号") == "半个“引号"  # marks that do not pair up are left alone


def test_a_description_with_nested_quotes_is_not_stale_on_its_document() -> None:
    """The final check finds the quote as the document writes it, double marks inside."""
    text = "本文件适用于按“取样记录”和“检测报告”的格式填写的台账。"
    description = describe(
        "删去了限定语“按“取样记录”和“检测报告”的格式填写的”", "恢复该限定语", "GB/T 1.1—2020 8.5"
    )
    assert stale_quotes(description, text) == []
    assert stale_quotes(description, text.replace("检测报告", "检验报告")) != []
