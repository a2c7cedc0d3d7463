"""Added text takes the punctuation and space widths of the text around it."""

from injectors.language.punctuation import join_series, match_style, prefers_ascii, space_style


def test_ascii_context_turns_inserted_full_width_marks_ascii() -> None:
    context = "The device shall record, store and report data; see 5.2 (optional)."
    assert prefers_ascii(context) is True
    assert match_style("温度，湿度（可选）", context) == "温度,湿度(可选)"


def test_full_width_context_turns_ascii_marks_full_width() -> None:
    assert match_style("温度,湿度;压力", "设备应记录温度，并在显示屏上显示；") == "温度，湿度；压力"


def test_silent_context_leaves_text_alone() -> None:
    assert prefers_ascii("无标点的文字") is None
    assert match_style("温度，湿度", "无标点的文字") == "温度，湿度"


def test_spaces_follow_the_context() -> None:
    wide = "GB/T 1.1\u3000标准化工作导则\u3000第1部分"
    assert space_style(wide) == "\u3000"
    assert match_style("信息技术 安全技术", wide) == "信息技术\u3000安全技术"
    assert match_style("信息技术\u3000安全技术", "GB/T 2828.1 计数抽样") == "信息技术 安全技术"


def test_series_never_leaves_a_comma_before_the_list_mark() -> None:
    assert join_series(["安全性要求,", "职业健康防护"]) == "安全性要求、职业健康防护"
    assert join_series(["标志，", "", "包装"]) == "标志、包装"
