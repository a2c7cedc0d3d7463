"""Tests of injectors.language.modals: modal verbs told from the compounds that contain their characters,
non-standard and vague wording, and a modal that only describes."""

from __future__ import annotations

import pytest

from injectors.language.modals import modal_verbs, nonstandard_modals, vague_words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("柜门应能自动关闭，格口不应小于300 mm。", ["应", "不应"]),
        ("系统宜采用加密传输，也可采用专线。", ["宜", "可"]),
        ("系统响应时间和相应的供应商应用软件。", []),
        ("适宜的温度可能影响可靠性，许可证和认可机构。", []),
        ("系统应对数据进行加密，以应对突发事件。", ["应"]),
        ("管理员不应对日志造成影响。", ["不应"]),
        ("数据应可追溯、可审计。", ["应"]),
        ("对于可独立运行的设备，可按表1选型。", ["可"]),
        ("取件码可用于一次开箱，其可用性不应低于99%。", ["可", "不应"]),
        ("“应”和“宜”是能愿动词。", []),
        ("补传过程不必与实时上传同步。", ["不必"]),
    ],
)
def test_modal_verbs_guard_compounds(text: str, words: list[str]) -> None:
    assert [m.word for m in modal_verbs(text)] == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("柜门必须自动关闭，用户须输入取件码，运维人员应当每日巡检。", ["必须", "须", "应当"]),
        ("严禁在柜体上张贴广告，禁止以明文方式传输取件码。", ["严禁", "禁止"]),
        ("管理员与审计员不可兼任，柜体不得有锐边。", ["不可", "不得"]),
        ("业务必需的数据和必不可少的条款无须另行说明。", []),
        ("系统应禁止未授权访问，具有不可否认性，故障时不可用。", []),
        ("确保操作历史不可更改并且可以被查询，不可被篡改。", []),
        ("舍不得，不得不，系统响应当前请求。", []),
    ],
)
def test_nonstandard_modals_guard_compounds(text: str, words: list[str]) -> None:
    assert [h.word for h in nonstandard_modals(text)] == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("柜体尽量采用不锈钢。", ["尽量"]),
        ("格口最好设置照明。", ["最好"]),
        ("取件超时原则上不超过24 h。", ["原则上"]),
        ("巡检周期一般不超过7 d。", ["一般"]),
        ("夜间适当降低屏幕亮度。", ["适当"]),
        ("一般情况下，柜门应在30 s内关闭。", []),
        ("柜体一般由主柜和副柜组成。", []),
        ("系统应采取适当的防护措施，口令应使用最长长度并适当缩短更换周期。", []),
        ("在此原则上制定细则，效果最好的方案。", []),
    ],
)
def test_vague_words_only_where_a_modal_should_be(text: str, words: list[str]) -> None:
    assert [h.word for h in vague_words(text)] == words


def test_a_lookup_result_is_no_permission() -> None:
    from injectors.language.modals import describes, modal_verbs

    line = "依据表3可得到设备的防护等级。"
    (modal,) = modal_verbs(line)
    assert describes(line, modal)


def test_shi_yi_is_time_plus_the_modal_not_the_idiom() -> None:
    """ "安装时宜采用" is 时 + 宜 (a recommendation); only 不合时宜-like idioms hide the modal."""
    from injectors.language.modals import modal_verbs
    from injectors.language.words import words

    assert [m.word for m in modal_verbs("安装时宜采用不锈钢。")] == ["宜"]
    assert "宜" in words("超过时宜分舱设置报警控制器")
    assert modal_verbs("这种做法不合时宜。") == ()
